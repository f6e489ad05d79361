#!/usr/bin/env python3
"""Time the UserPromptSubmit hook (`memdir recall --hook`, the payload on stdin) of two memdir
binaries one run at a time, interleaved, so that a busy host slows both alike: the store of
benches/recall.sh (N memories from the development set's, copied round with numbered names, its
22 team memories, one commit, the recall cache written), one copy per binary (each keeps its own
cache), a new session each run (so each run adds its memories and reads their ages from
history, as the first prompt of a session does). Prints the median, the 10th and the 90th
percentile of each's wall time, and the median of its CPU time (user and system, which a busy
host inflates less), in ms.

Usage: benches/recall_interleaved.py BEFORE AFTER [N [ROUNDS]]   (default N 1000, ROUNDS 60)
"""
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recall_store  # noqa: E402  (beside this file)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DEV = os.path.join(ROOT, "fixtures", "recall", "dev", "store-d")
PROMPT = "the general pool in prod sits at ~40% cpu, can we lower max nodes and move to n2-standard-4?"
ENV = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
           GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@localhost",
           GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@localhost")


def make_store(dst, n):
    recall_store.make(dst, n)
    shutil.copytree(os.path.join(DEV, "team"), os.path.join(dst, "team"))
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "seed"]):
        subprocess.run(["git", "-C", dst, *args], check=True, env=ENV)


def main():
    if len(sys.argv) not in (3, 4, 5):
        sys.exit(__doc__.split("\n\n")[1])
    binaries = [os.path.abspath(b) for b in sys.argv[1:3]]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 60
    work = tempfile.mkdtemp(prefix="memdir-recall-bench.")
    try:
        base = os.path.join(work, "base")
        make_store(base, n)
        stores = []
        for k, binary in enumerate(binaries):
            store = os.path.join(work, f"store-{k}")
            shutil.copytree(base, store, symlinks=True)
            subprocess.run([binary, "--memory-dir", store, "snapshot", "-q"], check=True, env=ENV)
            stores.append(store)
        # The recall cache records a file two seconds after its last change.
        time.sleep(2.1)
        # A search writes the recall cache; it exits 1 when nothing matches, as grep does.
        for store, binary in zip(stores, binaries):
            searched = subprocess.run([binary, "--memory-dir", store, "search", "-n", "1", "warm"],
                                      env=ENV, stdout=subprocess.DEVNULL)
            if searched.returncode not in (0, 1):
                sys.exit(f"{binary} search failed ({searched.returncode})")
        times = [[], []]
        cpus = [[], []]
        added = [0, 0]
        for r in range(rounds + 3):
            for k in (0, 1) if r % 2 == 0 else (1, 0):
                payload = json.dumps({"session_id": f"bench-{r}", "cwd": stores[k],
                                      "hook_event_name": "UserPromptSubmit", "prompt": PROMPT})
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                run = subprocess.run([binaries[k], "--memory-dir", stores[k], "recall", "--hook"],
                                     input=payload.encode(), check=True, env=ENV,
                                     stdout=subprocess.PIPE)
                wall = (time.perf_counter() - t0) * 1000
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
                if r >= 3:
                    times[k].append(wall)
                    cpus[k].append(cpu)
                    added[k] += bool(run.stdout)
        for binary, ts, cs, adds in zip(binaries, times, cpus, added):
            q = statistics.quantiles(ts, n=10)
            print(f"{binary}: recall --hook at {n} memories: median {statistics.median(ts):.1f} ms "
                  f"(p10 {q[0]:.1f}, p90 {q[-1]:.1f}), CPU (user + system) median "
                  f"{statistics.median(cs):.1f} ms; {len(ts)} runs, {adds} adding memories")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
