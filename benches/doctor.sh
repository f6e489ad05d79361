#!/usr/bin/env bash
# Benchmark: `memdir doctor` on a store with 10,000 memories and 10,000 commits, and `memdir log`
# of one memory there. The store is built with `git fast-import`: one `save` commit per memory
# (memdir's subjects and trailers), the index written by the last commit, then packed, as a
# long-lived store is. Needs hyperfine. Results go to benches/results/.
source "$(dirname "$0")/common.sh"
n=${N:-10000}
store=$work/store
make_store "$store" "$n"
git -C "$store" gc -q
echo "store: $(git -C "$store" rev-list --count HEAD) commits, $(ls "$store" | wc -l) files"
# 10,000 index lines are far over Claude Code's load caps, which doctor rightly reports (exit 1).
"$memdir" --memory-dir "$store" doctor | tail -2 || true
hyperfine -N -i --warmup 1 --runs "${RUNS:-10}" --export-json "$out/doctor-$n.json" --export-markdown "$out/doctor-$n.md" \
  -n "memdir doctor ($n memories, $n commits)" "$memdir --memory-dir $store doctor" \
  -n "memdir log memory-$((n / 2)) --json" "$memdir --memory-dir $store log memory-$((n / 2)) --json"
