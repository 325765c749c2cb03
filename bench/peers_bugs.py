#!/usr/bin/env python3
"""The classic BUGS examples against JAGS (issue 40): each run from its own text
(tests/suites/bugs/CASE/model.bug and data.R, as the OpenBUGS manual prints them) by ppl and
by JAGS 4.3.1 (rjags), min bulk ESS per CPU second, alternately case by case.

JAGS refuses four of them as printed (leuk and inhalers observe with ~ nodes built with <-,
bones' `1 : ncat[j] - 1` is (1 : ncat[j]) - 1 in JAGS, mice's C(lower, ) censoring and
inhalers' dflat() are not JAGS's). Where the case holds a model.jags, JAGS runs that instead:
the same statistical model in JAGS's dialect (data blocks, dinterval), each change explained
in the file's comments. ppl still runs model.bug, and both read the same data.R: the
JAGS models do their transforms of the data in their data blocks.

    python3 bench/peers_bugs.py [--ppl build/ppl] [--only rats,bones,...] [--repeats 1]

Each case runs as the suite does (its case.json: chains, warmup, draws, seed), monitoring
the parameters of its reference.json.

  * CPU is the whole run on both sides: ppl's whole `ppl infer` process (user + system,
    wait4: parsing, the graph, warmup, draws and the draws file); JAGS's compilation,
    adaptation, burn-in and draws inside its R process (proc.time, bench/peers/jags_run.R),
    leaving out R's start-up and reading the data.
  * One ESS estimator for both: bench/peers/ess.R (the posterior package's bulk ESS); the
    figure is the smallest over the parameters, per CPU second.
  * CPU per iteration (all chains' warmup and draws) is printed too, as the ratio ppl / JAGS:
    the cost of a sweep apart from how well it mixes.
  * Both answers are checked against each other: a mean more than --z MCSEs apart is flagged.
"""
import argparse
import json
import math
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from peers import fields, min_ess_apart, run  # noqa: E402
from peers_posteriordb import r_value  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "..", "tests", "suites", "bugs"))
from bugs_data import read_bugs_list  # noqa: E402

SUITE = os.path.join(HERE, "..", "tests", "suites", "bugs")
# The examples of issue 40's JAGS table.
CASES = ["line", "rats", "bones", "leuk", "oxford", "mice", "birats", "pumps", "seeds", "inhalers", "schools"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ppl", default="build/ppl")
    ap.add_argument("--only", default="", help="comma-separated case names")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--z", type=float, default=5.0)
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n] or CASES
    tmp = tempfile.mkdtemp(prefix="bugs_peers_")
    rows = []
    for name in names:
        case = os.path.join(SUITE, name)
        spec = json.load(open(os.path.join(case, "case.json")))
        pars = list(json.load(open(os.path.join(case, "reference.json")))["parameters"])
        monitors = ",".join(sorted({p.split("[")[0] for p in pars}))
        # ppl spells BUGS's dotted names with underscores (tau.c is tau_c): JAGS is asked
        # for the model's own spelling, and its draws' header is written back in ppl's.
        # JAGS's model: the case's model.jags where JAGS refuses the printed text.
        jags_model = os.path.join(case, "model.jags")
        if not os.path.exists(jags_model):
            jags_model = os.path.join(case, "model.bug")
        text = open(jags_model).read()
        dotted = {m: m.replace("_", ".") for m in monitors.split(",")
                  if not re.search(rf"\b{re.escape(m)}\b", text) and re.search(rf"\b{re.escape(m.replace('_', '.'))}\b", text)}
        jags_monitors = ",".join(dotted.get(m, m) for m in monitors.split(","))
        model, data = os.path.join(case, "model.bug"), os.path.join(case, "data.R")
        # ppl reads the manual's list(...) itself; R would fill its structure(.Data) arrays
        # column by column, so JAGS gets them rewritten as R assignments.
        rdata = os.path.join(tmp, name + ".R")
        with open(rdata, "w") as f:
            for k, v in read_bugs_list(open(data).read()).items():
                f.write(f"`{k}` <- {r_value(v)}\n")
        chains, warmup, draws = spec["chains"], spec["warmup"], spec["draws"]
        for r in range(args.repeats):
            seed = spec["seed"] + r
            p_out, j_out = os.path.join(tmp, f"{name}.{r}.ppl.csv"), os.path.join(tmp, f"{name}.{r}.jags.csv")
            _, p_cpu, _ = run([args.ppl, "infer", model, data, "--chains", str(chains), "--warmup", str(warmup), "--draws",
                               str(draws), "--seed", str(seed), "--monitor", monitors, "--quiet", "--output", p_out])
            try:
                text, _, _ = run(["Rscript", os.path.join(HERE, "peers", "jags_run.R"), jags_model, rdata, j_out, str(chains), str(warmup),
                                  str(draws), str(seed), jags_monitors])
            except SystemExit as refused:  # JAGS's error is the figure: say so and go on
                why = next((l.strip() for l in str(refused).splitlines() if "error" in l.lower() and "jags.model" not in l), "")
                print(f"{name:10s} round {r}: ppl {p_cpu:6.2f} s | JAGS refused the case: {why}", flush=True)
                continue
            f = fields(text)
            lines = open(j_out).read().split("\n")
            for plain, spelled in dotted.items():
                lines[0] = re.sub(rf"(^|,){re.escape(spelled)}(\[|,|$)", rf"\g<1>{plain}\g<2>", lines[0])
            open(j_out, "w").write("\n".join(lines))
            j_cpu = f["setup_cpu"] + f["draws_cpu"]
            p_ess, j_ess, apart = min_ess_apart(p_out, j_out, pars)
            ratio = (p_ess / p_cpu) / (j_ess / j_cpu)
            rows.append((name, ratio, p_cpu / j_cpu))
            flag = "  ! means differ" if apart > args.z else ""
            print(f"{name:10s} round {r}: ppl {p_cpu:6.2f} s ESS {p_ess:6.0f} | JAGS {j_cpu:6.2f} s ESS {j_ess:6.0f} | "
                  f"ppl/JAGS {ratio:6.2f} | CPU per iteration ppl/JAGS {p_cpu / j_cpu:5.2f}{flag}", flush=True)
    if rows:
        geo = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))  # noqa: E731
        print(f"geometric mean over {len(rows)} runs: ppl/JAGS (min bulk ESS per CPU second) {geo([r[1] for r in rows]):.2f}, "
              f"CPU per iteration ppl/JAGS {geo([r[2] for r in rows]):.2f}")


if __name__ == "__main__":
    main()
