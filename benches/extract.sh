#!/usr/bin/env bash
# Benchmark: extraction (issue 5's targets).
#  - `extract --transcript` with the builtin extractor on each of the five large spotter sessions
#    (2.7–3.5 MB; cursor at the start, the repository already there): time and peak memory;
#  - the same with the cursor at the end (nothing new to read);
#  - `extract --hook` (stash the request, start the worker, return);
#  - `snapshot --hook` for a PostToolUse write outside the memory dir.
# Needs hyperfine (apt-get install hyperfine) and GNU time (/usr/bin/time). Results go to
# benches/results/.
source "$(dirname "$0")/common.sh"
runs=${RUNS:-30}
fixtures=$root/fixtures/transcripts/spotter
sessions=(258c7280-ae70-4798-800f-63464d01a85d 4d5611e5-241a-462a-8d15-5122611a9569
  8463c716-a2ea-4c14-9efa-87158ebd9f20 ae4a77f8-aedd-4bc1-888f-c94edc91af04
  fa812bfe-b295-4cca-9c2f-fdf01028cb46)
export HOME=$work/home
mkdir -p "$HOME/.claude" "$work/proj"
git -C "$work/proj" init -q
mem=$work/memory
"$memdir" init --memory-dir "$mem" >/dev/null

report=$out/extract.md
{
  echo "# extract (builtin), \`benches/extract.sh\`, $(date -u +%Y-%m-%d)"
  echo
  echo "| transcript | size | cold (cursor at start) | peak RSS | warm (cursor at end) |"
  echo "|---|---:|---:|---:|---:|"
} >"$report"

for s in "${sessions[@]}"; do
  file=$fixtures/$s.jsonl
  size=$(stat -c %s "$file")
  run=("$memdir" extract --transcript "$file" --memory-dir "$mem" --project "$work/proj" --session "$s" -q)
  cursor=$mem/.git/memdir/cursors/$s.json
  # Named, so that benches/run.sh matches the figures of one run with the next.
  hyperfine -N --warmup 3 --runs "$runs" --prepare "rm -f $cursor" \
    --export-json "$out/extract-cold-$s.json" -n "extract, cold, $s" "${run[*]}" >/dev/null
  rm -f "$cursor"
  peak=$(/usr/bin/time -f %M "${run[@]}" 2>&1 >/dev/null | tail -1)
  hyperfine -N --warmup 3 --runs "$runs" --export-json "$out/extract-warm-$s.json" -n "extract, warm, $s" "${run[*]}" >/dev/null
  cold=$(jq -r '.results[0] | "\(.mean * 1000 | . * 100 | round / 100) ± \(.stddev * 1000 | . * 100 | round / 100) ms"' "$out/extract-cold-$s.json")
  warm=$(jq -r '.results[0] | "\(.mean * 1000 | . * 100 | round / 100) ± \(.stddev * 1000 | . * 100 | round / 100) ms"' "$out/extract-warm-$s.json")
  echo "| $s | $((size / 1024)) KiB | $cold | $((peak / 1024)) MiB | $warm |" >>"$report"
done

# The hooks: a Stop payload (the worker it starts finds the cursor at the end) and a
# PostToolUse write outside the memory dir.
s=${sessions[0]}
printf '{"session_id":"%s","transcript_path":"%s","cwd":"%s","hook_event_name":"Stop"}' \
  "$s" "$fixtures/$s.jsonl" "$work/proj" >"$work/stop.json"
printf '{"session_id":"%s","cwd":"%s","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"%s/src/main.rs"}}' \
  "$s" "$work/proj" "$work/proj" >"$work/post.json"
# (hyperfine runs these through a shell for the redirect, and subtracts the shell's own time.)
hyperfine --warmup 3 --runs "$runs" \
  --export-json "$out/extract-hook.json" -n "extract --hook" "$memdir extract --hook --memory-dir $mem < $work/stop.json" >/dev/null
"$memdir" extract --drain --memory-dir "$mem" -q
hyperfine --warmup 3 --runs "$runs" \
  --export-json "$out/snapshot-hook-outside.json" -n "snapshot --hook, a write outside memory" "$memdir snapshot --hook --memory-dir $mem < $work/post.json" >/dev/null
{
  echo
  echo "| hook | mean |"
  echo "|---|---:|"
  for f in extract-hook snapshot-hook-outside; do
    echo "| $f | $(jq -r '.results[0] | "\(.mean * 1000 | . * 100 | round / 100) ± \(.stddev * 1000 | . * 100 | round / 100) ms"' "$out/$f.json") |"
  done
} >>"$report"
cat "$report"
