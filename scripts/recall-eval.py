#!/usr/bin/env python3
"""Score a ranking's answers on the labelled recall sets (fixtures/recall/), by the definitions of
fixtures/recall/README.md: recall@3 (out of min(relevant, 3)), MRR of the first relevant memory,
and quiet (the share of prompts with nothing relevant that get nothing).

Usage: scripts/recall-eval.py ANSWERS_DIR [SET]   (SET: blind, the default, or dev)

ANSWERS_DIR holds <store>.json per store of the set: [{"id": N, "top": ["name", "team:name", ...]}]
with N the prompt's place in the store's prompts.json (from 0), `top` the answer ranked, an
empty list for "nothing to add". fixtures/recall/reader/ holds a reader's answers (README).
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "recall")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(next(l for l in __doc__.splitlines() if l.startswith("Usage")))
    answers_dir, set_name = sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else "blind"
    totals = [0.0, 0.0, 0, 0, 0]  # recall, reciprocal ranks, answerable, quiet, nothing relevant
    print(f"{'store':<8} {'answerable':>10} {'recall@3':>8} {'MRR':>5} {'nothing relevant':>16} {'quiet':>5}")
    for store in sorted(os.listdir(os.path.join(ROOT, set_name))):
        with open(os.path.join(ROOT, set_name, store, "prompts.json")) as f:
            prompts = json.load(f)
        with open(os.path.join(answers_dir, f"{store}.json")) as f:
            top = {a["id"]: a["top"] for a in json.load(f)}
        recall = ranks = 0.0
        answerable = quiet = nothing = 0
        for n, prompt in enumerate(prompts):
            relevant, given = prompt["relevant"], top.get(n, [])
            if relevant:
                answerable += 1
                recall += len(set(relevant) & set(given[:3])) / min(len(relevant), 3)
                first = next((i for i, name in enumerate(given[:10]) if name in relevant), None)
                ranks += 0 if first is None else 1 / (first + 1)
            else:
                nothing += 1
                quiet += not given
        print(f"{store:<8} {answerable:>10} {recall / answerable:>8.2f} {ranks / answerable:>5.2f} {nothing:>16} {quiet / nothing:>5.2f}")
        for i, value in enumerate((recall, ranks, answerable, quiet, nothing)):
            totals[i] += value
    recall, ranks, answerable, quiet, nothing = totals
    print(f"{'all':<8} {answerable:>10} {recall / answerable:>8.2f} {ranks / answerable:>5.2f} {nothing:>16} {quiet / nothing:>5.2f}")


if __name__ == "__main__":
    main()
