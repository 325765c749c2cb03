#!/usr/bin/env bash
# `ppl repl`: a script on standard input builds the coin model a statement at a time
# (one spanning lines), sets its data, plans, describes, samples and queries the draws;
# errors print their caret and the REPL goes on (exit status 1 at the end); then the same
# through a pseudo-terminal with completion and history (repl_pty.py).
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
grep -q '^model: 3 variables, 2 statements$' "$tmp/out"
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
grep -q "<input>:1:6: error: undefined name \`no_such_thing\`" "$tmp/err"
grep -q -- '--chains' "$tmp/err"
# help names every command; nothing after quit runs.
for c in load read set model plan sample summary describe 'mean(E)' help quit; do grep -q "^  $c" "$tmp/out"; done
[ "$(grep -c '^0\.' "$tmp/out")" = 3 ]

# A model and data given on the command line.
printf 'describe p\nsample --chains 1 --draws 100 --quiet\nsummary\n' | "$ppl" repl "$examples/coin/coin.ppl" "$examples/coin/data.csv" > "$tmp/out2"
grep -q '^p  ' "$tmp/out2"

python3 "$here/repl_pty.py" "$ppl" "$examples/coin/coin.ppl" "$examples/coin/data.csv" "$tmp"
echo "repl: all checks passed"
