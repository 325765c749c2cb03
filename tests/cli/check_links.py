#!/usr/bin/env python3
"""Checks the relative links of markdown files: that each points to a file (or folder) of
the repository, and that an anchor into a markdown file names one of its headings.

  check_links.py REPO FILE.md...
  check_links.py REPO            every markdown file of REPO (build directories aside)

Every link `[text](path)`, `[text](path#anchor)`, `[text](#anchor)` and image
`![alt](path)` outside code (fenced blocks and `code spans`), its text on one line or
several, and every reference definition `[name]: path`, is checked:

- the path is taken relative to the file that holds the link (or to REPO when it begins
  with `/`), and must exist inside REPO;
- an anchor into a markdown file (a bare `#anchor` is into the file itself) must be the
  slug of one of its headings as GitHub makes them: the heading's text without its
  markup, lowercased, every character that is not a letter, a digit, `-` or `_` dropped
  except spaces, which become `-`; a repeated slug gets `-1`, `-2`, ... An HTML anchor
  (`<a name="x">`, `id="x"`) counts too. Anchors into other files are not checked.

Links with a scheme (`http:`, `https:`, `mailto:` ...) are not followed. Each broken link
is printed as `FILE:LINE: broken link TARGET (why)` and the exit status is 1; otherwise
one line tallies what was checked and the exit status is 0.
"""
import os, re, sys, unicodedata
from urllib.parse import unquote

FENCE = re.compile(r"^\s*(```|~~~)")
ATX = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# [text](target "title") and ![alt](target); the text may hold one level of brackets.
INLINE = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[([^\]]+)\]:\s*(<[^>]*>|\S+)")
HTML_ANCHOR = re.compile(r"<a\s[^>]*\bname=\"([^\"]+)\"|\bid=\"([^\"]+)\"")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def blank_code_spans(line):
    """The line with the contents of its code spans replaced by spaces (same length)."""
    return CODE_SPAN.sub(lambda m: m.group(1) + " " * len(m.group(2)) + m.group(1), line)


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif line.strip().startswith(fence):
                fence = None
            continue
        if fence is None:
            yield number, line


def paragraphs(text):
    """(first line number, lines) of each run of prose lines between blank lines and fences,
    code spans blanked, so that a link whose text wraps onto the next line is one match."""
    block, first, expected = [], None, None
    for number, line in prose_lines(text):
        if block and (not line.strip() or number != expected):
            yield first, block
            block = []
        if line.strip():
            if not block:
                first = number
            block.append(blank_code_spans(line))
        expected = number + 1
    if block:
        yield first, block


def heading_text(raw):
    """A heading's text as GitHub renders it: links by their text, no code or emphasis marks."""
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", raw)
    text = re.sub(r"<[^>]+>", "", text)
    return text.replace("`", "").replace("*", "")


def slug(text):
    kept = []
    for ch in heading_text(text).strip().lower():
        if ch == " ":
            kept.append("-")
        elif ch in "-_" or unicodedata.category(ch)[0] in "LMN":
            kept.append(ch)
    return "".join(kept)


anchor_cache = {}


def anchors(path):
    """Every anchor a markdown file defines: its headings' slugs and its HTML anchors."""
    if path not in anchor_cache:
        found, seen = set(), {}
        previous = None
        for _, line in prose_lines(open(path, encoding="utf-8").read()):
            m = ATX.match(line)
            heading = m.group(2) if m else None
            if heading is None and previous and previous.strip() and SETEXT.match(line) \
                    and not previous.lstrip().startswith(("-", "*", "|", ">")):
                heading = previous.strip()
            if heading is not None:
                base = slug(heading)
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
            for a in HTML_ANCHOR.finditer(line):
                found.add(a.group(1) or a.group(2))
            previous = line
        anchor_cache[path] = found
    return anchor_cache[path]


def check(repo, path, number, target, problems):
    """Checks one link target; appends a message to problems when it is broken."""
    target = target.strip()
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    if not target or SCHEME.match(target) or target.startswith("//"):
        return "external"
    where, _, anchor = target.partition("#")
    where, anchor = unquote(where), unquote(anchor)
    if where:
        base = repo if where.startswith("/") else os.path.dirname(path)
        resolved = os.path.normpath(os.path.join(base, where.lstrip("/")))
    else:
        resolved = path
    report = lambda why: problems.append(f"{os.path.relpath(path, repo)}:{number}: broken link {target} ({why})")
    if os.path.relpath(resolved, repo).startswith(os.pardir):
        report("outside the repository")
        return "broken"
    if not os.path.exists(resolved):
        report("no such file")
        return "broken"
    if anchor:
        if os.path.isdir(resolved):
            report("an anchor into a folder")
            return "broken"
        if resolved.endswith((".md", ".markdown")):
            if anchor not in anchors(resolved):
                report(f"no heading with anchor #{anchor} in {os.path.relpath(resolved, repo)}")
                return "broken"
            return "anchor"
    return "file"


def markdown_files(repo):
    """Every .md file under repo, hidden folders and build directories (build*) aside."""
    found = []
    for folder, subfolders, names in os.walk(repo):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith((".", "build")) and d != "__pycache__")
        found += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".md")]
    return found


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    repo = os.path.abspath(sys.argv[1])
    files = [os.path.abspath(f) for f in sys.argv[2:]] or markdown_files(repo)
    problems, tally = [], {"file": 0, "anchor": 0, "external": 0, "broken": 0}
    for path in files:
        if not os.path.isfile(path):
            problems.append(f"{os.path.relpath(path, repo)}: no such markdown file")
            continue
        for first, lines in paragraphs(open(path, encoding="utf-8").read()):
            for k, line in enumerate(lines):
                m = REFDEF.match(line)
                if m:
                    tally[check(repo, path, first + k, m.group(2), problems)] += 1
                    lines[k] = ""
            block = "\n".join(lines)
            for link in INLINE.finditer(block):
                number = first + block.count("\n", 0, link.start())
                tally[check(repo, path, number, link.group(2), problems)] += 1
    for p in problems:
        print(p)
    checked = tally["file"] + tally["anchor"] + tally["broken"]
    nfiles = f"{len(files)} file" + ("" if len(files) == 1 else "s")
    if problems:
        print(f"{len(problems)} broken of {checked} relative links in {nfiles}", file=sys.stderr)
        return 1
    print(f"{checked} relative links in {nfiles} all resolve ({tally['anchor']} with an anchor "
          f"into a heading); {tally['external']} external links not followed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
