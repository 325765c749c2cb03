#!/usr/bin/env python3
"""BNN benchmark (examples/bnn, Boston housing, 13 inputs, H = 50 tanh units, 752 unknowns).

  python3 bench/bnn.py [--build build] [--repeats 3] [--evaluations 2000] [--skip-samplers]

Figures:
  1. Gradient evaluations per second of the log density: `ppl diagnose --repeat N` (the
     graph's reverse-mode pass, with the transforms' chain rule) against a hand-written
     Eigen implementation of the same density and gradient
     (bench/reference/bnn_reference.cpp), run alternately, best of --repeats each
     (target: ppl at least 0.5x).
  2. Effective samples per second on mu_test (the 51 held-out predictive means) for the
     network's weights sampled by `nuts`, `rwmh` and `slice` (forced with --sampler), one
     chain each: bulk ESS from `ppl summary` over the sampling phase's seconds as ppl
     reports them. The run lengths differ (a slice sweep costs about 750 conditional
     updates, each a pass over the data) and are printed with the figures.
"""
import argparse
import os
import statistics
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "examples", "bnn", "bnn.ppl")
DATA = os.path.join(ROOT, "examples", "bnn", "data.json")
UNKNOWNS = ["W1", "b1", "w2", "b2", "sigma_std"]


def rate(line):
    return float(line.split(": ")[-1].split(" per second")[0])


def ppl_gradients(args):
    out = subprocess.run([args.ppl, "diagnose", MODEL, DATA, "--repeat", str(args.evaluations), "--show", "0"],
                         check=True, capture_output=True, text=True).stdout
    return rate(next(l for l in out.splitlines() if "gradient evaluations in" in l))


def reference_gradients(args):
    out = subprocess.run([args.reference, DATA, str(args.evaluations)], check=True, capture_output=True, text=True).stdout
    return rate(next(l for l in out.splitlines() if "gradient evaluations in" in l))


def ess_per_second(args, kind, warmup, draws, tmp):
    path = os.path.join(tmp, f"{kind}.csv")
    cmd = [args.ppl, "infer", MODEL, DATA, "--chains", "1", "--warmup", str(warmup), "--draws", str(draws), "--seed", "1",
           "--monitor", "mu_test,sigma", "--quiet", "--output", path]
    for u in UNKNOWNS:
        cmd += ["--sampler", f"{u}={kind}"]
    if kind == "nuts":
        cmd += ["--max-depth", "7"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    line = next(l for l in out.splitlines() if "elapsed: warmup" in l)
    seconds = float(line.split("sampling ")[1].split(" s")[0])
    summary = subprocess.run([args.ppl, "summary", path, "--show", "mu_test"], check=True, capture_output=True,
                             text=True).stdout.splitlines()
    header = next(l for l in summary if l.startswith("name")).split()
    ess = [float(l.split()[header.index("ess_bulk")]) for l in summary if l.startswith("mu_test[")]
    return seconds, statistics.median(ess), min(ess)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--evaluations", type=int, default=2000)
    p.add_argument("--skip-samplers", action="store_true", help="only the gradient figure")
    args = p.parse_args()
    args.ppl = os.path.join(args.build, "ppl")
    args.reference = os.path.join(args.build, "bench", "bnn_reference")

    ours, theirs = [], []
    for _ in range(args.repeats):
        ours.append(ppl_gradients(args))
        theirs.append(reference_gradients(args))
    print(f"gradient evaluations per second: ppl {max(ours):.0f}, reference {max(theirs):.0f}, "
          f"ratio {max(ours) / max(theirs):.2f} (best of {args.repeats}; all ppl {[round(x) for x in ours]}, "
          f"reference {[round(x) for x in theirs]})")
    if args.skip_samplers:
        return
    runs = {"nuts": (300, 200), "rwmh": (5000, 5000), "slice": (10, 20)}
    with tempfile.TemporaryDirectory() as tmp:
        for kind, (warmup, draws) in runs.items():
            seconds, median, low = ess_per_second(args, kind, warmup, draws, tmp)
            print(f"{kind:5s}: warmup {warmup}, draws {draws}, sampling {seconds:.1f} s; ESS of mu_test median {median:.0f} "
                  f"(min {low:.0f}); ESS per second median {median / seconds:.3g} (min {low / seconds:.3g})")


if __name__ == "__main__":
    main()
