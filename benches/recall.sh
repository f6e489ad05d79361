#!/usr/bin/env bash
# Benchmark: `memdir search` and the UserPromptSubmit and SessionStart hooks (`memdir recall
# --hook`, the payload on stdin) as whole processes, on stores of N memories made from the development set's memories
# (fixtures/recall/dev/store-d, real lengths; copied round with numbered names), committed once,
# with its 22 team memories in team/, the recall cache written. Issue 14's budget: the hook
# under 15 ms at 1,000.
#
# Usage: benches/recall.sh [N...]   (default: 1000 10000); results go to benches/results/.
source "$(dirname "$0")/common.sh"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$work
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@localhost GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@localhost
dev=$root/fixtures/recall/dev/store-d

for n in "${@:-1000 10000}"; do
  for n in $n; do
    dir=$work/store-$n
    mkdir -p "$dir"
    python3 "$here/recall_store.py" "$dir" "$n"
    cp -r "$dev/team" "$dir/team"
    git -C "$dir" init -q && git -C "$dir" add -A && git -C "$dir" commit -q -m seed
    "$memdir" --memory-dir "$dir" snapshot -q
    prompt='the general pool in prod sits at ~40% cpu, can we lower max nodes and move to n2-standard-4?'
    python3 -c 'import json,sys; print(json.dumps({"session_id": "bench", "cwd": sys.argv[1], "hook_event_name": "UserPromptSubmit", "prompt": sys.argv[2]}))' "$dir" "$prompt" >"$work/payload.json"
    # SessionStart: a new session each run (the session id is the shell's pid), verify's result
    # kept beforehand (as after the first session), the team index added.
    "$memdir" --memory-dir "$dir" --project "$dir" verify --cache
    # The recall cache records a file two seconds after its last change (as any store a prompt
    # finds, but one made a moment ago): wait, so the runs measure it as users meet it.
    sleep 2.1
    # A search writes the recall cache; it exits 1 when nothing matches, as grep does.
    "$memdir" --memory-dir "$dir" search -n 1 warm >/dev/null || [ $? -eq 1 ]
    printf '{"session_id": "start-%%s", "cwd": "%s", "hook_event_name": "SessionStart", "source": "startup"}' "$dir" >"$work/start.fmt"
    hyperfine -N --warmup 3 --runs "${RUNS:-30}" --export-json "$out/recall-$n.json" --export-markdown "$out/recall-$n.md" \
      -n "search ($n memories)" "$memdir --memory-dir $dir search -n 5 $prompt" \
      -n "recall --hook ($n memories)" "bash -c '$memdir --memory-dir $dir recall --hook < $work/payload.json'" \
      -n "recall --hook at SessionStart ($n memories)" "bash -c 'printf \"\$(cat $work/start.fmt)\" \$\$ | $memdir --memory-dir $dir recall --hook'"
    test -z "$(git -C "$dir" status --porcelain)"
  done
done
