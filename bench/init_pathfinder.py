#!/usr/bin/env python3
"""`--init pathfinder` against the default start (issue 38, item 4): on the posteriordb
cases of bench/peers_posteriordb.py whose plan is NUTS, the gradients a run spends for its
smallest bulk ESS, with each start.

    python3 bench/init_pathfinder.py [--ppl build/ppl] [--only NAME,...] [--seeds 0,1,2,3,4,5]

Each case runs as the suite does (case.json: chains, warmup, draws, seed + k). Gradients,
summed over the chains, from the report ppl prints: the warmup's leapfrog steps, the kept
draws' (mean leapfrog steps x draws) and, with --init pathfinder, the path's
(`Pathfinder's path of N iterations (G gradients; ...)`); the step-size search's few are
left out of both. The smallest bulk ESS is over the case's reference parameters
(`ppl summary --format csv`). The figure per case is gradients per unit of that ESS,
pathfinder over default (below 1: the path saves work), pooled over the seeds (the
gradients summed over the runs, over their ESS summed), with a 90% bootstrap interval
from resampling the seeds (2,000 resamples, fixed stream): an ESS estimate varies by some
percent from seed to seed, so a ratio within a few percent of 1 is a tie.
"""
import argparse
import csv
import io
import json
import math
import random
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from peers_posteriordb import CASES, SUITE, case_data  # noqa: E402


def run(ppl, case, data_file, spec, seed, init, pars, out, warmup=None):
    cmd = [ppl, "infer", os.path.join(case, "model.ppl"), data_file, "--chains", str(spec["chains"]),
           "--warmup", str(spec["warmup"] if warmup is None else warmup), "--draws", str(spec["draws"]), "--seed", str(seed), "--monitor", ",".join(sorted({p.split("[")[0] for p in pars})),
           "--output", out]
    if init:
        cmd += ["--init", init]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{r.stderr[-2000:]}")
    gradients, nuts = 0.0, False
    for line in r.stdout.splitlines():
        m = re.search(r"mean leapfrog steps ([0-9.]+), ([0-9]+) leapfrog steps in warmup", line)
        if m:
            nuts = True
            gradients += float(m.group(1)) * spec["draws"] + float(m.group(2))
        m = re.search(r"Pathfinder's path of [0-9]+ iterations \(([0-9]+) gradients", line)
        if m:
            gradients += float(m.group(1))
    s = subprocess.run([ppl, "summary", out, "--format", "csv"], capture_output=True, text=True, check=True)
    ess = {row["name"]: float(row["ess_bulk"]) for row in csv.DictReader(io.StringIO(s.stdout)) if row["ess_bulk"] not in ("", "n/a")}
    return gradients, min(ess.get(p, math.nan) for p in pars), nuts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ppl", default="build/ppl")
    ap.add_argument("--only", default="")
    ap.add_argument("--seeds", default="0,1,2,3,4,5", help="added to each case's seed")
    ap.add_argument("--path-warmup", type=int, default=None, help="the pathfinder runs' warmup (default: the case's)")
    ap.add_argument("--default-warmup", type=int, default=None, help="the default start's warmup (default: the case's)")
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n] or list(CASES)
    tmp = tempfile.mkdtemp(prefix="init_pf_")
    print("| posterior | default: gradients, min bulk ESS | pathfinder: gradients, min bulk ESS | gradients per ESS, pathfinder / default (90% interval) |")
    print("|---|---|---|---|")
    ratios = []
    for name in names:
        case = os.path.join(SUITE, name)
        spec = json.load(open(os.path.join(case, "case.json")))
        pars = list(json.load(open(os.path.join(case, "reference.json")))["parameters"])
        data_file, _ = case_data(name, tmp)
        rows = []
        for k in (int(x) for x in args.seeds.split(",")):
            seed = spec["seed"] + k
            d = run(args.ppl, case, data_file, spec, seed, None, pars, os.path.join(tmp, "d.csv"), args.default_warmup)
            p = run(args.ppl, case, data_file, spec, seed, "pathfinder", pars, os.path.join(tmp, "p.csv"), args.path_warmup)
            rows.append((d, p))
        if not rows[0][0][2]:
            print(f"| {name} | (no NUTS block: nothing for the path to start) | | |", flush=True)
            continue
        r = pooled(rows)
        stream = random.Random(1)
        boot = sorted(pooled([stream.choice(rows) for _ in rows]) for _ in range(2000))
        ratios.append(r)
        show = lambda x: ", ".join(f"{g:.0f}, {e:.0f}" for g, e, _ in x)
        print(f"| {name} | {show([d for d, _ in rows])} | {show([p for _, p in rows])} | {r:.2f} ({boot[100]:.2f}-{boot[1899]:.2f}) |",
              flush=True)
    ratios.sort()
    print(f"\nmedian over {len(ratios)} posteriors: {ratios[len(ratios) // 2]:.2f}; worst {ratios[-1]:.2f}; best {ratios[0]:.2f}")


def pooled(rows):
    """Gradients per unit of ESS over the runs, pathfinder's over the default start's."""
    per = lambda runs: sum(g for g, _, _ in runs) / sum(e for _, e, _ in runs)
    return per([p for _, p in rows]) / per([d for d, _ in rows])


if __name__ == "__main__":
    main()
