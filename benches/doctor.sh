#!/usr/bin/env bash
# Benchmark: `memdir doctor` on a store with 10,000 memories and 10,000 commits, and `memdir log`
# of one memory there. The store is built with `git fast-import`: one `save` commit per memory
# (memdir's subjects and trailers), the index written by the last commit, then packed, as a
# long-lived store is. Needs hyperfine. Results go to benches/results/.
source "$(dirname "$0")/common.sh"
n=${N:-10000}
store=$work/store
git init -q "$store"
python3 - "$n" <<'PY' | git -C "$store" -c gc.auto=0 fast-import --quiet
import sys
n = int(sys.argv[1])
out = sys.stdout.buffer
def data(b):
    out.write(b"data %d\n" % len(b) + b + b"\n")
index = bytearray()
for i in range(n):
    name = b"memory-%d" % i
    topic = b"---\nname: %s\ndescription: memory number %d\ntype: project\n---\nBody %d.\n" % (name, i, i)
    index += b"- [Memory %d](%s.md) \xe2\x80\x94 memory number %d\n" % (i, name, i)
    out.write(b"commit refs/heads/main\n")
    out.write(b"committer memdir <memdir@localhost> %d +0000\n" % (1772700000 + i))
    data(b"save(project): %s\n\nmemory number %d\n\nMemdir-Op: save\n" % (name, i))
    out.write(b"M 100644 inline %s.md\n" % name)
    data(topic)
    if i == n - 1:
        out.write(b"M 100644 inline MEMORY.md\n")
        data(bytes(index))
PY
git -C "$store" symbolic-ref HEAD refs/heads/main
git -C "$store" reset -q --hard
git -C "$store" gc -q
echo "store: $(git -C "$store" rev-list --count HEAD) commits, $(ls "$store" | wc -l) files"
# 10,000 index lines are far over Claude Code's load caps, which doctor rightly reports (exit 1).
"$memdir" --memory-dir "$store" doctor | tail -2 || true
hyperfine -N -i --warmup 1 --runs "${RUNS:-10}" --export-json "$out/doctor-$n.json" --export-markdown "$out/doctor-$n.md" \
  -n "memdir doctor ($n memories, $n commits)" "$memdir --memory-dir $store doctor" \
  -n "memdir log memory-$((n / 2)) --json" "$memdir --memory-dir $store log memory-$((n / 2)) --json"
