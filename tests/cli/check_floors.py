#!/usr/bin/env python3
"""Draws the source folders as floors, ground floor last, with the includes between them,
and fails if any include runs up a floor (a folder including one above it), which also
rules out cycles between folders.

  check_floors.py [REPO]

The floors, in the order of the pipeline each serves (docs/architecture.md): core holds
what every layer uses; draws sits below the model because the samplers and inference
methods write draws files and the draws floor needs nothing of the model.
"""
import os
import re
import sys

FLOORS = ["cli", "inference", "samplers", "model", "draws", "data", "lang", "stdlib", "core"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.M)


def includes(repo):
    """{(from floor, to floor): [file -> header, ...]} over every source file."""
    arrows = {}
    for floor in FLOORS:
        folder = os.path.join(repo, floor)
        for name in sorted(os.listdir(folder)):
            if not name.endswith((".cpp", ".hpp")):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                for target in INCLUDE.findall(f.read()):
                    if target in FLOORS and target != floor:
                        arrows.setdefault((floor, target), []).append(f"{floor}/{name}")
    return arrows


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..")
    arrows = includes(repo)
    level = {floor: len(FLOORS) - i for i, floor in enumerate(FLOORS)}
    width = max(len(f) for f in FLOORS)
    for floor in FLOORS:
        files = sum(1 for n in os.listdir(os.path.join(repo, floor)) if n.endswith((".cpp", ".hpp")))
        below = [f"{to} ({len(arrows[(floor, to)])})" for to in FLOORS if (floor, to) in arrows]
        print(f"{level[floor]} {floor:<{width}} {files:3d} files -> {', '.join(below) or '-'}")
    up = [(a, b, files) for (a, b), files in arrows.items() if level[b] > level[a]]
    for a, b, files in up:
        print(f"FAIL: {a} includes {b}, a floor above it: {', '.join(sorted(set(files)))}")
    return 1 if up else 0


if __name__ == "__main__":
    sys.exit(main())
