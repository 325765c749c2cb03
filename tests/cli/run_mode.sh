#!/usr/bin/env bash
# `--method optimize`, `laplace`, `pathfinder` and `advi` end to end on the outliers example (a line
# with Normal errors, and with StudentT ones): the mode and its report, the Jacobian's
# effect on a scale's mode, Laplace's draws in ppl's, Stan's and CODA's layouts read back
# by `ppl summary` and `ppl loo`, the header that says the draws are approximate,
# `ppl compare --method laplace`, the funnel that k-hat refuses (exit 3), and Pathfinder's
# and ADVI's draws and headers, and variational Bayes on the LDA example and on a
# conjugate model.
set -euo pipefail
ppl=$1
examples=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data="$examples/outliers/data.json"
normal="$examples/outliers/outliers.ppl"
robust="$examples/outliers/outliers_robust.ppl"

# The mode: one row, the search's report, and sigma's mode smaller without the Jacobian
# (log sigma's Jacobian adds log sigma, which pulls the mode up).
"$ppl" infer "$normal" "$data" --method optimize -o "$tmp/mode.csv" > "$tmp/out"
cat "$tmp/out"
grep -q '^# stopped: ' "$tmp/out"
grep -q '^# log_p_mode: .* (on the unconstrained scale, with the Jacobian)$' "$tmp/out"
grep -q '^sigma  *[0-9.]*$' "$tmp/out"
[ "$(grep -vc '^#' "$tmp/mode.csv")" = 2 ]
"$ppl" infer "$normal" "$data" --method optimize --jacobian false -o "$tmp/mode_nj.csv" > /dev/null
python3 - "$tmp/mode.csv" "$tmp/mode_nj.csv" <<'PY'
import csv, sys
row = lambda p: next(csv.DictReader(line for line in open(p) if not line.startswith("#")))
with_j, without = row(sys.argv[1]), row(sys.argv[2])
assert float(without["sigma"]) < float(with_j["sigma"]), (without["sigma"], with_j["sigma"])
PY

# Laplace's draws: the header says what they are; summary and loo read them.
"$ppl" infer "$robust" "$data" --method laplace --seed 3 -o "$tmp/laplace.csv" > "$tmp/out"
grep -qx '# method: laplace' "$tmp/laplace.csv"
grep -q '^# draws: approximate, from the normal approximation at the mode' "$tmp/laplace.csv"
grep -q '^# log_evidence: -[0-9.]* (Laplace.s approximation)$' "$tmp/laplace.csv"
grep -q '^# pareto_k: 0\.' "$tmp/laplace.csv"
head -20 "$tmp/laplace.csv" | grep -q '^chain,iteration,lp__,log_p__,log_g__,a,b,sigma'
[ "$(grep -vc '^#' "$tmp/laplace.csv")" = 1001 ]
"$ppl" summary "$tmp/laplace.csv" | grep -q '^sigma '
"$ppl" loo "$tmp/laplace.csv" | grep -qx 'Computed from 1000 by 30 log-likelihood matrix (1 chain of 1000 draws)\.'

# The same draws in Stan's layout and as CODA files.
"$ppl" infer "$robust" "$data" --method laplace --seed 3 --format stan -o "$tmp/stan.csv" > /dev/null
grep -q "^lp__,log_p__,log_g__,a,b,sigma" "$tmp/stan_1.csv"
"$ppl" infer "$robust" "$data" --method laplace --seed 3 --format coda -o "$tmp/coda" > /dev/null
[ -s "$tmp/codaindex.txt" ] && [ -s "$tmp/codachain1.txt" ]
grep -qx "sigma 2001 3000" "$tmp/codaindex.txt"

# The evidence by Laplace for both models: the StudentT errors are preferred.
"$ppl" compare "$robust" "$normal" "$data" --method laplace > "$tmp/out"
cat "$tmp/out"
python3 - "$tmp/out" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
bf = float(re.search(r"log Bayes factor, \S+ over \S+: (-?[0-9.]+) \(se n/a\)", text).group(1))
assert bf > 5, bf
assert "Laplace's evidence is an approximation" in text
PY

# A mixture's indicators summed out: the mode's report names them, and Laplace's draws
# give each indicator a value drawn given each draw (0 or 1 .. K, never fractional).
mixture="$examples/mixture/mixture_ordered.ppl"
"$ppl" infer "$mixture" "$examples/mixture/data.json" --method laplace --seed 2 -o "$tmp/mix.csv" > /dev/null
grep -qx '# summed out: z' "$tmp/mix.csv"
python3 - "$tmp/mix.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(line for line in open(sys.argv[1]) if not line.startswith("#")))
assert len(rows) == 1000, len(rows)
z = {float(r["z[1]"]) for r in rows} | {float(r["z[300]"]) for r in rows}
assert z <= {1.0, 2.0, 3.0} and len(z) >= 2, z
PY

# A funnel: k-hat above 0.7, a warning, exit 3; --allow-unreliable exits 0.
printf 'v ~ Normal(0, 3)\nfor i in 1:9 { x[i] ~ Normal(0, exp(v / 2)) }\n' > "$tmp/funnel.ppl"
set +e
"$ppl" infer "$tmp/funnel.ppl" --method laplace --seed 2 > /dev/null 2> "$tmp/err"
status=$?
set -e
[ "$status" = 3 ]
grep -q "^warning: the draws' Pareto k-hat is [0-9.]*, above 0\.7" "$tmp/err"
"$ppl" infer "$tmp/funnel.ppl" --method laplace --seed 2 --allow-unreliable > /dev/null 2>&1
# Pathfinder, four paths resampled and one path as it is; ADVI, both families, with the
# ELBO's trace in the header. Their draws are approximate, and the header says so.
"$ppl" infer "$robust" "$data" --method pathfinder --allow-unreliable -o "$tmp/pf.csv" > "$tmp/out" 2>&1
grep -qx '# method: pathfinder' "$tmp/pf.csv"
[ "$(grep -c '^# path [1-4]: ' "$tmp/pf.csv")" = 4 ]
grep -q '^# draws: approximate, 1000 resampled by Pareto smoothed importance weights from the 4 paths. 4000 draws' "$tmp/pf.csv"
[ "$(grep -vc '^#' "$tmp/pf.csv")" = 1001 ]
"$ppl" infer "$robust" "$data" --method pathfinder --paths 1 --draws 300 --allow-unreliable -o "$tmp/pf1.csv" > /dev/null 2>&1
grep -q '^# draws: approximate, from the path.s best normal approximation' "$tmp/pf1.csv"
[ "$(grep -vc '^#' "$tmp/pf1.csv")" = 301 ]
for family in meanfield fullrank; do
  "$ppl" infer "$robust" "$data" --method advi --family "$family" --allow-unreliable -o "$tmp/advi.csv" > /dev/null 2>&1
  grep -qx '# method: advi' "$tmp/advi.csv"
  grep -q "^# draws: approximate, from ADVI's $family normal q" "$tmp/advi.csv"
  grep -q '^# elbo: 100 -[0-9.]*$' "$tmp/advi.csv"
  grep -q '^# refined: L-BFGS on the ELBO at the 100 fixed draws' "$tmp/advi.csv"
  grep -q '^# pareto_k: ' "$tmp/advi.csv"
done
# The ELBO's trace as a picture; a file without one is refused.
"$ppl" plot "$tmp/advi.csv" --elbo -o "$tmp/elbo.svg" | grep -q "estimates of the ELBO, iterations 100 to "
grep -q '<polyline' "$tmp/elbo.svg"
if "$ppl" plot "$tmp/laplace.csv" --elbo -o "$tmp/none.svg" 2> "$tmp/err"; then exit 1; fi
grep -q "has 0 finite ELBO estimates" "$tmp/err"

# Full-rank ADVI's sigma (the last family run) has the posterior mean of MCMC's within a
# fifth of an sd (Laplace's, at the mode of a skewed posterior, is 0.4 sd below).
"$ppl" infer "$robust" "$data" --seed 1 --quiet -o "$tmp/mcmc.csv" > /dev/null
python3 - "$tmp/mcmc.csv" "$tmp/advi.csv" <<'PY'
import csv, statistics, sys
col = lambda p: [float(r["sigma"]) for r in csv.DictReader(l for l in open(p) if not l.startswith("#"))]
a, b = col(sys.argv[1]), col(sys.argv[2])
assert abs(statistics.mean(a) - statistics.mean(b)) < 0.2 * statistics.stdev(a), (statistics.mean(a), statistics.mean(b))
PY
# Variational Bayes on the LDA example: batch, then online, each pass's held-out
# perplexity falling below the first's; q's means of phi read by `ppl topics`; a model
# without LDA's structure refused.
lda="$examples/lda"
"$ppl" infer "$lda/lda.ppl" "$lda/data.csv" --method vb --passes 4 --heldout "$lda/heldout.csv" --monitor phi --means \
  -o "$tmp/vb.csv" > "$tmp/out"
[ "$(grep -c '^# pass [1-4]: [1-4] updates, [0-9.]* s, held-out perplexity [0-9.]*$' "$tmp/out")" = 4 ]
[ "$(grep -vc '^#' "$tmp/vb.csv")" = 2 ]
"$ppl" topics "$tmp/vb.csv" --labels "$lda/vocab.txt" | grep -q '^phi\[20\] '
"$ppl" infer "$lda/lda.ppl" "$lda/data.csv" --method vb --passes 4 --batch-size 200 --heldout "$lda/heldout.csv" > "$tmp/out"
python3 - "$tmp/out" <<'PY'
import re, sys
p = [float(x) for x in re.findall(r"^# pass \d+: \d+ updates, [0-9.]+ s, held-out perplexity ([0-9.]+)$", open(sys.argv[1]).read(), re.M)]
assert len(p) == 4 and p[-1] < p[0], p
PY
grep -q '^# pass 4: 40 updates' "$tmp/out"
"$ppl" infer "$lda/lda.ppl" "$lda/data.csv" --method vb --passes 3 --starts 2 --heldout "$lda/heldout.csv" > "$tmp/out"
grep -q '^# starts: 2, each 3 passes; ELBO of each: -[0-9.]*, -[0-9.]*; start [12] kept$' "$tmp/out"
grep -q '^# the start kept, after 3 passes: held-out perplexity [0-9.]*$' "$tmp/out"
if "$ppl" infer "$robust" "$data" --method vb 2> "$tmp/err"; then exit 1; fi
grep -q "^error: --method vb: the update of .a. reads two scalars held on grids; their joint q is not built" "$tmp/err"

# Coordinate ascent on a conjugate model: each factor's family and arguments in the report,
# the ELBO's trace (which `ppl plot --elbo` draws) and its final value; a start file taken,
# and refused by LDA's vb, which starts at random.
cat > "$tmp/normal.ppl" <<'PPL'
data y: real[N]
mu ~ Normal(0, 10)
tau ~ Gamma(1, 1)
for n in 1:N {
  y[n] ~ Normal(mu, 1 / sqrt(tau))
}
PPL
echo '{"mu": 50, "tau": 0.01}' > "$tmp/start.json"
"$ppl" infer "$tmp/normal.ppl" --set 'y=[2.1,3.4,1.9,2.8,3.3]' --method vb --init "$tmp/start.json" -o "$tmp/cavi.csv" > "$tmp/out"
grep -q '^# q: mu Normal, tau Gamma ' "$tmp/out"
grep -q '^# q_mu: Normal(2\.[0-9]*, 0\.[0-9]*)$' "$tmp/out"
grep -q '^# q_tau: Gamma(3\.5, [0-9.]*)$' "$tmp/out"
grep -q '^# elbo_final: -[0-9.]* (a lower bound on the log evidence)$' "$tmp/out"
grep -q '^# elbo: 0 -[0-9.]*$' "$tmp/cavi.csv"
"$ppl" plot "$tmp/cavi.csv" --elbo -o "$tmp/cavi.svg" > /dev/null
grep -q '<polyline' "$tmp/cavi.svg"
"$ppl" infer "$tmp/normal.ppl" --set 'y=[2.1,3.4,1.9,2.8,3.3]' --method vb --format stan -o "$tmp/cavi_stan.csv" > /dev/null
grep -q '^lp__,log_p__,log_g__,mu,tau$' "$tmp/cavi_stan_1.csv"
if "$ppl" infer "$lda/lda.ppl" "$lda/data.csv" --method vb --init "$tmp/start.json" 2> "$tmp/err"; then exit 1; fi
grep -q "^error: --init: LDA's --method vb begins from a random start of its own" "$tmp/err"
# A Gaussian mixture with Dirichlet weights: categorical factors for the indicators, the
# best of several starts kept by its ELBO.
cat > "$tmp/mixture.ppl" <<'PPL'
data y: real[N]
pi ~ Dirichlet([1, 1])
tau ~ Gamma(1, 1)
for k in 1:2 {
  mu[k] ~ Normal(0, 10)
}
for n in 1:N {
  z[n] ~ Categorical(pi)
  y[n] ~ Normal(mu[z[n]], 1 / sqrt(tau))
}
PPL
"$ppl" infer "$tmp/mixture.ppl" --set 'y=[-2.3,-1.6,-2.9,-1.2,-2.4,-1.8,2.7,3.4,2.2,3.9,3.1]' --method vb --starts 4 --allow-unreliable > "$tmp/out"
grep -q '^# starts: 4; ELBO of each: -[0-9.]*, -[0-9.]*, -[0-9.]*, -[0-9.]*; start [1-4] kept$' "$tmp/out"
grep -q '^# q: pi Dirichlet, tau Gamma, mu Normal, z Categorical ' "$tmp/out"
grep -q '^# q_z (each element.s probabilities of its values): Categorical(' "$tmp/out"
echo "cli_mode: ok"
