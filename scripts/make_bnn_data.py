#!/usr/bin/env python3
"""Builds examples/bnn/data.json from Boston housing: a fixed 90/10 split.

Rows are shuffled with random.Random(2026); the first 90% (rounded down) train, the rest
test. Inputs are the 13 columns crim..lstat in original units; the target is medv.
Usage: scripts/make_bnn_data.py ../shared/data/boston-housing.csv examples/bnn/data.json
"""
import csv
import json
import random
import sys


def main(src, dst):
    with open(src) as f:
        rows = list(csv.DictReader(f))
    inputs = [c for c in rows[0].keys() if c != "medv"]
    random.Random(2026).shuffle(rows)
    n_train = len(rows) * 9 // 10
    def matrix(part):
        return [[float(r[c]) for c in inputs] for r in part]
    train, test = rows[:n_train], rows[n_train:]
    data = {"X": matrix(train), "y": [float(r["medv"]) for r in train],
            "X_test": matrix(test), "y_test": [float(r["medv"]) for r in test]}
    with open(dst, "w") as f:
        json.dump(data, f)
    print(f"{len(train)} training rows, {len(test)} test rows, inputs: {', '.join(inputs)}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
