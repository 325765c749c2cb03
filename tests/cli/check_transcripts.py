#!/usr/bin/env python3
"""Re-runs the command transcripts quoted in the documentation (the README, docs/, the
examples' READMEs) and checks that the current binary prints what they show, so that no
quoted output drifts.

A transcript is a fenced code block (indented or not) whose first line starts with `$ `.
Each `$ ` line is a command, run by the shell from a scratch directory where `examples`,
`scripts` and `tests` are the checkout's and `ppl` (or `build/ppl`) is the binary under
test; the lines after it, up to the next command, are what it must print:

- standard output and standard error are matched together: the shown lines must be the
  printed ones, each stream's lines in their order (the two may interleave, as a terminal
  shows them), except where the transcript has a line `...`, which stands for any number
  of printed lines;
- within a line, `...` stands for any text (a time, a speed), and a run of spaces for any
  run of spaces;
- a REPL session (`$ ppl repl ...`) shows what was typed after the prompts `ppl> ` and
  `...> `: those lines are its standard input, the others what it prints.

A transcript that takes too long for the tests is preceded by a line
`<!-- transcript not re-run: REASON -->`, and the prose just before it must say which
version printed it (`ppl 0.2.0`); this script checks that it does.

  check_transcripts.py PPL REPO FILE.md...
"""
import functools, os, re, subprocess, sys, tempfile

ppl, repo, files = sys.argv[1], sys.argv[2], sys.argv[3:]
version = subprocess.run([ppl, "--version"], capture_output=True, text=True).stdout.strip()
prompts = ("ppl> ", "...> ")


def transcripts(text):
    """(line number, skip reason or None, [(command, [shown lines])], prose before) each."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```", lines[i])
        if fence and i + 1 < len(lines) and lines[i + 1].strip().startswith("$ "):
            indent, start, i = len(fence.group(1)), i, i + 1
            steps = []
            while i < len(lines) and not lines[i].strip().startswith("```"):
                line = lines[i][indent:]
                if line.startswith("$ "):
                    steps.append((line[2:], []))
                else:
                    steps[-1][1].append(line)
                i += 1
            m = re.match(r"\s*<!-- transcript not re-run: (.*) -->", lines[start - 1] if start else "")
            yield start + 1, (m.group(1) if m else None), steps, "\n".join(lines[max(0, start - 12):start])
        i += 1


def line_pattern(shown):
    """A shown line as a regular expression: `...` any text, a run of spaces any run."""
    def part(text):
        return "".join(r"\s+" if piece.isspace() else re.escape(piece) for piece in re.split(r"(\s+)", text) if piece)
    return re.compile(r"^\s*" + ".*".join(part(p) for p in shown.strip().split("...")) + r"\s*$")


def matches(shown, out, err):
    """Whether the printed streams match the shown lines (see the module's comment)."""
    patterns = [None if s.strip() == "..." else line_pattern(s) for s in shown]

    @functools.lru_cache(maxsize=None)
    def go(e, i, j):
        if e == len(patterns):
            return i == len(out) and j == len(err)
        if patterns[e] is None:
            return go(e + 1, i, j) or (i < len(out) and go(e, i + 1, j)) or (j < len(err) and go(e, i, j + 1))
        return (i < len(out) and patterns[e].match(out[i]) is not None and go(e + 1, i + 1, j)) or \
               (j < len(err) and patterns[e].match(err[j]) is not None and go(e + 1, i, j + 1))
    return go(0, 0, 0)


def lines_of(text):
    return [l for l in text.rstrip("\n").split("\n") if l.strip()] if text.strip() else []


def run_step(command, shown, scratch, env):
    typed = [s[len(p):] for s in shown for p in prompts if s.startswith(p)]
    expected = [s for s in shown if s.strip() and not s.startswith(prompts)]
    stdin = "\n".join(typed) + "\n" if command.startswith("ppl repl") else None
    run = subprocess.run(command, shell=True, cwd=scratch, env=env, input=stdin, capture_output=True, text=True, timeout=900)
    out, err = lines_of(run.stdout), lines_of(run.stderr)
    return matches(expected, tuple(out), tuple(err)), out + (["(standard error)"] + err if err else []), expected


failures = checked = skipped = 0
with tempfile.TemporaryDirectory() as scratch:
    for name in ("examples", "scripts", "tests"):
        os.symlink(os.path.join(repo, name), os.path.join(scratch, name))
    os.makedirs(os.path.join(scratch, "build"))
    os.symlink(os.path.abspath(ppl), os.path.join(scratch, "build", "ppl"))
    env = dict(os.environ, PATH=os.path.join(scratch, "build") + os.pathsep + os.environ["PATH"])
    for path in files:
        for line, skip, steps, prose in transcripts(open(path).read()):
            where = f"{os.path.relpath(path, repo)}:{line}"
            if skip is not None:
                skipped += 1
                if f"ppl {version}" not in prose:
                    print(f"FAIL {where}: a transcript not re-run must say which version printed it (ppl {version})")
                    failures += 1
                continue
            for command, shown in steps:
                checked += 1
                ok, printed, expected = run_step(command, shown, scratch, env)
                if not ok:
                    failures += 1
                    print(f"FAIL {where}: `{command}` printed\n" + "\n".join("    " + p for p in printed[:60]))
                    print("  where the page shows\n" + "\n".join("    " + e for e in expected))
print(f"{checked} commands re-run, {skipped} transcripts labelled with their version, {failures} failed")
sys.exit(1 if failures else 0)
