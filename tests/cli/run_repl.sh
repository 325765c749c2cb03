#!/usr/bin/env bash
# `ppl repl`: a script on standard input builds the coin model a statement at a time
# (one spanning lines), sets its data, plans, describes, samples and queries the draws;
# errors print their caret and the REPL goes on (exit status 1 at the end). Then numbered
# statements are dropped and replaced, an edit that breaks the model is refused, and a
# sample made before the model or data changed is said to be stale; then the REPL through
# a pseudo-terminal: completion, history, Ctrl-C and Ctrl-D (repl_pty.py).
set -euo pipefail
ppl=$1
examples=$2
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/script" <<'PPL'
# the coin, typed in
data y: int[N]
p ~ Beta(1, 1)
for n in 1:N {
  y[n] ~ Bernoulli(p)
}
set y=[1,1,0,1,1,1,0,1]
plan
describe p
sample --chains 2 --draws 2000 --seed 3 --quiet
mean(p > 0.5)
quantile(p, 0.9)
median(p)
2 * p
q ~ Normal(0, sigma_undefined)
mean(no_such_thing)
sample --chains 0
help
quit
mean(p)
PPL
set +e
"$ppl" repl < "$tmp/script" > "$tmp/out" 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 1 ] || { echo "FAIL: exit status $rc, expected 1 (some lines failed)"; exit 1; }
grep -q '^statement 3 added (model: 3 variables, 3 statements)$' "$tmp/out"
grep -q '^p  *conjugate  *Beta prior' "$tmp/out"
grep -q '^p: real unknown$' "$tmp/out"
grep -q '^  line 2: p ~ Beta(1, 1)$' "$tmp/out"
grep -q '^  sampler conjugate' "$tmp/out"
# The posterior is Beta(7, 3): P(p > 0.5) = 0.9102, the 90% quantile 0.8726, the median
# 0.7138; 4000 independent draws give a Monte Carlo error below 0.005 on each.
python3 - "$tmp/out" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
i = next(k for k, l in enumerate(lines) if l.startswith("# chain 2 elapsed"))
rest = lines[i + 1:]
prob, q90, median = float(rest[0]), float(rest[1]), float(rest[2])
assert abs(prob - 0.9102) < 0.02, prob
assert abs(q90 - 0.8726) < 0.02, q90
assert abs(median - 0.7138) < 0.02, median
# 2 p has mean 2 * 0.7 = 1.4.
assert rest[3].startswith("mean ") and abs(float(rest[3].split()[1].rstrip(",")) - 1.4) < 0.02, rest[3]
PY
# Errors: the caret under the undefined name; an expression error points into the input.
grep -q "<repl>:6:15: error: undefined name \`sigma_undefined\`" "$tmp/err"
grep -q "^note: the model is as it was" "$tmp/err"
grep -q "<input>:1:6: error: undefined name \`no_such_thing\`" "$tmp/err"
grep -q -- '--chains' "$tmp/err"
# help names every command; nothing after quit runs.
for c in load read set model drop replace plan sample summary describe 'mean(E)' help quit Ctrl-C; do grep -q "^  $c" "$tmp/out"; done
[ "$(grep -c '^0\.' "$tmp/out")" = 3 ]

# A model and data given on the command line.
printf 'describe p\nsample --chains 1 --draws 100 --quiet\nsummary\n' | "$ppl" repl "$examples/coin/coin.ppl" "$examples/coin/data.csv" > "$tmp/out2"
grep -q '^p  ' "$tmp/out2"

# Numbered statements: replace, drop, refused edits; a stale sample answers from its own
# draws (under the model and data it was made with) and says so.
cat > "$tmp/edits" <<PPL
data y: int[N]
p ~ Beta(1, 1)
for n in 1:N {
  y[n] ~ Bernoulli(p)
}
set y=[1,1,0,1,1,1,0,1]
sample --chains 2 --draws 2000 --seed 3 --quiet
mean(p)
replace 2 p ~ Beta(20, 20)
mean(p)
sample --chains 2 --draws 2000 --seed 3 --quiet
mean(p)
q ~ Normal(0, 1)
drop 4
drop 1
drop 9
drop two
replace 2 mean(p)
replace 2 p ~ Beta(1, 1, 1)
model
set y=[1,1,1,1,1,1,1,1]
load $examples/coin/coin.ppl
drop 3
p2 ~ Normal(0, 1)
model
mean(p)
PPL
set +e
"$ppl" repl < "$tmp/edits" > "$tmp/out3" 2> "$tmp/err3"; rc=$?
set -e
[ "$rc" = 1 ] || { echo "FAIL: exit status $rc, expected 1 (refused edits)"; exit 1; }
python3 - "$tmp/out3" "$tmp/err3" <<'PY'
import sys
out = open(sys.argv[1]).read().splitlines()
err = open(sys.argv[2]).read().splitlines()
def after(lines, start, prefix):
    """The index of the first line from `start` on beginning with `prefix`."""
    return next(k for k in range(start, len(lines)) if lines[k].startswith(prefix))
i = after(out, 0, "statement 3 added (model: 3 variables, 3 statements)")
i = after(out, i, "# chain 2 elapsed")
# Beta(1, 1) prior, 6 of 8: the posterior mean is 7/10; with Beta(20, 20), 26/48.
assert abs(float(out[i + 1]) - 0.7) < 0.01, out[i + 1]
assert out[i + 2] == "statement 2 replaced (model: 3 variables, 3 statements)", out[i + 2]
assert abs(float(out[i + 3]) - 0.7) < 0.01, ("stale draws answer as before", out[i + 3])
i = after(out, i + 4, "# chain 2 elapsed")
assert abs(float(out[i + 1]) - 26 / 48) < 0.01, out[i + 1]
assert out[i + 2] == "statement 4 added (model: 4 variables, 4 statements)", out[i + 2]
assert out[i + 3] == "statement 4 dropped (model: 3 variables, 3 statements)", out[i + 3]
# The refused edits left statements 1 to 3, with the replacement.
listing = out[i + 4:i + 9]
assert listing == ["[1] data y: int[N]", "[2] p ~ Beta(20, 20)", "[3] for n in 1:N {", "      y[n] ~ Bernoulli(p)", "    }"], listing
i = after(out, i + 9, "model ")
assert out[i].endswith("coin.ppl: 3 variables, 3 statements"), out[i]
assert out[i + 1] == "statement 3 dropped (model: 3 variables, 2 statements)", out[i + 1]
assert out[i + 2] == "statement 4 added (model: 4 variables, 3 statements)", out[i + 2]  # numbers are not reused
assert out[i + 3].startswith("    # coin.ppl"), out[i + 3]  # the file's comment stays above its statement
assert out[i + 4].startswith("[1] data y: int<lower=0, upper=1>[N]"), out[i + 4]
assert out[i + 6] == "[2] p ~ Beta(1, 1)" and out[i + 7] == "[4] p2 ~ Normal(0, 1)", out[i + 5:i + 8]
assert abs(float(out[i + 8]) - 26 / 48) < 0.01, out[i + 8]  # the stale draws, under their own model

stale = "note: the model or data changed since the last sample; `sample` again to update"
answered = "note: answered from the last sample's draws, made before the model or data changed"
kept = "note: the model is as it was (`model` lists it)"
expected = [stale, answered,                                  # replace 2; mean(p)
            stale, stale,                                     # q added; drop 4
            "<model without statement 1>:2:12: error: undefined name `N`", kept,  # drop 1: N was declared by y's shape
            "error: drop: there is no statement 9 (`model` lists them)",
            "error: drop: expected a statement's number (`model` lists them), got `two`",
            "error: replace: `mean(p)` is not a statement of the language",
            "<model with statement 2 replaced>:2:5: error: Beta takes 2 arguments (a, b) but 3 were given", kept,
            stale, stale, stale, stale, answered]            # set; load; drop 3; p2 added; mean(p)
got = [l for l in err if l.startswith(("note:", "error:", "<"))]
assert got == expected, "\n".join(got)
PY

# The language's later statements typed in: a `param`, an `if` spanning lines, a
# vectorised `~` and a log-density call; all are statements, not expressions.
cat > "$tmp/later" <<'PPL'
data y: real[N]
param mu: real
if (N > 1) {
  y ~ Normal(mu, 1)
}
for n in 1:N { log_lik[n] = normal_lpdf(y[n] | mu, 1) }
set y=[0.5,1.5]
sample --chains 2 --draws 1000 --seed 3 --quiet
mean(mu > 0 ? 1 : 0)
PPL
"$ppl" repl --script < "$tmp/later" > "$tmp/later_out" 2>&1 || { echo "FAIL: later statements:"; cat "$tmp/later_out"; exit 1; }
grep -q "^log_lik\[2\]" "$tmp/later_out" || { echo "FAIL: log_lik not recorded"; cat "$tmp/later_out"; exit 1; }

python3 "$here/repl_pty.py" "$ppl" "$examples" "$tmp"
echo "repl: all checks passed"
