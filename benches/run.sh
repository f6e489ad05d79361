#!/usr/bin/env bash
# Run the benchmarks and compare each timing with the figure recorded before in
# benches/results/ (the figures BENCHMARKS.md reports): prints every command's mean before and
# now, and names those more than 25 % slower (exit 1 when there is one). Run it before resolving
# an issue that touches a hot path, then record the new figures in BENCHMARKS.md.
#
# Usage: benches/run.sh [NAME...]   NAME is a script in benches/ without .sh (default: all but
# aging, which makes 10,000 saves; `benches/run.sh aging` runs it). BENCH_DIR as for each
# script (a fresh filesystem for save.sh; see BENCHMARKS.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=(save context doctor extract review team merge history snapshot)
fi
before=$(mktemp -d)
trap 'rm -rf "$before"' EXIT
cp "$here"/results/*.json "$before"/ 2>/dev/null || true
for name in "${names[@]}"; do
  echo "== $name" >&2
  "$here/$name.sh" >/dev/null
done
python3 - "$before" "$here/results" <<'PY'
import json, pathlib, sys
before, now = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
def means(path):
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return {r["command"]: r["mean"] for r in data.get("results", [])}
slower = []
print(f"{'command':<72} {'before':>10} {'now':>10} {'change':>8}")
for path in sorted(now.glob("*.json")):
    old = means(before / path.name)
    for command, mean in means(path).items():
        if command not in old:
            print(f"{command[:72]:<72} {'-':>10} {mean * 1000:>8.2f}ms {'new':>8}")
            continue
        change = mean / old[command] - 1
        mark = "  SLOWER" if change > 0.25 else ""
        print(f"{command[:72]:<72} {old[command] * 1000:>8.2f}ms {mean * 1000:>8.2f}ms {change:>+7.0%}{mark}")
        if change > 0.25:
            slower.append(command)
if slower:
    print(f"\n{len(slower)} more than 25 % slower than recorded:")
    for command in slower:
        print(f"  {command}")
    sys.exit(1)
print("\nnothing more than 25 % slower than recorded")
PY
