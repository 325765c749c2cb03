#!/usr/bin/env python3
"""Runs `ppl infer` with four chains in a pseudo-terminal of a given width and checks its
status line (and SMC's, and a long build's, at the end): it is redrawn in place (carriage return, erase to the end of the line) and
never reaches the terminal's width, so it never wraps into a trail of lines; it shows
warmup and sampling; and the summary follows on a line of its own.

  progress_pty.py PPL MODEL DATA
"""
import fcntl, os, pty, re, select, struct, sys, tempfile, termios

ppl, model, data = sys.argv[1:4]


def run_in_terminal(args, width, wait):
    """Runs ppl with `args` in a pseudo-terminal `width` columns wide; its output as text.
    `wait`: the seconds of silence after which the output is taken as ended."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm"
        os.execv(ppl, [ppl] + args)
    # rows, columns: the terminal the run draws its line in
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, width, 0, 0))
    out = b""
    while True:
        r, _, _ = select.select([fd], [], [], wait)
        if not r:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, (status, out[-2000:])
    return out.decode("utf-8", "replace")


for width in (80, 40, 200):
    text = run_in_terminal(["infer", model, data, "--chains", "4", "--warmup", "3000", "--draws", "3000", "--seed", "2"], width, 30)
    # What each redraw shows, without the erase-to-end-of-line sequence.
    segments = [s.replace("\x1b[K", "") for s in re.split(r"\r|\n", text)]
    shown = [s for s in segments if "s left" in s]
    assert shown, text[:2000]
    too_wide = [s for s in shown if len(s) >= width]
    assert not too_wide, f"width {width}: a status line of {len(too_wide[0])} characters: {too_wide[0]!r}"
    assert any("s left" in s for s in shown), shown[:5]
    if width >= 80:
        assert any("W" in s or "warmup" in s for s in shown) and any("S" in s or "sampling" in s for s in shown), shown[:5]
    # The status line is ended before the summary starts.
    assert re.search(r"\n\s*name\s+mean", text), text[-3000:]
    print(f"progress at {width} columns: {len(shown)} redraws, the longest {max(map(len, shown))} characters")

# SMC's status line: each run's temperature, in place and within the width, cleared before
# the summary.
for width in (60, 200):
    text = run_in_terminal(["infer", model, data, "--method", "smc", "--particles", "40000", "--runs", "4", "--seed", "2"], width, 60)
    shown = [s.replace("\x1b[K", "") for s in re.split(r"\r|\n", text) if s.replace("\x1b[K", "").startswith("smc: ")]
    assert shown, text[:2000]
    assert all(len(s) < width for s in shown), [s for s in shown if len(s) >= width][:1]
    assert re.search(r"\n\s*name\s+mean", text), text[-3000:]
    print(f"smc progress at {width} columns: {len(shown)} redraws, e.g. {shown[-1]!r}")

# A build that takes more than half a second (six million instances of two statements)
# shows its phase and statement on the same line, within the width, before the chains'.
with tempfile.TemporaryDirectory() as folder:
    big = os.path.join(folder, "big.ppl")
    open(big, "w").write("data N: int = 6000000\nfor n in 1:N {\n  x[n] ~ Normal(0, 1)\n  y[n] ~ Normal(x[n], 1)\n}\n")
    for width in (100, 30):
        text = run_in_terminal(["infer", big, "--chains", "1", "--warmup", "1", "--draws", "4"], width, 60)
        segments = [s.replace("\x1b[K", "") for s in re.split(r"\r|\n", text)]
        shown = [s for s in segments if s.startswith("building")]
        assert shown, text[:2000]
        assert all(len(s) < width for s in shown), [s for s in shown if len(s) >= width][:1]
        if width >= 80:
            assert any(re.match(r"building the graph: line [34], \d+% \| \d+ s \| \d+ MB in use$", s) for s in shown), shown[:5]
        first_chain = next(i for i, s in enumerate(segments) if "s left" in s)
        assert max(i for i, s in enumerate(segments) if s.startswith("building")) < first_chain, segments[:20]
        print(f"build progress at {width} columns: {len(shown)} redraws, e.g. {shown[len(shown) // 2]!r}")
