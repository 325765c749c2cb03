#!/usr/bin/env python3
"""Starts that do not strand a chain (issue 41, item 1): models whose default start lies in a
vague prior's tail, each run from the default start (4 chains of 1,000 + 1,000) on 5 seeds.
Per run: the largest R-hat over every recorded quantity, whether a chain is named as left
behind, the smallest bulk ESS, and the CPU of the whole `ppl infer` process.

    python3 bench/starts.py [--ppl build/ppl] [--seeds 5] [--only weibull,...] [-- EXTRA PPL OPTIONS]

The models (tests/cli/models/starts/ and the BUGS suite; each file says what it changes):
  weibull     a censored Weibull, JAGS's dialect, r ~ dexp(0.01)        (tests/cli/run_starts.sh runs seed 1)
  alligators  Alligators with dunif(-1000, 1000) priors               (likewise)
  epil        Epil with uncentred covariates and Gamma(0.001, 0.001) precisions
  orange      Orange trees, the growth curve model as the manual prints it
"""
import argparse
import csv
import io
import math
import os
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STARTS = os.path.join(ROOT, "tests", "cli", "models", "starts")
BUGS = os.path.join(ROOT, "tests", "suites", "bugs")
MODELS = {
    "weibull": (os.path.join(STARTS, "weibull_censored.jags"), os.path.join(BUGS, "mice", "data.R")),
    "alligators": (os.path.join(STARTS, "alligators_wide.bug"), os.path.join(BUGS, "alligators", "data.R")),
    "epil": (os.path.join(STARTS, "epil_uncentred.bug"), os.path.join(BUGS, "epil", "data.R")),
    "orange": (os.path.join(BUGS, "orange_trees", "model.bug"), os.path.join(BUGS, "orange_trees", "data.R")),
}


def run(ppl, model, data, seed, extra, folder):
    draws = os.path.join(folder, "draws.csv")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([ppl, "infer", model, data, "--seed", str(seed), "-q", "-o", draws, *extra], capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if r.returncode != 0:
        raise SystemExit(f"ppl failed on {model} seed {seed}:\n{r.stderr}")
    s = subprocess.run([ppl, "summary", draws, "--format", "csv"], capture_output=True, text=True, check=True)
    rows = list(csv.DictReader(io.StringIO(s.stdout)))
    def number(x):
        try:
            return float(x)
        except ValueError:
            return math.nan
    rhats = [(number(r["rhat"]), r["name"]) for r in rows if not math.isnan(number(r["rhat"]))]
    ess = [number(r["ess_bulk"]) for r in rows if not math.isnan(number(r["ess_bulk"]))]
    return max(rhats), min(ess), "left behind" in r.stderr + s.stderr, cpu


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ppl", default=os.path.join(ROOT, "build", "ppl"))
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--only", default="")
    p.add_argument("extra", nargs="*", help="options passed to ppl infer (after --)")
    a = p.parse_args()
    names = [n for n in MODELS if not a.only or n in a.only.split(",")]
    print(f"| model | seeds with every R-hat <= 1.01 | largest R-hat (seed) | chains left behind (seeds) | least bulk ESS | CPU s per run |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            model, data = MODELS[name]
            results = [run(a.ppl, model, data, seed, a.extra, folder) for seed in range(1, a.seeds + 1)]
            good = sum(1 for r in results if r[0][0] <= 1.01)
            worst = max(range(len(results)), key=lambda i: results[i][0][0])
            behind = [str(i + 1) for i, r in enumerate(results) if r[2]]
            print(f"| {name} | {good} of {len(results)} | {results[worst][0][0]:.3f} ({worst + 1}: {results[worst][0][1]}) | "
                  f"{', '.join(behind) or 'none'} | {min(r[1] for r in results):.0f} | "
                  f"{min(r[3] for r in results):.1f}-{max(r[3] for r in results):.1f} |", flush=True)


if __name__ == "__main__":
    main()
