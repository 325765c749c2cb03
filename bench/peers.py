#!/usr/bin/env python3
"""Peers benchmark (issue 16, item 5): ppl against JAGS 4.3.1 (rjags) and Stan 2.21 (rstan)
on the same models and data, run alternately, round by round (ppl, peer, ppl, peer, ...).

  python3 bench/peers.py [--build build] [--repeats 3] [--quick] [--only pumps,eight] [--z 4] [--same-file]

With --same-file, ppl runs the JAGS model file itself (bench/peers/NAME.bug) with the R data
JAGS reads: the BUGS front end's figures, on the workloads that have a JAGS peer.

Workloads (bench/models/*.ppl; the JAGS and Stan versions are in bench/peers/):
  beta_bernoulli  100,000 Bernoulli observations, one chain: sweeps per CPU second, vs JAGS
  gamma_poisson   hierarchical Gamma-Poisson, 1,000 groups, 100,000 counts, one chain: sweeps
                  per CPU second, vs JAGS
  pumps           BUGS pumps, 4 chains x 10,000 draws after 1,000 warmup: bulk ESS per CPU
                  second (min and median over alpha, beta, theta[1..10]), vs JAGS
  eight           eight schools, non-centred (examples/eight_schools), 4 chains x 10,000 draws
                  after 1,000 warmup: bulk ESS per CPU second of mu and of tau, vs Stan
  intercepts      varying intercepts (bench/models/varying_intercepts.ppl: 1,000 observations in 50
                  groups, a[g[n]] + b * x[n]), 4 chains x 5,000 draws after 1,000 warmup: bulk
                  ESS per CPU second (min and median over mu, tau, b, s, a[1..50]), vs Stan and JAGS
  logistic        MASS::Pima.tr logistic regression, 7 predictors, 4 chains x 5,000 draws
                  after 1,000 warmup: bulk ESS per CPU second (min and median over b0, b[1..7]),
                  vs Stan and vs JAGS with its glm module

How it measures:
  * Time is CPU seconds (user + system), never wall time: the machine has 2 cores and is
    shared, and ppl runs its chains on threads while rstan and rjags run them one after
    another. Only the draws phase is timed for the headline figures:
      ppl:  CPU(warmup W + draws D) - CPU(warmup W + 1 draw), two whole `ppl infer` processes
            with the same seed (so the same warmup), read from the operating system's
            accounting of the finished child (wait4); scaled by D / (D - 1). This leaves out
            start-up, reading the data and building the graph, and includes what ppl does
            per draw besides sampling: lp__, writing the draws file, its summary at the end.
      JAGS: proc.time() around coda.samples(D) in the R process (JAGS runs inside it);
            compilation, adaptation and burn-in are before it.
      Stan: get_elapsed_time()'s sampling column summed over the chains (Stan 2.21 measures
            it with clock(), the process's CPU time); the model is compiled once, before any
            timed run, and loaded from a cache (build/bench/peers/*.rds).
    The "warmup included" rows add the set-up: ppl's whole first process (start-up, graph,
    warmup, draws); JAGS's compile + adaptation + burn-in; Stan's warmup (not R's start-up
    or loading the compiled model).
  * The conjugate workloads' draws phase is so cheap for ppl that 2,000 sweeps take a few
    milliseconds, within the noise of two processes' CPU accounting: ppl runs 100 times
    (beta_bernoulli) or 20 times (gamma_poisson) the peer's number of draws, and its rate is
    sweeps over its own draws phase.
  * One ESS estimator for every system: bench/peers/ess.R runs the R package `posterior`'s
    ess_bulk (rank-normalised bulk ESS) and mcse_mean on each system's draws file.
  * Posteriors must agree: each round compares every parameter's mean, ppl's against the
    peer's, as z = difference / sqrt(mcse_ppl^2 + mcse_peer^2), and warns when |z| > --z.
  * Ratios are ppl / peer, taken round by round (a pair of runs close in time, so a change in
    the machine's speed moves both), and the table prints their median over the rounds with
    the smallest and largest.

A peer that is not installed (Rscript, or the R package rjags, rstan or posterior) is skipped
with a message; a workload with no peer left is skipped.
"""
import argparse
import csv
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.join(ROOT, "bench", "peers")
MODELS = os.path.join(ROOT, "bench", "models")

PUMPS = {"N": 10, "t": [94.3, 15.7, 62.9, 126, 5.24, 31.4, 1.05, 1.05, 2.1, 10.5], "x": [5, 1, 5, 14, 3, 19, 1, 1, 4, 22]}

# name: what the run is; (warmup, draws) full and --quick; peers; parameters compared and whose ESS counts.
WORKLOADS = {
    "beta_bernoulli": dict(ppl=os.path.join(MODELS, "beta_bernoulli.ppl"), chains=1, full=(20, 2000), quick=(20, 200),
                           kind="sweeps", peers=["jags"], pars=["p"], ppl_scale=100),
    "gamma_poisson": dict(ppl=os.path.join(MODELS, "gamma_poisson.ppl"), chains=1, full=(20, 1000), quick=(20, 100),
                          kind="sweeps", peers=["jags"], pars=["beta"], ppl_scale=20),
    "pumps": dict(ppl=os.path.join(MODELS, "pumps.ppl"), chains=4, full=(1000, 10000), quick=(500, 2000),
                  kind="ess", peers=["jags"], pars=["alpha", "beta"] + [f"theta[{i}]" for i in range(1, 11)]),
    "eight": dict(ppl=os.path.join(ROOT, "examples", "eight_schools", "eight_schools.ppl"), chains=4, full=(1000, 10000),
                  quick=(1000, 1000), kind="ess", peers=["stan"], pars=["mu", "tau"]),
    "intercepts": dict(ppl=os.path.join(MODELS, "varying_intercepts.ppl"), chains=4, full=(1000, 5000), quick=(500, 1000),
                       kind="ess", peers=["stan", "jags"], pars=["mu", "tau", "b", "s"] + [f"a[{j}]" for j in range(1, 51)]),
    "logistic": dict(ppl=os.path.join(MODELS, "logistic.ppl"), chains=4, full=(1000, 5000), quick=(500, 1000),
                     kind="ess", peers=["stan", "jags-glm"], pars=["b0"] + [f"b[{i}]" for i in range(1, 8)]),
}
PEER_FILES = {  # workload, peer -> the peer's model file in bench/peers/
    ("beta_bernoulli", "jags"): "beta_bernoulli.bug", ("gamma_poisson", "jags"): "gamma_poisson.bug",
    ("pumps", "jags"): "pumps.bug", ("eight", "stan"): "eight_schools.stan",
    ("logistic", "stan"): "logistic.stan", ("logistic", "jags-glm"): "logistic.bug",
    ("intercepts", "stan"): "varying_intercepts.stan", ("intercepts", "jags"): "varying_intercepts.bug",
}
PEER_NAMES = {"jags": "JAGS", "jags-glm": "JAGS glm", "stan": "Stan"}


def run(cmd, cwd=None):
    """Runs cmd to its end; returns (stdout, CPU seconds, wall seconds). The CPU seconds are
    user + system of the child and of the descendants it waited for, as the kernel counts
    them (wait4)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=cwd)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        text = out.read().decode()
        if status != 0:
            raise SystemExit(f"failed ({status}): {' '.join(cmd)}\n{err.read().decode()[-2000:]}")
    return text, usage.ru_utime + usage.ru_stime, wall


def fields(text):
    """The 'key value' lines the R drivers print, as a dict of floats."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2:
            try:
                out[parts[0]] = float(parts[1])
            except ValueError:
                pass
    return out


# ---- data: one dict per workload, written as JSON for ppl and as R assignments for R ----

def r_value(v):
    if isinstance(v, bool) or not isinstance(v, (int, float, list)):
        raise TypeError(v)
    if isinstance(v, int):
        return f"{v}L"
    if isinstance(v, float):
        return repr(v)
    if v and isinstance(v[0], list):  # a matrix, row by row
        flat = [x for row in v for x in row]
        return f"matrix({r_value(flat)}, nrow = {len(v)}, ncol = {len(v[0])}, byrow = TRUE)"
    if all(isinstance(x, int) for x in v):
        return "as.integer(c(" + ",".join(str(x) for x in v) + "))"
    return "c(" + ",".join(repr(float(x)) for x in v) + ")"


def write_data(tmp, name, data, r_extra):
    """Writes NAME.json (ppl) and NAME.R (R: the same values plus r_extra, the sizes BUGS and
    Stan need declared). Returns the two paths."""
    js, rs = os.path.join(tmp, name + ".json"), os.path.join(tmp, name + ".R")
    with open(js, "w") as f:
        json.dump(data, f)
    with open(rs, "w") as f:
        for k, v in {**data, **r_extra}.items():
            f.write(f"{k} <- {r_value(v)}\n")
    return js, rs


def read_columns(path, types):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: [t(r[k]) for r in rows] for k, t in types.items()}


def make_data(args, name, tmp):
    if name in ("beta_bernoulli", "gamma_poisson"):
        # The same data as bench/conjugate.py: written by the reference program (10 sweeps of its own, not used).
        path = os.path.join(tmp, name + ".csv")
        run([os.path.join(args.build, "bench", "conjugate_reference"), name, "10", path])
        if name == "beta_bernoulli":
            data = read_columns(path, {"y": int})
            return write_data(tmp, name, data, {"N": len(data["y"])})
        data = read_columns(path, {"g": int, "y": int})
        return write_data(tmp, name, data, {"N": len(data["y"]), "J": 1000})
    if name == "pumps":
        return write_data(tmp, name, {"t": PUMPS["t"], "x": PUMPS["x"]}, {"N": PUMPS["N"]})
    if name == "eight":
        with open(os.path.join(ROOT, "examples", "eight_schools", "data.json")) as f:
            data = json.load(f)
        return write_data(tmp, name, {k: data[k] for k in ("y", "sigma")}, {"J": len(data["y"])})
    if name == "intercepts":
        with open(os.path.join(MODELS, "varying_intercepts.json")) as f:
            data = json.load(f)
        return write_data(tmp, name, {k: data[k] for k in ("J", "g", "x", "y")}, {"N": len(data["y"])})
    if name == "logistic":
        path = os.path.join(tmp, "pima.csv")
        run(["Rscript", os.path.join(HERE, "pima.R"), path])
        with open(path) as f:
            rows = list(csv.reader(f))
        X = [[float(x) for x in r[:-1]] for r in rows[1:]]
        y = [int(r[-1]) for r in rows[1:]]
        return write_data(tmp, name, {"X": X, "y": y}, {"N": len(y), "P": len(X[0])})
    raise KeyError(name)


# ---- the systems ----

def available_peers():
    """peer -> None when usable, else the reason it is skipped."""
    reasons = {}
    have_r = shutil.which("Rscript") is not None

    def has(pkg):
        return have_r and subprocess.run(["Rscript", "-e", f"quit(status = !requireNamespace('{pkg}', quietly = TRUE))"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    no_r = "Rscript not found (apt-get install r-base-core)"
    posterior = has("posterior")
    for peer, pkg, debian in (("jags", "rjags", "jags r-cran-rjags"), ("stan", "rstan", "r-cran-rstan")):
        if not have_r:
            reasons[peer] = no_r
        elif not has(pkg):
            reasons[peer] = f"R package {pkg} not installed (apt-get install {debian})"
        elif not posterior:
            reasons[peer] = "R package posterior (the ESS estimator) not installed (apt-get install r-cran-posterior)"
        else:
            reasons[peer] = None
    reasons["jags-glm"] = reasons["jags"]
    return reasons


def ppl_round(args, w, data, seed, out):
    warmup, draws = w["run"]
    draws *= w.get("ppl_scale", 1)
    base = [args.ppl, "infer", w["ppl"], data, "--chains", str(w["chains"]), "--warmup", str(warmup), "--seed", str(seed),
            "--monitor", ",".join(sorted({p.split("[")[0] for p in w["pars"]})), "--quiet"]
    text, full, _ = run(base + ["--draws", str(draws), "--output", out])
    _, short, _ = run(base + ["--draws", "1", "--output", out + ".short.csv"])
    divergent = sum(int(m) for m in re.findall(r"(\d+) divergent after warmup", text))
    return {"draws_cpu": (full - short) * draws / (draws - 1), "total_cpu": full, "divergent": divergent, "draws": draws}


def stan_cache(args, name):
    """Compiles bench/peers/NAME.stan once (not timed) into build/bench/peers/NAME.rds."""
    src = os.path.join(HERE, name)
    cache = os.path.join(args.build, "bench", "peers", name.replace(".stan", ".rds"))
    if not os.path.exists(cache) or os.path.getmtime(cache) < os.path.getmtime(src):
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        print(f"  compiling {name} for rstan (once; not timed) ...", flush=True)
        out, _, _ = run(["Rscript", os.path.join(HERE, "stan_run.R"), "compile", src, cache])
        print(f"  compiled in {fields(out)['compile_elapsed']:.0f} s (wall)", flush=True)
    return cache


def peer_round(args, w, peer, rdata, seed, out):
    warmup, draws = w["run"]
    model = os.path.join(HERE, PEER_FILES[(w["name"], peer)])
    if peer == "stan":
        cmd = ["Rscript", os.path.join(HERE, "stan_run.R"), "sample", w["stan_cache"], rdata, out, str(w["chains"]),
               str(warmup), str(draws), str(seed), ",".join(sorted({p.split("[")[0] for p in w["pars"]}))]
    else:
        cmd = ["Rscript", os.path.join(HERE, "jags_run.R"), model, rdata, out, str(w["chains"]), str(warmup), str(draws),
               str(seed), ",".join(sorted({p.split("[")[0] for p in w["pars"]}))] + (["glm"] if peer == "jags-glm" else [])
    text, process_cpu, _ = run(cmd)
    f = fields(text)
    setup = f.get("setup_cpu", f.get("warmup_cpu"))
    samplers = next((l.split(": ", 1)[1] for l in text.splitlines() if l.startswith("samplers: ")), None)
    return {"draws_cpu": f["draws_cpu"], "total_cpu": setup + f["draws_cpu"], "process_cpu": process_cpu,
            "divergent": f.get("divergent"), "samplers": samplers}


def ess_of(files, pars):
    """file -> parameter -> (mean, mcse, bulk ESS, rhat), from bench/peers/ess.R."""
    text, _, _ = run(["Rscript", os.path.join(HERE, "ess.R"), ",".join(pars)] + files)
    res = {}
    for line in text.splitlines():
        f, p, *vals = line.split("\t")
        res.setdefault(f, {})[p] = tuple(float(v) for v in vals)
    return res


def min_ess_apart(first, second, pars):
    """Two systems' draws files of the same posterior: each one's smallest bulk ESS over
    pars, and how far apart their means are at most, in MCSEs of the difference."""
    ess = ess_of([first, second], pars)
    apart = max(abs(ess[first][p][0] - ess[second][p][0]) / math.hypot(ess[first][p][1], ess[second][p][1]) for p in pars)
    return min(v[2] for v in ess[first].values()), min(v[2] for v in ess[second].values()), apart


# ---- the figures ----

def metrics(w, r):
    """The figures of one system's round r: label -> value."""
    warmup, draws = w["run"]
    if w["kind"] == "sweeps":
        return {"sweeps / CPU s (draws phase)": w["chains"] * r.get("draws", draws) / r["draws_cpu"]}
    ess = [r["ess"][p][2] for p in w["pars"]]
    if len(w["pars"]) == 2:  # eight schools: each parameter on its own
        out = {}
        for p in w["pars"]:
            out[f"bulk ESS of {p} / CPU s"] = r["ess"][p][2] / r["draws_cpu"]
        for p in w["pars"]:
            out[f"bulk ESS of {p} / CPU s, warmup incl."] = r["ess"][p][2] / r["total_cpu"]
        return out
    n = len(w["pars"])
    return {f"bulk ESS / CPU s, min of {n} parameters": min(ess) / r["draws_cpu"],
            f"bulk ESS / CPU s, median of {n}": statistics.median(ess) / r["draws_cpu"],
            f"bulk ESS / CPU s, min of {n}, warmup incl.": min(ess) / r["total_cpu"]}


def describe(label, r, w):
    warmup, draws = w["run"]
    s = f"{label}: draws phase {r['draws_cpu']:.3f} s CPU" + (f" ({r['draws']} draws)" if r.get("draws", draws) != draws else "")
    s += f", with set-up and warmup {r['total_cpu']:.3f} s"
    if "process_cpu" in r:
        s += f" (whole R process {r['process_cpu']:.2f} s)"
    if r.get("divergent"):
        s += f", {r['divergent']:.0f} divergent"
    ess = [r["ess"][p][2] for p in w["pars"]]
    s += f"; bulk ESS min {min(ess):.0f}, median {statistics.median(ess):.0f}"
    if r.get("samplers"):
        s += f"; samplers {r['samplers']}"
    return s


def agreement(w, a, b):
    """Largest |z| over the parameters between two systems' posterior means, and its parameter."""
    zs = []
    for p in w["pars"]:
        (ma, sa, *_), (mb, sb, *_) = a["ess"][p], b["ess"][p]
        zs.append((abs(ma - mb) / (sa * sa + sb * sb) ** 0.5, p, ma, mb))
    return max(zs)


def run_workload(args, name, reasons, tmp):
    w = dict(WORKLOADS[name], name=name)
    w["run"] = w["quick"] if args.quick else w["full"]
    peers = [p for p in w["peers"] if reasons[p] is None]
    for p in w["peers"]:
        if reasons[p] is not None:
            print(f"{name}: skipping {PEER_NAMES[p]}: {reasons[p]}")
    if not peers:
        print(f"{name}: skipped (no peer installed)")
        return []
    warmup, draws = w["run"]
    print(f"== {name}: {w['chains']} chain(s), warmup {warmup}, draws {draws}; ppl vs "
          f"{', '.join(PEER_NAMES[p] for p in peers)}, {args.repeats} round(s)", flush=True)
    data, rdata = make_data(args, name, tmp)
    if args.same_file:
        # ppl reads the very files JAGS reads: its BUGS model and the R data.
        w = dict(w, ppl=os.path.join(HERE, PEER_FILES[(name, "jags")]))
        data = rdata
    if "stan" in peers:
        w["stan_cache"] = stan_cache(args, PEER_FILES[(name, "stan")])
    rounds = []
    for seed in range(1, args.repeats + 1):
        res = {}
        files = {}
        for system in ["ppl"] + peers:  # ppl, then each peer: A B A B across the rounds
            files[system] = os.path.join(tmp, f"{name}_{system}_{seed}.csv")
            res[system] = (ppl_round(args, w, data, seed, files[system]) if system == "ppl"
                           else peer_round(args, w, system, rdata, seed, files[system]))
        ess = ess_of(list(files.values()), w["pars"])
        for system in res:
            res[system]["ess"] = ess[files[system]]
            print(f"  round {seed}: {describe('ppl' if system == 'ppl' else PEER_NAMES[system], res[system], w)}")
        for p in peers:
            z, par, mp, mq = agreement(w, res["ppl"], res[p])
            flag = ""
            if z > args.z:
                flag = f"  WARNING: posteriors differ (|z| > {args.z}): the ratio compares different answers"
                print(f"WARNING: {name} round {seed}: {par} has mean {mp:.5g} under ppl and {mq:.5g} under "
                      f"{PEER_NAMES[p]} (|z| = {z:.1f})", file=sys.stderr)
            res[p]["z"] = z
            print(f"  round {seed}: means ppl vs {PEER_NAMES[p]}: largest |z| {z:.2f} ({par}: {mp:.5g} vs {mq:.5g}){flag}")
        rounds.append(res)
        sys.stdout.flush()
    rows = []
    for p in peers:
        ppl_m = [metrics(w, r["ppl"]) for r in rounds]
        peer_m = [metrics(w, r[p]) for r in rounds]
        for label in ppl_m[0]:
            ratios = [a[label] / b[label] for a, b in zip(ppl_m, peer_m)]
            rows.append(dict(workload=name, metric=label, peer=PEER_NAMES[p],
                             ppl=statistics.median(a[label] for a in ppl_m),
                             other=statistics.median(b[label] for b in peer_m),
                             ratio=statistics.median(ratios), lo=min(ratios), hi=max(ratios),
                             z=max(r[p]["z"] for r in rounds)))
    return rows


def fmt(x):
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--repeats", type=int, help="rounds per workload (default 3; 1 with --quick)")
    ap.add_argument("--quick", action="store_true", help="short runs, one round: a smoke check, not figures")
    ap.add_argument("--only", help="comma-separated workloads: " + ",".join(WORKLOADS))
    ap.add_argument("--z", type=float, default=4.0, help="warn when a posterior mean differs by more MCSEs (default 4)")
    ap.add_argument("--keep", help="keep the data and draws files in this folder")
    ap.add_argument("--same-file", action="store_true",
                    help="ppl runs JAGS's own BUGS model and R data (bench/peers/*.bug), not its .ppl translation; "
                         "workloads with a JAGS peer only")
    args = ap.parse_args()
    args.repeats = args.repeats or (1 if args.quick else 3)
    args.ppl = os.path.join(args.build, "ppl")
    names = args.only.split(",") if args.only else list(WORKLOADS)
    for n in names:
        if n not in WORKLOADS:
            ap.error(f"unknown workload {n}: one of {', '.join(WORKLOADS)}")
    version = subprocess.run([args.ppl, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    print(f"ppl {version}; {time.strftime('%Y-%m-%d %H:%M')}; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores{'; --quick' if args.quick else ''}", flush=True)
    reasons = available_peers()
    rows = []
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep or scratch
        for n in names:
            rows += run_workload(args, n, reasons, tmp)
    if not rows:
        return
    print(f"\nmedians over {args.repeats} round(s); ratio = ppl / peer, paired by round (min-max); "
          f"|z| = largest difference of posterior means in MCSEs")
    head = ("workload", "metric", "ppl", "peer", "peer's", "ratio ppl/peer", "|z|")
    table = [head] + [(r["workload"], r["metric"], fmt(r["ppl"]), r["peer"], fmt(r["other"]),
                       f"{r['ratio']:.3g} ({r['lo']:.3g}-{r['hi']:.3g})", f"{r['z']:.1f}" + (" !" if r["z"] > args.z else ""))
                      for r in rows]
    widths = [max(len(t[i]) for t in table) for i in range(len(head))]
    for t in table:
        print("  ".join(c.ljust(wd) if i < 2 or i == 3 else c.rjust(wd) for i, (c, wd) in enumerate(zip(t, widths))))
    if any(r["z"] > args.z for r in rows):
        print(f"! posterior means differ by more than {args.z} MCSEs in some round: that ratio compares different answers")


if __name__ == "__main__":
    main()
