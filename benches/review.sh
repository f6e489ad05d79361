#!/usr/bin/env bash
# Benchmark: `memdir review --json` on 1,000 memories (all four types, bodies that name files and
# code symbols, so that `verify` has work) and the 40-file instruction stack of `context.sh`, in a
# project whose git repository tracks 500 source files.
# Needs hyperfine (apt-get install hyperfine). Results go to benches/results/.
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/stack.sh"

cwd=$(build "$work/r" 1)
export HOME=$work/r/home # build set it in its subshell
project=$work/r/proj
key=$(printf %s "$project" | sed 's/[^A-Za-z0-9]/-/g')
mem=$HOME/.claude/projects/$key/memory
rm -f "$mem/MEMORY.md"
mkdir -p "$project/src"
for i in $(seq 1 500); do
  printf 'pub fn handler_%d() -> u32 {\n    %d\n}\n' "$i" "$i" >"$project/src/module_$i.rs"
done
git -C "$project" add -A && git -C "$project" -c user.name=b -c user.email=b@b commit -qm seed
types=(user feedback project reference)
for i in $(seq 1 1000); do
  t=${types[$((i % 4))]}
  case $t in
    user) body="The user is a backend engineer (persona $i), new to the frontend." ;;
    feedback) body="Run \`cargo test\` before touching \`handler_$((i % 600))\` in src/module_$((i % 600)).rs.

**Why:** it broke twice.
**How to apply:** before every commit." ;;
    project) body="The payments team owns src/module_$((i % 500)).rs because of audit rule $i.

**Why:** compliance.
**How to apply:** ask them first." ;;
    reference) body="Dashboard $i: https://grafana.example.com/d/dash-$i" ;;
  esac
  printf -- '---\nname: memory-%d\ndescription: Memory number %d about %s things\ntype: %s\n---\n%s\n' \
    "$i" "$i" "$t" "$t" "$body" >"$mem/memory-$i.md"
  printf -- '- [Memory %d](memory-%d.md) — Memory number %d about %s things\n' "$i" "$i" "$i" "$t" >>"$mem/MEMORY.md"
done
proposals=$(cd "$cwd" && "$memdir" review --json | python3 -c 'import json,sys; d=json.load(sys.stdin)["proposals"]; print(len(d))')
echo "proposals: $proposals"
(cd "$cwd" && hyperfine -N --warmup 3 --runs "${RUNS:-20}" \
  --export-json "$out/review-1000.json" --export-markdown "$out/review-1000.md" \
  -n "memdir review --json (1,000 memories, 40-file stack, 500 tracked files)" "$memdir review --json")
