#!/usr/bin/env bash
# Benchmark: `memdir context` as a whole process on a stack of 40 instruction files (8 levels of
# folders, 2 rules folders, 10 imports, a block comment in every file so that every file goes
# through the markdown lexer) plus a 200-line memory index; then the same stack with every file
# 4x and 16x larger, to show how time grows with the bytes loaded.
# Needs hyperfine (apt-get install hyperfine). Results go to benches/results/.
source "$(dirname "$0")/common.sh"

source "$(dirname "$0")/stack.sh"

for scale in 1 4 16; do
  cwd=$(build "$work/s$scale" "$scale")
  files=$(cd "$cwd" && HOME=$work/s$scale/home "$memdir" context --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["files"]), len(d["text"].encode()))')
  echo "scale $scale: files and bytes loaded: $files"
  (cd "$cwd" && HOME=$work/s$scale/home hyperfine -N --warmup 20 --runs "${RUNS:-200}" \
    --export-json "$out/context-x$scale.json" --export-markdown "$out/context-x$scale.md" \
    -n "memdir context (40 files, x$scale)" "$memdir context")
done
