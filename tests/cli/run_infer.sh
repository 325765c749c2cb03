#!/usr/bin/env bash
# `ppl infer` end to end: the coin's posterior mean from the draws file, `ppl summary` of
# that file, the Stan format, --init, data and inits in R's dump format, usage errors, and
# an interrupted run that leaves a valid draws file with every finished iteration; LDA's
# topics, held-out perplexity and AD-LDA threads.
set -euo pipefail
ppl=$1
examples=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$ppl" infer "$examples/coin/coin.ppl" "$examples/coin/data.csv" --seed 4 --quiet -o "$tmp/coin.csv" > "$tmp/summary.txt"
grep -q '^p ' "$tmp/summary.txt"
python3 - "$tmp/coin.csv" <<'PY'
import csv, math, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
header, rows = rows[0], rows[1:]
assert header[:4] == ["chain", "iteration", "lp__", "p"], header
assert len(rows) == 4000, len(rows)
p = [float(r[3]) for r in rows]
mean = sum(p) / len(p)
# Beta(15, 7): the conjugate draws are independent, so the MCSE is sd / sqrt(n).
sd = math.sqrt(15 * 7 / (22 ** 2 * 23))
z = (mean - 15 / 22) / (sd / math.sqrt(len(p)))
print(f"coin posterior mean {mean:.4f} (z {z:.2f})")
assert abs(z) < 4
PY
"$ppl" summary "$tmp/coin.csv" | grep -q '^p '

"$ppl" infer "$examples/coin/coin.ppl" "$examples/coin/data.csv" --chains 2 --draws 10 --warmup 10 --quiet --format stan -o "$tmp/stan.csv" > /dev/null
grep -q '^lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,p$' "$tmp/stan_1.csv"
[ "$(grep -vc '^#' "$tmp/stan_2.csv")" = 11 ]

echo '{"p": 0.25}' > "$tmp/init.json"
"$ppl" infer "$examples/coin/coin.ppl" "$examples/coin/data.csv" --init "$tmp/init.json" --draws 10 --warmup 0 --quiet > /dev/null

# Starting points: the BUGS habit of a vague Gamma prior on a precision, whose draws
# underflow to 0 (so 1 / sqrt(tau) is infinite), checks and runs from the default start;
# --init prior and a radius are taken; an --init file gives some unknowns, the rest start
# as by default.
printf 'data y: real[N]\ntau ~ Gamma(0.001, 0.001)\nsigma = 1 / sqrt(tau)\nmu ~ Normal(0, 1000)\nfor n in 1:N { y[n] ~ Normal(mu, sigma) }\n' > "$tmp/vague.ppl"
echo '{"y": [1.2, 0.4, 2.2, 1.9, 0.8, 1.4]}' > "$tmp/vague.json"
"$ppl" check "$tmp/vague.ppl" "$tmp/vague.json" > /dev/null
"$ppl" infer "$tmp/vague.ppl" "$tmp/vague.json" --quiet --seed 3 > "$tmp/vague.out"
grep -q '^mu  *1\.' "$tmp/vague.out"
"$ppl" infer "$tmp/vague.ppl" "$tmp/vague.json" --quiet --init 0 --draws 50 --warmup 50 > /dev/null
echo '{"tau": 2.0}' > "$tmp/tau.json"
"$ppl" infer "$tmp/vague.ppl" "$tmp/vague.json" --quiet --init "$tmp/tau.json" --draws 50 --warmup 50 > /dev/null
"$ppl" infer "$examples/coin/coin.ppl" "$examples/coin/data.csv" --init prior --draws 10 --warmup 0 --quiet > /dev/null

# A JAGS user's files: data and inits in R's dump format. The Rats weights as JAGS ships
# them (a .R file, .Dim column by column) and as OpenBUGS does (a bare list in a .txt,
# row by row) must both give the rats' growth of about 6.19 g a day: read across the
# wrong way, weeks and rats are mixed up and the slope is not that.
rdata="$examples/../tests/data/r"
printf 'data Y: real[N, T]\ndata x: real[T]\ndata xbar: real\nalpha ~ Normal(0, 1000)\nbeta ~ Normal(0, 1000)\nsigma ~ HalfCauchy(100)\nfor i in 1:N { for j in 1:T { Y[i, j] ~ Normal(alpha + beta * (x[j] - xbar), sigma) } }\n' > "$tmp/growth.ppl"
printf '# initial values, as rjags writes them\n"alpha" <- 240\n"beta" <-\n6\n"sigma" <- 10\n' > "$tmp/inits.R"
for data in "$rdata/rats_jags.R" "$rdata/rats_openbugs.txt"; do
  "$ppl" infer "$tmp/growth.ppl" "$data" --init "$tmp/inits.R" --seed 2 --quiet --draws 300 --warmup 300 > "$tmp/growth.out"
  awk -v data="$data" '$1 == "beta" { found = 1; bad = $2 < 5.9 || $2 > 6.5; if (bad) print "beta " $2 " from " data }
                       END { exit !found || bad }' "$tmp/growth.out"
done
printf 'sigma <- -1\n' > "$tmp/bad_inits.R"
set +e
"$ppl" infer "$tmp/growth.ppl" "$rdata/rats_jags.R" --init "$tmp/bad_inits.R" -q > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q -- '--init: sigma = -1 is outside the support' "$tmp/err"

# Initial values outside an unknown's support are refused, not sampled from.
echo '{"p": 1.5}' > "$tmp/bad_init.json"
set +e
"$ppl" infer "$examples/coin/coin.ppl" "$examples/coin/data.csv" --init "$tmp/bad_init.json" -q > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q -- '--init: p = 1.5 is outside the support of Beta' "$tmp/err"
echo '{"s": [[1, 1], [1, 0]]}' > "$tmp/bad_spins.json"
set +e
"$ppl" infer "$examples/ising/ising.ppl" --set L=2 --init "$tmp/bad_spins.json" -q > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q -- '--init: s\[2, 2\] = 0 is outside the support of Spin' "$tmp/err"

# With standard output and error in one pipe, the warnings follow the whole table: none
# lands inside it (standard output is flushed before them).
"$ppl" infer "$examples/coin/coin.ppl" "$examples/coin/data.csv" --draws 5 --warmup 5 --quiet > "$tmp/both.txt" 2>&1 || true
python3 - "$tmp/both.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
warned = [i for i, l in enumerate(lines) if l.startswith("warning:")]
table = [i for i, l in enumerate(lines) if l.startswith(("lp__", "p "))]
assert warned and table, "a short run should give a table and warnings"
assert min(warned) > max(table), "a warning came before the end of the table"
assert all(l.startswith("warning:") or "warning:" not in l for l in lines), "a warning inside a line"
PY

# Usage errors exit 2 and name the problem.
set +e
"$ppl" infer "$examples/coin/coin.ppl" "$examples/coin/data.csv" --sampler p=gibbs > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q 'sampler p=gibbs: cannot' "$tmp/err"
set +e
"$ppl" infer "$examples/coin/coin.ppl" --chains 0 > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q 'chains' "$tmp/err"

# Interrupt a long run: exit 130, a valid file, every row complete.
"$ppl" infer "$examples/lda/lda.ppl" "$examples/lda/data.csv" --chains 2 --warmup 0 --draws 100000 --quiet \
  --monitor alpha -o "$tmp/long.csv" > "$tmp/long.out" 2> "$tmp/long.err" &
pid=$!
sleep 4
kill -INT "$pid"
set +e
wait "$pid"; rc=$?
set -e
[ "$rc" = 130 ] || { echo "interrupted run exited $rc"; cat "$tmp/long.err"; exit 1; }
grep -Eq "interrupted: chain 1: [0-9]+ iterations, chain 2: [0-9]+ iterations; [0-9]+ draws, every one kept in $tmp/long.csv" "$tmp/long.err" ||
  { echo "the interruption's message:"; cat "$tmp/long.err"; exit 1; }
# Without -o, and in the warmup: the message says no draw is kept, not every one.
"$ppl" infer "$examples/lda/lda.ppl" "$examples/lda/data.csv" --chains 1 --warmup 100000 --draws 10 --quiet --monitor alpha \
  > /dev/null 2> "$tmp/warm.err" &
pid=$!
sleep 2
kill -INT "$pid"
set +e
wait "$pid"; rc=$?
set -e
[ "$rc" = 130 ] && grep -Eq 'interrupted: chain 1: [0-9]+ iterations; no draw yet \(the chains were still in their warmup\)' "$tmp/warm.err" ||
  { echo "interrupted in the warmup, status $rc:"; cat "$tmp/warm.err"; exit 1; }
python3 - "$tmp/long.csv" <<'PY'
import sys
lines = [l for l in open(sys.argv[1]) if not l.startswith("#")]
assert lines[0].strip() == "chain,iteration,lp__,alpha", lines[0]
assert all(l.endswith("\n") and len(l.split(",")) == 4 for l in lines[1:]), "a partial row"
assert len(lines) > 3, "no finished draws were written"
print(f"interrupted run kept {len(lines) - 1} draws")
PY
# Topics: the rows of a monitored matrix, named by a labels file; headers quote names
# with commas so that the file reads back.
"$ppl" infer "$examples/lda/lda.ppl" "$examples/lda/data.csv" --chains 1 --warmup 20 --draws 5 --quiet --monitor phi \
  -o "$tmp/lda.csv" > /dev/null 2>&1
grep -m 1 -v '^#' "$tmp/lda.csv" | grep -q '^chain,iteration,lp__,"phi\[1,1\]","phi\[1,2\]"'
"$ppl" topics "$tmp/lda.csv" --labels "$examples/lda/vocab.txt" --top 5 > "$tmp/topics.txt"
[ "$(grep -c '^phi\[' "$tmp/topics.txt")" = 20 ]
if grep -qE '^phi\[[0-9]+\]  [0-9]+ ' "$tmp/topics.txt"; then echo "FAIL: topics show ids, not words"; exit 1; fi
"$ppl" summary "$tmp/lda.csv" > /dev/null

# Held-out perplexity: scored every 10 iterations into the draws file, after the summary,
# between 1 and the vocabulary's size, and without changing the draws.
lda_run() { "$ppl" infer "$examples/lda/lda.ppl" "$examples/lda/data.csv" --chains 2 --warmup 10 --draws 10 --quiet "$@"; }
lda_run -o "$tmp/plain.csv" > /dev/null
lda_run --heldout "$examples/lda/heldout.csv" --heldout-every 10 -o "$tmp/heldout.csv" > "$tmp/heldout.out"
[ "$(grep -c '^# chain [12] iteration \(10\|20\): held-out perplexity' "$tmp/heldout.csv")" = 4 ]
grep -q '^# chain 2 held-out perplexity (document completion): ' "$tmp/heldout.out"
python3 - "$tmp/heldout.csv" "$tmp/plain.csv" <<'PY'
import sys
notes = [float(l.split()[-1]) for l in open(sys.argv[1]) if "held-out perplexity" in l]
assert all(1 < p < 3786 for p in notes), notes
rows = lambda f: sorted(l for l in open(f) if not l.startswith("#"))  # chains interleave
assert rows(sys.argv[1]) == rows(sys.argv[2]), "scoring held-out data changed the draws"
PY
set +e
"$ppl" infer "$examples/coin/coin.ppl" "$examples/coin/data.csv" --heldout "$examples/coin/data.csv" > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q 'no sampler of this model scores held-out data' "$tmp/err"
printf 'doc,word\n1,2\n1,4000\n' > "$tmp/bad_heldout.csv"
set +e
lda_run --heldout "$tmp/bad_heldout.csv" > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q "word\[2\]. is 4000; the model's words are 1..3786" "$tmp/err"

# AD-LDA on two threads: reported, and the same seed gives the same draws.
lda_run --threads 2 -o "$tmp/threads_a.csv" > "$tmp/threads.out"
lda_run --threads 2 -o "$tmp/threads_b.csv" > /dev/null
grep -q 'AD-LDA on 2 threads' "$tmp/threads.out"
cmp <(grep -v '^#' "$tmp/threads_a.csv" | sort) <(grep -v '^#' "$tmp/threads_b.csv" | sort)

# Ising: the default kind is cluster, gibbs on request (its pictures: run_pictures.sh).
"$ppl" infer "$examples/ising/ising.ppl" --set L=8 --chains 1 --warmup 20 --draws 10 --monitor s,energy,absmag --quiet \
  -o "$tmp/ising.csv" > "$tmp/ising.out"
grep -q 'Swendsen-Wang' "$tmp/ising.out"
grep -q '^energy ' "$tmp/ising.out"
"$ppl" infer "$examples/ising/ising.ppl" --set L=8 --chains 1 --warmup 20 --draws 10 --monitor absmag --quiet \
  --sampler s=gibbs --threads 2 > "$tmp/ising_gibbs.out"
grep -q 'chromatic heat-bath, 2 colours, 2 threads' "$tmp/ising_gibbs.out"

# NUTS: the eight-schools example's default plan draws mu and eta as one gaussian_block and
# tau by slice; with NUTS asked for, the report names the block, the step size and the
# divergences; --metric dense runs; a bad value is a usage error.
eight="$examples/eight_schools/eight_schools.ppl"
eight_data="$examples/eight_schools/data.json"
"$ppl" plan "$eight" "$eight_data" > "$tmp/plan.txt"
grep -q '^tau .* slice ' "$tmp/plan.txt" && grep -q '^eta\[1:8\] .* gaussian_block ' "$tmp/plan.txt" && grep -q '^mu .* gaussian_block ' "$tmp/plan.txt"
"$ppl" infer "$eight" "$eight_data" --sampler mu=nuts --sampler tau=nuts --sampler eta=nuts --chains 2 --warmup 200 --draws 100 --metric dense --target-accept 0.9 -q > "$tmp/out.txt"
grep -q '^# chain 1 mu, tau, eta: nuts: step size .* divergent after warmup' "$tmp/out.txt"
"$ppl" infer "$eight" "$eight_data" --chains 1 --warmup 100 --draws 50 --sampler tau=hmc --sampler eta=hmc -q | grep -q 'tau, eta: hmc: step size'
set +e
"$ppl" infer "$eight" "$eight_data" --metric full -q > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q -- '--metric' "$tmp/err"
"$ppl" infer "$eight" "$eight_data" --chains 2 --warmup 100 --draws 50 -q -o "$tmp/eight.csv" > /dev/null

# Draws that are NaN, infinite or at the ends of the doubles (a derived quantity can be)
# are summarised (no bin from NaN, no endless ranking of NaN; plotted in run_pictures.sh);
# a chain number that is no chain is an error.
printf 'chain,iteration,lp__,mu\n1,1,0,1\n1,2,0,nan\n1,3,0,inf\n1,4,0,-1e308\n1,5,0,1e308\n2,1,0,nan\n2,2,0,0\n' > "$tmp/odd.csv"
"$ppl" summary "$tmp/odd.csv" --histograms > /dev/null
# A collapsed Dirichlet, monitored, records draws from its conditional given z by default
# (the plan lines in the output and the draws file say so; no warning), and E[pi | z] with
# --collapsed means, which a warning says are not draws; no warning either when --sampler
# draws pi (z then falls back to gibbs). z's draws are the same whichever is recorded.
printf 'data y: real[N]\npi ~ Dirichlet([1, 1])\nfor n in 1:N {\n  z[n] ~ Categorical(pi)\n  y[n] ~ Normal(2 * z[n] - 3, 1)\n}\n' > "$tmp/mix.ppl"
echo '{"y": [-0.8, 1.9, 1.1, -1.5, 0.3]}' > "$tmp/mix.json"
"$ppl" infer "$tmp/mix.ppl" "$tmp/mix.json" --draws 100 -o "$tmp/mix_draws.csv" > "$tmp/out" 2> "$tmp/err"
grep -q '^# pi\[1:2\] *collapsed .*recorded: draws from its conditional given z' "$tmp/out"
grep -q '^# sampler: pi\[1:2\] collapsed (.*recorded: draws from its conditional given z' "$tmp/mix_draws.csv"
if grep -q 'Rao-Blackwellised' "$tmp/err"; then echo "FAIL: a warning about means where draws are recorded"; exit 1; fi
"$ppl" infer "$tmp/mix.ppl" "$tmp/mix.json" --draws 100 --collapsed means -o "$tmp/mix_means.csv" > "$tmp/out" 2> "$tmp/err"
grep -q '^warning: pi holds Rao-Blackwellised means E\[pi | z\] (--collapsed means), not draws' "$tmp/err"
grep -q '^# pi\[1:2\] *collapsed .*recorded: Rao-Blackwellised means E\[pi | z\]' "$tmp/out"
cmp <(grep -v '^#' "$tmp/mix_draws.csv" | cut -d, -f1-3,6- | sort) <(grep -v '^#' "$tmp/mix_means.csv" | cut -d, -f1-3,6- | sort)
if cmp -s <(grep -v '^#' "$tmp/mix_draws.csv" | sort) <(grep -v '^#' "$tmp/mix_means.csv" | sort); then
  echo "FAIL: --collapsed means records what the default records"; exit 1
fi
"$ppl" infer "$tmp/mix.ppl" "$tmp/mix.json" --draws 100 --collapsed means --sampler pi=conjugate 2> "$tmp/err" | grep -q '^# z\[1:5\] *gibbs'
if grep -q 'Rao-Blackwellised' "$tmp/err"; then echo "FAIL: a warning about means where pi is sampled"; exit 1; fi

# Chains each stuck at its own value: R-hat is enormous (or infinite), shown in exponent form.
awk 'BEGIN { print "chain,iteration,lp__,mu"; for (c = 1; c <= 4; ++c) for (i = 1; i <= 100; ++i) printf "%d,%d,0,%.1f\n", c, i, c / 10 }' > "$tmp/stuck.csv"
"$ppl" summary "$tmp/stuck.csv" | grep -Eq '^mu .* ([0-9.]+e\+[0-9]+|inf)$'
printf 'chain,iteration,lp__,mu\n-1,1,0,1\n' > "$tmp/bad_chain.csv"
set +e
"$ppl" summary "$tmp/bad_chain.csv" > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 1 ] && grep -q 'the chain number -1 is not a whole number from 1 to 256' "$tmp/err"

# The summary's text histograms: asked for with --histograms (and by default on a
# terminal only, so not here); ten bars, the tallest a full block.
"$ppl" summary "$tmp/eight.csv" --histograms > "$tmp/hist.txt"
grep -q ' rhat  distribution$' "$tmp/hist.txt"
python3 - "$tmp/hist.txt" <<'PY'
import sys
row = next(l for l in open(sys.argv[1], encoding="utf-8") if l.startswith("mu "))
bars = row.rstrip("\n")[-10:]
assert len(bars) == 10 and "\u2588" in bars and set(bars) <= set(" \u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"), bars
PY
"$ppl" summary "$tmp/eight.csv" | grep -q ' rhat$'

# A start where the log density is not finite: prior draws are tried again (half of them
# fail here, and the run goes on); when none works, or --init gives such values, the error
# names the statement, the element and the reason (cases in tests/errors/run).
printf 'a ~ Normal(0, 1)\nfactor(log(a))\n' > "$tmp/half.ppl"
"$ppl" infer "$tmp/half.ppl" --chains 4 --warmup 50 --draws 20 -q > /dev/null 2>&1
printf 'a ~ Normal(0, 1)\nfactor(log(a - 10))\n' > "$tmp/never.ppl"
set +e
"$ppl" infer "$tmp/never.ppl" -q > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 1 ] && grep -q 'never.ppl:2:1: error: this factor is NaN at every starting point tried (100)' "$tmp/err"
# During sampling such states are rejected, and counted in the samplers' reports.
"$ppl" infer "$tmp/half.ppl" --chains 1 --sampler a=rwmh -q 2> /dev/null | grep -q '^# chain 1 a: acceptance .*, [0-9]* proposals with a non-finite log density rejected$'
"$ppl" infer "$tmp/half.ppl" --chains 1 --sampler a=slice -q 2> /dev/null | grep -q '^# chain 1 a: [0-9]* points with a NaN log density'
printf 'z ~ Bernoulli(0.5)\nfactor log(z - 0.5)\n' > "$tmp/nan_gibbs.ppl"
"$ppl" infer "$tmp/nan_gibbs.ppl" --chains 1 --warmup 10 --draws 10 -q 2> /dev/null | grep -q '^# chain 1 z: 20 values with a NaN log density (warmup included), never drawn$'
echo '{"a": -1}' > "$tmp/negative.json"
set +e
"$ppl" infer "$tmp/half.ppl" --init "$tmp/negative.json" -q > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 1 ] && grep -q 'half.ppl:2:1: error: this factor is NaN at the values given with --init' "$tmp/err"

# diagnose: the gradient agrees with finite differences (exit 0) and is timed.
"$ppl" diagnose "$eight" "$eight_data" --repeat 100 > "$tmp/diag.txt"
grep -q '^10 coordinates (unconstrained)' "$tmp/diag.txt"
grep -q '^100 gradient evaluations in' "$tmp/diag.txt"
# A model with no smooth unknown says so (exit 1).
set +e
"$ppl" diagnose "$examples/ising/ising.ppl" "$examples/ising/data.json" > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 1 ] && grep -q 'no unknown of this model is smooth and continuous' "$tmp/err"

# An error while sampling says where in the model and where in the run.
printf 'data v: real[3] = [1.0, 2.0, 3.0]\nk ~ Poisson(1)\ny = v[k + 1]\n' > "$tmp/index.ppl"
set +e
"$ppl" infer "$tmp/index.ppl" --chains 1 --quiet > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 1 ] && grep -q '^note: while sampling: chain 1, iteration [0-9]*$' "$tmp/err"

# One missing covariate value, imputed, keeps the regression's Gaussian block (a, b): the
# imputed value's product b * x[8] is no block's, and left out of it the complete-data
# block stands. Drawn one at a time, a and b reached a bulk ESS of 5 in 4,000 draws.
models=$(dirname "$0")/models
"$ppl" plan "$models/imputed_covariate.ppl" "$models/imputed_covariate.csv" --set N=50 > "$tmp/plan.txt"
grep -q '^a  *gaussian_block one block (a, b)' "$tmp/plan.txt"
grep -q '^x\[8\] (missing) ' "$tmp/plan.txt"
"$ppl" infer "$models/imputed_covariate.ppl" "$models/imputed_covariate.csv" --set N=50 --seed 2 -q -o "$tmp/imputed.csv" > /dev/null 2>&1
"$ppl" summary "$tmp/imputed.csv" --format csv 2> /dev/null | python3 -c '
import csv, sys
rows = {r["name"]: r for r in csv.DictReader(sys.stdin)}
for name in ("a", "b"):
    assert float(rows[name]["ess_bulk"]) >= 1000 and float(rows[name]["rhat"]) <= 1.01, rows[name]
print("ok: an imputed covariate keeps the block, bulk ESS of a %.0f" % float(rows["a"]["ess_bulk"]))'

# print(...) at each kept draw, to standard error: the values of that draw, as the draws
# file records them; one of data alone once a chain.
printf 'data y: real[3]\nmu ~ Normal(0, 1)\nprint(mu, 2 * mu)\nfor i in 1:3 {\n  y[i] ~ Normal(mu, 1)\n  print(y[i] - mu)\n}\nprint(y)\n' > "$tmp/print.ppl"
printf 'y\n1\n2\n3\n' > "$tmp/print.csv"
"$ppl" infer "$tmp/print.ppl" "$tmp/print.csv" --chains 1 --warmup 20 --draws 5 -q -o "$tmp/print_draws.csv" > /dev/null 2> "$tmp/print.err"
python3 - "$tmp/print.err" "$tmp/print_draws.csv" <<'PY'
import csv, re, sys
lines = open(sys.argv[1]).read().splitlines()
rows = list(csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#")))
mus = [float(m.group(2)) for l in lines for m in [re.match(r"print at line 3, chain 1, draw (\d+): mu = (\S+); 2 \* mu = (\S+)$", l)] if m]
assert len(mus) == 5 and all(abs(a - float(r["mu"])) <= 1e-5 * max(1, abs(a)) for a, r in zip(mus, rows)), (mus, rows)
assert sum(l.startswith("print at line 6, chain 1, draw ") and l.endswith("(by i)") for l in lines) == 5, lines
assert [l for l in lines if "line 8" in l] == ["print at line 8, chain 1, draw 1: y = [1, 2, 3]"], lines
assert "print__" not in open(sys.argv[2]).read()
print("ok: print at each kept draw, %d lines" % len(lines))
PY

echo "infer: all checks passed"
