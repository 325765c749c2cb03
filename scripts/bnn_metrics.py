#!/usr/bin/env python3
"""Test-set figures of the BNN example from a draws file of `ppl infer`:

  python3 scripts/bnn_metrics.py DRAWS.csv examples/bnn/data.json

- RMSE of the posterior mean: sqrt(mean_m (y_test[m] - E[mu_test[m]])^2), E over all draws
  of all chains;
- mean test log predictive density: mean_m log( (1/S) sum_s Normal(y_test[m] | mu_test[m]_s,
  sigma_s) ), the predictive density averaged over the S draws (a mixture), then logged.

Both in the original units of medv ($1000s), as the published figures for this benchmark
(Hernandez-Lobato & Adams 2015) are. Needs only the standard library.
"""
import csv
import json
import math
import sys


def read_draws(path):
    with open(path, newline="") as f:
        rows = csv.reader(line for line in f if not line.startswith("#"))
        header = next(rows)
        return header, [[float(x) for x in r] for r in rows if r]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    header, rows = read_draws(sys.argv[1])
    y_test = json.load(open(sys.argv[2]))["y_test"]
    sigma = header.index("sigma")
    mu = [header.index(f"mu_test[{m + 1}]") for m in range(len(y_test))]
    S = len(rows)
    rmse = math.sqrt(sum((y - sum(r[mu[m]] for r in rows) / S) ** 2 for m, y in enumerate(y_test)) / len(y_test))
    lpd = 0.0
    for m, y in enumerate(y_test):
        logs = [-0.5 * ((y - r[mu[m]]) / r[sigma]) ** 2 - math.log(r[sigma]) - 0.5 * math.log(2 * math.pi) for r in rows]
        top = max(logs)
        lpd += top + math.log(sum(math.exp(l - top) for l in logs) / S)
    print(f"draws {S}, test rows {len(y_test)}")
    print(f"test RMSE of the posterior mean: {rmse:.3f}")
    print(f"mean test log predictive density: {lpd / len(y_test):.3f}")


if __name__ == "__main__":
    main()
