#!/usr/bin/env python3
"""Ising benchmark: ppl's `gibbs` (chromatic heat-bath) and `cluster` (Swendsen-Wang)
kinds on examples/ising/ising.ppl against a plain hand-written checkerboard heat-bath
sampler (bench/reference/ising_reference.cpp), in the same run.

  python3 bench/ising.py [--build build] [--sweeps 3000] [--repeats 3] [--iat-draws 20000]

Figures:
  1. 512 x 512 torus at beta_c = 0.4406868: site updates per second of `gibbs` on one
     thread and on two (--threads 2), against the reference on one (targets: >= 1.0 and
     >= 1.7). ppl's rate is that of its warmup phase as it reports it (`# chain 1 elapsed:
     warmup ... s`; the fastest of --repeats runs): warmup iterations are sweeps alone,
     without lp__ or recording, which is what the reference times.
  2. 64 x 64 at beta_c: the integrated autocorrelation time of |m| (draws / bulk ESS, from
     `ppl summary`, 4 chains) under `gibbs` and under `cluster` (target: cluster at least
     10 times smaller).
"""
import argparse
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "examples", "ising", "ising.ppl")
BETA_C = "0.4406868"


def ppl_rate(args, threads, tmp):
    """Site updates per second of the warmup phase as ppl times it (the fastest of
    --repeats runs): warmup iterations are sweeps alone, without lp__ or recording."""
    def run():
        out = subprocess.run([args.ppl, "infer", MODEL, "--set", "L=512", "--set", f"beta={BETA_C}", "--sampler", "s=gibbs",
                              "--chains", "1", "--warmup", str(args.sweeps), "--draws", "1", "--monitor", "absmag",
                              "--threads", str(threads), "--quiet", "--output", os.path.join(tmp, "draws.csv")],
                             check=True, capture_output=True, text=True).stdout
        line = next(l for l in out.splitlines() if "elapsed: warmup" in l)
        return float(line.split("warmup ")[1].split(" s")[0])
    return args.sweeps * 512 * 512 / min(run() for _ in range(args.repeats))


def iat(args, kind, tmp):
    draws = os.path.join(tmp, f"{kind}.csv")
    subprocess.run([args.ppl, "infer", MODEL, "--set", "L=64", "--set", f"beta={BETA_C}", "--sampler", f"s={kind}",
                    "--chains", "4", "--warmup", "1000", "--draws", str(args.iat_draws), "--monitor", "absmag",
                    "--quiet", "--output", draws], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = subprocess.run([args.ppl, "summary", draws], check=True, capture_output=True, text=True).stdout.splitlines()
    header = next(l for l in out if l.startswith("name")).split()
    row = next(l for l in out if l.startswith("absmag")).split()
    return float(row[header.index("iat")]), float(row[header.index("ess_bulk")])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--sweeps", type=int, default=3000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--iat-draws", type=int, default=20000)
    args = ap.parse_args()
    args.ppl = os.path.join(args.build, "ppl")
    reference = os.path.join(args.build, "bench", "ising_reference")
    with tempfile.TemporaryDirectory() as tmp:
        ref = max(float(subprocess.run([reference, "512", BETA_C, str(args.sweeps)], check=True, capture_output=True,
                                       text=True).stdout.split()[1]) for _ in range(2))
        one = ppl_rate(args, 1, tmp)
        two = ppl_rate(args, 2, tmp)
        print(f"512 x 512, beta_c: reference {ref:.3g} site updates/s; ppl gibbs {one:.3g} on one thread "
              f"({one / ref:.2f} x, target >= 1.0), {two:.3g} on two ({two / ref:.2f} x the reference, "
              f"{two / one:.2f} x one thread; target >= 1.7)")
        g, g_ess = iat(args, "gibbs", tmp)
        c, c_ess = iat(args, "cluster", tmp)
        print(f"64 x 64, beta_c, |m| over 4 x {args.iat_draws} draws: integrated autocorrelation time gibbs {g:.1f} sweeps "
              f"(ess {g_ess:.0f}), cluster {c:.2f} sweeps (ess {c_ess:.0f}): {g / c:.1f} x smaller (target >= 10)")


if __name__ == "__main__":
    main()
