#!/usr/bin/env python3
"""Checks `ppl man` and `ppl completion bash` against `ppl COMMAND --help`, the text both are
written from:

- the manual page has a section for every command, and in it every option of the
  command's --help with the first words of its description;
- where man(1) is installed, it renders the page without a warning;
- the completion script, sourced by bash, completes the commands, every option of every
  command, the choices of an option that has them, nothing for a number or a name, and
  file names for the arguments and for the options that take one.

  check_manual.py PPL EXAMPLES COMMAND...
"""
import os, re, shutil, subprocess, sys, tempfile

ppl, examples, commands = sys.argv[1], sys.argv[2], sys.argv[3:]
failures = []


def run(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


def help_options(command):
    """{long option: first words of its description} from `ppl COMMAND --help`."""
    text = run(ppl, command, "--help")
    options, name = {}, None
    for line in text.split("Options:", 1)[-1].splitlines():
        m = re.match(r"^  (?:-\w,)?(--[\w-]+)(?:,-\w)?\b(.*)$", line)
        if m:
            name = m.group(1)
            rest = re.split(r"\s{2,}", m.group(2).strip(), maxsplit=1)
            options[name] = rest[1] if len(rest) > 1 else ""
        elif name and line.startswith("      ") and not options[name]:
            options[name] = line.strip()
    options.pop("--help", None)
    return options


def roff_text(text):
    return text.replace("\\", "\\e").replace("-", "\\-")


page = run(ppl, "man")
if not page.startswith(".TH PPL 1 "):
    failures.append("ppl man: the page does not begin with .TH PPL 1")
sections = dict(re.findall(r'^\.SS "ppl ([\w-]+)[^"]*"\n(.*?)(?=^\.SS |^\.SH )', page, re.S | re.M))
checked = 0
for command in commands:
    if command not in sections:
        failures.append(f"ppl man: no section for {command}")
        continue
    for option, description in help_options(command).items():
        checked += 1
        words = " ".join(description.split()[:4])
        entry = re.search(r"^\\fB" + re.escape(roff_text(option)) + r"\b.*\n(.*)$", sections[command], re.M)
        if not entry:
            failures.append(f"ppl man: {command} {option} is missing")
        elif not entry.group(1).startswith(roff_text(words)):
            failures.append(f"ppl man: {command} {option} reads {entry.group(1)[:60]!r}, --help {words!r}")
if shutil.which("man"):
    rendered = subprocess.run(["man", "--warnings", "-l", "-"], input=page, capture_output=True, text=True,
                              env=dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="0"))
    if rendered.returncode != 0 or rendered.stderr.strip():
        failures.append("man -l: " + (rendered.stderr.strip() or f"exit {rendered.returncode}"))
    elif "ppl infer" not in rendered.stdout:
        failures.append("man -l: the rendered page lacks `ppl infer`")

with tempfile.TemporaryDirectory() as tmp:
    script = os.path.join(tmp, "ppl.bash")
    with open(script, "w") as f:
        f.write(run(ppl, "completion", "bash"))
    os.makedirs(os.path.join(tmp, "models"))
    for name in ("coin.ppl", "cobalt.csv"):
        open(os.path.join(tmp, "models", name), "w").close()

    def complete(*words):
        """What bash completes for `ppl WORDS...` with the cursor at the end of the last word."""
        line = " ".join(("ppl",) + words)
        quoted = " ".join("'" + w + "'" for w in ("ppl",) + words)
        program = f"source {script}\nCOMP_WORDS=({quoted})\nCOMP_CWORD={len(words)}\nCOMP_LINE='{line}'\n_ppl\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n"
        out = subprocess.run(["bash", "-c", program], capture_output=True, text=True, cwd=tmp)
        if out.returncode != 0 or out.stderr:
            failures.append(f"completion of {line!r}: {out.stderr.strip() or out.returncode}")
        return sorted(w for w in out.stdout.split("\n") if w)

    def expect(words, wanted):
        got = complete(*words)
        if got != sorted(wanted):
            failures.append(f"completion of `ppl {' '.join(words)}`: {got}, expected {sorted(wanted)}")

    expect([""], commands + ["--help", "--version"])
    expect(["inf"], ["infer"])
    for command in commands:
        got = set(complete(command, "--"))
        missing = [o for o in help_options(command) if o not in got]
        if missing:
            failures.append(f"completion of `ppl {command} --`: lacks {missing}")
    expect(["infer", "--method", ""], ["advi", "importance", "laplace", "mcmc", "optimize", "pathfinder", "rejection", "smc", "vb"])
    expect(["infer", "--format", "s"], ["stan"])
    expect(["infer", "--chains", ""], [])
    expect(["infer", "--set", ""], [])
    expect(["infer", "--init", "models/coi"], ["models/coin.ppl"])
    expect(["infer", "models/co"], ["models/cobalt.csv", "models/coin.ppl"])
    expect(["infer", "models/coin.ppl", "--output", "models/cob"], ["models/cobalt.csv"])
    expect(["completion", ""], ["bash"])

if failures:
    sys.exit("\n".join("FAIL " + f for f in failures))
print(f"manual: {checked} options of {len(commands)} commands in ppl man; the completion script completes them")
