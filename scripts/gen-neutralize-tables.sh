#!/usr/bin/env bash
# Regenerates src/stack/neutralize/tables.rs from fixtures/neutralize/source.json.
# The generator is the test src/stack/neutralize/generate.rs: without MEMDIR_REGENERATE it only
# checks that tables.rs is what the source generates (CI runs it that way with the other tests).
set -euo pipefail
cd "$(dirname "$0")/.."
MEMDIR_REGENERATE=1 cargo test --quiet --lib stack::neutralize::generate
cargo test --quiet --lib stack::neutralize
