#!/usr/bin/env python3
"""Writes data.json and reference.json of the BUGS example cases.

Both come from the text of the BUGS examples manual as kept in the
MultiBUGS/MultiBUGS-txt repository (Examples/<Name>data.odc.cp: the data in
the BUGS list format; Examples/<Name>.odc.cp: the example with its results
tables). The models (model.ppl) and case.json are written by hand.

    git clone https://github.com/MultiBUGS/MultiBUGS-txt
    git clone https://github.com/TuringLang/JuliaBUGS.jl
    python3 make_cases.py --multibugs MultiBUGS-txt/.git --juliabugs JuliaBUGS.jl/.git [CASE ...]

Names with dots (alpha.c) become names with underscores (alpha_c), as the
models spell them. The data of TuringLang/JuliaBUGS.jl's BUGSExamples were
checked against these, value by value, where its files give them as literals.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bugs_data  # noqa: E402

MULTIBUGS_COMMIT = "ed6a62ca600a9cc27185cb19c912a1ca7cbfa46e"
JULIABUGS_COMMIT = "28cc3f20a3640309b0260991a05191efb4c92208"
HERE = os.path.dirname(os.path.abspath(__file__))


def pad_with_zero(name):
    """NA padding that the model never reads (beyond a ragged row's end) as 0:
    ppl refuses a missing value in data that no `~` observes."""
    def edit(data):
        data[name] = [[0 if v is None else v for v in row] for row in data[name]]
    return edit


def drop(*names):
    def edit(data):
        for name in names:
            del data[name]
    return edit


# case -> data: the data file; results: the example whose results table gives
# the reference; table: which table of that example (0 = the first); keep: the
# rows to take (default all); leave_out: rows not to take (their reasons are in
# the case's notes); edit: a change to the data; juliabugs: take the reference
# from this file of JuliaBUGS.jl's BUGSExamples instead.
CASES = {
    "rats": dict(data="Ratsdata", results="Rats"),
    "pumps": dict(data="Pumpsdata", results="Pumps"),
    "dogs": dict(data="Dogsdata", results="Dogs"),
    "seeds": dict(data="Seedsdata", juliabugs="Volume_1/04_Seeds.jl"),
    "surgical_simple": dict(data="Surgicaldata", results="Surgical"),
    "surgical_random": dict(data="Surgicalranddata", results="Surgical", table=1),
    "magnesium": dict(data="Magnesiumdata", results="Magnesium", table=1,
                      leave_out=["OR[2]", "OR[3]"]),
    "salm": dict(data="Salmdata", results="Salm"),
    "equiv": dict(data="Equivdata", results="Equiv", leave_out=["equiv"]),
    "dyes": dict(data="Dyesdata", results="Dyes", leave_out=["sigma2.btw"]),
    "stacks": dict(data="Stacksdata", results="Stacks", leave_out=["outlier[3]"]),
    "stacks_dexp": dict(data="Stacksdata", results="Stacks", table=1),
    "epil": dict(data="Epildata", results="Epil"),
    "blockers": dict(data="Blockersdata", results="Blockers"),
    "oxford": dict(data="Oxforddata", results="Oxford"),
    "lsat": dict(data="Lsatdata", results="Lsat"),
    "bones": dict(data="Bonesdata", results="Bones", edit=pad_with_zero("gamma")),
    "inhalers": dict(data="Inhalersdata", results="Inhalers"),
    "mice": dict(data="Micedata", results="Mice"),
    "kidney": dict(data="Kidneydata", results="Kidney", edit=drop("beta_dis")),
    "leuk": dict(data="Leukdata", results="Leuk"),
    "leukfr": dict(data="Leukfrdata", results="Leukfr"),
    "dugongs": dict(data="Dugongsdata", results="Dugongs"),
    "orange_trees": dict(data="Otreesdata", results="Otrees"),
    "orange_trees_mvn": dict(data="OtreesMVNdata", results="OtreesMVN"),
    "biopsies": dict(data="Biopsiesdata", results="Biopsies", edit=drop("error")),
    "eyes": dict(data="Eyesdata", results="Eyes"),
    "hearts": dict(data="Heartsdata", results="Hearts"),
    "air": dict(data="Airdata", results="Air", leave_out=["theta[1]", "theta[2]"]),
    "cervix": dict(data="Cervixdata", results="Cervix"),
    "jaws": dict(data="Jawsdata", results="Jaws"),
    "birats": dict(data="BiRatsdata", results="BiRats"),
    "schools": dict(data="Schoolsdata", results="Schools"),
    "ice": dict(data="Icedata", results="Ice"),
    "beetles": dict(data="Beetlesdata", results="Beetles"),
    "beetles_probit": dict(data="Beetlesdata", results="Beetles", table=1),
    "beetles_cloglog": dict(data="Beetlesdata", results="Beetles", table=2),
    "alligators": dict(data="Alligatorsdata", results="Alligators"),
    "endo": dict(data="Endodata", results="Endo"),
    "stagnant": dict(data="Stagnantcdata", results="Stagnant"),
    "asia": dict(data="Asiadata", results="Asia"),
}


def git_show(gitdir, path, commit=MULTIBUGS_COMMIT):
    return subprocess.run(["git", "--git-dir", gitdir, "show", commit + ":" + path],
                          check=True, capture_output=True, text=True).stdout


def ppl_name(name):
    """alpha.c -> alpha_c; theta[5, 3] -> theta[5,3] (ppl's column names)."""
    return name.replace(".", "_").replace(" ", "")


def results_tables(text):
    """Each results table of an example: a list of (name, mean, sd, MC error)."""
    tables = []
    rows = None
    for line in text.splitlines():
        cells = line.split()
        if cells[:4] == ["mean", "median", "sd", "MC_error"]:
            rows = []
            tables.append(rows)
            continue
        if rows is None:
            continue
        if len(cells) >= 5 and re.match(r"[A-Za-z]", cells[0]):
            try:
                mean, _, sd, mc = (float(c) for c in cells[1:5])
            except ValueError:
                rows = None
                continue
            rows.append((cells[0], mean, sd, mc))
        else:
            rows = None
    return tables


def write_json(path, value):
    with open(path, "w") as out:
        json.dump(value, out, indent=1 if path.endswith("reference.json") else None)
        out.write("\n")


def rounding(value):
    """Half a unit of the 4th significant digit, the precision of the tables."""
    if value == 0:
        return 0.0
    return 0.5 * 10 ** (math.floor(math.log10(abs(value))) - 3)


def juliabugs_reference(gitdir, path):
    """(name, mean, sd, MC error) from a JuliaBUGS example's reference_results,
    which give no MC error: half a unit of the last printed digit instead."""
    text = git_show(gitdir, "JuliaBUGS/src/BUGSExamples/" + path, JULIABUGS_COMMIT)
    rows = []
    pattern = r'(\w+|var"[^"]+")\s*=\s*\(mean\s*=\s*([-\d.eE]+),\s*std\s*=\s*([-\d.eE]+)\)'
    for name, mean, sd in re.findall(pattern, text[text.index("reference_results"):]):
        digits = len(mean.split(".")[1]) if "." in mean else 0
        rows.append((name.replace('var"', "").rstrip('"'), float(mean), float(sd),
                     0.5 * 10 ** -digits))
    return rows


def make_case(multibugs, juliabugs, case):
    spec = CASES[case]
    text = git_show(multibugs, "Examples/%s.odc.cp" % spec["data"])
    text = text.replace(".\n\t\t\t\tDim", ".Dim")   # Jaws: a line break inside .Dim
    data = {ppl_name(k): v for k, v in bugs_data.read_bugs_list(text).items()}
    if "edit" in spec:
        spec["edit"](data)
    write_json(os.path.join(HERE, case, "data.json"), data)

    if "juliabugs" in spec:
        rows = juliabugs_reference(juliabugs, spec["juliabugs"])
        source = ("reference_results of JuliaBUGS/src/BUGSExamples/%s in "
                  "github.com/TuringLang/JuliaBUGS.jl at commit %s (OpenBUGS manual); "
                  "mcse_mean: half a unit of the last printed digit"
                  % (spec["juliabugs"], JULIABUGS_COMMIT))
    else:
        table = spec.get("table", 0)
        rows = results_tables(git_show(multibugs, "Examples/%s.odc.cp" % spec["results"]))[table]
        source = ("BUGS Examples manual, %s, results table %d, as kept in "
                  "github.com/MultiBUGS/MultiBUGS-txt at commit %s (Examples/%s.odc.cp); "
                  "mcse_mean: the MC_error column, or half a unit of the 4th significant "
                  "digit of the mean where that is larger"
                  % (spec["results"], table + 1, MULTIBUGS_COMMIT, spec["results"]))
        rows = [(name, mean, sd, max(mc, rounding(mean))) for name, mean, sd, mc in rows]
    params = {}
    for name, mean, sd, mc in rows:
        if name in spec.get("leave_out", []):
            continue
        if "keep" in spec and name not in spec["keep"]:
            continue
        params[ppl_name(name)] = {"mean": mean, "sd": sd, "mcse_mean": mc}
    reference = {"source": source, "reference_kind": "published", "parameters": params}
    write_json(os.path.join(HERE, case, "reference.json"), reference)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--multibugs", required=True, help="git directory of MultiBUGS-txt")
    parser.add_argument("--juliabugs", required=True, help="git directory of JuliaBUGS.jl")
    parser.add_argument("cases", nargs="*", help="cases to write (default: all)")
    args = parser.parse_args()
    for case in args.cases or sorted(CASES):
        make_case(args.multibugs, args.juliabugs, case)
        print("wrote", case)


if __name__ == "__main__":
    main()
