#!/usr/bin/env bash
# A small end-to-end run of memdir on a scratch project: init, three saves of different types,
# extraction from a short session transcript (Claude Code's format), list, review, a promotion
# to the project's CLAUDE.md as a git branch, log, and what Claude Code would load. Touches
# nothing outside a temp dir.
set -euo pipefail
memdir=${MEMDIR:-$(cd "$(dirname "$0")/.." && pwd)/target/release/memdir}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export HOME=$scratch/home CLAUDE_CONFIG_DIR=$scratch/home/.claude
mkdir -p "$HOME" "$scratch/project"
cd "$scratch/project"
git init -q .
git -c user.name=demo -c user.email=demo@example.com commit -q --allow-empty -m "project start"

run() { echo "\$ memdir $*"; "$memdir" "$@"; echo; }
run init
run save --type feedback --name pre-commit-lint \
  --description "Run the linter before every commit; CI broke for a day without it" \
  --body $'Run `npm run lint` before every commit.\n\n**Why:** an unlinted commit kept CI red for a whole day.\n**How to apply:** lint the changed files before any `git commit`.'
echo "The user is a backend engineer, new to React." |
  run save --type user --name role --description "Backend engineer, new to React" --session demo-session
run save --type reference --name api-dashboard --description "API latency dashboard: grafana.internal/d/api" \
  --body "Grafana: grafana.internal/d/api (p50/p99 latency, error rate)."
# A two-prompt session, as Claude Code writes it: the second prompt holds a rule, a deadline
# (relative: made absolute from the message's date) and a question (not a memory).
transcript=$scratch/session.jsonl
record() { # record UUID TIME TEXT: one user prompt
  printf '{"type":"user","uuid":"%s","sessionId":"demo-session","cwd":"%s","timestamp":"%s","message":{"role":"user","content":"%s"}}\n' \
    "$1" "$scratch/project" "$2" "$3" >>"$transcript"
}
record u1 2026-03-03T09:00:00.000Z "Fix the flaky login test please."
printf '{"type":"assistant","uuid":"a1","sessionId":"demo-session","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Fixed: the test raced the server start."}]}}\n' >>"$transcript"
record u2 2026-03-03T09:05:00.000Z "Thanks. From now on, never mock the database in tests; a mocked test hid a broken migration last quarter. We freeze merges next Thursday for the 4.2 release. Should we also pin Node?"
run extract --transcript "$transcript"
echo "(run again: the cursor is at the end, nothing new)"
run extract --transcript "$transcript"
run list
echo "(what should move where: review proposes, changes nothing)"
run review
echo "(accept one: a branch with one commit in the project's repository, its work tree untouched)"
run promote pre-commit-lint --to project
run log
run index
echo "\$ git -C <memory dir> log --stat --format='%h %s'"
git -C "$("$memdir" path)" log --stat --format='%h %s'
