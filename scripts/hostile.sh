#!/usr/bin/env bash
# The hostile-input tests (tests/cli/hostile*.rs, issue 11) against the RELEASE binary, every run
# of it held to `ulimit -v 1000000` (about 1 GB of address space) by the tests themselves:
#
#   scripts/hostile.sh          (from the repo root; builds target/release/memdir first)
#
# `cargo test` runs the same tests against the debug binary; this runs them against what users
# install. Exits non-zero when any test fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo build --release -q
MEMDIR_TEST_BIN="$root/target/release/memdir" \
  cargo test -q --features fault-injection --test cli hostile -- --test-threads 2
