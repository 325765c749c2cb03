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
echo "loo: all checks passed"
