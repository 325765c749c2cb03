#!/usr/bin/env python3
"""Writes data.json and reference.json of the BUGS example cases.

Both come from the text of the BUGS examples manual as kept in the
MultiBUGS/MultiBUGS-txt repository (Examples/<Name>data.odc.cp: the data in
the BUGS list format; Examples/<Name>.odc.cp: the example with its results
tables). The models (model.ppl) and case.json are written by hand.

    git clone https://github.com/MultiBUGS/MultiBUGS-txt
    python3 make_cases.py --multibugs MultiBUGS-txt/.git [CASE ...]

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
# the case's notes); edit: a change to the data; document: take the reference from
# this document of the manual instead of Examples/<results>.odc.cp.
#
# Seeds: the Examples document's model puts sigma ~ dunif(0, 10) on the random
# effects (and names them beta[i]); the manual's Tutorial runs the same data
# with OpenBUGS's model, tau ~ dgamma(0.001, 0.001) and b[i], and prints its
# table with MC errors. The case is that model. (JuliaBUGS.jl's table for it,
# used before, prints no MC errors: alpha12 -0.841, where the Tutorial has
# -0.8165 with MC error 0.0085 and a JAGS run of 400,000 draws -0.825.)
CASES = {
    "rats": dict(data="Ratsdata", results="Rats"),
    "pumps": dict(data="Pumpsdata", results="Pumps"),
    "dogs": dict(data="Dogsdata", results="Dogs"),
    "seeds": dict(data="Seedsdata", document="Manuals/Tutorial"),
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
    "line": dict(data="Linedata", results="Line"),
}


def git_show(gitdir, path, commit=MULTIBUGS_COMMIT):
    return subprocess.run(["git", "--git-dir", gitdir, "show", commit + ":" + path],
                          check=True, capture_output=True, text=True).stdout


def ppl_name(name):
    """alpha.c -> alpha_c; theta[5, 3] -> theta[5,3] (ppl's column names)."""
    return name.replace(".", "_").replace(" ", "")


def results_tables(text):
    """Each results table of an example: a list of (name, mean, sd, MC error).
    The examples' tables begin `mean median sd MC_error ...`, the tutorial's
    `mean sd MC_error ...`; a row is a name and one number per column."""
    tables = []
    rows = None
    for line in text.splitlines():
        cells = line.split()
        if cells[:4] == ["mean", "median", "sd", "MC_error"] or cells[:3] == ["mean", "sd", "MC_error"]:
            columns = [cells.index(c) + 1 for c in ("mean", "sd", "MC_error")]
            rows = []
            tables.append(rows)
            continue
        if rows is None:
            continue
        if len(cells) > max(columns) and re.match(r"[A-Za-z]", cells[0]):
            try:
                mean, sd, mc = (float(cells[k]) for k in columns)
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


def make_case(multibugs, case):
    spec = CASES[case]
    text = git_show(multibugs, "Examples/%s.odc.cp" % spec["data"])
    text = text.replace(".\n\t\t\t\tDim", ".Dim")   # Jaws: a line break inside .Dim
    data = {ppl_name(k): v for k, v in bugs_data.read_bugs_list(text).items()}
    if "edit" in spec:
        spec["edit"](data)
    write_json(os.path.join(HERE, case, "data.json"), data)

    table = spec.get("table", 0)
    document = spec.get("document", "Examples/%s" % spec.get("results"))
    rows = results_tables(git_show(multibugs, "%s.odc.cp" % document))[table]
    title = ("BUGS Examples manual, %s" % spec["results"]) if "results" in spec else \
        "BUGS manual, %s" % os.path.basename(document)
    source = ("%s, results table %d, as kept in "
              "github.com/MultiBUGS/MultiBUGS-txt at commit %s (%s.odc.cp); "
              "mcse_mean: the MC_error column, or half a unit of the 4th significant "
              "digit of the mean where that is larger"
              % (title, table + 1, MULTIBUGS_COMMIT, document))
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
    parser.add_argument("cases", nargs="*", help="cases to write (default: all)")
    args = parser.parse_args()
    for case in args.cases or sorted(CASES):
        make_case(args.multibugs, case)
        print("wrote", case)


if __name__ == "__main__":
    main()
