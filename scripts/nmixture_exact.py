#!/usr/bin/env python3
"""The N-mixture example's posterior means of lambda and p without sampling: each site's
N summed out (up to where its terms are negligible), then a 90 x 90 grid over lambda in
(1, 60) and p in (0.01, 0.91). Takes about two minutes; the figures are in
examples/nmixture/README.md."""
import json
import math
import sys

counts = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "examples/nmixture/data.json"))["y"]
log_fact = [math.lgamma(n + 1) for n in range(400)]


def log_binomial(k, n, p):
    return log_fact[n] - log_fact[k] - log_fact[n - k] + k * math.log(p) + (n - k) * math.log1p(-p)


def log_site(row, lam, p):
    terms = []
    for n in range(max(row), 250):
        terms.append(n * math.log(lam) - lam - log_fact[n] + sum(log_binomial(k, n, p) for k in row))
        if n > max(row) + 20 and terms[-1] < max(terms) - 40:
            break
    top = max(terms)
    return top + math.log(sum(math.exp(t - top) for t in terms))


cells = 90
grid = []
for a in range(cells):
    lam = 1 + 59 * (a + 0.5) / cells
    for b in range(cells):
        p = 0.01 + 0.9 * (b + 0.5) / cells
        grid.append((lam, p, math.log(0.1) - 0.1 * lam + sum(log_site(row, lam, p) for row in counts)))
top = max(lp for _, _, lp in grid)
w = [(lam, p, math.exp(lp - top)) for lam, p, lp in grid]
total = sum(x for _, _, x in w)
mean = lambda f: sum(f(lam, p) * x for lam, p, x in w) / total
ml, mp = mean(lambda l, p: l), mean(lambda l, p: p)
print(f"lambda: mean {ml:.4f} sd {math.sqrt(mean(lambda l, p: l * l) - ml * ml):.4f}")
print(f"p: mean {mp:.4f} sd {math.sqrt(mean(lambda l, p: p * p) - mp * mp):.4f}")
