#!/usr/bin/env python3
"""Run the model suites under tests/suites/ and compare ppl's posteriors with references.

    python3 tests/suites/run.py [--ppl PATH] [--suite posteriordb|bugs|all] [--fast]
                                [--only NAME ...] [--jobs N] [--timeout S]
                                [--tally FILE.md] [--json FILE] [--keep DIR]
                                [--dialect ppl|bugs]

Every tests/suites/SUITE/CASE/ holding a case.json is a case: model.ppl, its data
(data.json, data.json.gz or data.csv; none when the model needs none), reference.json
and case.json (see tests/suites/README.md). A pending case is reported with its reason
and not run. The others run

    ppl infer model.ppl DATA --chains C --draws D --warmup W --seed S --output DRAWS
              --monitor <the reference's variables> --quiet

and each reference parameter passes when

    |mean - ref mean| <= 4 sqrt(mcse^2 + ref mcse^2)   and   |sd - ref sd| <= 0.15 ref sd.

A case passes when all its parameters do. A crash (a signal, an exit status other than
0 or 1), a run past the timeout, an error exit or a failed parameter fails the case;
the exit status is 1 when any case that ran failed. Plain Python 3, no numpy.

With --dialect bugs the same cases run from the BUGS examples' own text instead: every
case folder holding a model.bug runs `ppl plan model.bug data.R` and `ppl infer
model.bug data.R ...` with the same options, monitors and reference. A case.json's
"bug_pending" (or "pending") marks a case whose BUGS text is not yet read; it is
reported with its reason and not run.
"""
import argparse
import concurrent.futures
import csv
import glob
import gzip
import io
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SUITES_DIR = os.path.dirname(os.path.abspath(__file__))
MEAN_MCSES = 4.0      # allowed distance of the means, in combined standard errors
SD_RELATIVE = 0.15    # allowed relative error of the sd
DATA_NAMES = ("data.json", "data.json.gz", "data.csv", "data.csv.gz")


# ---------------------------------------------------------------- cases

class Case:
    def __init__(self, folder, dialect="ppl"):
        self.folder = folder
        self.dialect = dialect
        self.suite = os.path.basename(os.path.dirname(folder))
        self.name = os.path.basename(folder)
        with open(os.path.join(folder, "case.json")) as f:
            self.spec = json.load(f)
        ref_path = os.path.join(folder, "reference.json")
        self.reference = {}
        if os.path.exists(ref_path):
            with open(ref_path) as f:
                self.reference = json.load(f)
        self.model = os.path.join(folder, "model.ppl")
        self.data = next((os.path.join(folder, d) for d in DATA_NAMES
                          if os.path.exists(os.path.join(folder, d))), None)
        if dialect == "bugs":
            # the original BUGS text: model.bug with its data as the example gives it
            self.model = os.path.join(folder, "model.bug")
            r_data = os.path.join(folder, "data.R")
            self.data = r_data if os.path.exists(r_data) else None

    @property
    def key(self):
        return "%s/%s" % (self.suite, self.name)

    @property
    def label(self):
        """The key, marked when the case runs from its BUGS text."""
        return self.key + (" [model.bug]" if self.dialect == "bugs" else "")

    @property
    def pending(self):
        if self.dialect == "bugs":
            return self.spec.get("bug_pending") or self.spec.get("pending")
        return self.spec.get("pending")

    @property
    def parameters(self):
        return self.reference.get("parameters", {})

    def variables(self):
        """The variables the reference names (`theta` for `theta[3]`), in order."""
        seen = []
        for column in self.parameters:
            base = column.split("[", 1)[0]
            if base not in seen:
                seen.append(base)
        return seen


def discover(suite, only, fast, dialect="ppl"):
    folders = sorted(os.path.dirname(p) for p in
                     glob.glob(os.path.join(SUITES_DIR, "*", "*", "case.json")))
    if dialect == "bugs":  # only the cases that have their BUGS text
        folders = [f for f in folders if os.path.exists(os.path.join(f, "model.bug"))]
    cases = [Case(f, dialect) for f in folders]
    if suite != "all":
        cases = [c for c in cases if c.suite == suite]
    if only:
        wanted = set(only)
        unknown = wanted - {c.name for c in cases} - {c.key for c in cases}
        if unknown:
            sys.exit("error: no such case: %s" % ", ".join(sorted(unknown)))
        cases = [c for c in cases if c.name in wanted or c.key in wanted]
    if fast:
        cases = [c for c in cases if c.spec.get("fast")]
    return cases


# ---------------------------------------------------------------- running ppl

def run_process(argv, timeout, stdout_path, stderr_path):
    """Run argv with its output in files; returns (status, wall s, CPU s, timed out).
    status is the exit code, or minus the signal that ended it."""
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        timed_out = False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid == proc.pid:
                break
            if time.monotonic() - start > timeout:
                timed_out = True
                proc.send_signal(signal.SIGKILL)
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.02)
        wall = time.monotonic() - start
    proc.returncode = 0  # reaped here, not by Popen
    code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    return code, wall, usage.ru_utime + usage.ru_stime, timed_out


def read_text(path, limit=20000):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    return text if len(text) <= limit else text[:limit] + "\n...(cut)"


def summary_number(cell):
    try:
        value = float(cell)
    except (TypeError, ValueError):
        return None  # n/a
    return value if math.isfinite(value) else None


def read_summary_csv(text):
    rows = {}
    for row in csv.DictReader(io.StringIO(text)):
        rows[row["name"]] = {
            "mean": summary_number(row.get("mean")),
            "sd": summary_number(row.get("sd")),
            "mcse": summary_number(row.get("mcse_mean")),
            "ess_bulk": summary_number(row.get("ess_bulk")),
            "ess_tail": summary_number(row.get("ess_tail")),
            "rhat": summary_number(row.get("rhat")),
        }
    return rows


def read_summary(ppl, draws_path, workdir):
    """Per-column statistics of a draws file, {name: {mean, sd, mcse, ess_bulk, ess_tail,
    rhat}} with None where ppl has n/a, from `ppl summary --format csv`."""
    out, err = os.path.join(workdir, "summary.out"), os.path.join(workdir, "summary.err")
    code, _, _, _ = run_process([ppl, "summary", draws_path, "--format", "csv"], 600, out, err)
    if code != 0:
        raise RuntimeError("ppl summary --format csv failed (status %d; it came with commit "
                           "9d1f9cf): %s" % (code, read_text(err, 2000).strip()))
    return read_summary_csv(read_text(out, 10 ** 9))


def plan_lines(ppl, case, data, workdir):
    argv = [ppl, "plan", case.model] + ([data] if data else [])
    out, err = os.path.join(workdir, "plan.out"), os.path.join(workdir, "plan.err")
    code, _, _, timed_out = run_process(argv, 120, out, err)
    if timed_out:
        return ["(ppl plan: no answer after 120 s)"]
    if code < 0:
        return ["(ppl plan crashed: signal %d)" % -code]
    if code != 0:
        first = (read_text(err, 500).strip().splitlines() or ["?"])[0]
        return ["(ppl plan failed: %s)" % first.replace(case.folder + os.sep, "")]
    return [line.rstrip() for line in read_text(out).splitlines() if line.strip()]


SAMPLER_KINDS = ("ancestral", "collapsed", "conjugate", "cluster", "gibbs", "nuts", "slice", "rwmh", "hmc",
                 "gaussian_block")


def plan_summary(lines):
    """`nuts: beta, sigma; conjugate: alpha` from the plan's lines."""
    kinds = {}
    for line in lines:
        # "theta[1:5, 1:3]   nuts   reason": the label may hold spaces ("x[2], x[5] (missing)"),
        # and a long one is followed by a single space; the kind is the first known word after it.
        m = re.match(r"(\S.*?)\s+(%s)(\s|$)" % "|".join(SAMPLER_KINDS), line)
        if m and not line.startswith("("):
            kinds.setdefault(m.group(2), []).append(m.group(1).split("[", 1)[0])
    if not kinds:
        return lines[0] if lines else ""
    return "; ".join("%s: %s" % (k, ", ".join(v)) for k, v in kinds.items())


def prepare_data(case, workdir):
    if case.data is None:
        return None
    if case.data.endswith(".json.gz"):  # ppl reads .csv.gz itself, not JSON
        path = os.path.join(workdir, "data.json")
        with gzip.open(case.data, "rb") as src, open(path, "wb") as dst:
            shutil.copyfileobj(src, dst)
        return path
    return case.data


# ---------------------------------------------------------------- comparing

def compare(parameter, ref, got, sd_skipped=None):
    """(passed, text) for one reference parameter against ppl's summary row. A parameter
    named in the case's `mean_only` (its reason in `sd_skipped`) has no sd to compare: its
    tails are so heavy that its variance is infinite, and any finite sample's sd is noise."""
    if got is None:
        return False, "%s: not in the draws" % parameter
    ref_mcse = ref.get("mcse_mean") or 0.0
    mean, sd, mcse = got["mean"], got["sd"], got["mcse"]
    if mean is None or sd is None or mcse is None:
        return False, "%s: ppl's mean, sd or mcse is n/a (infinite, NaN or constant draws)" \
            % parameter
    allowed = MEAN_MCSES * math.sqrt(mcse ** 2 + ref_mcse ** 2)
    mean_ok = abs(mean - ref["mean"]) <= allowed
    text = ("%s: mean %.6g vs %.6g (off %.3g, allowed %.3g = 4 x sqrt(%.3g^2 + %.3g^2))%s; "
            % (parameter, mean, ref["mean"], abs(mean - ref["mean"]), allowed, mcse, ref_mcse,
               "" if mean_ok else " FAIL"))
    if sd_skipped is not None:
        return mean_ok, text + "sd %.6g vs %.6g not compared (%s)" % (sd, ref["sd"], sd_skipped)
    sd_ok = abs(sd - ref["sd"]) <= SD_RELATIVE * ref["sd"]
    text += ("sd %.6g vs %.6g (off %.1f%%, allowed 15%%)%s"
             % (sd, ref["sd"], 100 * abs(sd - ref["sd"]) / ref["sd"] if ref["sd"] else float("inf"),
                "" if sd_ok else " FAIL"))
    return mean_ok and sd_ok, text


def run_case(case, args):
    result = {"case": case.label, "suite": case.suite, "name": case.name,
              "dialect": case.dialect, "model": os.path.basename(case.model),
              "title": case.spec.get("title", ""), "pending": case.pending,
              "parameters_total": len(case.parameters), "parameters_passed": 0,
              "failures": [], "plan": [], "warnings": []}
    if case.pending:
        result["status"] = "pending"
        return result
    workdir = tempfile.mkdtemp(prefix="ppl-suite-")
    try:
        data = prepare_data(case, workdir)
        result["plan"] = plan_lines(args.ppl, case, data, workdir)
        draws = os.path.join(workdir, "draws.csv")
        spec = case.spec
        argv = [args.ppl, "infer", case.model] + ([data] if data else []) + [
            "--chains", str(spec.get("chains", 4)), "--draws", str(spec.get("draws", 1000)),
            "--warmup", str(spec.get("warmup", 1000)), "--seed", str(spec.get("seed", 1)),
            "--output", draws, "--quiet"]
        if case.variables():
            argv += ["--monitor", ",".join(case.variables())]
        result["command"] = " ".join(argv)
        out, err = os.path.join(workdir, "infer.out"), os.path.join(workdir, "infer.err")
        timeout = spec.get("timeout", args.timeout)
        code, wall, cpu, timed_out = run_process(argv, timeout, out, err)
        result.update(exit=code, wall=round(wall, 2), cpu=round(cpu, 2))
        stderr = read_text(err)
        result["warnings"] = [l for l in stderr.splitlines() if l.startswith("warning:")]
        if timed_out:
            result["status"] = "timeout"
            result["failures"].append("no result after %d s (killed)" % timeout)
        elif code < 0:
            result["status"] = "crash"
            result["failures"].append("killed by signal %d (%s)" % (
                -code, signal.Signals(-code).name if -code in signal.valid_signals() else "?"))
        elif code not in (0, 1):
            result["status"] = "crash"
            result["failures"].append("exit status %d: %s" % (code, stderr.strip()[:500]))
        elif code == 1:
            result["status"] = "error"
            result["failures"].append("error exit: %s" % stderr.strip()[:1000])
        else:
            compare_all(case, args, draws, workdir, result)
    except Exception as e:  # a broken case or summary must not stop the others
        result["status"] = "error"
        result["failures"].append("runner: %s" % e)
    finally:
        if args.keep:
            dest = os.path.join(args.keep, case.suite,
                                case.name + (".bug" if case.dialect == "bugs" else ""))
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(workdir, dest)
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def compare_all(case, args, draws, workdir, result):
    rows = read_summary(args.ppl, draws, workdir)
    passed, rhats, esses = 0, [], []
    lines = []
    for parameter, ref in case.parameters.items():
        got = rows.get(parameter)
        ok, text = compare(parameter, ref, got, case.spec.get("mean_only", {}).get(parameter))
        passed += ok
        lines.append(("  " if ok else "! ") + text)
        if not ok:
            result["failures"].append(text)
        if got:
            if got["rhat"] is not None:
                rhats.append(got["rhat"])
            esses += [e for e in (got["ess_bulk"], got["ess_tail"]) if e is not None]
    result["parameters_passed"] = passed
    result["details"] = lines
    result["max_rhat"] = max(rhats) if rhats else None
    result["min_ess"] = min(esses) if esses else None
    result["status"] = "pass" if passed == len(case.parameters) else "fail"


# ---------------------------------------------------------------- reporting

def describe(result):
    head = "%-7s %s" % (result["status"].upper(), result["case"])
    if result["status"] == "pending":
        return head + "  (%s: %s)" % ("BUGS text pending" if result.get("dialect") == "bugs"
                                      else "not expressible", result["pending"])
    head += "  %d/%d parameters" % (result["parameters_passed"], result["parameters_total"])
    if "wall" in result:
        head += ", %.1f s wall, %.1f s CPU" % (result["wall"], result["cpu"])
    if result.get("max_rhat") is not None:
        head += ", max R-hat %.3f, min ESS %.0f" % (result["max_rhat"], result["min_ess"])
    if result["warnings"]:
        head += ", %d warnings" % len(result["warnings"])
    lines = [head]
    if result["status"] != "pass":
        lines += ["    plan: " + l for l in result["plan"]]
        lines += ["    " + w for w in result["warnings"]]
        lines += ["    " + f for f in result["failures"]]
    return "\n".join(lines)


def write_tally(path, results):
    out = ["| case | expressible | pass | parameters | wall (s) | CPU (s) | max R-hat | "
           "min ESS | plan |", "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        if r["status"] == "pending":
            out.append("| %s | no: %s | | | | | | | |" % (r["case"], r["pending"]))
            continue
        verdict = "yes" if r["status"] == "pass" else "**%s**" % r["status"]
        figures = ["%.1f" % r["wall"] if "wall" in r else "",
                   "%.1f" % r["cpu"] if "cpu" in r else "",
                   "%.3f" % r["max_rhat"] if r.get("max_rhat") is not None else "",
                   "%.0f" % r["min_ess"] if r.get("min_ess") is not None else ""]
        out.append("| %s | yes | %s | %d/%d | %s | %s |" % (
            r["case"], verdict, r["parameters_passed"], r["parameters_total"],
            " | ".join(figures), plan_summary(r["plan"]).replace("|", "\\|")))
    out += ["", "| suite | cases | expressible | pass | fail | pending | wall (s) | CPU (s) |",
            "|---|---|---|---|---|---|---|---|"]
    for suite in sorted({r["suite"] for r in results}):
        rs = [r for r in results if r["suite"] == suite]
        ran = [r for r in rs if r["status"] != "pending"]
        out.append("| %s | %d | %d | %d | %d | %d | %.0f | %.0f |" % (
            suite, len(rs), len(ran), sum(r["status"] == "pass" for r in ran),
            sum(r["status"] != "pass" for r in ran), len(rs) - len(ran),
            sum(r.get("wall", 0) for r in ran), sum(r.get("cpu", 0) for r in ran)))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    parser = argparse.ArgumentParser(
        description="Run the model suites and compare posteriors with their references.")
    parser.add_argument("--ppl", default=os.path.join(SUITES_DIR, "..", "..", "build", "ppl"),
                        help="the ppl binary (default: build/ppl)")
    parser.add_argument("--suite", default="all", help="posteriordb, bugs or all")
    parser.add_argument("--fast", action="store_true", help="only the cases marked fast")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these cases")
    parser.add_argument("--jobs", type=int, default=1, help="cases run at once (default 1)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per case")
    parser.add_argument("--tally", metavar="FILE.md", help="write a markdown table")
    parser.add_argument("--json", metavar="FILE", help="write every result as JSON")
    parser.add_argument("--keep", metavar="DIR", help="keep each case's draws and logs here")
    parser.add_argument("--verbose", action="store_true", help="every parameter's figures")
    parser.add_argument("--dialect", choices=("ppl", "bugs"), default="ppl",
                        help="ppl: run model.ppl with data.json (the default); bugs: run each "
                             "case's original BUGS text, model.bug with data.R (the cases that have one)")
    args = parser.parse_args()
    args.ppl = os.path.abspath(args.ppl)
    if not os.access(args.ppl, os.X_OK):
        sys.exit("error: no ppl binary at %s (give --ppl)" % args.ppl)
    cases = discover(args.suite, args.only, args.fast, args.dialect)
    if not cases:
        sys.exit("error: no cases selected")

    start = time.monotonic()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_case, c, args): c for c in cases}
        for future in concurrent.futures.as_completed(futures):
            result = future.result()
            results.append(result)
            print(describe(result))
            if args.verbose and result.get("details"):
                print("\n".join("    " + l for l in result["details"]))
            sys.stdout.flush()
    results.sort(key=lambda r: r["case"])
    elapsed = time.monotonic() - start

    ran = [r for r in results if r["status"] != "pending"]
    failed = [r for r in ran if r["status"] != "pass"]
    print("\n%d cases: %d passed, %d failed, %d pending (not expressible); %.0f s" % (
        len(results), len(ran) - len(failed), len(failed), len(results) - len(ran), elapsed))
    for r in failed:
        print("  failed: %s (%s)" % (r["case"], r["status"]))
    if args.tally:
        write_tally(args.tally, results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"elapsed": elapsed, "results": results}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
