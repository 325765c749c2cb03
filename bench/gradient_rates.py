#!/usr/bin/env python3
"""Gradients per CPU second of the log density, model by model (issue 40).

Each model is run as `ppl diagnose MODEL DATA --show 0 --repeat N` and with `--repeat 0`;
the difference of their CPU times (user + system, from the child's rusage) is the time of
N gradients, so start-up and diagnose's finite-difference check cancel. Binaries given
with --vs are run alternately with the first, round by round, and each keeps its best
round (the host's noise only ever adds time). The regression is written three ways on
the same data (bench/gradients/): `~`, a `factor` of normal_lpdf per row, and one
vectorised `factor`; their ratios to `~` are the issue's "factor at >= 0.8x the same ~".
low_dim_gauss_mix's log_mix rows are measured against its two component densities as two
`~` over the same values, row by row (a scale per row keeps them from being summed from
sufficient statistics), which evaluate the same Normal terms without the mixing.

    python3 bench/gradient_rates.py --ppl build/ppl [--vs OTHER_PPL ...] [--rounds 3]
"""
import argparse
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.join(HERE, "..", "tests", "suites", "posteriordb")
KIDIQ = os.path.join(SUITE, "kidiq-kidscore_momiq", "data.json")
# name, model, data, gradients per run (about a second each at 754cef0's rates; a run much
# shorter than that is noise)
MODELS = [
    ("garch11", os.path.join(SUITE, "garch-garch11", "model.ppl"), os.path.join(SUITE, "garch-garch11", "data.json"), 20000),
    ("hmm_example", os.path.join(SUITE, "hmm_example-hmm_example", "model.ppl"), os.path.join(SUITE, "hmm_example-hmm_example", "data.json"), 20000),
    # The same with hmm_marginal (older binaries have none: they fail this row).
    ("hmm_example, hmm_marginal", os.path.join(HERE, "gradients", "hmm_example_marginal.ppl"),
     os.path.join(SUITE, "hmm_example-hmm_example", "data.json"), 20000),
    ("low_dim_gauss_mix", os.path.join(SUITE, "low_dim_gauss_mix-low_dim_gauss_mix", "model.ppl"),
     os.path.join(SUITE, "low_dim_gauss_mix-low_dim_gauss_mix", "data.json"), 5000),
    # Its two component densities as two `~` over the same 1,000 values: the `~` log_mix
    # is measured against.
    ("low_dim_gauss_mix, two ~", os.path.join(HERE, "gradients", "mix_two_tilde.ppl"),
     os.path.join(HERE, "gradients", "low_dim_gauss_mix_twice.json"), 5000),
    ("gp_pois_regr", os.path.join(SUITE, "gp_pois_regr-gp_pois_regr", "model.ppl"), os.path.join(SUITE, "gp_pois_regr-gp_pois_regr", "data.json"), 200000),
    # The kernel written in two loops, as the suite's translation was before cov_exp_quad
    # (older binaries have no cov_exp_quad: they run this one only).
    ("gp_pois_regr, kernel in loops", os.path.join(HERE, "gradients", "gp_pois_regr_loops.ppl"),
     os.path.join(SUITE, "gp_pois_regr-gp_pois_regr", "data.json"), 100000),
    ("regression ~", os.path.join(HERE, "gradients", "reg_tilde.ppl"), KIDIQ, 100000),
    ("regression factor per row", os.path.join(HERE, "gradients", "reg_factor_loop.ppl"), KIDIQ, 40000),
    ("regression factor vectorised", os.path.join(HERE, "gradients", "reg_factor_vec.ppl"), KIDIQ, 40000),
]


def cpu_seconds(ppl, model, data, repeat):
    proc = subprocess.Popen([ppl, "diagnose", model, data, "--show", "0", "--repeat", str(repeat)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        return None  # a binary older than the model's functions
    return usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ppl", default="build/ppl")
    ap.add_argument("--vs", action="append", default=[], help="another ppl binary, run alternately")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    binaries = [args.ppl] + args.vs
    best = {}
    for name, model, data, n in MODELS:
        for _ in range(args.rounds):
            for b in binaries:
                full, start = cpu_seconds(b, model, data, n), cpu_seconds(b, model, data, 0)
                if full is None or start is None:
                    best.setdefault((name, b), float("nan"))
                    continue
                seconds = full - start
                rate = n / seconds if seconds > 0 else float("inf")
                best[(name, b)] = max(best.get((name, b), 0.0), rate)
    width = max(len(m[0]) for m in MODELS)
    print(f"{'model':<{width}}  " + "  ".join(f"{os.path.basename(os.path.dirname(os.path.abspath(b))) + '/' + os.path.basename(b):>18}" for b in binaries)
          + ("  ratio first/" + ", ".join(os.path.basename(b) for b in args.vs) if args.vs else ""))
    for name, *_ in MODELS:
        rates = [best[(name, b)] for b in binaries]
        ratios = "  " + " ".join(f"{rates[0] / r:.2f}" for r in rates[1:]) if args.vs else ""
        print(f"{name:<{width}}  " + "  ".join(f"{r:>18,.0f}" if r == r else f"{'fails':>18}" for r in rates) + ratios)
    for form in ("regression factor per row", "regression factor vectorised"):
        print(f"{form} / regression ~ (first binary): {best[(form, binaries[0])] / best[('regression ~', binaries[0])]:.2f}")
    print("low_dim_gauss_mix (log_mix) / low_dim_gauss_mix, two ~ (first binary): "
          f"{best[('low_dim_gauss_mix', binaries[0])] / best[('low_dim_gauss_mix, two ~', binaries[0])]:.2f}")


if __name__ == "__main__":
    main()
