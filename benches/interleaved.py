#!/usr/bin/env python3
"""Two or more memdir binaries' `save`, interleaved one save at a time, on copies of one store.

hyperfine runs one command's runs back to back, so a disk that slows down or speeds up over a
minute favours one side; this alternates them (in turn reversed every round) and prints each
binary's median whole-process time. The store: N seeded memories, committed and packed, as in
benches/save.sh.

Usage: benches/interleaved.py N ROUNDS BIN [BIN...]   (BENCH_DIR=DIR: where the stores go)
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def seed(directory, n):
    os.makedirs(directory)
    with open(os.path.join(directory, "MEMORY.md"), "w") as index:
        for i in range(n):
            with open(os.path.join(directory, f"seed-{i}.md"), "w") as topic:
                topic.write(f"---\nname: seed-{i}\ndescription: seeded memory number {i}\n"
                            f"type: project\n---\nSeeded body {i}.\n")
            index.write(f"- [Seed {i}](seed-{i}.md) \u2014 seeded memory number {i}\n")
    git = ["git", "-C", directory]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["-c", "gc.auto=0", "commit", "-q", "-m", "seed"], check=True)
    subprocess.run(git + ["gc", "-q"], check=True)


def main():
    n, rounds, binaries = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    os.environ.update(GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
                      GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@localhost",
                      GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@localhost")
    work = tempfile.mkdtemp(dir=os.environ.get("BENCH_DIR"))
    seed(os.path.join(work, "seed"), n)
    stores = []
    for i, binary in enumerate(binaries):
        store = os.path.join(work, f"store-{i}")
        subprocess.run(["cp", "-a", os.path.join(work, "seed"), store], check=True)
        subprocess.run([binary, "--memory-dir", store, "snapshot", "-q"], check=True)
        stores.append(store)
    times = [[] for _ in binaries]
    for r in range(rounds):
        order = range(len(binaries)) if r % 2 == 0 else reversed(range(len(binaries)))
        for i in order:
            start = time.perf_counter()
            subprocess.run([binaries[i], "--memory-dir", stores[i], "save", "-q", "--type",
                            "project", "--name", f"bench-{r}", "--description",
                            "benchmark memory", "--body", "Benchmark body."],
                           check=True, stderr=subprocess.DEVNULL)
            times[i].append((time.perf_counter() - start) * 1000)
    for binary, store, measured in zip(binaries, stores, times):
        subprocess.run(["git", "-C", store, "fsck", "--strict", "--no-progress"], check=True)
        status = subprocess.run(["git", "-C", store, "status", "--porcelain"], check=True,
                                capture_output=True, text=True).stdout
        assert status == "", f"{store} is not clean: {status}"
        kept = measured[3:]  # the first rounds warm the page cache
        print(f"{binary}: median {statistics.median(kept):.2f} ms, "
              f"mean {statistics.mean(kept):.2f} ms over {len(kept)} saves of {n} memories")
    subprocess.run(["rm", "-rf", work], check=True)


if __name__ == "__main__":
    main()
