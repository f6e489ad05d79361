# Sourced by the benchmark scripts: build memdir in release mode and set up
#   $memdir  the binary (MEMDIR_BIN, to time another build, e.g. a baseline; else this tree's),
#   $out     benches/results/,
#   $work    a scratch folder under $BENCH_DIR (default: the temp dir), removed on exit.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
root=$(cd "$here/.." && pwd)
if [ -n "${MEMDIR_BIN:-}" ]; then
  memdir=$MEMDIR_BIN
else
  cargo build --release --quiet --manifest-path "$root/Cargo.toml"
  memdir=$root/target/release/memdir
fi
out=$here/results
mkdir -p "$out"
work=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/memdir-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# make_store DIR N: a memory dir of N memories made by N commits, one `save(project): memory-K`
# commit each with memdir's subject and trailers, the N-line index written by the last; built
# with `git fast-import` (so packed), then checked out.
make_store() {
  local store=$1 n=$2
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
}

# wait_for_pack STORE: until no background `memdir pack` runs for STORE (memdir starts one after
# a commit once enough objects are loose; git fsck meanwhile would see loose files vanish).
wait_for_pack() {
  while pgrep -f "memdir pack --auto --quiet --memory-dir $1" >/dev/null; do sleep 0.2; done
}
