#!/usr/bin/env bash
# Benchmark: `memdir snapshot --hook` as Claude Code's PostToolUse hook runs it after an agent's
# write, on a store of 1,000 memories: a write outside the memory dir (nothing to do) and a
# write inside it (the agent rewrote a topic file: one adopt commit). Needs hyperfine. Results
# go to benches/results/.
source "$(dirname "$0")/common.sh"
export HOME=$work/home GIT_CONFIG_GLOBAL=/dev/null
mkdir -p "$HOME/.claude" "$work/proj"
git -C "$work/proj" init -q
mem=$work/memory
for ((i = 0; i < 1000; i++)); do
  "$memdir" --memory-dir "$mem" save -q --type project --name "memory-$i" --description "memory number $i" --body "Body $i." 2>/dev/null
done
wait_for_pack "$mem"
target=$mem/memory-500.md
post() { # post FILE: a PostToolUse payload for an Edit of FILE
  printf '{"session_id":"s1","cwd":"%s","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"%s"}}' "$work/proj" "$1"
}
post "$work/proj/src/main.rs" >"$work/outside.json"
post "$target" >"$work/inside.json"
# Each inside run adopts a new edit: the prepare step is the agent's write.
hyperfine --warmup 3 --runs "${RUNS:-40}" --export-json "$out/snapshot-hook.json" --export-markdown "$out/snapshot-hook.md" \
  --prepare true -n "snapshot --hook, a write outside memory (1,000 memories)" "$memdir snapshot --hook --memory-dir $mem < $work/outside.json" \
  --prepare "printf 'Edited %s.\n' \$RANDOM >> $target" -n "snapshot --hook, the agent edited a topic file (1,000 memories)" "$memdir snapshot --hook --memory-dir $mem < $work/inside.json"
wait_for_pack "$mem"
git -C "$mem" fsck --strict --no-progress
test -z "$(git -C "$mem" status --porcelain)"
echo "adopt commits: $(git -C "$mem" log --oneline | grep -c 'adopt(')"
