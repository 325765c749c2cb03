#!/usr/bin/env python3
"""Where `--method vb`'s coordinate ascent (inference/cavi.cpp) applies among the suites'
cases, and what it gives there: for every case of tests/suites (ppl's translation with
data.json, and the BUGS text where the case has one), `ppl infer --method vb` with the
reference's variables monitored and 4000 draws of q. A refused case prints the start of
its reason. An accepted one prints its CPU seconds, its sweeps, the draws' Pareto k-hat,
and for the reference's quantities the largest |mean_q - mean_ref| / sd_ref and the range
of sd_q / sd_ref (mean field's understated spread shows there); then the same case's MCMC
run (the case's chains, draws, warmup and seed) for its CPU seconds.

  python3 bench/cavi_suites.py [--ppl build/ppl] [--only NAME] [--no-mcmc]
"""
import argparse
import csv
import math
import os
import re
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "suites"))
import run as suites  # noqa: E402  (tests/suites/run.py: the cases and their references)


def timed(argv):
    """(completed process, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(argv, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return p, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def column_moments(path):
    with open(path) as f:
        rows = list(csv.reader(line for line in f if not line.startswith("#")))
    header, body = rows[0], rows[1:]
    out = {}
    for k, name in enumerate(header):
        xs = [float(r[k]) for r in body]
        m = sum(xs) / len(xs)
        out[name] = (m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)))
    return out


def one(case, args, tmp):
    base = [args.ppl, "infer", case.model] + ([case.data] if case.data else [])
    out = os.path.join(tmp, "vb.csv")
    argv = base + ["--method", "vb", "--draws", "4000", "--seed", "1", "--allow-unreliable", "-o", out]
    if case.variables():
        argv += ["--monitor", ",".join(case.variables())]
    p, cpu = timed(argv)
    if p.returncode != 0:
        reason = (p.stderr.strip().splitlines() or ["?"])[-1]
        reason = re.sub(r"^error: ", "", reason)
        m = re.search(r"`([^`]*)` has (neither|no such) update: (.*?)( \(use|;|$)", reason)
        return "refused: " + (f"{m.group(1)}: {m.group(3)}" if m else reason)[:110]
    text = p.stdout
    sweeps = re.search(r"^# sweeps: (\d+), design rows at most (\d+)", text, re.M)
    k = re.search(r"^# pareto_k: (\S+)", text, re.M)
    moments = column_moments(out)
    worst, ratios = 0.0, []
    for name, ref in case.parameters.items():
        if name not in moments or not ref.get("sd"):
            continue
        m, s = moments[name]
        worst = max(worst, abs(m - ref["mean"]) / ref["sd"])
        ratios.append(s / ref["sd"])
    line = (f"vb {cpu:6.2f} s, {sweeps.group(1) if sweeps else '?':>4} sweeps ({sweeps.group(2) if sweeps else '?'} rows), "
            f"k-hat {k.group(1) if k else '?':>6}, max |dmean|/sd {worst:5.2f}, "
            f"sd ratio {min(ratios) if ratios else float('nan'):.2f}-{max(ratios) if ratios else float('nan'):.2f}")
    if not args.no_mcmc:
        spec = case.spec
        mc = base + ["--chains", str(spec.get("chains", 4)), "--draws", str(spec.get("draws", 1000)), "--warmup",
                     str(spec.get("warmup", 1000)), "--seed", str(spec.get("seed", 1)), "--quiet", "-o", os.path.join(tmp, "mc.csv")]
        q, mcpu = timed(mc)
        line += f"; mcmc {mcpu:6.2f} s" if q.returncode == 0 else "; mcmc failed"
    return line


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ppl", default="build/ppl")
    ap.add_argument("--only", default=None, help="one case, by name or suite/name")
    ap.add_argument("--no-mcmc", action="store_true")
    args = ap.parse_args()
    cases = []
    for dialect in ("ppl", "bugs"):
        cases += [c for c in suites.discover("all", None, False, dialect) if not args.only or args.only in (c.name, c.key)]
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            if case.pending:
                continue
            print(f"{case.label:48} {one(case, args, tmp)}", flush=True)


if __name__ == "__main__":
    main()
