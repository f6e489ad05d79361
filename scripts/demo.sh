#!/usr/bin/env bash
# A small end-to-end run of memdir on a scratch project: init, three saves of different types,
# list, log, and what Claude Code would load. Touches nothing outside a temp dir.
set -euo pipefail
memdir=${MEMDIR:-$(cd "$(dirname "$0")/.." && pwd)/target/release/memdir}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export HOME=$scratch/home CLAUDE_CONFIG_DIR=$scratch/home/.claude
mkdir -p "$HOME" "$scratch/project"
cd "$scratch/project"
git init -q .

run() { echo "\$ memdir $*"; "$memdir" "$@"; echo; }
run init
run save --type feedback --name pre-commit-lint \
  --description "Run the linter before every commit; CI broke for a day without it" \
  --body $'Run `npm run lint` before every commit.\n\n**Why:** an unlinted commit kept CI red for a whole day.\n**How to apply:** lint the changed files before any `git commit`.'
echo "The user is a backend engineer, new to React." |
  run save --type user --name role --description "Backend engineer, new to React" --session demo-session
run save --type reference --name api-dashboard --description "API latency dashboard: grafana.internal/d/api" \
  --body "Grafana: grafana.internal/d/api (p50/p99 latency, error rate)."
run list
run log
run index
echo "\$ git -C <memory dir> log --stat --format='%h %s'"
git -C "$("$memdir" path)" log --stat --format='%h %s'
