#!/usr/bin/env python3
"""Writes model.bug and data.R of the BUGS example cases: the examples' own text.

model.bug is the BUGS model as the manual prints it, data.R its data file (the
BUGS `list(...)` format, which ppl reads as an R dump, row-major for .Dim as
OpenBUGS defines it). Both come from the text of the BUGS examples manual kept
in MultiBUGS/MultiBUGS-txt (Examples/<Name>.odc.cp with the model,
Examples/<Name>data.odc.cp with the data), the same files make_cases.py reads
for data.json and reference.json. Two models (Seeds, Inhalers) come from
TuringLang/JuliaBUGS.jl instead: see JULIABUGS_MODELS below.

    python3 make_bug_files.py --multibugs MultiBUGS-txt/.git --juliabugs JuliaBUGS.jl/.git [CASE ...]

What is cleaned, and nothing else (the statements and comments are kept as
printed):
  - the text around the model: the model is the `model { ... }` block, from the
    word `model` to its closing brace (braces inside # comments do not count);
  - the layout of the .odc export: the indentation all lines of the block share
    is removed, trailing blanks are removed, no-break spaces become spaces, and
    lines end with a single newline;
  - in the data, the text around `list(...)`, and one line break the export put
    inside a name (Jaws: `.` newline `Dim`).
Three cases are variants the manual describes but does not print as a model of
their own; their model.bug is the printed model with the lines the manual names
swapped (VARIANTS below). Every edit is asserted to apply exactly once.
"""

import argparse
import os
import re
import subprocess
import sys

MULTIBUGS_COMMIT = "ed6a62ca600a9cc27185cb19c912a1ca7cbfa46e"
JULIABUGS_COMMIT = "28cc3f20a3640309b0260991a05191efb4c92208"
HERE = os.path.dirname(os.path.abspath(__file__))

# case -> (example file, which model block of it (0 = the first), data file)
CASES = {
    "rats": ("Rats", 0, "Ratsdata"),
    "pumps": ("Pumps", 0, "Pumpsdata"),
    "dogs": ("Dogs", 0, "Dogsdata"),
    "seeds": ("Seeds", 0, "Seedsdata"),
    "surgical_simple": ("Surgical", 0, "Surgicaldata"),
    "surgical_random": ("Surgical", 1, "Surgicalranddata"),
    "magnesium": ("Magnesium", 0, "Magnesiumdata"),
    "salm": ("Salm", 0, "Salmdata"),
    "equiv": ("Equiv", 0, "Equivdata"),
    "dyes": ("Dyes", 0, "Dyesdata"),
    "stacks": ("Stacks", 0, "Stacksdata"),
    "stacks_dexp": ("Stacks", 0, "Stacksdata"),
    "epil": ("Epil", 0, "Epildata"),
    "blockers": ("Blockers", 0, "Blockersdata"),
    "oxford": ("Oxford", 0, "Oxforddata"),
    "lsat": ("Lsat", 0, "Lsatdata"),
    "bones": ("Bones", 0, "Bonesdata"),
    "inhalers": ("Inhalers", 0, "Inhalersdata"),
    "mice": ("Mice", 0, "Micedata"),
    "kidney": ("Kidney", 0, "Kidneydata"),
    "leuk": ("Leuk", 0, "Leukdata"),
    "leukfr": ("Leukfr", 0, "Leukfrdata"),
    "dugongs": ("Dugongs", 0, "Dugongsdata"),   # the second block adds diff() nodes
    "orange_trees": ("Otrees", 0, "Otreesdata"),
    "orange_trees_mvn": ("OtreesMVN", 0, "OtreesMVNdata"),
    "biopsies": ("Biopsies", 0, "Biopsiesdata"),
    "eyes": ("Eyes", 0, "Eyesdata"),
    "hearts": ("Hearts", 0, "Heartsdata"),
    "air": ("Air", 0, "Airdata"),
    "cervix": ("Cervix", 0, "Cervixdata"),
    "jaws": ("Jaws", 0, "Jawsdata"),
    "birats": ("BiRats", 0, "BiRatsdata"),
    "schools": ("Schools", 0, "Schoolsdata"),
    "ice": ("Ice", 0, "Icedata"),
    "beetles": ("Beetles", 0, "Beetlesdata"),
    "beetles_probit": ("Beetles", 0, "Beetlesdata"),
    "beetles_cloglog": ("Beetles", 0, "Beetlesdata"),
    "alligators": ("Alligators", 0, "Alligatorsdata"),
    "endo": ("Endo", 0, "Endodata"),
    "stagnant": ("Stagnant", 1, "Stagnantcdata"),   # the first block is the discrete change point
    "asia": ("Asia", 0, "Asiadata"),
    "line": ("Line", 1, "Linedata"),   # the first block is a left-over draft (x centred in its data, an unused xbar)
}

# Seeds: the MultiBUGS text's model puts sigma ~ dunif(0, 10) on the random
# effects' sd and names them beta[i]; the case (its model.ppl and the table of
# the manual's Tutorial it is compared with) is OpenBUGS's model, tau ~ dgamma(0.001, 0.001)
# and b[i]. That model is JuliaBUGS.jl's `original` string (the OpenBUGS
# manual's text, re-indented there).
# Inhalers: the MultiBUGS text gives the cut points dunif(-1000, a[2]), ...,
# whose product has a factor 1 / (a[3] - a[1]) that pulls a[3] down (5.19
# against the table's 5.284); the table is that of OpenBUGS's model, flat
# priors truncated to the neighbours (dflat()T(-1000, a[2]), ...), which a run
# reproduces (5.24-5.26). JuliaBUGS.jl's `original` string is that model.
JULIABUGS_MODELS = {"seeds": "JuliaBUGS/src/BUGSExamples/Volume_1/04_Seeds.jl",
                    "inhalers": "JuliaBUGS/src/BUGSExamples/Volume_1/16_Inhalers.jl"}

# Variants: (old line, new line) replacements of the printed model, each the
# line the manual names for that variant. Beetles prints only the logit model
# and lists the probit and the complementary log-log (extreme value) links;
# Stacks prints model (a) with the lines of the other error models commented
# out beside it, and (b) is the same model with the double exponential lines.
VARIANTS = {
    "beetles_probit": [
        ("\t\tlogit(p[i]) <- alpha.star + beta * (x[i] - mean(x[]))",
         "\t\tprobit(p[i]) <- alpha.star + beta * (x[i] - mean(x[]))")],
    "beetles_cloglog": [
        ("\t\tlogit(p[i]) <- alpha.star + beta * (x[i] - mean(x[]))",
         "\t\tcloglog(p[i]) <- alpha.star + beta * (x[i] - mean(x[]))")],
    # (a)'s lines commented out, (b)'s uncommented, in place
    "stacks_dexp": [
        ("\t\tY[i] ~ dnorm(mu[i], tau)", "#\t\tY[i] ~ dnorm(mu[i], tau)"),
        ("#\t\tY[i] ~ ddexp(mu[i], tau)", "\t\tY[i] ~ ddexp(mu[i], tau)"),
        ("\tsigma <- sqrt(1 /  tau)                  # normal errors",
         "#\tsigma <- sqrt(1 /  tau)                  # normal errors"),
        ("#\tsigma <- sqrt(2) / tau                     # double exponential errors",
         "\tsigma <- sqrt(2) / tau                     # double exponential errors")],
}


def git_show(gitdir, path, commit):
    return subprocess.run(["git", "--git-dir", gitdir, "show", commit + ":" + path],
                          check=True, capture_output=True, text=True).stdout


def matching(text, start, open_char, close_char, comments):
    """Index of the bracket closing the one at `start`; with `comments`, a # starts
    a comment to the end of the line, whose brackets do not count."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if comments and c == "#":
            i = text.find("\n", i)
            if i < 0:
                break
            continue
        if c == open_char:
            depth += 1
        elif c == close_char:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError("no closing %r" % close_char)


def layout(block):
    """The block without the export's layout: no-break spaces as spaces, the
    indentation all its non-blank lines share removed, no trailing blanks."""
    lines = [l.replace("\u00a0", " ").rstrip() for l in block.replace("\r\n", "\n").split("\n")]
    indents = [re.match(r"[ \t]*", l).group(0) for l in lines if l.strip()]
    common = os.path.commonprefix(indents) if indents else ""
    lines = [l[len(common):] if l.startswith(common) else l.lstrip() for l in lines]
    return "\n".join(lines).strip("\n") + "\n"


def model_blocks(text):
    """Every `model { ... }` block of an example's text, each from the start of
    the line holding `model`, cleaned of the export's layout."""
    blocks = []
    for m in re.finditer(r"(?m)^[ \t]*model\s*\{", text):
        brace = text.index("{", m.start())
        end = matching(text, brace, "{", "}", comments=True)
        blocks.append(layout(text[m.start():end + 1]))
    return blocks


def juliabugs_model(gitdir, path):
    text = git_show(gitdir, path, JULIABUGS_COMMIT)
    m = re.search(r'original\s*=\s*"""\n(.*?)"""', text, re.S)
    return layout(m.group(1))


def apply_variant(model, case):
    """Each (old, new) of the case: the one line that is old becomes new."""
    lines = model.split("\n")
    for old, new in VARIANTS.get(case, []):
        hits = [k for k, line in enumerate(lines) if line == old]
        if len(hits) != 1:
            raise ValueError("%s: %d lines are %r" % (case, len(hits), old))
        lines[hits[0]] = new
    return "\n".join(lines)


def data_list(text):
    """The list(...) of a data file, as printed, cleaned of export artifacts."""
    text = text.replace(".\n\t\t\t\tDim", ".Dim")   # Jaws: a line break inside .Dim
    start = text.index("list")
    end = matching(text, text.index("(", start), "(", ")", comments=False)
    return layout(text[start:end + 1])


def make_case(multibugs, juliabugs, case):
    example, index, data = CASES[case]
    if case in JULIABUGS_MODELS:
        model = juliabugs_model(juliabugs, JULIABUGS_MODELS[case])
    else:
        blocks = model_blocks(git_show(multibugs, "Examples/%s.odc.cp" % example, MULTIBUGS_COMMIT))
        model = apply_variant(blocks[index], case)
    with open(os.path.join(HERE, case, "model.bug"), "w") as out:
        out.write(model)
    text = git_show(multibugs, "Examples/%s.odc.cp" % data, MULTIBUGS_COMMIT)
    with open(os.path.join(HERE, case, "data.R"), "w") as out:
        out.write(data_list(text))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--multibugs", required=True, help="git directory of MultiBUGS-txt")
    parser.add_argument("--juliabugs", required=True, help="git directory of JuliaBUGS.jl")
    parser.add_argument("cases", nargs="*", help="cases to write (default: all)")
    args = parser.parse_args()
    unknown = set(args.cases) - set(CASES)
    if unknown:
        sys.exit("error: no such case: %s" % ", ".join(sorted(unknown)))
    for case in args.cases or sorted(CASES):
        make_case(args.multibugs, args.juliabugs, case)
        print("wrote", case)


if __name__ == "__main__":
    main()
