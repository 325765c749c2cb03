#!/usr/bin/env python3
"""Writes examples/nmixture/data.json: counts at 30 sites on 3 visits, simulated from the
N-mixture model with lambda = 6 and p = 0.4 (seed 2004; Python's random module only)."""
import json
import math
import random
import sys

random.seed(2004)
sites, visits, rate, detect = 30, 3, 6.0, 0.4


def poisson(lam):
    # Knuth's product of uniforms: fine for a rate of 6.
    limit, k, product = math.exp(-lam), 0, 1.0
    while True:
        product *= random.random()
        if product < limit:
            return k
        k += 1


abundance = [poisson(rate) for _ in range(sites)]
counts = [[sum(random.random() < detect for _ in range(n)) for _ in range(visits)] for n in abundance]
out = sys.argv[1] if len(sys.argv) > 1 else "examples/nmixture/data.json"
with open(out, "w") as f:
    json.dump({"y": counts}, f)
print(f"true abundances {abundance} (total {sum(abundance)})")
