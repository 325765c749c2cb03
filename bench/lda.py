#!/usr/bin/env python3
"""LDA benchmark: ppl's `collapsed` sampler against a plain hand-written collapsed Gibbs
sampler (bench/reference/lda_reference.cpp), both on the same corpus in the same run.

Corpus: ../shared/data/debian-descriptions/full/tokens.csv.gz (2.24M tokens), or the
example corpus when ../shared is absent. Model: examples/lda/lda.ppl (alpha 0.1, eta 0.01).

  python3 bench/lda.py [--build build] [--corpus FILE] [--sweeps 50] [--repeats 3] [--skip-k200] [--late]

Figures:
  1. K=50, one chain, one thread: sweeps per second, ppl / reference (target >= 1.0), and
     peak memory (target: ppl <= 1.5 x reference + 50 MB).
  2. K=200: ppl picks the sparse kernel; sweeps per second against the reference (target
     >= 3) and the final log p(w, z) after the same number of sweeps from a random start,
     against two reference runs with different seeds (their difference is the noise).
  3. K=50 on two threads (partitioned AD-LDA) against one thread (target >= 1.7), and its final
     log p(w, z) against the serial sampler's.

The reference times its own sampling loop (the faster of two runs at K=50). ppl's rate is
that of its draws phase as it reports it (`# chain 1 elapsed: warmup ... s, sampling ...
s`; 5 warmup sweeps first, the fastest of --repeats runs): it excludes reading the corpus
and building the graph but includes everything ppl does per iteration (lp__, streaming
the draws file). Peak memory is the
maximum resident set of the process (getrusage via wait4).
"""
import argparse
import csv
import os
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared", "data", "debian-descriptions", "full", "tokens.csv.gz")
EXAMPLE = os.path.join(ROOT, "examples", "lda", "data.csv")


def run(cmd):
    """Runs cmd; returns (stdout, seconds, peak resident MB)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        seconds = time.perf_counter() - start
        if status != 0:
            raise SystemExit(f"failed ({status}): {' '.join(cmd)}")
        out.seek(0)
        return out.read().decode(), seconds, usage.ru_maxrss / 1024


def reference(args, k, sweeps, seed=1):
    out, _, mb = run([args.reference, args.corpus, str(k), str(sweeps), str(seed)])
    fields = dict(line.split() for line in out.splitlines())
    return float(fields["sweeps_per_second"]), float(fields["log_joint"]), mb


def ppl(args, k, sweeps, threads=1, seed=1, warmup=5, init=None):
    """One run: `warmup` sweeps, then `sweeps` draws; returns (seconds of the draws as ppl
    reports them, final lp__, peak MB). init: a file of initial values (default: a draw
    from the prior)."""
    with tempfile.TemporaryDirectory() as tmp:
        draws = os.path.join(tmp, "draws.csv")
        out, _, mb = run([args.ppl, "infer", os.path.join(ROOT, "examples", "lda", "lda.ppl"), args.corpus,
                          "--set", f"K={k}", "--chains", "1", "--warmup", str(warmup), "--draws", str(sweeps),
                          "--threads", str(threads), "--seed", str(seed), "--quiet", "--output", draws]
                         + (["--init", init] if init else []))
        line = next(l for l in out.splitlines() if "elapsed: warmup" in l)
        seconds = float(line.split("sampling ")[1].split(" s")[0])
        with open(draws) as f:
            rows = [r for r in csv.reader(line for line in f if not line.startswith("#"))]
        lp = float(rows[-1][rows[0].index("lp__")])
    return seconds, lp, mb


def ppl_rate(args, k, sweeps, threads=1, warmup=5):
    """Sweeps per second of the draws phase (the fastest of --repeats runs: the shared
    machine's speed varies between runs)."""
    runs = [ppl(args, k, sweeps, threads, warmup=warmup) for _ in range(args.repeats)]
    return sweeps / min(r[0] for r in runs), runs[0][1], max(r[2] for r in runs)


def uniform_topics(path, corpus, k, seed):
    """Writes an --init file that gives every token a topic drawn uniformly from 1..k, the
    reference's start, so that final log p(w, z) compare from the same kind of start."""
    import gzip
    import random
    opener = gzip.open if corpus.endswith(".gz") else open
    with opener(corpus, "rt") as f:
        tokens = sum(1 for _ in f) - 1
    rng = random.Random(seed)
    with open(path, "w") as f:
        f.write("z\n")
        f.write("".join(f"{rng.randrange(k) + 1}\n" for _ in range(tokens)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--corpus", default=SHARED if os.path.exists(SHARED) else EXAMPLE)
    ap.add_argument("--sweeps", type=int, default=50)
    ap.add_argument("--skip-k200", action="store_true")
    ap.add_argument("--late", action="store_true", help="also measure one and two threads after 100 sweeps")
    ap.add_argument("--repeats", type=int, default=3, help="runs of each length; the fastest counts")
    args = ap.parse_args()
    args.ppl = os.path.join(args.build, "ppl")
    args.reference = os.path.join(args.build, "bench", "lda_reference")
    print(f"corpus: {os.path.relpath(args.corpus, ROOT)}; {args.sweeps} sweeps per measurement")

    ref_rate, _, ref_mb = max(reference(args, 50, args.sweeps) for _ in range(2))
    rate, lp_serial, mb = ppl_rate(args, 50, args.sweeps)
    print(f"K=50, one thread: reference {ref_rate:.3f} sweeps/s, ppl {rate:.3f} sweeps/s, ratio {rate / ref_rate:.2f} (target >= 1.0)")
    print(f"  peak memory: reference {ref_mb:.0f} MB, ppl {mb:.0f} MB, allowed {1.5 * ref_mb + 50:.0f} MB")

    rate2, lp_parallel, _ = ppl_rate(args, 50, args.sweeps, threads=2)
    print(f"K=50, partitioned AD-LDA on two threads: {rate2:.3f} sweeps/s, {rate2 / rate:.2f} x one thread (target >= 1.7)")
    if args.late:
        # Past the first sweeps fewer tokens change topic, and the threads have fewer moves
        # to exchange: the rate of a long run.
        late1, _, _ = ppl_rate(args, 50, args.sweeps, threads=1, warmup=100)
        late2, _, _ = ppl_rate(args, 50, args.sweeps, threads=2, warmup=100)
        print(f"  after 100 sweeps: one thread {late1:.3f} sweeps/s, two threads {late2:.3f}, {late2 / late1:.2f} x")
    print(f"  final lp__ after {5 + args.sweeps} sweeps: one thread {lp_serial:.1f}, two threads {lp_parallel:.1f} "
          f"(relative difference {(lp_parallel - lp_serial) / abs(lp_serial):+.2%})")

    if not args.skip_k200:
        ref_rate, ref_lp, _ = reference(args, 200, 5 + args.sweeps, seed=1)
        args.repeats = 1
        _, ref_lp2, _ = reference(args, 200, 5 + args.sweeps, seed=2)
        rate, _, _ = ppl_rate(args, 200, args.sweeps)
        print(f"K=200: reference {ref_rate:.3f} sweeps/s, ppl (sparse) {rate:.3f} sweeps/s, ratio {rate / ref_rate:.2f} (target >= 3)")
        # Final log p(w, z) from the reference's kind of start (uniform topics), two seeds each.
        lps = []
        with tempfile.TemporaryDirectory() as tmp:
            for seed in (1, 2):
                init = os.path.join(tmp, f"init{seed}.csv")
                uniform_topics(init, args.corpus, 200, seed)
                lps.append(ppl(args, 200, args.sweeps, seed=seed, init=init)[1])
        noise = abs(ref_lp - ref_lp2)
        ref_mean, ppl_mean = (ref_lp + ref_lp2) / 2, sum(lps) / 2
        print(f"  final log p(w, z) after {5 + args.sweeps} sweeps from uniform topics: reference {ref_lp:.1f} and {ref_lp2:.1f}, "
              f"ppl {lps[0]:.1f} and {lps[1]:.1f} (seeds 1, 2); mean difference {ppl_mean - ref_mean:+.1f} "
              f"({(ppl_mean - ref_mean) / abs(ref_mean):+.3%}); spread between seeds: reference {noise:.1f}, ppl {abs(lps[0] - lps[1]):.1f}")


if __name__ == "__main__":
    main()
