#!/usr/bin/env python3
"""Score an extractor on the labelled extraction sets, by the rule of fixtures/extraction/README.md
("Scoring"; tests/cli/quality.rs applies the same rule to the builtin extractor).

Usage:
  scripts/extract-eval.py [--memdir BIN] SET...                      the builtin extractor
  scripts/extract-eval.py --claude SET...                            the agent extractor with
                                                                     Claude Code (`claude` on PATH,
                                                                     logged in: real model calls)
  scripts/extract-eval.py --agent-cmd CMD SET...                     the agent extractor with a
                                                                     model command of your own
  scripts/extract-eval.py --capture DIR SET...                       write each case's first
      agent request to DIR/<set>/<case>.request.json (the agent answers done; nothing is scored)
  scripts/extract-eval.py --replay DIR SET...                        answer each case's first
      agent turn with DIR/<set>/<case>.json (a response: {"actions": [...]}), then done; score

The agent extractor is run as memdir runs it from the hooks, gate included: a session in which
the gate lets no prompt through gets no request (and no capture file), as it costs no call.
Requests are memdir's protocol of the binary run (memdir-extract/2 since issue 27: only the
prompts the gate passed, and the bodies of the memories they may be about); answers recorded
for another version's requests replay as they are, on whatever that binary asks.

SET names a folder of fixtures/extraction/ (`blind-a`, `train-c`, ...; `cases` is the main set).
Each case runs in its own temp HOME, project and memory dir, seeded with the case's `before`
memories through `memdir save`, exactly as the quality test seeds them. With --capture and
--replay, someone (a person, or a model given only the requests) can act as the agent between
the two runs, and the run is reproducible from the recorded responses.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SETS = os.path.join(ROOT, "fixtures", "extraction")

# The agent command of --capture and --replay: turn 1 is recorded or answered from a file,
# every later turn is answered with done.
RECORDED_AGENT = r'''#!/usr/bin/env python3
import json, os, sys
request = json.load(sys.stdin)
case, mode = CASE, MODE
actions = [{"action": "done"}]
if mode == "capture":
    os.makedirs(os.path.dirname(case), exist_ok=True)
    with open(case + ".request.json", "w") as out:
        json.dump(request, out, ensure_ascii=False, indent=1)
elif request.get("turn", 1) == 1:
    path = case + ".json"
    if os.path.exists(path):
        with open(path) as answer:
            given = json.load(answer).get("actions", [])
        actions = [a for a in given if a.get("action") != "done"] + actions
print(json.dumps({"actions": actions}))
'''


def cases_of(name):
    folder = os.path.join(SETS, "cases") if name == "cases" else os.path.join(SETS, name, "cases")
    if not os.path.isdir(folder):
        sys.exit(f"extract-eval: no set {name!r} in {SETS}")
    return [(c, os.path.join(folder, c)) for c in sorted(os.listdir(folder))]


def run_case(memdir, case_dir, extractor):
    """Extract one case; its expected.json, the memories made, and every memory file's text."""
    with open(os.path.join(case_dir, "expected.json")) as f:
        expected = json.load(f)
    work = tempfile.mkdtemp(prefix="extract-eval-")
    try:
        home, project, mem = (os.path.join(work, d) for d in ("home", "project", "memory"))
        os.makedirs(home)
        os.makedirs(project)
        env = dict(os.environ, HOME=home, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
                   CLAUDE_CONFIG_DIR=os.path.join(home, ".claude"))
        base = [memdir, "--memory-dir", mem, "--project", project]
        for b in expected["before"]:
            subprocess.run(base + ["save", "-q", "--type", b["type"], "--name", b["name"],
                                   "--description", b["description"], "--body", b["body"]],
                           env=env, check=True)
        with open(os.path.join(case_dir, "transcript.jsonl")) as f:
            transcript = f.read().replace("{{MEMORY_DIR}}", mem)
        path = os.path.join(work, "transcript.jsonl")
        with open(path, "w") as f:
            f.write(transcript)
        command = base + ["extract", "--transcript", path, "--json"] + extractor(work)
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"  {case_dir}: extract failed: {done.stderr.strip()[:300]}", file=sys.stderr)
        try:
            calls = json.loads(done.stdout).get("model_calls", 0)
        except ValueError:
            calls = 0
        made, everything = [], ""
        if os.path.isdir(mem):
            for name in sorted(os.listdir(mem)):
                file = os.path.join(mem, name)
                if not os.path.isfile(file):
                    continue
                with open(file, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                everything += text
                if name.endswith(".md") and name != "MEMORY.md":
                    kind = next((l[6:].strip() for l in text.splitlines() if l.startswith("type: ")), "")
                    made.append((name, kind, text))
        return expected, made, everything, calls
    finally:
        shutil.rmtree(work)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memdir", default=os.path.join(ROOT, "target", "release", "memdir"))
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--agent-cmd")
    how.add_argument("--claude", action="store_true")
    how.add_argument("--capture", metavar="DIR")
    how.add_argument("--replay", metavar="DIR")
    parser.add_argument("sets", nargs="+")
    args = parser.parse_args()

    counts, notes, leaks, sessions, called = {}, [], 0, 0, 0
    for set_name in args.sets:
        for case, case_dir in cases_of(set_name):
            if args.agent_cmd:
                extractor = lambda work: ["--extractor", "agent", "--agent-cmd", args.agent_cmd]
            elif args.claude:
                extractor = lambda work: ["--extractor", "agent"]
            elif args.capture or args.replay:
                mode, root = ("capture", args.capture) if args.capture else ("replay", args.replay)
                here = os.path.abspath(os.path.join(root, set_name, case))

                def extractor(work, mode=mode, here=here):
                    agent = os.path.join(work, "agent.py")
                    with open(agent, "w") as f:
                        f.write(RECORDED_AGENT.replace("CASE, MODE", f"{here!r}, {mode!r}"))
                    os.chmod(agent, 0o755)
                    return ["--extractor", "agent", "--agent-cmd", agent]
            else:
                extractor = lambda work: ["--extractor", "builtin"]
            expected, made, everything, calls = run_case(args.memdir, case_dir, extractor)
            sessions += 1
            called += calls > 0
            if args.capture:
                continue
            used = [False] * len(made)
            for want in expected["memories"]:
                c = counts.setdefault(want["type"], [0, 0, 0])
                c[0] += 1
                for i, (_, kind, text) in enumerate(made):
                    low = text.lower()
                    if (not used[i] and kind == want["type"]
                            and all(s.lower() in low for s in want["contains"])
                            and not any(s.lower() in low for s in want.get("absent", []))):
                        used[i] = True
                        c[2] += 1
                        break
                else:
                    notes.append(f"{set_name}/{case}: missed {want['type']} {want['contains']}")
            for i, (name, kind, text) in enumerate(made):
                counts.setdefault(kind, [0, 0, 0])[1] += 1
                if not used[i]:
                    line = next((l for l in text.splitlines() if l.startswith("description:")), "")
                    notes.append(f"{set_name}/{case}: extra {kind} {name} ({line})")
            for forbidden in expected["forbidden"]:
                if forbidden.lower() in everything.lower():
                    notes.append(f"{set_name}/{case}: forbidden {forbidden!r} saved")
                    leaks += 1
    if args.capture:
        return

    def row(label, e, p, m, extra=""):
        precision, recall = (m / p if p else 0.0), (m / e if e else 0.0)
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        print(f"{label:<10} {e:>8} {p:>8} {m:>8} {precision:>9.2f} {recall:>7.2f} {f1:>6.2f}{extra}")

    print(f"{'type':<10} {'expected':>8} {'produced':>8} {'matched':>8} {'precision':>9} {'recall':>7} {'F1':>6}")
    for kind, (e, p, m) in sorted(counts.items()):
        row(kind, e, p, m)
    total = [sum(c[i] for c in counts.values()) for i in range(3)]
    row("overall", *total, f"   (forbidden text saved {leaks} times)")
    if args.agent_cmd or args.claude or args.replay:
        print(f"sessions with a model call: {called} of {sessions}")
    for note in notes:
        print("  " + note)


if __name__ == "__main__":
    main()
