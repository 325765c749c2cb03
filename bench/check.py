#!/usr/bin/env python3
"""Checking benchmark (issue 18, item 14): `ppl check` on generated models of 25,000,
50,000 and 100,000 statements, with their data, so that the time covers parsing, checking,
binding the data and building the graph. Checking must be linear in the model's size;
the target is under a second for 100,000 statements.

Each block of five statements mixes what a large generated model holds: a chain of
unknowns, a scale, a deterministic statement, a loop of observations over a column of a
data matrix, and a factor.

  python3 bench/check.py [--ppl build/ppl] [--sizes 25000,50000,100000] [--repeat 3]

Prints the CPU time (user + system) of each `ppl check`, the best of --repeat runs, read
with resource.getrusage in a fresh child per run, so that other work on the machine does
not count.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROWS = 3  # observations per block


def write_model(path, blocks):
    lines = [f"data y: real[N, {blocks}]", "data mu0: real = 0.0"]
    for k in range(1, blocks + 1):
        lines += [
            f"mu{k} ~ Normal(mu{k - 1}, 1)",
            f"s{k} ~ HalfNormal(1)",
            f"m{k} = mu{k} + 0.5 * s{k}",
            f"for n in 1:N {{ y[n, {k}] ~ Normal(m{k}, s{k}) }}",
            f"factor -0.5 * (m{k} - mu{k - 1}) ^ 2",
        ]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines) - 2  # statements, not counting the declarations


def write_data(path, blocks):
    rows = [[round(0.1 * ((n + k) % 7), 1) for k in range(blocks)] for n in range(ROWS)]
    with open(path, "w") as f:
        json.dump({"y": rows}, f)


def cpu_seconds(command):
    """CPU time of one run of `command` in a fresh child, so that the figure is its own."""
    code = ("import resource,subprocess,sys;"
            "subprocess.run(sys.argv[1:],check=True,stdout=subprocess.DEVNULL);"
            "r=resource.getrusage(resource.RUSAGE_CHILDREN);print(r.ru_utime+r.ru_stime)")
    out = subprocess.run([sys.executable, "-c", code, *command], check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppl", default=os.path.join(ROOT, "build", "ppl"))
    ap.add_argument("--sizes", default="25000,50000,100000")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            blocks = size // 5
            model, data = os.path.join(tmp, f"m{size}.ppl"), os.path.join(tmp, f"d{size}.json")
            statements = write_model(model, blocks)
            write_data(data, blocks)
            best = min(cpu_seconds([args.ppl, "check", model, data]) for _ in range(args.repeat))
            print(f"{statements:>7} statements: {best:.2f} s CPU (best of {args.repeat})", flush=True)


if __name__ == "__main__":
    main()
