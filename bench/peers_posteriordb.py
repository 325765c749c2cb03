#!/usr/bin/env python3
"""posteriordb posteriors against Stan (issue 40): ppl's translations in tests/suites/posteriordb
against rstan 2.21 on the same data, min bulk ESS per CPU second, alternately round by round.

    python3 bench/peers_posteriordb.py [--ppl build/ppl] [--only garch-garch11,...] [--repeats 1]

Each case runs as the suite does (its case.json: chains, warmup, draws, seed). The Stan programs
are in bench/peers/posteriordb/ (posteriordb's models, rewritten in rstan 2.21's syntax).

  * ppl's CPU is the whole `ppl infer` process (user + system, wait4): parsing, the graph,
    warmup, draws and the draws file. Stan's is its own count of warmup and draws, summed over
    the chains (get_elapsed_time, clock()), leaving out R, the data and the compilation: the
    comparison leans Stan's way.
  * One ESS estimator for both: bench/peers/ess.R (the posterior package's bulk ESS) over the
    reference's parameters; the figure is the smallest, per CPU second.
  * Both answers are checked against each other: a mean more than --z MCSEs apart is flagged.
"""
import argparse
import gzip
import json
import math
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from peers import fields, min_ess_apart, run, stan_cache  # noqa: E402

SUITE = os.path.join(HERE, "..", "tests", "suites", "posteriordb")
# case -> the Stan program in bench/peers/posteriordb/
CASES = {
    "garch-garch11": "garch11.stan",
    "hmm_example-hmm_example": "hmm_example.stan",
    "low_dim_gauss_mix-low_dim_gauss_mix": "low_dim_gauss_mix.stan",
    "gp_pois_regr-gp_pois_regr": "gp_pois_regr.stan",
    "kidiq-kidscore_momiq": "kidscore_momiq.stan",
    "sblrc-blr": "blr.stan",
    "eight_schools-eight_schools_noncentered": "eight_schools_noncentered.stan",
    "mesquite-logmesquite_logvash": "logmesquite_logvash.stan",
    "arK-arK": "arK.stan",
    "kidiq_with_mom_work-kidscore_interaction_c": "kidscore_interaction_c.stan",
    "nes1996-nes": "nes.stan",
    "earnings-logearn_interaction": "logearn_interaction.stan",
    "diamonds-diamonds": "diamonds.stan",
}


def r_value(v):
    """A JSON value as R source: numbers, vectors, and arrays of arrays with their dim (R
    stores them column-major)."""
    if v is None:
        return "NA"
    if not isinstance(v, list):
        return repr(float(v)) if isinstance(v, float) else str(v)
    dims, x = [], v
    while isinstance(x, list):
        dims.append(len(x))
        x = x[0] if x else None
    flat = []

    def walk(a, depth, index):
        if depth == len(dims):
            flat.append(a)
            return
        for i in range(dims[depth]):
            walk(a[i], depth + 1, index + [i])

    walk(v, 0, [])
    if len(dims) == 1:
        return "c(" + ", ".join(r_value(x) for x in flat) + ")"
    # row-major flat -> column-major order
    strides = [math.prod(dims[k + 1:]) for k in range(len(dims))]
    order = []
    for col in range(math.prod(dims)):
        idx, rest = [], col
        for d in dims:
            idx.append(rest % d)
            rest //= d
        order.append(flat[sum(i * s for i, s in zip(idx, strides))])
    return f"structure(c({', '.join(r_value(x) for x in order)}), .Dim = c({', '.join(map(str, dims))}))"


def case_data(name, tmp):
    """A suite case's data as ppl reads it (unpacked where the suite keeps it gzipped, as
    diamonds) and as R assignments for Stan, both paths in `tmp` where written."""
    data_file = os.path.join(SUITE, name, "data.json")
    if not os.path.exists(data_file):
        with gzip.open(data_file + ".gz", "rt") as f:
            data_file = os.path.join(tmp, name + ".json")
            open(data_file, "w").write(f.read())
    data = json.load(open(data_file))
    rdata = os.path.join(tmp, name + ".R")
    with open(rdata, "w") as f:
        for k, v in data.items():
            f.write(f"{k} <- {r_value(v)}\n")
    return data_file, rdata


def nuts_means(path):
    """ppl's draws file: the mean of n_leapfrog__, stepsize__ and accept_stat__ over the draws
    (nan where the file has no such column)."""
    with open(path) as f:
        rows = [line.rstrip("\n").split(",") for line in f if not line.startswith("#")]
    head, body = rows[0], rows[1:]

    def mean(col):
        if col not in head:
            return float("nan")
        k = head.index(col)
        return sum(float(r[k]) for r in body) / len(body)

    return mean("n_leapfrog__"), mean("stepsize__"), mean("accept_stat__")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ppl", default="build/ppl")
    ap.add_argument("--build", default="build", help="where compiled Stan models are cached")
    ap.add_argument("--only", default="", help="comma-separated case names")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--z", type=float, default=5.0)
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    names = [n for n in args.only.split(",") if n] or list(CASES)
    tmp = tempfile.mkdtemp(prefix="pdb_peers_")
    rows = []
    for name in names:
        case = os.path.join(SUITE, name)
        spec = json.load(open(os.path.join(case, "case.json")))
        ref = json.load(open(os.path.join(case, "reference.json")))
        pars = list(ref["parameters"])
        data_file, rdata = case_data(name, tmp)
        cache = stan_cache(args, os.path.join("posteriordb", CASES[name]))
        chains, warmup, draws = spec["chains"], spec["warmup"], spec["draws"]
        for r in range(args.repeats):
            seed = spec["seed"] + r
            p_out, s_out = os.path.join(tmp, f"{name}.{r}.ppl.csv"), os.path.join(tmp, f"{name}.{r}.stan.csv")
            _, p_cpu, _ = run([args.ppl, "infer", os.path.join(case, "model.ppl"), data_file, "--chains",
                               str(chains), "--warmup", str(warmup), "--draws", str(draws), "--seed", str(seed),
                               "--monitor", ",".join(sorted({p.split("[")[0] for p in pars})), "--quiet", "--output", p_out])
            text, _, _ = run(["Rscript", os.path.join(HERE, "peers", "stan_run.R"), "sample", cache, rdata, s_out, str(chains),
                              str(warmup), str(draws), str(seed), ",".join(sorted({p.split("[")[0] for p in pars}))])
            f = fields(text)
            s_cpu = f["warmup_cpu"] + f["draws_cpu"]
            p_ess, s_ess, apart = min_ess_apart(p_out, s_out, pars)
            ratio = (p_ess / p_cpu) / (s_ess / s_cpu)
            rows.append((name, r, p_cpu, s_cpu, p_ess, s_ess, ratio, apart))
            flag = "  ! means differ" if apart > args.z else ""
            print(f"{name:40s} round {r}: ppl {p_cpu:6.1f} s ESS {p_ess:6.0f} | Stan {s_cpu:6.1f} s ESS {s_ess:6.0f} | "
                  f"ppl/Stan {ratio:5.2f}{flag}", flush=True)
            if "mean_leapfrog" in f:
                p_nuts = nuts_means(p_out)
                print(f"{'':40s} leapfrog steps a draw, step size, accept: ppl {p_nuts[0]:.1f}, {p_nuts[1]:.3g}, "
                      f"{p_nuts[2]:.3f} | Stan {f['mean_leapfrog']:.1f}, {f['mean_stepsize']:.3g}, {f['mean_accept']:.3f}", flush=True)
    if rows:
        logs = [math.log(r[6]) for r in rows]
        print(f"geometric mean of ppl/Stan (min bulk ESS per CPU second) over {len(rows)} runs: {math.exp(sum(logs) / len(logs)):.2f}")


if __name__ == "__main__":
    main()
