#!/usr/bin/env python3
"""Checks that each case's data.R (the BUGS data text) gives the values of its data.json.

    python3 check_bug_files.py [--ppl build/ppl] [CASE ...]

Three checks for every case folder holding a data.R:

1. values: data.R read by bugs_data.py (the BUGS list format, .Dim row-major,
   dots in names as underscores) against data.json, variable by variable and
   value by value. Where make_cases.py edited data.json (a `drop` or
   `pad_with_zero` in its CASES), the same edit is applied to data.R's values
   and the result must then agree; the edit is reported.
2. ppl reads both files alike: a probe model declaring every variable the two
   files share (as real, with the shape of the data) and copying each into a
   quantity derived from one unknown is simulated once with data.R and once
   with data.json (`ppl simulate --draws 1`); the two CSVs must be identical and
   agree with bugs_data.py's values. Variables with NA are left out of the
   probe (ppl takes a missing value in data only where a `~` observes it);
   check 1 covers them.
3. `ppl check model.ppl data.R` succeeds (the hand translation with the
   original data; a data.R variable the translation does not read is ignored).

Exit status 1 when a check fails that is not listed in EXPECTED below.
"""

import argparse
import csv
import glob
import io
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bugs_data  # noqa: E402
import make_cases  # noqa: E402

# case -> why `ppl check model.ppl data.R` fails, as it must (the edits make_cases.py
# made to data.json for these are the reason).
EXPECTED_CHECK_FAILURES = {
    "bones": "gamma's NA padding beyond each item's last threshold: ppl refuses missing "
             "data that no ~ observes (data.json pads it with 0)",
}


def flatten(value, prefix=()):
    """[(index tuple, scalar)] of a nested list, row-major; a scalar has index ()."""
    if isinstance(value, list):
        out = []
        for i, v in enumerate(value):
            out += flatten(v, prefix + (i + 1,))
        return out
    return [(prefix, value)]


def shape(value):
    dims = []
    while isinstance(value, list):
        dims.append(len(value))
        value = value[0] if value else None
    return dims


def same(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a == b or math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)


def compare_values(r_data, j_data):
    """Differences of two {name: value} dicts, as lines."""
    out = []
    for name in sorted(set(r_data) | set(j_data)):
        if name not in j_data:
            out.append("%s: in data.R only" % name)
        elif name not in r_data:
            out.append("%s: in data.json only" % name)
        elif shape(r_data[name]) != shape(j_data[name]):
            out.append("%s: shape %s in data.R, %s in data.json"
                       % (name, shape(r_data[name]), shape(j_data[name])))
        else:
            bad = [(i, a, b) for (i, a), (_, b) in zip(flatten(r_data[name]), flatten(j_data[name]))
                   if not same(a, b)]
            if bad:
                i, a, b = bad[0]
                out.append("%s: %d values differ, first at %s: %r in data.R, %r in data.json"
                           % (name, len(bad), list(i), a, b))
    return out


def read_r(case):
    with open(os.path.join(HERE, case, "data.R")) as f:
        raw = bugs_data.read_bugs_list(f.read())
    return {make_cases.ppl_name(k): v for k, v in raw.items()}


def read_json(case):
    with open(os.path.join(HERE, case, "data.json")) as f:
        return json.load(f)


def check_values(case):
    """(ok, lines) of check 1."""
    r_data, j_data = read_r(case), read_json(case)
    diffs = compare_values(r_data, j_data)
    if not diffs:
        return True, ["values: data.R and data.json agree (%d variables)" % len(r_data)]
    edit = make_cases.CASES.get(case, {}).get("edit")
    lines = ["values: data.R differs from data.json: " + "; ".join(diffs)]
    if edit is None:
        return False, lines
    edit(r_data)
    rest = compare_values(r_data, j_data)
    if rest:
        return False, lines + ["  still after make_cases.py's edit: " + "; ".join(rest)]
    return True, lines + ["  and agrees after make_cases.py's edit of data.json (%s)"
                          % edit.__qualname__.split(".")[0]]


def probe_model(data):
    """A model copying every NA-free variable of `data` into a derived quantity."""
    lines, names = [], []
    for name, value in sorted(data.items()):
        if any(v is None for _, v in flatten(value)):
            continue
        dims = shape(value)
        lines.append("data %s: real%s" % (name, "[%s]" % ", ".join(map(str, dims)) if dims else ""))
        names.append(name)
    lines.append("probe_z__ ~ Normal(0, 1)")
    lines += ["probe__%s = %s + 0 * probe_z__" % (n, n) for n in names]
    return "\n".join(lines) + "\n", names


def simulate(ppl, model, data, workdir, tag):
    out = os.path.join(workdir, tag + ".csv")
    proc = subprocess.run([ppl, "simulate", model, data, "--draws", "1", "--output", out],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("ppl simulate with %s: %s" % (os.path.basename(data), proc.stderr.strip()[:300]))
    with open(out) as f:
        return f.read()


def check_ppl_reads(ppl, case):
    """(ok, lines) of check 2."""
    r_data, j_data = read_r(case), read_json(case)
    shared = {k: v for k, v in r_data.items() if k in j_data}
    text, names = probe_model(shared)
    if not names:
        return True, ["ppl: no NA-free variable to probe"]
    with tempfile.TemporaryDirectory(prefix="ppl-bugdata-") as workdir:
        model = os.path.join(workdir, "probe.ppl")
        with open(model, "w") as f:
            f.write(text)
        folder = os.path.join(HERE, case)
        try:
            from_r = simulate(ppl, model, os.path.join(folder, "data.R"), workdir, "r")
            from_json = simulate(ppl, model, os.path.join(folder, "data.json"), workdir, "json")
        except RuntimeError as e:
            return False, ["ppl: %s" % e]
    if from_r != from_json:
        return False, ["ppl: the probe's draws differ between data.R and data.json"]
    row = next(csv.DictReader(io.StringIO(from_r)))
    bad = []
    for name in names:
        for index, value in flatten(shared[name]):
            column = "probe__%s%s" % (name, "[%s]" % ",".join(map(str, index)) if index else "")
            got = float(row[column])
            if not math.isclose(got, value, rel_tol=1e-7, abs_tol=1e-12):
                bad.append("%s: ppl %r, bugs_data.py %r" % (column, got, value))
    if bad:
        return False, ["ppl: read differently from bugs_data.py: " + "; ".join(bad[:5])]
    skipped = sorted(set(r_data) - set(names))
    return True, ["ppl: reads data.R and data.json alike (%d variables%s)"
                  % (len(names), "; not probed: " + ", ".join(skipped) if skipped else "")]


def check_model(ppl, case):
    """(ok, lines) of check 3."""
    folder = os.path.join(HERE, case)
    proc = subprocess.run([ppl, "check", os.path.join(folder, "model.ppl"),
                           os.path.join(folder, "data.R")], capture_output=True, text=True)
    if proc.returncode == 0:
        return True, ["ppl check model.ppl data.R: ok"]
    first = (proc.stderr.strip().splitlines() or ["?"])[0].replace(folder + os.sep, "")
    if case in EXPECTED_CHECK_FAILURES:
        return True, ["ppl check model.ppl data.R: fails as expected (%s): %s"
                      % (EXPECTED_CHECK_FAILURES[case], first)]
    return False, ["ppl check model.ppl data.R: FAILS: %s" % first]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ppl", default=os.path.join(HERE, "..", "..", "..", "build", "ppl"),
                        help="the ppl binary (default: build/ppl); --ppl '' skips checks 2 and 3")
    parser.add_argument("cases", nargs="*", help="cases to check (default: every one with a data.R)")
    args = parser.parse_args()
    cases = args.cases or sorted(os.path.basename(os.path.dirname(p))
                                 for p in glob.glob(os.path.join(HERE, "*", "data.R")))
    failed = []
    for case in cases:
        results = [check_values(case)]
        if args.ppl:
            results += [check_ppl_reads(os.path.abspath(args.ppl), case),
                        check_model(os.path.abspath(args.ppl), case)]
        ok = all(r[0] for r in results)
        print("%s %s" % ("ok  " if ok else "FAIL", case))
        for _, lines in results:
            for line in lines:
                print("     " + line)
        if not ok:
            failed.append(case)
    print("\n%d cases: %d ok, %d failed%s" % (len(cases), len(cases) - len(failed), len(failed),
                                             ": " + ", ".join(failed) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
