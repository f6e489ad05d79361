#!/usr/bin/env bash
# Benchmark: a store aged by N real saves (default 10,000), one process each, as a user or the
# hooks make them, with memdir's background packing on. Reports the loose objects left (git
# count-objects) and the packs, then times `log NAME`, `show NAME --at REV` and `list` on the
# aged store. Needs hyperfine. Results go to benches/results/.
source "$(dirname "$0")/common.sh"
n=${N:-10000}
export HOME=$work/home GIT_CONFIG_GLOBAL=/dev/null
store=$work/store
start=$(date +%s)
for ((i = 0; i < n; i++)); do
  "$memdir" --memory-dir "$store" save -q --type project --name "memory-$i" \
    --description "memory number $i" --body "Body $i." 2>/dev/null
done
saved=$(date +%s)
wait_for_pack "$store"
git -C "$store" fsck --strict --no-progress
test -z "$(git -C "$store" status --porcelain)"
echo "$n saves in $((saved - start)) s"
git -C "$store" count-objects -v | tee "$out/aging-$n-objects.txt"
mid=$(git -C "$store" rev-parse "HEAD~$((n / 2))")
hyperfine -N --warmup 2 --runs "${RUNS:-20}" --export-json "$out/aging-$n.json" --export-markdown "$out/aging-$n.md" \
  -n "log memory-$((n / 4)) (after $n saves)" "$memdir --memory-dir $store log memory-$((n / 4))" \
  -n "show memory-$((n / 4)) --at HEAD~$((n / 2)) (after $n saves)" "$memdir --memory-dir $store show memory-$((n / 4)) --at $mid" \
  -n "list (after $n saves)" "$memdir --memory-dir $store list"
