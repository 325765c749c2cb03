#!/usr/bin/env python3
"""Write data.json and reference.json for every posteriordb case from a snapshot of
github.com/stan-dev/posteriordb.

    python3 tests/suites/posteriordb/make_reference.py [--snapshot GIT_DIR] [--only NAME ...]

GIT_DIR is a clone (bare or not) of stan-dev/posteriordb; files are read from its HEAD
with `git show`, so nothing needs to be checked out. Every posterior whose JSON file
under posterior_database/posteriors/ names a reference posterior gets a directory here
named after it. Plain Python only (no numpy).

Reference figures come from all the reference draws (10 chains of 1000 draws, thinned
by 10 from 10,000 each): mean, sd (n - 1), and the MCSE of the mean, sd / sqrt(ESS),
with ESS the basic (not rank-normalised) estimate of R's posterior package computed on
split chains (`posterior::ess_mean`, which `posterior::mcse_mean` uses).
"""
import argparse
import gzip
import io
import json
import math
import os
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SNAPSHOT = "/work/.mirror/stan-dev+posteriordb/repo"
URL = "https://github.com/stan-dev/posteriordb"
DB = "posterior_database"
# A dataset larger than this is written gzipped (data.json.gz), byte for byte the same.
MAX_PLAIN_DATA = 2_000_000

# Reference columns whose ppl name differs from Stan's (none so far: every model keeps
# Stan's names for what the reference draws hold).
RENAME = {}


class Snapshot:
    def __init__(self, git_dir):
        self.git_dir = git_dir

    def _git(self, *args):
        return subprocess.run(["git", "--git-dir", self.git_dir, *args],
                              check=True, capture_output=True).stdout

    def commit(self):
        return self._git("rev-parse", "HEAD").decode().strip()

    def exists(self, path):
        try:
            self._git("cat-file", "-e", "HEAD:" + path)
            return True
        except subprocess.CalledProcessError:
            return False

    def read(self, path):
        return self._git("cat-file", "blob", "HEAD:" + path)

    def json(self, path):
        return json.loads(self.read(path))

    def zipped_json(self, path):
        """The bytes of the one file inside a .json.zip."""
        with zipfile.ZipFile(io.BytesIO(self.read(path))) as z:
            return z.read(z.namelist()[0])

    def listing(self, folder):
        out = self._git("ls-tree", "--name-only", "HEAD", folder + "/").decode()
        return [line.split("/")[-1] for line in out.splitlines()]


def posteriors_with_reference(snap):
    found = []
    for name in sorted(snap.listing(DB + "/posteriors")):
        if not name.endswith(".json"):
            continue
        info = snap.json(DB + "/posteriors/" + name)
        if info.get("reference_posterior_name"):
            found.append(info)
    return found


def autocovariance_at(chains, means, lag):
    """Mean over chains of the biased lag-`lag` autocovariance (divided by n)."""
    total = 0.0
    for x, m in zip(chains, means):
        n = len(x)
        total += sum((x[i] - m) * (x[i + lag] - m) for i in range(n - lag)) / n
    return total / len(chains)


def ess_basic(chains):
    """Stan's multi-chain ESS with Geyer's initial monotone sequence, as R's posterior
    package (1.x) computes it in `.ess` (called on split chains by `ess_mean`)."""
    m = len(chains)
    n = len(chains[0])
    means = [sum(x) / n for x in chains]
    acov0 = autocovariance_at(chains, means, 0)
    mean_var = acov0 * n / (n - 1)
    var_plus = mean_var * (n - 1) / n
    if m > 1:
        grand = sum(means) / m
        var_plus += sum((c - grand) ** 2 for c in means) / (m - 1)
    if var_plus <= 0:
        return float("nan")

    def rho(lag):
        return 1 - (mean_var - autocovariance_at(chains, means, lag)) / var_plus

    rho_hat = [0.0] * n
    t = 0
    even, odd = 1.0, rho(1)
    rho_hat[0], rho_hat[1] = even, odd
    while t < n - 5 and even + odd > 0:
        t += 2
        even, odd = rho(t), rho(t + 1)
        if even + odd >= 0:
            rho_hat[t], rho_hat[t + 1] = even, odd
    max_t = t
    if even > 0:
        rho_hat[max_t] = even
    t = 0
    while t <= max_t - 4:
        t += 2
        if rho_hat[t] + rho_hat[t + 1] > rho_hat[t - 2] + rho_hat[t - 1]:
            rho_hat[t] = rho_hat[t + 1] = (rho_hat[t - 2] + rho_hat[t - 1]) / 2
    draws = m * n
    tau = -1 + 2 * sum(rho_hat[:max_t]) + rho_hat[max_t]
    tau = max(tau, 1 / math.log10(draws))
    return draws / tau


def split(chains):
    out = []
    for x in chains:
        half = len(x) // 2
        out.append(x[:half])
        out.append(x[len(x) - half:])
    return out


def stats_from_draws(chains):
    values = [v for x in chains for v in x]
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    ess = ess_basic(split(chains))
    return mean, sd, sd / math.sqrt(ess), ess


def reference_from_draws(snap, ref_name):
    raw = snap.zipped_json(DB + "/reference_posteriors/draws/draws/%s.json.zip" % ref_name)
    chains = json.loads(raw)  # a list of chains, each {column: [draws]}
    names = list(chains[0].keys())
    params = {}
    for name in names:
        mean, sd, mcse, ess = stats_from_draws([[float(v) for v in c[name]] for c in chains])
        params[name] = {"mean": mean, "sd": sd, "mcse_mean": mcse,
                        "ess": round(ess, 1)}
    return params, "draws", "%d chains x %d draws" % (len(chains), len(chains[0][names[0]]))


def reference_from_summaries(snap, ref_name):
    """For a posterior whose draws file is not in the snapshot (too large for the mirror):
    posteriordb's own mean and mean-square summaries of the same draws, with their MCSE
    of the mean."""
    base = DB + "/reference_posteriors/summary_statistics/"
    mv = snap.json(base + "mean_value/mean_value/%s.json" % ref_name)
    msv = snap.json(base + "mean_squared_value/mean_squared_value/%s.json" % ref_name)
    info = snap.json(DB + "/reference_posteriors/draws/info/%s.info.json" % ref_name)
    n = info["diagnostics"]["ndraws"]
    squares = dict(zip(msv["names"], msv["mean_squared_value"]))
    params = {}
    for name, mean, mcse in zip(mv["names"], mv["mean_value"], mv["mcse_mean"]):
        var = (squares[name] - mean * mean) * n / (n - 1)
        params[name] = {"mean": mean, "sd": math.sqrt(max(var, 0.0)), "mcse_mean": mcse}
    return params, "summaries", "%d draws, from posteriordb's mean_value and " \
        "mean_squared_value summaries (the draws file is not in the snapshot)" % n


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=1)
        f.write("\n")


def make_case(snap, commit, info):
    name = info["name"]
    ref_name = info["reference_posterior_name"]
    folder = os.path.join(HERE, name)
    os.makedirs(folder, exist_ok=True)

    data = snap.zipped_json(DB + "/data/data/%s.json.zip" % info["data_name"])
    for stale in ("data.json", "data.json.gz"):
        if os.path.exists(os.path.join(folder, stale)):
            os.remove(os.path.join(folder, stale))
    if len(data) > MAX_PLAIN_DATA:
        with gzip.GzipFile(os.path.join(folder, "data.json.gz"), "wb", mtime=0) as f:
            f.write(data)
    else:
        with open(os.path.join(folder, "data.json"), "wb") as f:
            f.write(data)

    draws_path = DB + "/reference_posteriors/draws/draws/%s.json.zip" % ref_name
    if snap.exists(draws_path):
        params, kind, what = reference_from_draws(snap, ref_name)
    else:
        params, kind, what = reference_from_summaries(snap, ref_name)
    renames = RENAME.get(name, {})
    params = {renames.get(k, k): v for k, v in params.items()}
    write_json(os.path.join(folder, "reference.json"), {
        "source": "posteriordb reference posterior %s (%s, commit %s, "
                  "%s/reference_posteriors/draws/draws/%s.json.zip): %s"
                  % (ref_name, URL, commit, DB, ref_name, what),
        "reference_kind": "draws",
        "computed_from": kind,
        "model": "%s/models/stan/%s.stan" % (DB, info["model_name"]),
        "data": "%s/data/data/%s.json.zip" % (DB, info["data_name"]),
        "parameters": params,
    })
    return name, len(params), kind


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--snapshot", default=DEFAULT_SNAPSHOT,
                        help="git directory of a stan-dev/posteriordb clone")
    parser.add_argument("--only", nargs="*", help="posterior names to (re)make")
    args = parser.parse_args()
    snap = Snapshot(args.snapshot)
    commit = snap.commit()
    for info in posteriors_with_reference(snap):
        if args.only and info["name"] not in args.only:
            continue
        name, count, kind = make_case(snap, commit, info)
        print("%-50s %3d parameters (%s)" % (name, count, kind))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
