#!/usr/bin/env bash
# Benchmark (issue 32): team memory at scale, a team of 50 and 10,000 memories. Two timed cases,
# each against `git pull && git push` on the same clone, in the same state (hyperfine --prepare):
#
#   noop   the clone is up to date: `memdir team sync` (lock, secret scan of what is pending,
#          adopt nothing, fetch, nothing to merge or push) against `git pull && git push` (a
#          fetch, "Already up to date", "Everything up-to-date");
#   merge  a teammate pushed 100 new memories and the clone saved one of its own: `memdir team
#          sync` (fetch, look at the new tree, merge the index, write 100 files, one merge
#          commit, push) against `git pull --no-rebase && git push` (git's merge, with memdir
#          registered as MEMORY.md's merge driver by `team init`, as a team member has it).
#
# The remote's history: 50 authors, 200 commits of 50 memories each, built with git
# fast-import. Needs hyperfine. Results go to benches/results/team-scale-*.json.
#
# Usage: RUNS=10 ROUNDS=15 benches/team-scale.sh
source "$(dirname "$0")/common.sh"
export HOME=$work/home GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@localhost GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@localhost
mkdir -p "$HOME" "$work/proj"
git -C "$work/proj" init -q
cd "$work/proj"

remote=$work/remote.git
git init -q --bare -b main "$remote"
python3 - <<'PY' | git -C "$remote" -c gc.auto=0 fast-import --quiet
import sys
out = sys.stdout.buffer
def data(b):
    out.write(b"data %d\n" % len(b) + b + b"\n")
index = bytearray(b"# Team memory\n\n")
k = 0
for c in range(200):
    who = c % 50
    out.write(b"commit refs/heads/main\n")
    out.write(b"author Teammate %d <t%d@example.com> %d +0000\n" % (who, who, 1772700000 + c * 60))
    out.write(b"committer Teammate %d <t%d@example.com> %d +0000\n" % (who, who, 1772700000 + c * 60))
    data(b"save(project): 50 memories\n\nMemdir-Op: save\n")
    for _ in range(50):
        name = b"team-fact-%d" % k
        topic = b"---\nname: %s\ndescription: team fact number %d\ntype: project\n---\nTeam fact %d, with its reason.\n" % (name, k, k)
        index += b"- [Team fact %d](%s.md) \xe2\x80\x94 team fact number %d\n" % (k, name, k)
        out.write(b"M 100644 inline %s.md\n" % name)
        data(topic)
        k += 1
    out.write(b"M 100644 inline MEMORY.md\n")
    data(bytes(index))
PY
"$memdir" team init --remote "$remote" -q
team=$("$memdir" path)/team
base=$(git -C "$team" rev-parse HEAD)

# A teammate's 100 new memories, on the remote.
mate=$work/mate
git clone -q "$remote" "$mate"
python3 - "$mate" <<'PY'
import sys, pathlib
d = pathlib.Path(sys.argv[1])
index = (d / "MEMORY.md").read_text()
for i in range(100):
    name = f"incoming-{i}"
    (d / f"{name}.md").write_text(f"---\nname: {name}\ndescription: incoming fact {i}\ntype: project\n---\nIncoming fact {i}.\n")
    index += f"- [Incoming {i}]({name}.md) — incoming fact {i}\n"
(d / "MEMORY.md").write_text(index)
PY
git -C "$mate" add -A
git -C "$mate" commit -q -m "save(project): 100 memories"
git -C "$mate" push -q origin main
incoming=$(git -C "$mate" rev-parse HEAD)

# The clone's own memory, not pushed yet.
"$memdir" save --team --type project --name my-own-fact --description "My own fact" \
  --body "A fact of my own, with its reason." -q
mine=$(git -C "$team" rev-parse HEAD)

echo "team memory: $(ls "$team" | wc -l) files; remote history: $(git -C "$remote" rev-list --count main) commits"

# noop: the clone and the remote at the merge of both.
"$memdir" team sync -q
synced=$(git -C "$team" rev-parse HEAD)
hyperfine -N --warmup 3 --runs "${RUNS:-10}" \
  --export-json "$out/team-scale-noop.json" --export-markdown "$out/team-scale-noop.md" \
  -n "memdir team sync (up to date, 10,000 memories)" "$memdir team sync -q" \
  -n "git pull && git push (up to date)" "sh -c 'git -C $team pull -q --no-rebase && git -C $team push -q origin main'"

# merge: put the clone back to its own commit and the remote to the teammate's, each run.
prepare="git -C $remote update-ref refs/heads/main $incoming && git -C $team update-ref refs/remotes/origin/main $base && git -C $team reset -q --hard $mine"
hyperfine -N --warmup 1 --runs "${RUNS:-10}" --prepare "sh -c '$prepare'" \
  --export-json "$out/team-scale-merge.json" --export-markdown "$out/team-scale-merge.md" \
  -n "memdir team sync (merging 100 incoming memories)" "$memdir team sync -q" \
  -n "git pull && git push (merging them)" "sh -c 'git -C $team pull -q --no-rebase --no-edit && git -C $team push -q origin main'"

# The same merge, interleaved one run at a time (hyperfine runs one command's runs back to back,
# so a shared machine that slows down favours one side): memdir, git as it comes, and git with
# fsync on as memdir always has it (objects, refs and the index; memdir also fsyncs the files it
# writes). Medians of ${ROUNDS:-15} rounds, the order reversed every round.
python3 - "$memdir" "$team" "$prepare" "${ROUNDS:-15}" "$out/team-scale-merge-interleaved.json" <<'PY'
import json, statistics, subprocess, sys, time
memdir, team, prepare, rounds, out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
pull_push = f"git -C {team} pull -q --no-rebase --no-edit && git -C {team} push -q origin main"
fsync = "-c core.fsync=committed,index -c core.fsyncMethod=fsync"
commands = {
    "memdir team sync": [memdir, "team", "sync", "-q"],
    "git pull && git push": ["sh", "-c", pull_push],
    "git pull && git push, fsync on": ["sh", "-c", pull_push.replace("git -C", f"git {fsync} -C")],
}
times = {name: [] for name in commands}
for r in range(rounds):
    order = list(commands) if r % 2 == 0 else list(reversed(commands))
    for name in order:
        subprocess.run(["sh", "-c", prepare], check=True)
        started = time.perf_counter()
        subprocess.run(commands[name], check=True, stdout=subprocess.DEVNULL)
        times[name].append((time.perf_counter() - started) * 1000)
result = {name: {"median_ms": statistics.median(t), "mean_ms": statistics.mean(t), "runs": t}
          for name, t in times.items()}
json.dump(result, open(out, "w"), indent=2)
for name, r in result.items():
    print(f"{name:34} median {r['median_ms']:7.1f} ms   mean {r['mean_ms']:7.1f} ms")
PY
git -C "$remote" update-ref refs/heads/main "$synced"
