#!/usr/bin/env python3
"""Drives `ppl repl` through a pseudo-terminal, as a person would: tab completion of a
command, a sample, a query of the draws, an error that leaves the REPL running, the
history file written on the way; Ctrl-C cancelling a line and a statement spanning lines,
Ctrl-C stopping `sample` in its warmup and in its draws (the draws kept), and leaving by
Ctrl-C twice or by Ctrl-D.

  repl_pty.py PPL EXAMPLES HOME
"""
import os, pty, sys, termios, time, select

ppl, examples, home = sys.argv[1:4]
coin = os.path.join(examples, "coin", "coin.ppl")
data = os.path.join(examples, "coin", "data.csv")


class Repl:
    def __init__(self):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ["HOME"] = home
            os.environ["PPL_HISTORY"] = os.path.join(home, "history")
            os.environ["TERM"] = "dumb"
            os.execv(ppl, [ppl, "repl", coin, data])
        self.out = b""
        self.seen = 0  # what read_until has looked at: each call waits for text after it

    def read_until(self, token, timeout=20):
        end = time.time() + timeout
        while time.time() < end:
            at = self.out.find(token.encode(), self.seen)
            if at >= 0:
                self.seen = at + len(token)
                return True
            r, _, _ = select.select([self.fd], [], [], 0.2)
            if r:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    return False
                if not chunk:
                    return False
                self.out += chunk
        return False

    def send(self, text):
        os.write(self.fd, text.encode())

    def send_when_editing(self, text, timeout=20):
        # A Ctrl-D typed while the terminal is still in canonical mode (the line editor
        # switches it to its own mode as it starts reading) is an end-of-file that the
        # switch discards: the tty keeps no trace of it. A person cannot type that fast
        # after a prompt appears; a script can, so it waits for the editor's mode.
        end = time.time() + timeout
        while time.time() < end and termios.tcgetattr(self.fd)[3] & termios.ICANON:
            time.sleep(0.01)
        self.send(text)

    def expect(self, token, timeout=20):
        assert self.read_until(token, timeout), (token, self.out.decode(errors="replace")[-2000:])

    def status(self):
        self.read_until("\0", timeout=60)  # to the end, so that nothing it writes on the way out can block it
        # A REPL that never leaves fails the test rather than hanging the suite.
        for _ in range(600):
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.1)
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        raise AssertionError(("the REPL did not leave", self.out.decode(errors="replace")[-2000:]))


r = Repl()
r.expect("ppl> ")
r.send("descr\tp\n")
r.expect("p: real unknown")
r.send("sample --chains 1 --draws 200 --quiet\n")
r.expect("elapsed")
r.send("mean(p > 0.5)\n")
r.expect("ppl> ")
r.send("undefined_thing + 1\n")
r.expect("undefined name")
r.expect("ppl> ")

# Ctrl-C discards what is typed (the tty would flush unread input with it, so wait for the
# echo first), and all of a statement spanning lines; neither reaches the model.
r.send("q ~ Normal(0, 1)")
r.expect("Normal(0, 1)")
r.send("\x03")
r.expect("^C")
r.expect("ppl> ")
r.send("for n in 1:3 {\n")
r.expect("...> ")
r.send("z[n] ~ Normal(0, 1)\n")
r.expect("...> ")
r.send("\x03")
r.expect("ppl> ")
r.send("model\n")
r.expect("[3] for n in 1:N {")
r.expect("ppl> ")
listing = r.out.decode(errors="replace").rsplit("[1]", 1)[1]
assert "q ~" not in listing and "z[n]" not in listing, listing

# Ctrl-C during sample stops the chains: in the warmup no draw is kept, in the draws those
# made are, and the REPL goes on with them.
r.send("sample --chains 1 --warmup 1000000000 --draws 10 --quiet\n")
time.sleep(1.5)
r.send("\x03")
r.expect("interrupted")
r.expect("ppl> ")
r.send("mean(p)\n")
r.expect("the last sample has no draws")
r.expect("ppl> ")
r.send("sample --chains 1 --warmup 0 --draws 1000000000 --quiet\n")
time.sleep(1.5)
r.send("\x03")
r.expect("interrupted")
r.expect("ppl> ")
r.send("mean(p)\n")
r.expect("\n0.")
r.expect("ppl> ")

# A Ctrl-C, then input, then a Ctrl-C: still running; two in a row leave, status 0.
r.send("\x03")
r.expect("ppl> ")
r.send("help\n")
r.expect("ppl> ")
r.send("\x03")
r.expect("ppl> ")
r.send("\x03")
assert r.status() == 0, r.out
hist = open(os.path.join(home, "history")).read().replace("\\040", " ")
assert "describe p" in hist and "mean(p > 0.5)" in hist, hist
assert "q ~ Normal" not in hist, hist  # a cancelled line is not history

# Ctrl-D at an empty prompt leaves too.
r = Repl()
r.expect("ppl> ")
r.send_when_editing("\x04")
assert r.status() == 0, r.out
print("repl through a terminal: all checks passed")
