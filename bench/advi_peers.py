#!/usr/bin/env python3
"""ADVI against rstan's vb (issue 38): ppl's `--method advi` and rstan 2.21's `vb()` on
posteriordb posteriors with reference draws (tests/suites/posteriordb), each with Stan's
defaults (mean-field, or --family fullrank; tol_rel_obj 0.01, adaptive eta, 1000 draws).

    python3 bench/advi_peers.py [--ppl build/ppl] [--family meanfield] [--only NAME,...] [--seeds 1,2,3]

Per case and seed:
  * CPU seconds: ppl's whole `ppl infer` process (reading, the graph, the ascent, its
    refinement, the draws and their file); Stan's vb() call alone (R, the data and the
    compilation left out: the comparison leans Stan's way).
  * Distance to the posterior: the largest, over the reference's parameters, of
    |mean of the draws - reference mean| / reference sd; and the largest ratio of the draws'
    sd to the reference sd, or its inverse (a mean-field q understates sds).
  * Each method's Pareto k-hat of its draws (Stan prints its own; ppl's header has it).
  * A vb() that stops with an error counts as an infinite error for Stan (listed at the end).
"""
import argparse
import csv
import json
import math
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from peers import fields, run, stan_cache  # noqa: E402
from peers_posteriordb import CASES, case_data  # noqa: E402

SUITE = os.path.join(HERE, "..", "tests", "suites", "posteriordb")
DEFAULT = ["kidiq-kidscore_momiq", "sblrc-blr", "eight_schools-eight_schools_noncentered", "mesquite-logmesquite_logvash",
           "arK-arK", "kidiq_with_mom_work-kidscore_interaction_c", "nes1996-nes", "earnings-logearn_interaction"]


def moments(path, pars):
    """Mean and sd of each parameter's draws (ppl's and Stan's files alike: comment lines
    with #, a header, then rows; Stan's names x.1 read as x[1])."""
    with open(path) as f:
        rows = list(csv.reader(line for line in f if not line.startswith("#")))
    head = [h if "." not in h else h.split(".")[0] + "[" + ",".join(h.split(".")[1:]) + "]" for h in rows[0]]
    out = {}
    for p in pars:
        k = head.index(p)
        x = [float(r[k]) for r in rows[1:]]
        mean = sum(x) / len(x)
        out[p] = (mean, math.sqrt(sum((v - mean) ** 2 for v in x) / (len(x) - 1)))
    return out


def distance(found, ref):
    worst_mean = max(abs(found[p][0] - ref[p]["mean"]) / ref[p]["sd"] for p in ref)
    worst_sd = max(max(found[p][1] / ref[p]["sd"], ref[p]["sd"] / found[p][1]) for p in ref)
    return worst_mean, worst_sd


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ppl", default="build/ppl")
    ap.add_argument("--build", default="build", help="where compiled Stan models are cached")
    ap.add_argument("--family", default="meanfield", choices=["meanfield", "fullrank"])
    ap.add_argument("--only", default="")
    ap.add_argument("--seeds", default="1,2,3")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    names = [n for n in args.only.split(",") if n] or DEFAULT
    seeds = [int(s) for s in args.seeds.split(",")]
    tmp = tempfile.mkdtemp(prefix="advi_peers_")
    print(f"| posterior | ppl CPU s | Stan CPU s | ppl / Stan CPU | ppl: worst mean error (sd), sd ratio, k-hat | "
          f"Stan: worst mean error (sd), sd ratio, k-hat |")
    print("|---|---|---|---|---|---|")
    ratios, closer, failures = [], 0, []
    for name in names:
        case = os.path.join(SUITE, name)
        ref = json.load(open(os.path.join(case, "reference.json")))["parameters"]
        pars = list(ref)
        data_file, rdata = case_data(name, tmp)
        cache = stan_cache(args, os.path.join("posteriordb", CASES[name]))
        variables = ",".join(sorted({p.split("[")[0] for p in pars}))
        p_cpu, s_cpu, p_d, s_d = [], [], [], []
        for seed in seeds:
            p_out, s_out = os.path.join(tmp, f"{name}.{seed}.ppl.csv"), os.path.join(tmp, f"{name}.{seed}.stan.csv")
            _, cpu, _ = run([args.ppl, "infer", os.path.join(case, "model.ppl"), data_file, "--method", "advi", "--family",
                             args.family, "--seed", str(seed), "--monitor", variables, "--allow-unreliable", "--quiet",
                             "--output", p_out])
            khat = next((float(l.split()[2]) for l in open(p_out) if l.startswith("# pareto_k: ")), float("nan"))
            p_cpu.append(cpu)
            p_d.append(distance(moments(p_out, pars), ref) + (khat,))
            text, _, _ = run(["Rscript", os.path.join(HERE, "peers", "stan_vb.R"), cache, rdata, s_out, args.family, str(seed),
                              variables])
            f = fields(text)
            s_cpu.append(f["vb_cpu"])
            if f.get("failed"):
                failures.append(f"{name} seed {seed}: " + next((l for l in text.splitlines() if l.startswith("reason:")), ""))
                s_d.append((math.inf, math.inf, math.nan))
                continue
            s_khat = f.get("khat", float("nan"))
            s_d.append(distance(moments(s_out, pars), ref) + (s_khat,))
        med = lambda x: sorted(x)[len(x) // 2]
        pc, sc = med(p_cpu), med(s_cpu)
        pm, sm = med([d[0] for d in p_d]), med([d[0] for d in s_d])
        ratios.append(pc / sc)
        closer += pm <= sm
        show = lambda d: (f"{med([x[0] for x in d]):.3f} ({min(x[0] for x in d):.3f}-{max(x[0] for x in d):.3f}), "
                          f"{med([x[1] for x in d]):.2f}, {med([x[2] for x in d]):.2f}")
        print(f"| {name} | {pc:.2f} | {sc:.2f} | {pc / sc:.2f} | {show(p_d)} | {show(s_d)} |", flush=True)
    print(f"\ngeometric mean of ppl / Stan CPU over {len(ratios)} posteriors: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}; "
          f"ppl's median worst mean error at most Stan's on {closer} of {len(ratios)} (medians over seeds {args.seeds})")
    for f in failures:
        print(f"Stan's vb stopped: {f}")


if __name__ == "__main__":
    main()
