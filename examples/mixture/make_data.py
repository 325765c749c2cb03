#!/usr/bin/env python3
"""The data of examples/mixture: 300 draws from a mixture of three normals with weights
(0.3, 0.5, 0.2), means (-2, 1, 4) and standard deviations (0.6, 0.8, 0.5), seed 2.

    python3 examples/mixture/make_data.py > examples/mixture/data.json
"""
import json
import random

WEIGHTS, MEANS, SDS = (0.3, 0.5, 0.2), (-2.0, 1.0, 4.0), (0.6, 0.8, 0.5)

rng = random.Random(2)
y = []
for _ in range(300):
    u, k = rng.random(), 0
    while k < len(WEIGHTS) - 1 and u >= sum(WEIGHTS[: k + 1]):
        k += 1
    y.append(round(rng.gauss(MEANS[k], SDS[k]), 4))
print(json.dumps({"K": 3, "y": y}))
