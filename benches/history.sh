#!/usr/bin/env bash
# Benchmark: the commands that read history and the memories, on a store of N memories made by
# N commits (default 10,000), packed (as `git gc` leaves it) and loose (as N saves leave a
# store that is never packed: every object its own file): `list`, `log NAME`, `show NAME --at
# REV` (REV a commit id halfway back), with the history cache warm, and the first `log` after
# the cache is deleted. Needs hyperfine. Results go to benches/results/.
source "$(dirname "$0")/common.sh"
n=${N:-10000}
packed=$work/packed loose=$work/loose
make_store "$packed" "$n"
git -C "$packed" gc -q
# The same store, loose: every object unpacked into its own file.
git init -q "$loose"
for pack in "$packed"/.git/objects/pack/*.pack; do git -C "$loose" unpack-objects -q <"$pack"; done
git -C "$loose" update-ref refs/heads/main "$(git -C "$packed" rev-parse HEAD)"
git -C "$loose" symbolic-ref HEAD refs/heads/main
git -C "$loose" reset -q --hard
mid=$(git -C "$packed" rev-parse "HEAD~$((n / 2))")
name=memory-$((n / 4))
for store in "$packed" "$loose"; do
  kind=$(basename "$store")
  echo "$kind: $(git -C "$store" rev-list --count HEAD) commits, $(git -C "$store" count-objects | cut -d' ' -f1) loose objects"
  "$memdir" --memory-dir "$store" snapshot -q # memdir's excludes; nothing to adopt
  # One --prepare per command (hyperfine applies a single one to all).
  hyperfine -N --warmup 2 --runs "${RUNS:-20}" --export-json "$out/history-$kind-$n.json" --export-markdown "$out/history-$kind-$n.md" \
    --prepare true -n "list ($kind, $n memories, $n commits)" "$memdir --memory-dir $store list" \
    --prepare true -n "log $name ($kind)" "$memdir --memory-dir $store log $name" \
    --prepare true -n "show $name --at HEAD~$((n / 2)) ($kind)" "$memdir --memory-dir $store show $name --at $mid" \
    --prepare "rm -f $store/.git/memdir/history" -n "log $name, history cache deleted first ($kind)" "$memdir --memory-dir $store log $name"
done
