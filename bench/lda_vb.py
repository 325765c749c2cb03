#!/usr/bin/python3
"""Variational LDA against gensim and scikit-learn (issue 38): held-out perplexity against
CPU seconds for ppl's batch and online VB (`--method vb`), gensim's LdaModel (online and
batch), scikit-learn's LatentDirichletAllocation (online and batch) and ppl's collapsed
Gibbs sampler (a run for each of --gibbs-sweeps sweeps, its E[phi | z] at the last), on the same
documents with the same priors, every model scored by the same estimator.

Corpus: ../shared/data/debian-descriptions/full/tokens.csv.gz (60,726 documents, 2.24M
tokens), or the example corpus (examples/lda/data.csv) when ../shared is absent. Every
tenth document (d mod 10 == 0) is held out; the others are trained on. Priors: alpha 0.1,
eta 0.01 (examples/lda/lda.ppl). Each method's local step is the same: at most 100 rounds,
until gamma's mean change falls below 0.001.

The estimator (document completion, Wallach et al. 2009): for each held-out document, the
even-numbered tokens give gamma by the VB local step under E[phi] (the normalised topic-word
matrix each method ends with), and the odd-numbered ones are scored by log sum_k
theta_k phi_kw, theta = gamma / sum(gamma); perplexity = exp(-sum / tokens). ppl computes
it after each pass (samplers/lda_vb.cpp) and this script computes it, in numpy, for every
method's final matrix, ppl's too (the two agree to the digits printed).

CPU: each method's process CPU time (user + system) for the whole training, corpus reading
excluded for gensim and scikit-learn (their corpora are built before the clock starts) and
included for ppl (it reads the CSV and builds its graph), held-out scoring excluded for all.
One core each (ppl --threads 1; the Python libraries with OMP/BLAS threads set to 1), then
gensim's LdaMulticore (2 worker processes) and ppl on 2 threads, compared by wall clock
(the workers' CPU is not this process's to measure).

  /usr/bin/python3 bench/lda_vb.py [--ppl build/ppl] [--corpus FILE] [--topics 50] [--passes 10] [--batch-size 2000]
                                   [--ppl-passes N] [--only ppl,gensim,sklearn,multicore] [--plot bench/lda_vb.svg]

ppl runs twice the passes of the others (--ppl-passes), so that where it is slower per pass
the figure is when it reaches their final perplexity, not whether it does in as many passes.

Needs python3-gensim and python3-sklearn (Debian 12), so /usr/bin/python3, not another
interpreter.
"""
import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import argparse
import csv
import gzip
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.special import psi

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared", "data", "debian-descriptions", "full", "tokens.csv.gz")
EXAMPLE = os.path.join(ROOT, "examples", "lda", "data.csv")
ALPHA, ETA = 0.1, 0.01


def read_corpus(path):
    """Documents as lists of 0-based word ids, in document order; the vocabulary size."""
    opener = gzip.open if path.endswith(".gz") else open
    docs = {}
    words = 0
    with opener(path, "rt") as f:
        reader = csv.reader(f)
        header = next(reader)
        di, wi = header.index("doc"), header.index("word")
        for row in reader:
            d, w = int(row[di]), int(row[wi])
            docs.setdefault(d, []).append(w - 1)
            words = max(words, w)
    return [docs[d] for d in sorted(docs)], words


def split(docs):
    """Every tenth document held out (d = 10, 20, ... counting from 1)."""
    train = [d for i, d in enumerate(docs) if (i + 1) % 10 != 0]
    held = [d for i, d in enumerate(docs) if (i + 1) % 10 == 0]
    return train, held


def write_csv(path, docs):
    with open(path, "w") as f:
        f.write("doc,word\n")
        for i, d in enumerate(docs):
            for w in d:
                f.write(f"{i + 1},{w + 1}\n")


def local_gamma(words, counts, phi_t, alpha, rounds=100, threshold=1e-3):
    """gamma of one document by the VB local step under phi_t (V x K, E[phi] transposed)."""
    k = phi_t.shape[1]
    b = phi_t[words]  # J x K
    gamma = np.full(k, alpha + counts.sum() / k)
    e = np.exp(psi(gamma) - psi(gamma.sum()))
    norm = counts / (b @ e + 1e-100)
    for _ in range(rounds):
        last = gamma
        gamma = alpha + e * (norm @ b)
        e = np.exp(psi(gamma) - psi(gamma.sum()))
        norm = counts / (b @ e + 1e-100)
        if np.mean(np.abs(gamma - last)) < threshold:
            break
    return gamma


def perplexity(phi, held):
    """Document completion perplexity of held-out documents under phi (K x V, rows sum to 1)."""
    phi_t = np.ascontiguousarray(phi.T)
    total, tokens = 0.0, 0
    for doc in held:
        if len(doc) < 2:
            continue
        observed = np.array(doc[0::2])
        words, counts = np.unique(observed, return_counts=True)
        gamma = local_gamma(words, counts.astype(float), phi_t, ALPHA)
        theta = gamma / gamma.sum()
        scored = np.array(doc[1::2])
        total += np.log(phi_t[scored] @ theta).sum()
        tokens += len(scored)
    return float(np.exp(-total / tokens))


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def run_ppl(args, train_csv, held_csv, batch, threads, folder):
    """ppl --method vb: (trace of (CPU s, perplexity) per pass, final CPU s, final phi)."""
    out = os.path.join(folder, "phi.csv")
    cmd = [args.ppl, "infer", os.path.join(ROOT, "examples", "lda", "lda.ppl"), train_csv, "--set", f"K={args.topics}",
           "--method", "vb", "--passes", str(args.ppl_passes or 2 * args.passes), "--heldout", held_csv, "--monitor", "phi", "--means",
           "--threads", str(threads), "-o", out, "-q"]
    if batch:
        cmd += ["--batch-size", str(batch)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"ppl failed: {' '.join(cmd)}\n{r.stderr}")
    total = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    trace, build, scoring = [], None, 0.0
    for line in r.stdout.splitlines():
        if line.startswith("# pass "):
            # "# pass 3: 3 updates, 12.345 s, held-out perplexity 1234.5678": seconds of the
            # method's own wall clock, held-out scoring left out
            seconds = float(line.split(", ")[1].split()[0])
            trace.append((seconds, float(line.rsplit(" ", 1)[1])))
        if line.startswith("# elapsed: "):
            elapsed = float(line.split()[2])
    # What the process spent besides the method (reading the corpus, building the graph,
    # writing): CPU less the method's wall clock on one thread, where the passes' wall clock
    # is their CPU; wall less the method's wall on two threads, where the comparison is of
    # wall clocks (gensim's workers are processes whose CPU this process does not see).
    build = max(0.0, (total if threads == 1 else wall) - elapsed)
    trace = [(build + s, p) for s, p in trace]
    total = trace[-1][0]
    with open(out) as f:
        rows = [l for l in f if not l.startswith("#")]
    header, values = rows[0].strip().split(","), np.array(rows[1].strip().split(","), dtype=float)
    k, v = args.topics, len(values[2:]) // args.topics
    return trace, total, values[2:].reshape(k, v)


def run_gibbs(args, train_csv, held, folder):
    """ppl's collapsed Gibbs sampler, one chain, for each of --gibbs-sweeps sweeps (a run
    each): the CPU of the whole process and this script's perplexity of E[phi | z] at its
    last sweep (--collapsed means)."""
    trace = []
    out = os.path.join(folder, "gibbs.csv")
    for sweeps in (int(x) for x in args.gibbs_sweeps.split(",")):
        cmd = [args.ppl, "infer", os.path.join(ROOT, "examples", "lda", "lda.ppl"), train_csv, "--set", f"K={args.topics}",
               "--chains", "1", "--warmup", str(sweeps - 1), "--draws", "1", "--monitor", "phi", "--collapsed", "means", "-q", "-o", out]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        r = subprocess.run(cmd, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode != 0:
            raise SystemExit(f"ppl failed: {' '.join(cmd)}\n{r.stderr}")
        with open(out) as f:
            rows = list(csv.reader(l for l in f if not l.startswith("#")))  # phi[k,w] names are quoted
        head, values = rows[0], np.array(rows[-1], dtype=float)
        phi = values[[i for i, h in enumerate(head) if h.startswith("phi[")]].reshape(args.topics, -1)
        trace.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, perplexity(phi, held)))
    return trace, trace[-1][0]


def run_gensim(args, train, words, online, multicore=False):
    from gensim.models import LdaModel, LdaMulticore
    bow = [list(zip(*np.unique(d, return_counts=True))) for d in train]
    bow = [[(int(w), int(c)) for w, c in d] for d in bow]
    alpha = np.full(args.topics, ALPHA)
    kw = dict(num_topics=args.topics, id2word={i: str(i) for i in range(words)}, alpha=alpha, eta=ETA, iterations=100,
              gamma_threshold=1e-3, chunksize=args.batch_size if online else len(bow), random_state=1, eval_every=None,
              decay=0.5, offset=1.0)
    clock = (lambda: time.perf_counter()) if multicore else cpu  # LdaMulticore's workers are processes: wall clock
    if online or multicore:
        # Online, gensim is trained in one call with all its passes, as its documentation
        # shows: calling update() once a pass restarts its pass count, and its perplexity
        # then grows pass by pass (4465, 5309, 5933, ... on the example corpus, where one
        # call of 5 passes gives 4436). Its curve is its final point.
        start = clock()
        if multicore:
            model = LdaMulticore(corpus=bow, workers=2, passes=args.passes, **kw)
        else:
            model = LdaModel(corpus=bow, update_every=1, passes=args.passes, **kw)
        return [(clock() - start, None, model.get_topics().copy())], clock() - start
    trace = []
    start = clock()
    model = LdaModel(corpus=None, update_every=0, **kw)
    for p in range(args.passes):
        model.update(bow, passes=1)  # batch: each call one more pass of the whole corpus
        trace.append((clock() - start, None, model.get_topics().copy()))
    return trace, clock() - start


def run_sklearn(args, train, words, online):
    from scipy.sparse import csr_matrix
    from sklearn.decomposition import LatentDirichletAllocation
    rows, cols, vals = [], [], []
    for i, d in enumerate(train):
        w, c = np.unique(d, return_counts=True)
        rows += [i] * len(w)
        cols += list(w)
        vals += list(c)
    x = csr_matrix((vals, (rows, cols)), shape=(len(train), words), dtype=float)
    lda = LatentDirichletAllocation(n_components=args.topics, doc_topic_prior=ALPHA, topic_word_prior=ETA,
                                    learning_method="online" if online else "batch", batch_size=args.batch_size,
                                    learning_offset=1.0, learning_decay=0.5, max_doc_update_iter=100, mean_change_tol=1e-3,
                                    random_state=1, max_iter=1, total_samples=len(train))
    trace = []
    start = cpu()
    if online:
        for p in range(args.passes):
            for b in range(0, len(train), args.batch_size):
                lda.partial_fit(x[b:b + args.batch_size])
            trace.append((cpu() - start, None, lda.components_ / lda.components_.sum(axis=1, keepdims=True)))
    else:
        lda.set_params(max_iter=args.passes)
        lda.fit(x)
        trace.append((cpu() - start, None, lda.components_ / lda.components_.sum(axis=1, keepdims=True)))
    return trace, cpu() - start


def first_reaching(trace, target):
    for seconds, p in trace:
        if p <= target:
            return seconds
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ppl", default=os.path.join(ROOT, "build", "ppl"))
    p.add_argument("--corpus", default=SHARED if os.path.exists(SHARED) else EXAMPLE)
    p.add_argument("--topics", type=int, default=50)
    p.add_argument("--passes", type=int, default=10)
    p.add_argument("--batch-size", type=int, default=2000)
    p.add_argument("--ppl-passes", type=int, default=0, help="ppl's passes (default: twice --passes, so that it can reach the others' final figures)")
    p.add_argument("--only", default="ppl,gensim,sklearn,multicore")
    p.add_argument("--gibbs-sweeps", default="25,50,100,200", help="ppl's collapsed Gibbs: a run for each number of sweeps (empty: none)")
    p.add_argument("--plot", default="")
    args = p.parse_args()
    only = args.only.split(",")
    docs, words = read_corpus(args.corpus)
    train, held = split(docs)
    print(f"corpus {args.corpus}: {len(train)} documents trained on ({sum(map(len, train))} tokens), {len(held)} held out, "
          f"{words} words; K = {args.topics}, {args.passes} passes, batches of {args.batch_size} (online)", flush=True)
    curves = {}
    with tempfile.TemporaryDirectory() as folder:
        train_csv, held_csv = os.path.join(folder, "train.csv"), os.path.join(folder, "held.csv")
        write_csv(train_csv, train)
        write_csv(held_csv, held)
        runs = []
        if "ppl" in only:
            for name, batch in (("ppl vb, batch", 0), ("ppl vb, online", args.batch_size)):
                trace, total, phi = run_ppl(args, train_csv, held_csv, batch, 1, folder)
                check = perplexity(phi, held)
                runs.append((name, trace, total, f"(this script's estimate of its final phi: {check:.2f})"))
            if "multicore" in only:
                for name, batch in (("ppl vb, batch, 2 threads", 0), ("ppl vb, online, 2 threads", args.batch_size)):
                    trace, total, phi = run_ppl(args, train_csv, held_csv, batch, 2, folder)
                    runs.append((name, trace, total, ""))
            if args.gibbs_sweeps:
                trace, total = run_gibbs(args, train_csv, held, folder)
                runs.append(("ppl collapsed Gibbs", trace, total, "(one run per point: " + args.gibbs_sweeps + " sweeps)"))
        scored = lambda trace: [(s, perplexity(phi, held)) for s, _, phi in trace]
        if "gensim" in only:
            for name, online in (("gensim LdaModel, online", True), ("gensim LdaModel, batch", False)):
                trace, total = run_gensim(args, train, words, online)
                runs.append((name, scored(trace), total, ""))
            if "multicore" in only:
                trace, total = run_gensim(args, train, words, True, multicore=True)
                runs.append(("gensim LdaMulticore, 2 workers", scored(trace), total, ""))
        if "sklearn" in only:
            for name, online in (("scikit-learn, online", True), ("scikit-learn, batch", False)):
                trace, total = run_sklearn(args, train, words, online)
                runs.append((name, scored(trace), total, ""))
    print("| method | CPU s (2 threads/workers: wall s) | final held-out perplexity | perplexity after each pass |")
    print("|---|---|---|---|")
    for name, trace, total, note in runs:
        print(f"| {name} | {total:.1f} | {trace[-1][1]:.2f} {note} | {', '.join(f'{q:.1f}' for _, q in trace)} |", flush=True)
        curves[name] = trace
    for reference in ("gensim LdaModel, online", "gensim LdaModel, batch", "scikit-learn, online", "scikit-learn, batch",
                      "gensim LdaMulticore, 2 workers"):
        if reference not in curves:
            continue
        target = curves[reference][-1][1]
        ref_seconds = [t for n, tr, t, _ in runs if n == reference][0]
        for name in curves:
            if not name.startswith("ppl vb") or ("2 threads" in name) != ("Multicore" in reference):
                continue
            reached = first_reaching(curves[name], target)
            ratio = "never" if reached is None else f"{reached:.1f} s, {reached / ref_seconds:.2f}x its CPU"
            print(f"{name} reaches {reference}'s final perplexity {target:.2f} ({ref_seconds:.1f} s): {ratio}")
    if args.plot:
        write_plot(args.plot, curves)


def write_plot(path, curves):
    """Held-out perplexity against CPU seconds, one line per method, as SVG."""
    w, h, m = 640, 400, 60
    xs = [s for c in curves.values() for s, _ in c]
    ys = [q for c in curves.values() for _, q in c]
    x0, x1, y0, y1 = 0, max(xs) * 1.05, min(ys) * 0.98, max(ys) * 1.02
    px = lambda s: m + (s - x0) / (x1 - x0) * (w - 2 * m)
    py = lambda q: h - m - (q - y0) / (y1 - y0) * (h - 2 * m)
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<rect x="{m}" y="{m}" width="{w - 2 * m}" height="{h - 2 * m}" fill="none" stroke="#999"/>',
           f'<text x="{w / 2}" y="{h - 15}" text-anchor="middle">CPU seconds</text>',
           f'<text x="15" y="{h / 2}" transform="rotate(-90 15 {h / 2})" text-anchor="middle">held-out perplexity</text>']
    for i in range(6):
        s, q = x0 + (x1 - x0) * i / 5, y0 + (y1 - y0) * i / 5
        out.append(f'<text x="{px(s)}" y="{h - m + 15}" text-anchor="middle">{s:.0f}</text>')
        out.append(f'<text x="{m - 5}" y="{py(q) + 4}" text-anchor="end">{q:.0f}</text>')
    for i, (name, c) in enumerate(curves.items()):
        colour = colours[i % len(colours)]
        pts = " ".join(f"{px(s):.1f},{py(q):.1f}" for s, q in c)
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
        for s, q in c:
            out.append(f'<circle cx="{px(s):.1f}" cy="{py(q):.1f}" r="2.5" fill="{colour}"/>')
        out.append(f'<text x="{w - m - 5}" y="{m + 15 + 14 * i}" text-anchor="end" fill="{colour}">{name}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
