#!/usr/bin/env bash
# `ppl loo` end to end on the outliers example: the line with Normal errors, whose point 8
# lies 10 from it, and the same line with StudentT errors. The Normal model's printed
# figures and its one warning (k above 0.7 for log_lik[8], none for the others), the
# pointwise file against the printed totals, the same output from the run written in Stan's
# layout, the robust model preferred by more than two standard errors of the difference,
# and the errors for draws without log_lik. With R's loo installed, `cli_loo_r`
# (run_loo_r.sh) also compares every pointwise figure with loo's own.
set -euo pipefail
ppl=$1
examples=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data="$examples/outliers/data.json"

"$ppl" infer "$examples/outliers/outliers.ppl" "$data" --seed 1 --quiet -o "$tmp/normal.csv" > /dev/null
"$ppl" loo "$tmp/normal.csv" --pointwise "$tmp/normal_pointwise.csv" > "$tmp/out" 2> "$tmp/err"
cat "$tmp/out" "$tmp/err"
grep -qx 'Computed from 4000 by 30 log-likelihood matrix (4 chains of 1000 draws)\.' "$tmp/out"
grep -qx 'elpd_loo  *-74\.5  *11\.4' "$tmp/out"
grep -qx 'p_loo  *7\.2  *4\.8' "$tmp/out"
grep -qx 'looic  *149\.0  *22\.8' "$tmp/out"
grep -qx 'MCSE of elpd_loo is n/a: some Pareto k are above 0\.70\.' "$tmp/out"
grep -qx 'Pareto k diagnostic values (threshold min(1 - 1/log10(S), 0\.7) = 0\.70 for S = 4000):' "$tmp/out"
grep -qx '(-Inf, 0\.70]  (good)  *29  *96\.7%  *[0-9][0-9]*' "$tmp/out"
grep -qx '   (0\.70, 1]  (bad)  *0  *0\.0%  *-' "$tmp/out"
grep -qx '    (1, Inf)  (very bad)  *1  *3\.3%  *-' "$tmp/out"
[ "$(wc -l < "$tmp/err")" = 1 ]
grep -q '^warning: 1 of 30 observations has a Pareto k above 0\.70 (k = 1\.[0-9][0-9] for log_lik\[8\]): ' "$tmp/err"

# The pointwise file: one row per observation whose sums are the printed totals.
python3 - "$tmp/normal_pointwise.csv" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert list(rows[0]) == ["observation", "elpd_loo", "mcse_elpd_loo", "p_loo", "looic", "pareto_k", "n_eff", "r_eff"], list(rows[0])
assert [r["observation"] for r in rows] == [f"log_lik[{n}]" for n in range(1, 31)]
elpd = [float(r["elpd_loo"]) for r in rows]
se = math.sqrt(len(elpd) * sum((e - sum(elpd) / len(elpd)) ** 2 for e in elpd) / (len(elpd) - 1))
assert round(sum(elpd), 1) == -74.5 and round(se, 1) == 11.4, (sum(elpd), se)
assert round(sum(float(r["p_loo"]) for r in rows), 1) == 7.2
assert all(abs(float(r["looic"]) + 2 * float(r["elpd_loo"])) < 1e-12 for r in rows)
high = [r["observation"] for r in rows if float(r["pareto_k"]) > 0.7]
assert high == ["log_lik[8]"], high
assert all(0 < float(r["r_eff"]) <= 1.5 and float(r["n_eff"]) > 0 for r in rows)
print("pointwise: 30 rows, totals as printed")
PY

# The same run in Stan's layout (one file per chain, log_lik.1 ...) gives the same figures.
"$ppl" infer "$examples/outliers/outliers.ppl" "$data" --seed 1 --quiet --format stan -o "$tmp/stan.csv" > /dev/null
"$ppl" loo "$tmp/stan.csv" > "$tmp/stan_out" 2> /dev/null
diff "$tmp/out" "$tmp/stan_out"

# StudentT errors expect the outliers: every k is good, no warning, and elpd_loo is higher
# by more than two standard errors of the pointwise difference.
"$ppl" infer "$examples/outliers/outliers_robust.ppl" "$data" --seed 1 --quiet -o "$tmp/robust.csv" > /dev/null
"$ppl" loo "$tmp/robust.csv" --pointwise "$tmp/robust_pointwise.csv" > "$tmp/robust_out" 2> "$tmp/robust_err"
[ ! -s "$tmp/robust_err" ]
grep -qx '(-Inf, 0\.70]  (good)  *30  *100\.0%  *[0-9][0-9]*' "$tmp/robust_out"
python3 - "$tmp/normal_pointwise.csv" "$tmp/robust_pointwise.csv" <<'PY'
import csv, math, sys
normal, robust = ([float(r["elpd_loo"]) for r in csv.DictReader(open(p))] for p in sys.argv[1:])
d = [r - n for r, n in zip(robust, normal)]
mean = sum(d) / len(d)
se = math.sqrt(len(d) * sum((x - mean) ** 2 for x in d) / (len(d) - 1))
print(f"elpd_loo robust - normal: {sum(d):.1f} (se {se:.1f})")
assert sum(d) > 2 * se
PY

# Errors: draws without the variable (a usage error listing what there is), and an unknown --var.
"$ppl" infer "$examples/coin/coin.ppl" "$examples/coin/data.csv" --seed 1 --quiet -o "$tmp/coin.csv" > /dev/null
set +e
"$ppl" loo "$tmp/coin.csv" > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q '^error: loo: the draws have no column `log_lik` (the pointwise log-likelihoods); they have p\.' "$tmp/err"
set +e
"$ppl" loo "$tmp/normal.csv" --var loglik > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q 'they have a, b, sigma, log_lik\.' "$tmp/err"
# --dic on a Normal mean with known unit variance and a vague prior, where all three
# penalties are n v, v = 1 / (n + 1e-6) the posterior variance, and the mean deviance is
# n log(2 pi) + S + n v (S the sum of squares about the mean). The conjugate sampler's
# draws are independent: D - n log(2 pi) - S is n v chi-square(1), sd sqrt(2) n v, so the
# mean deviance is within 4 sd / sqrt(4000); pV within 4 of its se (var(chi2_1) = 2, kurtosis
# 15: se(pV) = sqrt(56 / 4000) / 2); JAGS's pD within 4 of its printed se; Dbar - D(mean)
# within the mean deviance's bound. Each in the column `deviance` of the draws as well.
cat > "$tmp/mean.ppl" <<'PPL'
data y: real[10]
mu ~ Normal(0, 1000)
for i in 1:10 { y[i] ~ Normal(mu, 1) }
PPL
printf 'y\n0.3\n-1.2\n2.2\n0.8\n1.1\n-0.4\n1.9\n0.7\n0.2\n1.6\n' > "$tmp/mean.csv"
"$ppl" infer "$tmp/mean.ppl" "$tmp/mean.csv" --dic --seed 2 -q -o "$tmp/mean_draws.csv" > "$tmp/dic_out" 2> /dev/null
python3 - "$tmp/dic_out" "$tmp/mean_draws.csv" <<'PY'
import csv, math, re, sys
y = [0.3, -1.2, 2.2, 0.8, 1.1, -0.4, 1.9, 0.7, 0.2, 1.6]
n = len(y)
v = 1 / (n + 1e-6)
m = sum(y) / n
S = sum((a - m) ** 2 for a in y)
dbar = n * math.log(2 * math.pi) + S + n * v
text = open(sys.argv[1]).read()
mean = float(re.search(r"# DIC: mean deviance (\S+) over 4000 draws", text).group(1))
jags = re.search(r"pD, JAGS's \(Plummer 2008\) +(\S+) +DIC (\S+)  \(se (\S+)\)", text)
spiegel = float(re.search(r"pD, Dbar - D\(mean\) \(Spiegelhalter et al\. 2002\) +(\S+)", text).group(1))
pv = float(re.search(r"pV = var\(deviance\) / 2 +(\S+)", text).group(1))
bound = 4 * math.sqrt(2) * n * v / math.sqrt(4000)
assert abs(mean - dbar) <= bound, (mean, dbar)
assert abs(float(jags.group(1)) - n * v) <= 4 * float(jags.group(3)), (jags.groups(), n * v)
assert abs(float(jags.group(2)) - (mean + float(jags.group(1)))) <= 1e-3
assert abs(spiegel - n * v) <= bound, (spiegel, n * v)
assert abs(pv - n * v) <= 4 * math.sqrt(56 / 4000) / 2, (pv, n * v)
rows = list(csv.DictReader(line for line in open(sys.argv[2]) if not line.startswith("#")))
for r in rows:
    mu = float(r["mu"])
    exact = n * math.log(2 * math.pi) + sum((a - mu) ** 2 for a in y)
    assert abs(float(r["deviance"]) - exact) <= 1e-7 * exact, (r, exact)
print("ok: DIC of a Normal mean: Dbar %.4f (exact %.4f), pD %s / %.4f / pV %.4f (exact %.4f each)" % (mean, dbar, jags.group(1), spiegel, pv, n * v))
PY
# ppl summary of the draws file: the mean deviance and pV again; the penalties that need
# the model are n/a and say so.
"$ppl" summary "$tmp/mean_draws.csv" 2> /dev/null > "$tmp/dic_summary"
grep -q "pD, JAGS's (Plummer 2008) *n/a *(needs the model: ppl infer --dic)" "$tmp/dic_summary"
[ "$(grep '^# DIC: mean deviance' "$tmp/dic_summary")" = "$(grep '^# DIC: mean deviance' "$tmp/dic_out")" ]
[ "$(grep 'pV = var' "$tmp/dic_summary")" = "$(grep 'pV = var' "$tmp/dic_out")" ]
# One chain has no pair for JAGS's pD; a discrete unknown has no posterior mean to take.
"$ppl" infer "$tmp/mean.ppl" "$tmp/mean.csv" --dic --chains 1 -q 2> /dev/null | grep -q "pD, JAGS's (Plummer 2008) *n/a *(needs 2 or more chains)"
printf 'data y: int[5]\nk ~ DiscreteUniform(1, 4)\nfor i in 1:5 { y[i] ~ Poisson(k) }\n' > "$tmp/discrete.ppl"
printf 'y\n2\n3\n1\n4\n2\n' > "$tmp/discrete.csv"
"$ppl" infer "$tmp/discrete.ppl" "$tmp/discrete.csv" --dic -q 2> /dev/null |
  grep -q 'Spiegelhalter et al. 2002) *n/a *(`k` is discrete, and its posterior mean is not a value it takes)'
echo "loo: all checks passed"
