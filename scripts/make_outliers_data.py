#!/usr/bin/env python3
"""Writes examples/outliers/data.json: 30 points on the line y = 1 + 0.5 x with Normal(0, 1)
noise at x uniform in [0, 10], two of them moved far off it (+8 and -6), as a typo or a
broken sensor would (seed 2017; Python's random module only)."""
import json
import random
import sys

random.seed(2017)
n = 30
x = [round(random.uniform(0, 10), 2) for _ in range(n)]
y = [round(1 + 0.5 * xi + random.gauss(0, 1), 2) for xi in x]
y[7] = round(y[7] + 8, 2)
y[21] = round(y[21] - 6, 2)
out = sys.argv[1] if len(sys.argv) > 1 else "examples/outliers/data.json"
with open(out, "w") as f:
    json.dump({"x": x, "y": y}, f)
    f.write("\n")
print(f"outliers: y[8] = {y[7]} at x = {x[7]}, y[22] = {y[21]} at x = {x[21]}")
