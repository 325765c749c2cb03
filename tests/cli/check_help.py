#!/usr/bin/env python3
"""Checks that `ppl COMMAND --help` lists every option with its default: each option's
entry (its line and the indented lines after it) shows `=VALUE` (CLI11's default) or says
"default" in words.

  check_help.py PPL COMMAND...
"""
import re
import subprocess
import sys

ppl, commands = sys.argv[1], sys.argv[2:]
bad = []
for command in commands:
    text = subprocess.run([ppl, command, "--help"], check=True, capture_output=True, text=True).stdout
    entries, current, in_options = [], None, False
    for line in text.splitlines():
        if line.startswith("Options:"):
            in_options = True
            continue
        if not in_options:
            continue
        if re.match(r"^  -", line):
            current = [line]
            entries.append(current)
        elif line.startswith("      ") and current is not None:
            current.append(line)
        elif line.strip() == "":
            current = None
    for entry in entries:
        first = entry[0].strip()
        if first.startswith("-h,--help"):
            continue
        option = first.split()[0]
        signature = first.split("  ")[0]  # CLI11 pads between the signature and the description
        whole = " ".join(entry)
        if "=" not in signature and "REQUIRED" not in signature and "default" not in whole:
            bad.append(f"{command} {option}: no default shown")
if bad:
    sys.exit("\n".join(bad))
print(f"help: every option of {len(commands)} commands shows its default")
