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
