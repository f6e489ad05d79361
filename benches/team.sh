#!/usr/bin/env bash
# Benchmark: `memdir team sync` with nothing to do (team memory of 200 memories, up to date with
# a local bare remote), against `git fetch` alone on the same repository: the target is sync's
# own cost, on top of the fetch it runs.
# Needs hyperfine (apt-get install hyperfine). Results go to benches/results/.
source "$(dirname "$0")/common.sh"
export HOME=$work/home GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME" "$work/proj"
git -C "$work/proj" init -q
cd "$work/proj"
git init -q --bare "$work/remote.git"
"$memdir" team init --remote "$work/remote.git" -q
for i in $(seq 1 200); do
  "$memdir" save --team --type project --name "memory-$i" --description "Team fact $i" \
    --body "Team fact number $i, with its reason." -q
done
"$memdir" team sync -q
team=$("$memdir" path)/team
hyperfine -N --warmup 3 --runs "${RUNS:-30}" \
  --export-json "$out/team-sync-noop.json" --export-markdown "$out/team-sync-noop.md" \
  -n "memdir team sync (nothing to do, 200 memories)" "$memdir team sync -q" \
  -n "git fetch alone" "git -C $team fetch --quiet --prune origin"
