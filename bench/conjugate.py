#!/usr/bin/env python3
"""Conjugate-update benchmark: ppl's `conjugate` sampler against hand-written loops.

Two models on 100,000 observations: Beta-Bernoulli, and a hierarchical Gamma-Poisson
(1,000 groups; lambda_j | beta and beta | lambda are both conjugate). The reference
(bench/reference/conjugate_reference.cpp) writes the data and times its own sweeps; ppl
runs one chain on the same data twice, with S1 and S2 draws, so that the difference
excludes start-up and graph building. The figure is the ratio of sweeps per second.

  python3 bench/conjugate.py [--build build] [--sweeps 200]
"""
import argparse
import os
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ppl_rate(ppl, model, data, s1, s2):
    def run(draws):
        start = time.perf_counter()
        subprocess.run([ppl, "infer", model, data, "--chains", "1", "--warmup", "0", "--draws", str(draws),
                        "--quiet", "--monitor", "beta" if "gamma" in model else "p"],
                       check=True, stdout=subprocess.DEVNULL)
        return time.perf_counter() - start
    return (s2 - s1) / (run(s2) - run(s1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--sweeps", type=int, default=200)
    args = ap.parse_args()
    ppl = os.path.join(args.build, "ppl")
    reference = os.path.join(args.build, "bench", "conjugate_reference")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("beta_bernoulli", "gamma_poisson"):
            data = os.path.join(tmp, name + ".csv")
            out = subprocess.run([reference, name, str(args.sweeps * 5), data], check=True, capture_output=True, text=True)
            ref = float(out.stdout.split()[1])
            ours = ppl_rate(ppl, os.path.join(ROOT, "bench", "models", name + ".ppl"), data, args.sweeps // 4, args.sweeps)
            print(f"{name}: reference {ref:.1f} sweeps/s, ppl {ours:.1f} sweeps/s, ratio {ours / ref:.2f}")


if __name__ == "__main__":
    main()
