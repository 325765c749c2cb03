#!/usr/bin/env python3
"""BPMF at the Netflix prize's shape (issue 39, item 3): ppl against the hand-written sampler
on one machine, peak memory and time by stage.

    python3 bench/bpmf_scale.py [--ratings 100000000] [--users 480189] [--items 17770]
        [--rank 10] [--heldout 1000000] [--sweeps 10] [--warmup 2] [--dir /tmp/bpmf_netflix]
        [--processes 2] [--threads 2]

The data come from build/bench/bpmf_generate (written once into --dir, kept for later
runs): ratings.csv and heldout.csv (user,item,rating) and priors.json. Each command runs once,
alone, as a whole process; its CPU (user + system) and peak resident memory are the
kernel's accounting of the child (wait4):

  read      `ppl check` of a model that declares only the three columns: reading the CSV
  ppl       `ppl infer examples/bpmf/bpmf.ppl ratings.csv --set (priors) --heldout heldout.csv
            --chains 1 --warmup W --draws S - W`; its sweeps' time is the chain's elapsed
            warmup and sampling (one chain: one thread), the rest is reading and building
  reference `build/bench/bpmf_reference ratings.csv heldout.csv --priors priors.json
            --sweeps S --burnin W`; its sweeps' time is the CPU it prints for the updates

  threads   (with --threads T): the same `ppl infer` with `--threads T`, the users' and
            items' blocks split between T threads; its sweeps' time against one thread's
  processes (with --processes R, an MPI build): the same `ppl infer` under `mpirun -np R`,
            one chain whose conjugate updates the R processes share (docs/cluster.md); its
            sweeps' time, the chain's elapsed warmup and sampling, against one process's

Printed: each side's peak, sweep time and held-out RMSE (of the posterior-mean prediction),
and the issue's three ratios: peak memory ppl / reference (target <= 1.5), time per sweep
ppl / reference (<= 1.3), and ppl's build (everything before the first sweep but reading)
over the read (<= 2).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def peak_of(cmd):
    """CPU, peak MiB, wall, stdout, stderr: the command under /usr/bin/time -f."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".time") as t:
        start = time.monotonic()
        p = subprocess.run(["/usr/bin/time", "-o", t.name, "-f", "%U %S %M", *cmd], capture_output=True, text=True)
        wall = time.monotonic() - start
        if p.returncode != 0:
            sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
        user, system, kb = t.read().split()[-3:]
    return float(user) + float(system), int(kb) / 1024, wall, p.stdout, p.stderr


def sweeps_and_rmse(text):
    """The chain's elapsed warmup + sampling, and its last held-out RMSE, from a run's output."""
    m = re.search(r"elapsed: warmup ([\d.]+) s, sampling ([\d.]+) s", text)
    rmse = re.findall(r"held-out RMSE of rating \(posterior-mean prediction\):? ([\d.]+)", text)[-1]
    return float(m.group(1)) + float(m.group(2)), float(rmse)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ratings", type=int, default=100_000_000)
    ap.add_argument("--users", type=int, default=480_189)
    ap.add_argument("--items", type=int, default=17_770)
    ap.add_argument("--rank", type=int, default=10)
    ap.add_argument("--heldout", type=int, default=1_000_000)
    ap.add_argument("--sweeps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dir", default="/tmp/bpmf_netflix")
    ap.add_argument("--ppl", default=os.path.join(ROOT, "build", "ppl"))
    ap.add_argument("--processes", type=int, default=1, help="also run ppl's chain shared by this many MPI processes")
    ap.add_argument("--threads", type=int, default=1, help="also run ppl's chain with --threads this many")
    ap.add_argument("--reference", default=os.path.join(ROOT, "build", "bench", "bpmf_reference"))
    ap.add_argument("--generator", default=os.path.join(ROOT, "build", "bench", "bpmf_generate"))
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    ratings, heldout, priors = (os.path.join(a.dir, f) for f in ("ratings.csv", "heldout.csv", "priors.json"))
    shape = [str(x) for x in ("--users", a.users, "--items", a.items, "--rank", a.rank, "--ratings", a.ratings, "--heldout", a.heldout, "--seed", a.seed)]
    stamp = os.path.join(a.dir, "made_with")
    if not os.path.exists(stamp) or open(stamp).read() != " ".join(shape):
        cpu, peak, wall, out, _ = peak_of([a.generator, *shape, "--out", a.dir])
        open(stamp, "w").write(" ".join(shape))
        print(f"generated in {wall:.1f} s ({cpu:.1f} s CPU, {peak:.0f} MiB): {out.strip()}")
    size = os.path.getsize(ratings) / 1e6
    sets = []
    for k, v in json.load(open(priors)).items():
        sets += ["--set", f"{k}={json.dumps(v).replace(' ', '')}"]

    with tempfile.TemporaryDirectory() as tmp:
        reader = os.path.join(tmp, "columns.ppl")
        open(reader, "w").write("data user: int[R]\ndata item: int[R]\ndata rating: real[R]\n")
        r_cpu, r_peak, r_wall, _, _ = peak_of([a.ppl, "check", reader, ratings])
        draws = os.path.join(tmp, "draws.csv")
        infer_args = ["infer", os.path.join(ROOT, "examples", "bpmf", "bpmf.ppl"), ratings, *sets, "--heldout", heldout, "--chains", "1",
                      "--warmup", str(a.warmup), "--draws", str(a.sweeps - a.warmup), "--seed", str(a.seed), "--monitor", "mu_u", "-o", draws]
        p_cpu, p_peak, p_wall, p_out, err = peak_of([a.ppl, *infer_args])
        text = open(draws).read() + p_out + err
        p_sweeps, p_rmse = sweeps_and_rmse(text)
        if a.threads > 1:
            h_cpu, h_peak, h_wall, h_out, h_err = peak_of([a.ppl, *infer_args, "--threads", str(a.threads)])
            h_sweeps, h_rmse = sweeps_and_rmse(open(draws).read() + h_out + h_err)
        if a.processes > 1:
            mpi = ["mpirun", "-np", str(a.processes)] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])
            t_cpu, t_peak, t_wall, t_out, t_err = peak_of([*mpi, a.ppl, "infer", *infer_args[1:]])
            t_sweeps, t_rmse = sweeps_and_rmse(open(draws).read() + t_out + t_err)
    f_cpu, f_peak, f_wall, out, _ = peak_of([a.reference, ratings, heldout, "--priors", priors, "--sweeps", str(a.sweeps),
                                             "--burnin", str(a.warmup), "--seed", str(a.seed)])
    fields = dict(line.split() for line in out.splitlines() if len(line.split()) == 2)
    f_sweeps, f_rmse = float(fields["seconds"]), float(fields["heldout_rmse"])
    build = p_cpu - p_sweeps - r_cpu
    print(f"{a.ratings:,} ratings of {a.users:,} users and {a.items:,} items, rank {a.rank}, {a.heldout:,} held out "
          f"({size:,.0f} MB of CSV); {a.sweeps} sweeps ({a.warmup} warmup); load {os.getloadavg()[0]:.2f}")
    print(f"{'':12} {'CPU s':>9} {'peak MiB':>9} {'sweeps s':>9} {'s/sweep':>8} {'RMSE':>7}")
    print(f"{'read (ppl)':12} {r_cpu:9.1f} {r_peak:9.0f}   ({size / max(r_cpu, 1e-9):.0f} MB/s)")
    print(f"{'ppl':12} {p_cpu:9.1f} {p_peak:9.0f} {p_sweeps:9.1f} {p_sweeps / a.sweeps:8.2f} {p_rmse:7.4f}")
    print(f"{'reference':12} {f_cpu:9.1f} {f_peak:9.0f} {f_sweeps:9.1f} {f_sweeps / a.sweeps:8.2f} {f_rmse:7.4f}")
    print(f"peak ppl/reference {p_peak / f_peak:.2f} (target <= 1.5); sweep ppl/reference {p_sweeps / f_sweeps:.2f} (<= 1.3); "
          f"ppl's build {build:.1f} s over its read {r_cpu:.1f} s: {build / r_cpu:.2f} (<= 2)")
    if a.threads > 1:
        print(f"ppl with --threads {a.threads}: sweeps {h_sweeps:.1f} s ({h_sweeps / a.sweeps:.2f} s/sweep), RMSE {h_rmse:.4f}, "
              f"{h_cpu:.1f} s CPU, peak {h_peak:.0f} MiB; sweeps {p_sweeps / h_sweeps:.2f}x as fast as one thread's, "
              f"{h_sweeps / f_sweeps:.2f}x the reference's time")
    if a.processes > 1:
        print(f"ppl on {a.processes} processes: sweeps {t_sweeps:.1f} s ({t_sweeps / a.sweeps:.2f} s/sweep), RMSE {t_rmse:.4f}, "
              f"whole run {t_wall:.1f} s wall, {t_cpu:.1f} s CPU in all, each process's peak {t_peak:.0f} MiB; "
              f"sweeps {p_sweeps / t_sweeps:.2f}x as fast as one process's (target >= 1.7)")


if __name__ == "__main__":
    main()
