#!/usr/bin/env python3
"""The store the recall benchmarks time (benches/recall.sh, benches/recall_interleaved.py): N
memories made from the development set's (fixtures/recall/dev/store-d, real lengths), copied
round with numbered names, and MEMORY.md indexing them all.

Usage: benches/recall_store.py DIR N
"""
import os
import re
import sys

DEV = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "recall", "dev",
                   "store-d", "memory")


def make(dst, n):
    os.makedirs(dst, exist_ok=True)
    names = sorted(f[:-3] for f in os.listdir(DEV) if f.endswith(".md") and f != "MEMORY.md")
    index = []
    for i in range(n):
        base = names[i % len(names)]
        name = base if i < len(names) else f"{base}-{i // len(names)}"
        text = open(os.path.join(DEV, base + ".md"), encoding="utf-8").read()
        text = re.sub(r"^name: .*$", f"name: {name}", text, count=1, flags=re.M)
        open(os.path.join(dst, name + ".md"), "w", encoding="utf-8").write(text)
        desc = re.search(r"^description: (.*)$", text, re.M).group(1)
        index.append(f"- [{name}]({name}.md) \u2014 {desc}\n")
    open(os.path.join(dst, "MEMORY.md"), "w", encoding="utf-8").write("".join(index))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    make(sys.argv[1], int(sys.argv[2]))
