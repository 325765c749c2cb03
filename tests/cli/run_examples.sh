#!/usr/bin/env bash
# `ppl check` and `ppl simulate` on every example; the coin's prior draws of p must match
# Beta(1, 1): mean 1/2 and variance 1/12 within 4 Monte Carlo standard errors.
set -euo pipefail
ppl=$1
examples=$2
for dir in "$examples"/*/; do
  name=$(basename "$dir")
  [ -f "$dir/$name.ppl" ] || continue  # examples/bugs/: BUGS models, run by run_bugs.sh
  data="$dir/data.csv"; [ -f "$data" ] || data="$dir/data.json"
  "$ppl" check "$dir/$name.ppl" "$data" >/dev/null
  if grep -q '^ *factor\|[{ ]factor ' "$dir/$name.ppl"; then
    rc=0; "$ppl" simulate "$dir/$name.ppl" "$data" --draws 2 >/dev/null 2>&1 || rc=$?
    [ "$rc" = 1 ] || { echo "FAIL: simulate should refuse $name (it has factors) with exit status 1, got $rc"; exit 1; }
  else
    "$ppl" simulate "$dir/$name.ppl" "$data" --draws 2 --seed 3 >/dev/null
  fi
  echo "ok: $name"
done
# `ppl plan` chooses the expected kinds for every example.
expect_plan() {  # example data variable kind
  "$ppl" plan "$examples/$1/$1.ppl" "$examples/$1/$2" | grep -q "^$3[[ ].* $4 " || { echo "FAIL: plan of $1: $3 is not $4"; exit 1; }
}
expect_plan coin data.csv p conjugate
expect_plan mark data.json stu gibbs
expect_plan mark data.json mot gibbs
expect_plan lda data.csv z collapsed
expect_plan lda data.csv theta collapsed
expect_plan lda data.csv phi collapsed
expect_plan ising data.json s cluster
expect_plan eight_schools data.json tau slice
expect_plan eight_schools data.json mu gaussian_block
"$ppl" plan "$examples/ising/ising.ppl" "$examples/ising/data.json" --sampler s=gibbs | grep -q "heat-bath by colour classes (2 colours)" || { echo "FAIL: plan of ising with s=gibbs"; exit 1; }
expect_plan nmixture data.json N slice
expect_plan nmixture data.json lambda conjugate
expect_plan nmixture data.json p conjugate
expect_plan bnn data.json W1 nuts
expect_plan bnn data.json sigma_std nuts
expect_plan lotka_volterra data.json alpha nuts
expect_plan lotka_volterra data.json z_init nuts
expect_plan bpmf data.json U conjugate
expect_plan bpmf data.json Lambda_u conjugate
expect_plan mixture data.json z collapsed
expect_plan mixture data.json tau conjugate
echo "ok: plans"

out=$(mktemp)
"$ppl" simulate "$examples/coin/coin.ppl" "$examples/coin/data.csv" --draws 20000 --seed 11 --output "$out"
python3 - "$out" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
p = [float(r["p"]) for r in rows]
n = len(p)
mean = sum(p) / n
var = sum((x - mean) ** 2 for x in p) / (n - 1)
# Beta(1,1): mean 1/2, sd of the mean sqrt(1/12/n); variance 1/12, and the variance of the
# sample variance is (mu4 - sigma^4)/n with mu4 = 1/80 for the uniform.
z_mean = (mean - 0.5) / math.sqrt(1 / 12 / n)
z_var = (var - 1 / 12) / math.sqrt((1 / 80 - 1 / 144) / n)
print(f"coin prior: mean {mean:.4f} (z {z_mean:.2f}), variance {var:.5f} (z {z_var:.2f})")
assert abs(z_mean) < 4 and abs(z_var) < 4, "prior moments of p do not match Beta(1, 1)"
PY
rm -f "$out"
