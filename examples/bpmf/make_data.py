#!/usr/bin/env python3
"""Synthetic ratings for Bayesian probabilistic matrix factorisation (BPMF; Salakhutdinov &
Mnih 2008, "Bayesian probabilistic matrix factorization using MCMC", ICML), the data of
examples/bpmf/bpmf.ppl and of its hand-written reference, bench/reference/bpmf_reference.cpp.

  python3 examples/bpmf/make_data.py --users 1000 --items 1500 --rank 10 --ratings 100000 \
      --heldout 10000 --seed 1 --out DIR
  python3 examples/bpmf/make_data.py --small --out DIR   # 60 users, 80 items, rank 3

Truth: mu_u, mu_v ~ Normal(0, 0.3^2 I); u_i ~ Normal(mu_u, I), v_j ~ Normal(mu_v, I) in
D = rank dimensions; r_ij = u_i . v_j + Normal(0, 0.5^2) (precision alpha = 4). The observed
pairs are distinct (user, item) pairs drawn uniformly, every user and every item rated at
least once; the held-out pairs are further distinct pairs, none of them observed. Both lists
are sorted by user, then item. Indices are 1-based.

Writes DIR/data.json (the data and the priors: mu0 = 0, W0 = I, nu0 = D, beta0 = 2,
alpha = 4), DIR/heldout.json and DIR/truth.json (the features, their means, and the
held-out RMSE of the noise-free truth, the floor a sampler's prediction approaches).
Plain Python (no numpy); deterministic for a given seed.
"""
import argparse
import json
import math
import os
import random
import time

NOISE_SD = 0.5
MEAN_SD = 0.3


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--users", type=int, default=1000)
    p.add_argument("--items", type=int, default=1500)
    p.add_argument("--rank", type=int, default=10)
    p.add_argument("--ratings", type=int, default=100000)
    p.add_argument("--heldout", type=int, default=10000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--small", action="store_true", help="60 users, 80 items, rank 3, 1500 ratings, 300 held out")
    p.add_argument("--out", required=True)
    args = p.parse_args()
    if args.small:
        args.users, args.items, args.rank, args.ratings, args.heldout = 60, 80, 3, 1500, 300
    if args.ratings < args.users + args.items:  # enough for cover() always to find a pair to give up
        p.error("--ratings must be at least --users + --items")
    if args.ratings + args.heldout > args.users * args.items:
        p.error("--ratings + --heldout exceeds the number of (user, item) pairs")
    return args


def gaussian_rows(rng, rows, mean, sd):
    return [[m + sd * rng.gauss(0.0, 1.0) for m in mean] for _ in range(rows)]


def draw_pairs(rng, users, items, count, exclude):
    """count distinct 0-based pairs drawn uniformly, none in exclude."""
    pairs = set()
    while len(pairs) < count:
        pair = (rng.randrange(users), rng.randrange(items))
        if pair not in exclude:
            pairs.add(pair)
    return pairs


def cover(rng, pairs, users, items):
    """Make every user and item appear, keeping the count: each one missing takes the place
    of a random pair whose user and item both have other ratings."""
    by_user, by_item = [0] * users, [0] * items
    for u, i in pairs:
        by_user[u] += 1
        by_item[i] += 1
    missing = [(u, None) for u in range(users) if by_user[u] == 0]
    missing += [(None, i) for i in range(items) if by_item[i] == 0]
    for u, i in missing:
        while True:
            new = (u if u is not None else rng.randrange(users), i if i is not None else rng.randrange(items))
            if new not in pairs:
                break
        while True:
            old = rng.choice(sorted(pairs))
            if by_user[old[0]] > 1 and by_item[old[1]] > 1:
                break
        pairs.remove(old)
        by_user[old[0]] -= 1
        by_item[old[1]] -= 1
        pairs.add(new)
        by_user[new[0]] += 1
        by_item[new[1]] += 1
    return pairs


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def ratings(rng, pairs, U, V):
    mean = [dot(U[u], V[i]) for u, i in pairs]
    return mean, [m + NOISE_SD * rng.gauss(0.0, 1.0) for m in mean]


def columns(pairs, values):
    return {"user": [u + 1 for u, _ in pairs], "item": [i + 1 for _, i in pairs], "rating": values}


def write(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, separators=(",", ":"))  # floats as repr: round-trip exact
        f.write("\n")


def main():
    args = parse_args()
    start = time.process_time()
    rng = random.Random(args.seed)
    N, M, D = args.users, args.items, args.rank
    mu_u = [MEAN_SD * rng.gauss(0.0, 1.0) for _ in range(D)]
    mu_v = [MEAN_SD * rng.gauss(0.0, 1.0) for _ in range(D)]
    U = gaussian_rows(rng, N, mu_u, 1.0)
    V = gaussian_rows(rng, M, mu_v, 1.0)
    observed = sorted(cover(rng, draw_pairs(rng, N, M, args.ratings, set()), N, M))
    heldout = sorted(draw_pairs(rng, N, M, args.heldout, set(observed)))
    _, r_train = ratings(rng, observed, U, V)
    truth_heldout, r_heldout = ratings(rng, heldout, U, V)
    rmse = math.sqrt(sum((m - r) ** 2 for m, r in zip(truth_heldout, r_heldout)) / len(heldout))

    os.makedirs(args.out, exist_ok=True)
    train = {"N": N, "M": M, "D": D, **columns(observed, r_train), "mu0": [0.0] * D,
             "W0": [[1.0 if a == b else 0.0 for b in range(D)] for a in range(D)], "nu0": D,
             "beta0": 2.0, "alpha": 1.0 / NOISE_SD ** 2}
    write(os.path.join(args.out, "data.json"), train)
    write(os.path.join(args.out, "heldout.json"), columns(heldout, r_heldout))
    write(os.path.join(args.out, "truth.json"),
          {"U": U, "V": V, "mu_u": mu_u, "mu_v": mu_v, "heldout_rmse_of_truth": rmse})
    print(f"bpmf data: {N} users, {M} items, rank {D}, {len(observed)} ratings, {len(heldout)} held out, "
          f"seed {args.seed}; truth's held-out RMSE {rmse:.4f}; {time.process_time() - start:.2f} s CPU -> {args.out}")


if __name__ == "__main__":
    main()
