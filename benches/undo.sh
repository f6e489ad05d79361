#!/usr/bin/env bash
# Benchmark: the operation log (issue 28) on stores of N memories made by N commits (default
# 1,000 and 10,000; packed, as `git gc` leaves them): `op log`, `log` (every commit, all
# parents followed), and `undo`, each run taking back one more save (a person walking back
# through history), with the history cache warm. Needs hyperfine. Results go to benches/results/.
#
# Usage: benches/undo.sh [N...]
source "$(dirname "$0")/common.sh"
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1000 10000)
for n in "${sizes[@]}"; do
  store=$work/store-$n
  make_store "$store" "$n"
  git -C "$store" gc -q
  "$memdir" --memory-dir "$store" snapshot -q # memdir's excludes; nothing to adopt
  "$memdir" --memory-dir "$store" log -n 1 >/dev/null # the history cache, once
  hyperfine -N --warmup 2 --runs "${RUNS:-20}" --export-json "$out/undo-$n.json" --export-markdown "$out/undo-$n.md" \
    -n "op log ($n operations)" "$memdir --memory-dir $store op log" \
    -n "log ($n commits)" "$memdir --memory-dir $store log" \
    -n "undo ($n memories, one more each run)" "$memdir --memory-dir $store undo"
  wait_for_pack "$store"
  git -C "$store" fsck --strict --no-progress
  test -z "$(git -C "$store" status --porcelain)"
done
