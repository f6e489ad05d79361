#!/usr/bin/env bash
# Model calls as Claude Code drives extraction (issue 27): every labelled session of
# fixtures/extraction/ replayed prompt by prompt through `memdir extract --hook` (a Stop after each
# prompt's reply, SessionEnd at the end) with the scripted model fixtures/agent/perfect.py, which
# answers perfectly from the labels what its request hands it and counts its calls. Prints, per
# set, sessions, calls, calls per session, the most calls in one session, the sessions with
# nothing to remember that cost no call, and the perfect model's precision, recall and F1
# (what the gate and the batching lose). Writes benches/results/extract-calls.txt.
#
# Usage: benches/extract_calls.sh [SET...]   (default: every set; the blind ones are measured,
# never tuned on). Runs the test tests/cli/extract_calls.rs on the release binary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sets=("$@")
if [ ${#sets[@]} -eq 0 ]; then
  sets=(cases holdout fresh final unseen train-a train-b train-c train-d train-e train-f train-g
    train-h train-i train-j train-k train-l train-m blind-a blind-b)
fi
cd "$root"
cargo build --release -q
MEMDIR_TEST_BIN="$root/target/release/memdir" MEMDIR_CALLS_SETS="${sets[*]}" \
  cargo test -q --features fault-injection --test cli extract_calls -- --nocapture 2>&1 |
  grep -E '^(set |[a-z0-9-]+ +[0-9]+ )' | tee "$root/benches/results/extract-calls.txt"
