#!/usr/bin/env python3
"""Tempered SMC (`ppl infer --method smc`, issue 19): the evidence of eight schools, its
standard error and cost, and how the cost grows with the number of observations.

1. examples/eight_schools with --threads 2 and the default 4 runs, at several particle
   counts: log evidence, its standard error (from the runs' spread), wall and CPU seconds,
   and particles per CPU second (particles x runs / CPU seconds, the whole run: prior
   draws, reweighting, resampling and every move). The machine is shared, so CPU seconds
   are the steadier figure.
2. A normal model with unknown mean and scale (mu ~ Normal(0, 10), sigma ~ HalfNormal(5),
   y[n] ~ Normal(mu, sigma)) on N = 10 ... 10,000 simulated observations: the number of
   temperatures the adaptive ladder takes, and the CPU seconds, one run of 500 particles.

  python3 bench/smc.py [--build build]
"""
import argparse
import os
import random
import re
import resource
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    field = lambda key: re.search(rf"^# {key}: (.*)$", out, re.M).group(1)
    return out, wall, cpu, field


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    ppl = os.path.join(args.build, "ppl")
    school = os.path.join(ROOT, "examples", "eight_schools")
    print("| particles per run | runs | log evidence | se | wall s | CPU s | particles per CPU s | temperatures per run |")
    print("|---|---|---|---|---|---|---|---|")
    for particles in (250, 1000, 4000):
        _, wall, cpu, field = run([ppl, "infer", f"{school}/eight_schools.ppl", f"{school}/data.json", "--method", "smc",
                                   "--particles", str(particles), "--threads", "2", "--quiet"])
        print(f"| {particles} | 4 | {float(field('log_evidence')):.4f} | {float(field('log_evidence_se')):.4f} | {wall:.2f} | "
              f"{cpu:.2f} | {4 * particles / cpu:.0f} | {field('temperatures per run')} |")
    print()
    print("| observations N | temperatures | CPU s | CPU s per temperature | log evidence |")
    print("|---|---|---|---|---|")
    model = "data y: real[N]\nmu ~ Normal(0, 10)\nsigma ~ HalfNormal(5)\nfor n in 1:N { y[n] ~ Normal(mu, sigma) }\n"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "normal.ppl")
        open(path, "w").write(model)
        rng = random.Random(1)
        for n in (10, 100, 1000, 10000):
            data = os.path.join(tmp, f"y{n}.csv")
            with open(data, "w") as f:
                f.write("y\n" + "".join(f"{rng.gauss(3, 2):.6f}\n" for _ in range(n)))
            _, wall, cpu, field = run([ppl, "infer", path, data, "--method", "smc", "--particles", "500", "--runs", "1",
                                       "--quiet"])
            temperatures = int(field("temperatures per run"))
            print(f"| {n} | {temperatures} | {cpu:.2f} | {cpu / temperatures:.3f} | {float(field('log_evidence')):.2f} |")


if __name__ == "__main__":
    main()
