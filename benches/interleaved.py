#!/usr/bin/env python3
"""memdir binaries' `save`, interleaved one save at a time, on copies of one store; with
`--git` and `--floor FLOOR`, the git program's two-step save and the floor program too.

hyperfine runs one command's runs back to back, so a disk that slows down or speeds up over a
minute favours one side; this alternates them (in turn reversed every round) and prints each
one's median whole-process time. The store: N seeded memories, committed and packed, as in
benches/save.sh; the git two-step and the floor are the commands save.sh times (the floor is
target/release/examples/save_floor, `cargo build --release --example save_floor`).

Usage: benches/interleaved.py N ROUNDS [--git] [--floor FLOOR] [BIN...]
(BENCH_DIR=DIR: where the stores go)
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


# git with fsync on, as memdir always does: objects, refs and the index (as benches/save.sh).
GIT = ["git", "-c", "core.fsync=committed,index", "-c", "core.fsyncMethod=fsync"]


def memdir_save(binary):
    def save(store, name):
        subprocess.run([binary, "--memory-dir", store, "save", "-q", "--type", "project",
                        "--name", name, "--description", "benchmark memory", "--body",
                        "Benchmark body."], check=True, stderr=subprocess.DEVNULL)
    return save


def git_save(store, name):
    with open(os.path.join(store, f"{name}.md"), "w") as topic:
        topic.write(f"---\nname: {name}\ndescription: benchmark memory\ntype: project\n---\n"
                    "Benchmark body.\n")
    with open(os.path.join(store, "MEMORY.md"), "a") as index:
        index.write(f"- [Bench]({name}.md) \u2014 benchmark memory\n")
    subprocess.run(GIT + ["-C", store, "add", f"{name}.md", "MEMORY.md"], check=True)
    subprocess.run(GIT + ["-C", store, "commit", "-q", "-m", f"save(project): {name}"],
                   check=True)


def floor_save(binary):
    def save(store, name):
        subprocess.run([binary, store, name], check=True)
    return save


def main():
    n, rounds, args = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    contenders = []  # (label, kind, the program)
    while args:
        arg = args.pop(0)
        if arg == "--git":
            contenders.append(("git: write, add, commit", "git", None))
        elif arg == "--floor":
            floor = args.pop(0)
            contenders.append((floor, "floor", floor))
        else:
            contenders.append((arg, "memdir", arg))
    os.environ.update(GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
                      GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@localhost",
                      GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@localhost")
    work = tempfile.mkdtemp(dir=os.environ.get("BENCH_DIR"))
    seed(os.path.join(work, "seed"), n)
    stores, saves = [], []
    for i, (_, kind, program) in enumerate(contenders):
        store = os.path.join(work, f"store-{i}")
        subprocess.run(["cp", "-a", os.path.join(work, "seed"), store], check=True)
        if kind == "memdir":
            subprocess.run([program, "--memory-dir", store, "snapshot", "-q"], check=True)
        stores.append(store)
        saves.append(git_save if kind == "git"
                     else memdir_save(program) if kind == "memdir" else floor_save(program))
    subprocess.run(["sync"], check=True)  # the copies' writeback is not any one's to pay
    times = [[] for _ in contenders]
    for r in range(rounds):
        order = range(len(contenders)) if r % 2 == 0 else reversed(range(len(contenders)))
        for i in order:
            start = time.perf_counter()
            saves[i](stores[i], f"bench-{r}")
            times[i].append((time.perf_counter() - start) * 1000)
    for (label, kind, _), store, measured in zip(contenders, stores, times):
        if kind != "floor":  # the floor leaves its store's index out of date, by design
            subprocess.run(["git", "-C", store, "fsck", "--strict", "--no-progress"], check=True)
            status = subprocess.run(["git", "-C", store, "status", "--porcelain"], check=True,
                                    capture_output=True, text=True).stdout
            assert status == "", f"{store} is not clean: {status}"
        kept = measured[3:]  # the first rounds warm the page cache
        print(f"{label}: median {statistics.median(kept):.2f} ms, "
              f"mean {statistics.mean(kept):.2f} ms over {len(kept)} saves of {n} memories")
    subprocess.run(["rm", "-rf", work], check=True)


if __name__ == "__main__":
    main()
