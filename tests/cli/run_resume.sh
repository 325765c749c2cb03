#!/usr/bin/env bash
# Long runs (issue 8): a run stopped by SIGINT, SIGTERM or SIGKILL and continued with
# `ppl infer --resume DRAWS.csv` ends with exactly the draws file of a run never stopped
# (same seed): NUTS on eight schools (adaptation state; also in Stan's format, a file per
# chain, and with JAGS's CODA files, written when the resumed run completes), LDA's collapsed sampler on two threads (2 x 71,134 topics in the state), a
# mixture's collapsed weight recorded as draws or as means, and matrix factorisation's
# held-out RMSE. SIGKILL leaves what the last
# periodic save (--checkpoint-every) counted, and a draws file that may run past it. Also:
# a model changed since the run began is refused.
set -euo pipefail
ppl=$(realpath "$1")
examples=$(realpath "$2")
tmp=$(mktemp -d)
trap 'jobs -p | xargs -r kill -9; rm -rf "$tmp"' EXIT
cd "$tmp"

rows() { if [ -e "$1" ]; then grep -vc '^#' "$1" || true; else echo 0; fi; }

# check NAME FULL SIGNAL MIN_ROWS ARGS...: the uninterrupted run (FULL.csv, made once per
# FULL), then one stopped by SIGNAL once its draws file has MIN_ROWS lines, resumed; the two
# must hold the same rows.
check() {
  local name=$1 full=$2 signal=$3 min_rows=$4; shift 4
  [ -e "$full.csv" ] || [ -e "${full}_1.csv" ] || "$ppl" infer "$@" --quiet -o "$full.csv" > /dev/null 2>&1
  "$ppl" infer "$@" --quiet -o "$name.csv" --checkpoint-every 0.05 > "$name.out" 2> "$name.err" &
  local pid=$! waited=0
  until { [ "$(rows "$name.csv")" -ge "$min_rows" ] || [ "$(rows "${name}_1.csv")" -ge "$min_rows" ]; } && [ -e "$name.csv.state" ]; do
    sleep 0.02
    waited=$((waited + 1))
    [ "$waited" -lt 1500 ] || { echo "FAIL $name: no draws after 30 s"; exit 1; }
  done
  kill -"$signal" "$pid"
  set +e
  wait "$pid"; local rc=$?
  set -e
  case $signal in
    INT|TERM) [ "$rc" = 130 ] && grep -q "continue with: ppl infer --resume $name.csv" "$name.err" ||
                { echo "FAIL $name: exit $rc"; cat "$name.err"; exit 1; } ;;
    KILL) [ "$rc" = 137 ] || { echo "FAIL $name: exit $rc after SIGKILL"; exit 1; } ;;
  esac
  # CODA files are written only by a complete run (chains stopped at different draws have
  # no one index).
  [ ! -e "${name}index.txt" ] || { echo "FAIL $name: CODA files after an interrupted run"; exit 1; }
  local before total
  before=$(rows "$name.csv")
  total=$(rows "$full.csv")
  if [ -e "${full}_1.csv" ]; then before=$(rows "${name}_1.csv"); total=$(rows "${full}_1.csv"); fi
  [ "$before" -lt "$total" ] || { echo "FAIL $name: the run ended before the signal ($before rows)"; exit 1; }
  "$ppl" infer --resume "$name.csv" --quiet > "$name.resumed.out" 2> "$name.resumed.err" ||
    { echo "FAIL $name: resume failed"; cat "$name.resumed.err"; exit 1; }
  # In Stan's format, one file per chain, compared in order.
  local pairs=("$full.csv:$name.csv") sorted=sort
  if [ -e "${full}_1.csv" ]; then pairs=("${full}_1.csv:${name}_1.csv" "${full}_2.csv:${name}_2.csv") sorted=cat; fi
  for pair in "${pairs[@]}"; do
    if ! cmp -s <(grep -v '^#' "${pair%%:*}" | $sorted) <(grep -v '^#' "${pair##*:}" | $sorted); then
      echo "FAIL $name: the resumed run's draws differ from the uninterrupted run's (${pair##*:})"
      diff <(grep -v '^#' "${pair%%:*}" | $sorted) <(grep -v '^#' "${pair##*:}" | $sorted) | head -5
      exit 1
    fi
    if [ "$sorted" = sort ]; then
      grep -q '^# chain [12] iteration [0-9]*: resumed' "${pair##*:}"
    else
      # Stan's layout as CmdStan writes it: the adaptation block once, before the first
      # row, no comment among the rows, the elapsed times once at the end.
      python3 - "${pair##*:}" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
rows = [i for i, l in enumerate(lines) if l and not l.startswith("#")]
header, first, last = rows[0], rows[1], rows[-1]
inside = [l for l in lines[first:last + 1] if l.startswith("#")]
assert not inside, f"comments among the rows: {inside[:3]}"
adapt = [i for i, l in enumerate(lines) if "Adaptation terminated" in l]
assert len(adapt) == 1 and header < adapt[0] < first, adapt
elapsed = [i for i, l in enumerate(lines) if "Elapsed Time" in l]
assert len(elapsed) == 1 and elapsed[0] > last, elapsed
PY
    fi
  done
  echo "$name: stopped by SIG$signal after $((before - 1)) draws, resumed to $((total - 1)), same draws"
}

# Long enough that a loaded machine's poll (every 20 ms, and the writer's flush every 200
# rows or second) sees the first rows well before the run ends: with 4,000 draws a chain
# could finish between two polls under a parallel build (schools_stan: "the run ended
# before the signal"). The sanitized build (PPL_TEST_SHORT=1) runs ten times slower, so a
# tenth of the iterations lasts as long there: the same margin, a tenth of the CPU.
long=20000
[ "${PPL_TEST_SHORT:-0}" = 0 ] || long=2000
# NUTS (not the default plan) so that its adaptation state is what is saved and resumed.
schools=("$examples/eight_schools/eight_schools.ppl" "$examples/eight_schools/data.json" --chains 2 --warmup 300 --draws "$long" --seed 7 --sampler mu=nuts --sampler tau=nuts --sampler eta=nuts)
lda=("$examples/lda/lda.ppl" "$examples/lda/data.csv" --chains 2 --warmup 20 --draws 150 --threads 2 --seed 3)
check schools_int schools INT 1 "${schools[@]}"
check schools_term schools TERM 2 "${schools[@]}"
check schools_kill schools KILL 2 "${schools[@]}"
check lda_int lda INT 3 "${lda[@]}"
check lda_kill lda KILL 40 "${lda[@]}"
check schools_stan stan_full KILL 2 "${schools[@]}" --format stan
check schools_stan_int stan_full INT 2 "${schools[@]}" --format stan
# JAGS's CODA files, written at the end from the draws file: the resumed run's are the
# uninterrupted run's.
check schools_coda coda_full INT 2 "${schools[@]}" --format coda
for f in index.txt chain1.txt chain2.txt; do
  cmp -s "coda_full$f" "schools_coda$f" || { echo "FAIL schools_coda: $f differs from the uninterrupted run's"; exit 1; }
done
echo "schools_coda: the CODA files of the resumed run are the uninterrupted run's"
# SIGKILL just after draw 1 of a chain in Stan's layout, with the last periodic save from
# warmup: the file holds the adaptation block and a row, which the resumed run, adapting
# again, writes anew. Made deterministic: a run stopped in warmup (a long one), then the
# block and a row such a kill leaves appended to each chain's file.
warm=("$examples/eight_schools/eight_schools.ppl" "$examples/eight_schools/data.json" --chains 2 --warmup $((3 * long)) --draws 20 --seed 9 --format stan --sampler mu=nuts --sampler tau=nuts --sampler eta=nuts)
"$ppl" infer "${warm[@]}" --quiet -o warm_full.csv > /dev/null 2>&1
"$ppl" infer "${warm[@]}" --quiet -o warm.csv --checkpoint-every 0.05 > warm.out 2> warm.err &
pid=$!
until [ -e warm.csv.state ]; do sleep 0.02; done
kill -INT "$pid"
set +e; wait "$pid"; set -e
for c in 1 2; do
  [ "$(rows "warm_$c.csv")" = 1 ] || { echo "FAIL warm: stopped after warmup"; exit 1; }
  printf '# Adaptation terminated\n# Step size = 0.5\n# Diagonal elements of inverse mass matrix:\n# 1, 1\n%s\n' \
    "$(sed -n '/^lp__/{n;p;q}' "warm_full_$c.csv")" >> "warm_$c.csv"
done
"$ppl" infer --resume warm.csv --quiet > /dev/null 2> warm.resumed.err || { echo "FAIL warm: resume failed"; cat warm.resumed.err; exit 1; }
for c in 1 2; do
  cmp -s <(grep -v '^#' "warm_full_$c.csv") <(grep -v '^#' "warm_$c.csv") || { echo "FAIL warm: draws differ"; exit 1; }
  [ "$(grep -c 'Adaptation terminated' "warm_$c.csv")" = 1 ] || { echo "FAIL warm: the adaptation block twice"; exit 1; }
done
echo "warm: a kill after draw 1 with the state saved in warmup, resumed, one adaptation block"

# A collapsed mixture weight, recorded as draws from its conditional given z (from streams
# seeded by the iteration) and, with --collapsed means (which the saved arguments carry),
# as E[pi | z].
printf 'data y: real[N]\npi ~ Dirichlet([1, 1])\nfor n in 1:N {\n  z[n] ~ Categorical(pi)\n  y[n] ~ Normal(2 * z[n] - 3, 1)\n}\n' > mix.ppl
awk 'BEGIN { srand(3); printf "{\"y\": ["; for (i = 1; i <= 2000; ++i) printf "%s%.3f", (i > 1 ? "," : ""), (rand() < 0.3 ? -1 : 1) + 2 * (rand() - 0.5); print "]}" }' > mix.json
mix=(mix.ppl mix.json --chains 2 --warmup 50 --draws 1000 --seed 5)
check mix_int mix INT 20 "${mix[@]}"
check mix_means_term mix_means TERM 20 "${mix[@]}" --collapsed means

# Matrix factorisation with --heldout: the running mean of the held-out predictions is
# part of the saved state, so the resumed run ends with the uninterrupted run's RMSE.
bpmf=("$examples/bpmf/bpmf.ppl" "$examples/bpmf/data.json" --heldout "$examples/bpmf/heldout.json" --chains 2 --warmup 100
      --draws "$long" --seed 4 --monitor mu_u)
check bpmf_int bpmf INT 20 "${bpmf[@]}"
last_rmse() { grep "iteration $((100 + long)): held-out RMSE" "$1" | sort; }  # each chain's final score
[ "$(last_rmse bpmf.csv | wc -l)" = 2 ] && [ "$(last_rmse bpmf.csv)" = "$(last_rmse bpmf_int.csv)" ] ||
  { echo "FAIL bpmf: the held-out RMSE differs after resuming"; last_rmse bpmf.csv; last_rmse bpmf_int.csv; exit 1; }
echo "bpmf: the same final held-out RMSE"

# A resumed run needs the model it began with.
cp "$examples/coin/coin.ppl" "$examples/coin/data.csv" .
"$ppl" infer coin.ppl data.csv --chains 1 --draws 5 --warmup 5 --quiet -o coin.csv > /dev/null 2>&1
echo "# edited" >> coin.ppl
set +e
"$ppl" infer --resume coin.csv > /dev/null 2> coin.err; rc=$?
set -e
[ "$rc" = 2 ] && grep -q 'coin.ppl has changed since the run began' coin.err
echo "resume checks passed"
