#!/usr/bin/env python3
"""Drives `ppl repl` through a pseudo-terminal, as a person would: tab completion of a
command, a sample, a query of the draws, an error that leaves the REPL running, and the
history file written on the way.

  repl_pty.py PPL MODEL DATA HOME
"""
import os, pty, sys, time, select
ppl, coin, data, home = sys.argv[1:5]
pid, fd = pty.fork()
if pid == 0:
    os.environ["HOME"] = home
    os.environ["PPL_HISTORY"] = os.path.join(home, "history")
    os.environ["TERM"] = "dumb"
    os.execv(ppl, [ppl, "repl", coin, data])
out = b""
def read_until(token, timeout=20):
    global out
    end = time.time() + timeout
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            if token.encode() in out:
                return True
    return False
assert read_until("ppl> "), out
os.write(fd, b"descr\tp\n")
assert read_until("p: real unknown"), out
os.write(fd, b"sample --chains 1 --draws 200 --quiet\n")
assert read_until("elapsed"), out
os.write(fd, b"mean(p > 0.5)\n")
assert read_until("ppl> "), out
os.write(fd, b"undefined_thing + 1\n")
assert read_until("undefined name"), out
os.write(fd, b"quit\n")
read_until("\0", timeout=60)  # to the end, so that nothing it writes on the way out can block it
_, status = os.waitpid(pid, 0)
assert os.waitstatus_to_exitcode(status) == 0, (status, out)
hist = open(os.path.join(home, "history")).read().replace("\\040", " ")
assert "describe p" in hist and "mean(p > 0.5)" in hist, hist
print("repl through a terminal: all checks passed")
