#!/usr/bin/env python3
"""Re-runs the command transcripts quoted in the READMEs and checks that the current
binary prints what they show, so that no quoted output drifts.

A transcript is a fenced code block whose first line starts with `$ `. Each `$ ` line is
a command (run with `ppl` and `build/ppl` meaning the binary under test, from a scratch
directory where `examples`, `scripts` and `tests` are the checkout's); the lines after it,
up to the next command, are what it must print (standard output and error together):

- each shown line must match a printed line, in order; printed lines between them are
  allowed only where the transcript has a line `...`;
- within a line, `...` stands for any text (a time, a speed), and runs of spaces match
  any run of spaces.

A transcript that takes too long for the tests is preceded by a line
`<!-- transcript not re-run: REASON -->` and must say in the prose just before it which
version printed it (`ppl 0.1.0`); this script checks that it does.

  check_transcripts.py PPL REPO FILE.md...
"""
import os, re, subprocess, sys, tempfile

ppl, repo, files = sys.argv[1], sys.argv[2], sys.argv[3:]
version = subprocess.run([ppl, "--version"], capture_output=True, text=True).stdout.strip()


def transcripts(text):
    """(line number, skip reason or None, [(command, [expected lines])]) per transcript."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```") and i + 1 < len(lines) and lines[i + 1].startswith("$ "):
            start, i = i, i + 1
            steps = []
            while i < len(lines) and not lines[i].startswith("```"):
                if lines[i].startswith("$ "):
                    steps.append((lines[i][2:], []))
                else:
                    steps[-1][1].append(lines[i])
                i += 1
            before = lines[start - 1] if start > 0 else ""
            m = re.match(r"<!-- transcript not re-run: (.*) -->", before)
            yield start + 1, (m.group(1) if m else None), steps, "\n".join(lines[max(0, start - 12):start])
        i += 1


def line_pattern(shown):
    """A shown line as a regular expression: `...` any text, a run of spaces any run."""
    def part(text):
        return "".join(r"\s+" if piece.isspace() else re.escape(piece) for piece in re.split(r"(\s+)", text) if piece)
    return re.compile("^" + ".*".join(part(p) for p in shown.rstrip().split("...")) + r"\s*$")


def matches(expected, printed):
    """Whether the printed lines match the expected ones (see the module's comment)."""
    def go(e, p):
        if e == len(expected):
            return all(not line.strip() for line in printed[p:]) or (e > 0 and expected[e - 1].strip() == "...")
        if expected[e].strip() == "...":
            return any(go(e + 1, q) for q in range(p, len(printed) + 1))
        return p < len(printed) and line_pattern(expected[e]).match(printed[p]) is not None and go(e + 1, p + 1)
    return go(0, 0)


failures = checked = skipped = 0
with tempfile.TemporaryDirectory() as scratch:
    for name in ("examples", "scripts", "tests"):
        os.symlink(os.path.join(repo, name), os.path.join(scratch, name))
    os.makedirs(os.path.join(scratch, "build"))
    os.symlink(os.path.abspath(ppl), os.path.join(scratch, "build", "ppl"))
    env = dict(os.environ, PATH=os.path.join(scratch, "build") + os.pathsep + os.environ["PATH"])
    for path in files:
        text = open(path).read()
        for line, skip, steps, prose in transcripts(text):
            where = f"{os.path.relpath(path, repo)}:{line}"
            if skip is not None:
                skipped += 1
                if f"ppl {version}" not in prose:
                    print(f"FAIL {where}: a transcript not re-run must say which version printed it (ppl {version})")
                    failures += 1
                continue
            for command, expected in steps:
                checked += 1
                while expected and not expected[-1].strip():
                    expected.pop()
                run = subprocess.run(command, shell=True, cwd=scratch, env=env, capture_output=True, text=True, timeout=600)
                printed = (run.stdout + run.stderr).rstrip("\n").split("\n")
                if not matches(expected, printed):
                    failures += 1
                    print(f"FAIL {where}: `{command}` printed\n" + "\n".join("    " + p for p in printed[:40]))
                    print("  where the README shows\n" + "\n".join("    " + e for e in expected))
print(f"{checked} commands re-run, {skipped} transcripts labelled with their version, {failures} failed")
sys.exit(1 if failures else 0)
