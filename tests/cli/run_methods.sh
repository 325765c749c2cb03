#!/usr/bin/env bash
# `ppl infer --method importance|smc|rejection` and `ppl compare` end to end. importance
# and smc on the coin (Beta(1, 1) prior, 14 heads in 20 flips: evidence B(15, 7) exactly,
# posterior Beta(15, 7)), rejection on the mark network (evidence 0.201, a sum over its
# 18 values): the log evidence
# printed and in the draws file's header within 3 of its standard errors of the exact
# value, the weight__ column whose weights sum to 1, `ppl summary` reading the file back
# with the same weighted mean, the posterior mean within 4 Monte Carlo standard errors of
# the exact one, and `ppl compare` of coin.ppl and fair.ppl (Beta(50, 50)) with the exact
# log Bayes factor within 3 standard errors. Importance sampling from a proposal model.
set -euo pipefail
ppl=$1
examples=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
coin="$examples/coin/coin.ppl"
data="$examples/coin/data.csv"

for method in importance smc rejection; do
  model=$coin; model_data=$data
  [ "$method" = rejection ] && { model="$examples/mark/mark.ppl"; model_data="$examples/mark/data.json"; }
  "$ppl" infer "$model" "$model_data" --method "$method" --particles 2000 --threads 2 --seed 4 --quiet -o "$tmp/$method.csv" \
    > "$tmp/$method.out" 2> "$tmp/$method.err"
  cat "$tmp/$method.out" "$tmp/$method.err"
  "$ppl" summary "$tmp/$method.csv" > "$tmp/$method.summary" 2> /dev/null
  python3 - "$method" "$tmp/$method.csv" "$tmp/$method.out" "$tmp/$method.summary" <<'PY'
import csv, math, sys
method, path, out, summary = sys.argv[1:]
exact = math.lgamma(15) + math.lgamma(7) - math.lgamma(22) if method != "rejection" else math.log(0.201)
header = {}
rows = []
with open(path) as f:
    for line in f:
        if line.startswith("# ") and ": " in line:
            key, value = line[2:].rstrip("\n").split(": ", 1)
            header.setdefault(key, value)
        elif not line.startswith("#"):
            rows.append(line)
table = list(csv.DictReader(rows))
log_z, se = float(header["log_evidence"]), float(header["log_evidence_se"])
assert header["method"] == method, header
assert 0 < se < 0.1 and abs(log_z - exact) < 3 * se, (method, log_z, se, exact)
printed = [l for l in open(out) if l.startswith("# log_evidence: ")]
assert printed == [f"# log_evidence: {header['log_evidence']}\n"], printed
# The coin's p, and the mark network's motivation, P(mot = 1 | mark 4) = 0.147 / 0.201.
name, target = ("p", 15 / 22) if method != "rejection" else ("mot", 0.147 / 0.201)
p = [float(r[name]) for r in table]
if method == "rejection":
    assert "weight__" not in table[0] and len(p) == 2000
    w = [1 / len(p)] * len(p)
else:
    w = [float(r["weight__"]) for r in table]
    assert abs(sum(w) - 1) < 1e-6, sum(w)  # 9 significant digits each
mean = sum(wi * pi for wi, pi in zip(w, p))
sd = math.sqrt(sum(wi * (pi - mean) ** 2 for wi, pi in zip(w, p)))
ess = 1 / sum(wi * wi for wi in w)
# SMC's resampled particles are correlated: its error is judged from its runs' spread below.
if method != "smc":
    assert abs(mean - target) < 4 * sd / math.sqrt(ess), (method, mean, sd, ess)
line = [l.split() for l in open(summary) if l.startswith(name + " ")][0]
assert abs(float(line[1]) - mean) < 1e-3 * abs(mean), (line, mean)
print(f"{method}: log evidence {log_z} (se {se}), exact {exact:.4f}; mean of {name} {mean:.4f}")
PY
done
grep -q '^note: the draws are weighted (weight__)' "$tmp/importance.out"

# SMC's posterior mean: its runs are independent, their means' spread is its error.
python3 - "$tmp/smc.csv" <<'PY'
import csv, math, sys
rows = [l for l in open(sys.argv[1]) if not l.startswith("#")]
p = [float(r["p"]) for r in csv.DictReader(rows)]
runs = [p[k * 2000:(k + 1) * 2000] for k in range(4)]
means = [sum(r) / len(r) for r in runs]
m = sum(means) / 4
se = math.sqrt(sum((x - m) ** 2 for x in means) / 3 / 4)
assert abs(m - 15 / 22) < 6 * se, (m, se)  # Student's t, 3 degrees of freedom: 1% beyond 5.84
PY

# Importance sampling from a proposal (examples/coin/proposal.ppl, Beta(10, 5) near the
# posterior): the evidence within 3 standard errors of the exact B(15, 7), and the weights'
# ESS far above the prior's (about 690 of 2000). A proposal must draw exactly the model's
# unknowns, observe nothing, and is importance sampling's alone.
"$ppl" infer "$coin" "$data" --method importance --proposal "$examples/coin/proposal.ppl" --particles 2000 --threads 2 --seed 4 \
  --quiet -o "$tmp/proposal.csv" > "$tmp/proposal.out"
python3 - "$tmp/proposal.out" <<'PY'
import math, re, sys
text = open(sys.argv[1]).read()
log_z = float(re.search(r"# log_evidence: (\S+)", text).group(1))
se = float(re.search(r"# log_evidence_se: (\S+)", text).group(1))
ess = float(re.search(r"# weights_ess: (\S+) of 2000", text).group(1))
exact = math.lgamma(15) + math.lgamma(7) - math.lgamma(22)
assert 0 < se < 0.02 and abs(log_z - exact) < 3 * se, (log_z, se, exact)
assert ess > 1500, ess
assert "draws from the proposal" in text and "proposal.ppl" in text, text
PY
printf 'p ~ Beta(10, 5)\nq ~ Normal(0, 1)\n' > "$tmp/extra.ppl"
printf 'data y: int[N]\np ~ Beta(10, 5)\ny[1] ~ Bernoulli(p)\n' > "$tmp/observes.ppl"
printf 'q ~ Beta(10, 5)\n' > "$tmp/other.ppl"
for case in "extra:\`q\` is an unknown of the proposal but not of the model" "observes:observes.ppl:3: this statement observes data" \
            "other:the proposal does not draw \`p\`"; do
  rc=0; "$ppl" infer "$coin" "$data" --method importance --proposal "$tmp/${case%%:*}.ppl" --quiet > /dev/null 2> "$tmp/err" || rc=$?
  [ "$rc" -ne 0 ] && grep -q -- "${case#*:}" "$tmp/err" || { echo "FAIL: --proposal ${case%%:*}: rc $rc"; cat "$tmp/err"; exit 1; }
done
rc=0; "$ppl" infer "$coin" "$data" --method smc --proposal "$examples/coin/proposal.ppl" > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" -ne 0 ] && grep -q -- "--proposal is importance sampling's" "$tmp/err" || { echo "FAIL: --proposal with smc"; exit 1; }

# Resampled draws: equally weighted, as many as --particles.
"$ppl" infer "$coin" "$data" --method importance --particles 500 --resample --quiet -o "$tmp/resampled.csv" > /dev/null
python3 - "$tmp/resampled.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
assert len(rows) == 500 and all(float(r["weight__"]) == 1 / 500 for r in rows)
PY

# The REPL keeps resampled draws, which its queries read as equally weighted: mean(p)
# within 4 standard errors of 15/22 (sd 0.097, ESS about 690 of the 2000 weighted draws).
printf 'sample --method importance --particles 2000 --quiet\nmean(p)\n' |
  "$ppl" repl "$coin" "$data" --script > "$tmp/repl.out" 2> /dev/null
python3 - "$tmp/repl.out" <<'PY'
import sys
lines = [l.strip() for l in open(sys.argv[1]) if l.strip()]
assert any("resampled (systematic)" in l for l in lines), lines
mean = float(lines[-1])
assert abs(mean - 15 / 22) < 4 * 0.097 / 690 ** 0.5, mean
PY

# SIGTERM (or Ctrl-C) keeps what is finished: smc's whole runs (their numbers and evidence
# in the header), importance's draws made, each written as a smaller run's result, with
# exit status 130. The runs asked for would take minutes; the signal comes after 2 s.
stop_after() {  # name, command...
  local name=$1; shift
  "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" & local pid=$!
  sleep 2
  kill -TERM "$pid"
  local rc=0; wait "$pid" || rc=$?
  [ "$rc" = 130 ] || { echo "FAIL: $name: exit $rc after SIGTERM"; cat "$tmp/$name.err"; exit 1; }
}
stop_after smc_stopped "$ppl" infer "$examples/eight_schools/eight_schools.ppl" "$examples/eight_schools/data.json" --method smc \
  --runs 4000 --particles 500 --threads 2 --quiet -o "$tmp/smc_stopped.csv"
stop_after importance_stopped "$ppl" infer "$coin" "$data" --method importance --particles 1000000 --threads 2 --quiet \
  -o "$tmp/importance_stopped.csv"
python3 - "$tmp" <<'PY'
import csv, re, sys
tmp = sys.argv[1]
for name, unit, total, per in [("smc_stopped", "runs finished", 4000, 500), ("importance_stopped", "draws made", 1000000, 1)]:
    err = open(f"{tmp}/{name}.err").read()
    m = re.search(rf"interrupted: (\d+) of {total} {unit}; the result above is theirs, kept in ", err)
    assert m, err
    done = int(m.group(1))
    assert 0 < done < total, done
    text = open(f"{tmp}/{name}.csv").read()
    assert f"# interrupted: {done} of {total} {unit}\n" in text, name
    rows = list(csv.DictReader(l for l in text.splitlines() if not l.startswith("#")))
    assert len(rows) == done * per, (name, len(rows), done)
    assert abs(sum(float(r["weight__"]) for r in rows) - 1) < 1e-4, name
    if name == "smc_stopped":  # the runs kept, by their numbers, each with its evidence
        numbers = [int(n) for n in re.findall(r"# run (\d+) log_evidence: ", text)]
        assert len(numbers) == done and len(set(numbers)) == done and max(numbers) <= total, numbers
    print(f"{name}: {done} of {total} {unit}")
PY
"$ppl" summary "$tmp/smc_stopped.csv" > /dev/null

# ppl compare: the log Bayes factor of coin.ppl over fair.ppl, exactly 0.0758.
"$ppl" compare "$coin" "$examples/coin/fair.ppl" "$data" --particles 1000 --threads 2 > "$tmp/compare.out"
cat "$tmp/compare.out"
python3 - "$tmp/compare.out" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"log Bayes factor, .* over .*: (-?[0-9.]+) \(se ([0-9.]+)\)", text)
log_bf, se = float(m.group(1)), float(m.group(2))
assert 0 < se < 0.1 and abs(log_bf - 0.07575) < 3 * se, (log_bf, se)
PY
# An error bar that cannot see its own failure is not printed: prior draws as importance
# proposals for the outliers regression put one weight over all the others (k-hat far above
# 0.7), and the delta method's standard error would be 1 whatever the error. None is given,
# the warning says why, and the exit status is 3 (0 with --allow-unreliable), the draws
# written either way.
rc=0; "$ppl" infer "$examples/outliers/outliers.ppl" "$examples/outliers/data.json" --method importance --particles 1000 --seed 2 \
  --quiet -o "$tmp/heavy.csv" > /dev/null 2> "$tmp/heavy.err" || rc=$?
[ "$rc" = 3 ] || { echo "FAIL: importance with a heavy tail exited $rc"; cat "$tmp/heavy.err"; exit 1; }
grep -q "^# log_evidence_se: nan$" "$tmp/heavy.csv" && grep -q "Pareto k-hat is .* above 0.7" "$tmp/heavy.err" &&
  grep -q "^error: the evidence's standard error cannot be trusted" "$tmp/heavy.err" || { echo "FAIL: the heavy tail's report"; exit 1; }
"$ppl" infer "$examples/outliers/outliers.ppl" "$examples/outliers/data.json" --method importance --particles 1000 --seed 2 \
  --quiet --allow-unreliable > /dev/null 2>&1
# SMC sums latent labels out of the likelihood where their elements are independent given
# the rest: the evidence is then the one of the same model with the sum written out (within
# 4 of the two runs' combined standard errors). Where they cannot be summed (a chain of
# states), it says that its path is tempered through them, which the runs' spread cannot
# check (docs/methods.md); and without discrete unknowns, nothing.
printf 'data y: real[N]\nw ~ Beta(1, 1)\nmu ~ Normal(0, 10)\nfor n in 1:N {\n  z[n] ~ Bernoulli(w)\n  y[n] ~ Normal(z[n] * mu, 1)\n}\n' > "$tmp/latent.ppl"
printf 'data y: real[N]\nw ~ Beta(1, 1)\nmu ~ Normal(0, 10)\nfor n in 1:N {\n  factor log_mix(w, normal_lpdf(y[n] | mu, 1), normal_lpdf(y[n] | 0, 1))\n}\n' > "$tmp/summed.ppl"
"$ppl" infer "$tmp/latent.ppl" --set 'y=[-0.2,2.9,3.1,0.4]' --method smc --particles 400 --runs 4 --quiet --allow-unreliable -o "$tmp/latent.csv" > "$tmp/latent.out" 2>&1
"$ppl" infer "$tmp/summed.ppl" --set 'y=[-0.2,2.9,3.1,0.4]' --method smc --particles 400 --runs 4 --quiet --allow-unreliable -o "$tmp/summed.csv" > /dev/null 2>&1
grep -q "^# summed out: z " "$tmp/latent.csv" || { echo "FAIL: z not summed out"; exit 1; }
! grep -q "tempered through" "$tmp/latent.out" || { echo "FAIL: a note on z summed out"; exit 1; }
python3 - "$tmp/latent.csv" "$tmp/summed.csv" <<'PY' || { echo "FAIL: the two forms' evidences disagree"; exit 1; }
import math, re, sys
def evidence(path):
    text = open(path).read()
    return float(re.search(r"^# log_evidence: (\S+)$", text, re.M).group(1)), float(re.search(r"^# log_evidence_se: (\S+)$", text, re.M).group(1))
(a, sa), (b, sb) = evidence(sys.argv[1]), evidence(sys.argv[2])
assert abs(a - b) < 4 * math.hypot(sa, sb), (a, sa, b, sb)
PY
printf 'data y: real[T]\np ~ Beta(1, 1)\ns[1] ~ Bernoulli(0.5)\nfor t in 2:T {\n  s[t] ~ Bernoulli(s[t - 1] * p + (1 - s[t - 1]) * (1 - p))\n}\nfor t in 1:T {\n  y[t] ~ Normal(s[t], 1)\n}\n' > "$tmp/chain.ppl"
"$ppl" infer "$tmp/chain.ppl" --set 'y=[-0.2,1.9,1.1,0.4]' --method smc --particles 100 --runs 2 --quiet --allow-unreliable > "$tmp/chain.out" 2>&1
grep -q "^note: the likelihood is tempered through the discrete unknowns \`s\`" "$tmp/chain.out" || { echo "FAIL: no note on s"; exit 1; }
"$ppl" infer "$coin" "$data" --method smc --particles 100 --runs 2 --quiet > "$tmp/coin_smc.out" 2>&1
! grep -q "tempered through" "$tmp/coin_smc.out" || { echo "FAIL: a note without discrete unknowns"; exit 1; }
echo "ok"
