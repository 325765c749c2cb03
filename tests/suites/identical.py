#!/usr/bin/env python3
"""Checks that ppl still draws exactly what it drew when the hashes were recorded.

Every example model (examples/NAME/*.ppl with the example's data, and the BUGS models
under examples/bugs/) and every case of the model suites that is not pending (its
model.ppl, and its model.bug where the case has one) is run briefly with a fixed seed:

    ppl infer MODEL DATA --chains 2 --warmup 10 --draws 5 --seed 7 --output F --quiet

and the SHA-256 of F (its comment lines, which hold timings, left out, and its rows
sorted, since chains on threads interleave them) together with
the text of `ppl plan MODEL DATA` is compared with tests/suites/identical.sha256. A move
of code that changes no behaviour keeps every hash; a change that means to alter draws
re-records them with --record and says why in its commit.

  identical.py --ppl build/ppl [--record] [--only NAME ...] [--jobs 2]

(--record with --only re-records those cases and keeps every other hash.)
"""
import argparse
import concurrent.futures
import glob
import hashlib
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as suites  # noqa: E402  (the suites' runner: how cases are found and read)

ROOT = os.path.dirname(os.path.dirname(suites.SUITES_DIR))
HASHES = os.path.join(suites.SUITES_DIR, "identical.sha256")
RUN = ["--chains", "2", "--warmup", "10", "--draws", "5", "--seed", "7", "--quiet"]


def example_runs():
    """(label, model, data) for every model of every example."""
    runs = []
    for folder in sorted(glob.glob(os.path.join(ROOT, "examples", "*", ""))):
        data = next((os.path.join(folder, d) for d in ("data.csv", "data.json")
                     if os.path.exists(os.path.join(folder, d))), None)
        for model in sorted(glob.glob(os.path.join(folder, "*.ppl"))):
            if os.path.basename(model) == "proposal.ppl":  # a proposal, not a model
                continue
            runs.append((os.path.relpath(model, ROOT), model, data))
    for model in sorted(glob.glob(os.path.join(ROOT, "examples", "bugs", "*", "*.bug"))):
        folder = os.path.dirname(model)
        data = next(iter(sorted(glob.glob(os.path.join(folder, "*data*.R")))), None)
        runs.append((os.path.relpath(model, ROOT), model, data))
    return runs


def suite_runs(workdir):
    runs = []
    for dialect in ("ppl", "bugs"):
        for case in suites.discover("all", None, False, dialect):
            if case.pending:
                continue
            scratch = os.path.join(workdir, case.suite, case.name)
            os.makedirs(scratch, exist_ok=True)
            runs.append((case.label, case.model, suites.prepare_data(case, scratch)))
    return runs


def fingerprint(ppl, model, data, workdir):
    """The hash of the plan and of the draws; an error's text instead when ppl fails."""
    args = [model] + ([data] if data else [])
    digest = hashlib.sha256()
    plan = subprocess.run([ppl, "plan"] + args, capture_output=True, text=True, cwd=workdir)
    digest.update(plan.stdout.encode())
    out = os.path.join(workdir, "draws.csv")
    infer = subprocess.run([ppl, "infer"] + args + RUN + ["--output", out],
                           capture_output=True, text=True, cwd=workdir)
    if infer.returncode != 0:
        return "exit-%d" % infer.returncode
    with open(out) as f:
        lines = [line for line in f if not line.startswith("#")]
    # Chains write their rows as they come, interleaved as the threads run: the header,
    # then the rows in sorted order (each starts with its chain and iteration).
    for line in lines[:1] + sorted(lines[1:]):
        digest.update(line.encode())
    return digest.hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ppl", default=os.path.join(ROOT, "build", "ppl"))
    parser.add_argument("--record", action="store_true", help="write the hashes instead of checking them")
    parser.add_argument("--only", nargs="*", help="labels to run")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    ppl = os.path.abspath(args.ppl)

    with tempfile.TemporaryDirectory() as workdir:
        runs = example_runs() + suite_runs(workdir)
        if args.only:
            runs = [r for r in runs if r[0] in args.only]

        def one(i_run):
            i, (label, model, data) = i_run
            scratch = os.path.join(workdir, "run%d" % i)
            os.makedirs(scratch)
            return label, fingerprint(ppl, model, data, scratch)

        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            got = dict(pool.map(one, enumerate(runs)))

    recorded = {}
    with open(HASHES) as f:
        for line in f:
            digest, label = line.rstrip("\n").split("  ", 1)
            recorded[label] = digest

    if args.record:
        # With --only, the other cases keep their recorded hashes.
        kept = dict(recorded) if args.only else {}
        kept.update(got)
        with open(HASHES, "w") as f:
            for label in sorted(kept):
                f.write("%s  %s\n" % (kept[label], label))
        print("recorded %d hashes in %s (%d kept)" % (len(got), os.path.relpath(HASHES, ROOT), len(kept) - len(got)))
        return 0
    failures = []
    for label in sorted(got):
        if label not in recorded:
            failures.append("%s: no recorded hash (record it with --record)" % label)
        elif got[label] != recorded[label]:
            failures.append("%s: draws or plan differ from the recorded run (%s, was %s)"
                            % (label, got[label][:12], recorded[label][:12]))
    if not args.only:
        failures += ["%s: recorded but not run (removed?)" % label
                     for label in sorted(set(recorded) - set(got))]
    for failure in failures:
        print("FAIL: " + failure)
    print("%d runs, %d identical to the recorded hashes" % (len(got), len(got) - len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
