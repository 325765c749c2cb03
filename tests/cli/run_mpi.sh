#!/usr/bin/env bash
# Chains over the processes of an MPI job (issue 20), in an MPI build (-DPPL_MPI=ON):
# `mpirun -np 2 ppl infer ...` writes the draws a single process writes with the same seed
# (chain c's rows, comments and Stan files byte for byte; only the rows of different chains
# interleave differently, as they do between any two runs on threads) and prints the same
# summary; a run stopped by SIGTERM to mpirun and resumed under mpirun ends with the draws
# of a run never stopped; LDA's chains with --threads; bad input stops every process with
# the single process's message and status, printed once, and no hang.
# One chain of matrix factorisation with its conjugate updates shared by the processes.
set -euo pipefail
ppl=$(realpath "$1")
examples=$(realpath "$2")
tmp=$(mktemp -d)
trap 'jobs -p | xargs -r kill -9; rm -rf "$tmp"' EXIT
cd "$tmp"
mpi=(mpirun -np 2 --oversubscribe)
[ "$(id -u)" != 0 ] || mpi+=(--allow-run-as-root)
fail() { echo "FAIL $*"; exit 1; }
rows() { if [ -e "$1" ]; then grep -vc '^#' "$1" || true; else echo 0; fi; }
# The summary's lines but the elapsed times.
summary() { grep -v 'elapsed' "$1"; }

schools=("$examples/eight_schools/eight_schools.ppl" "$examples/eight_schools/data.json" --seed 3 --draws 2000 --quiet --histograms)
# (--histograms: mpirun gives rank 0 a terminal for its output, which would show them)
mkdir one two
(cd one && "$ppl" infer "${schools[@]}" -o d.csv > out.txt)
(cd two && timeout 120 "${mpi[@]}" "$ppl" infer "${schools[@]}" -o d.csv > out.txt) || fail "schools: mpirun exited $?"
cmp -s <(sort one/d.csv) <(sort two/d.csv) || fail "schools: the draws file differs from the single process's"
for c in 1 2 3 4; do
  cmp -s <(grep "^$c," one/d.csv) <(grep "^$c," two/d.csv) || fail "schools: chain $c's rows differ"
done
cmp -s <(summary one/out.txt) <(summary two/out.txt) || { diff <(summary one/out.txt) <(summary two/out.txt) | head; fail "schools: summary"; }
echo "schools: 4 chains on 2 processes, the single process's draws and summary"

# Stan's layout, a file per chain: the same bytes but the elapsed times.
(cd one && "$ppl" infer "${schools[@]}" --format stan -o s.csv > /dev/null)
(cd two && timeout 120 "${mpi[@]}" "$ppl" infer "${schools[@]}" --format stan -o s.csv > /dev/null)
for c in 1 2 3 4; do
  cmp -s <(grep -v '[0-9] seconds' "one/s_$c.csv") <(grep -v '[0-9] seconds' "two/s_$c.csv") || fail "stan: chain $c's file differs"
done
echo "stan: each chain's file as the single process writes it"

# LDA's collapsed sampler with two threads per chain, theta and phi recorded as draws.
lda=("$examples/lda/lda.ppl" "$examples/lda/data.csv" --chains 2 --warmup 5 --draws 10 --threads 2 --seed 4 --monitor phi --quiet)
(cd one && "$ppl" infer "${lda[@]}" -o lda.csv > /dev/null 2>&1)
(cd two && timeout 300 "${mpi[@]}" "$ppl" infer "${lda[@]}" -o lda.csv > /dev/null 2>&1)
cmp -s <(sort one/lda.csv) <(sort two/lda.csv) || fail "lda: the draws differ"
echo "lda: 2 chains x 2 threads on 2 processes, the same draws"

# One chain whose LDA sweep the two processes share (AD-LDA across processes): its final
# log p(w, z) (lp__) within the spread of three serial runs, widened by that spread on each
# side (tests/models/test_lda.cpp holds the engine to the same, and its counts to z).
one_lda=("$examples/lda/lda.ppl" "$examples/lda/data.csv" --chains 1 --warmup 100 --quiet)
last_lp() { grep -v '^#' "$1" | tail -1 | cut -d, -f3; }
for seed in 1 2 3; do (cd one && "$ppl" infer "${one_lda[@]}" --draws 50 --seed "$seed" -o "serial$seed.csv" > /dev/null 2>&1); done
(cd two && timeout 300 "${mpi[@]}" "$ppl" infer "${one_lda[@]}" --draws 50 --seed 4 -o team.csv > team.out 2> team.err) || { cat two/team.err; fail "team: exit"; }
grep -q 'AD-LDA over 2 processes' two/team.out || fail "team: the report does not say the sweep was shared"
python3 - "$(last_lp one/serial1.csv)" "$(last_lp one/serial2.csv)" "$(last_lp one/serial3.csv)" "$(last_lp two/team.csv)" <<'PY'
import sys
serial, team = [float(x) for x in sys.argv[1:4]], float(sys.argv[4])
spread = max(serial) - min(serial)
assert min(serial) - spread < team < max(serial) + spread, (serial, team)
print(f"team: final log p(w, z) {team:.0f}, serial runs {', '.join(f'{x:.0f}' for x in serial)}")
PY
# One chain of matrix factorisation whose conjugate updates the two processes share (each
# draws its part of the users, then of the items, and they exchange them): the held-out
# RMSE of its posterior-mean prediction within the spread of three serial runs, widened by
# that spread (at least 0.003, about twice the seeds' sd of 0.0013) on each side
# (tests/samplers/test_conjugate_blocks.cpp holds the posterior to the serial one's within MCSE).
bpmf=("$examples/bpmf/bpmf.ppl" "$examples/bpmf/data.json" --chains 1 --draws 1000 --heldout "$examples/bpmf/heldout.json" --quiet)
rmse() { grep 'held-out RMSE' "$1" | tail -1 | sed 's/.*: //'; }
for seed in 1 2 3; do (cd one && "$ppl" infer "${bpmf[@]}" --seed "$seed" -o "bpmf$seed.csv" > "bpmf$seed.out" 2>&1); done
(cd two && timeout 300 "${mpi[@]}" "$ppl" infer "${bpmf[@]}" --seed 4 -o bpmf.csv > bpmf.out 2> bpmf.err) || { cat two/bpmf.err; fail "bpmf: exit"; }
grep -q 'U: blocks shared by 2 processes' two/bpmf.out || fail "bpmf: the report does not say the blocks were shared"
python3 - "$(rmse one/bpmf1.out)" "$(rmse one/bpmf2.out)" "$(rmse one/bpmf3.out)" "$(rmse two/bpmf.out)" <<'PY'
import sys
serial, team = [float(x) for x in sys.argv[1:4]], float(sys.argv[4])
spread = max(max(serial) - min(serial), 0.003)
assert min(serial) - spread < team < max(serial) + spread, (serial, team)
print(f"bpmf: held-out RMSE {team:.4f} with the blocks shared, serial runs {', '.join(f'{x:.4f}' for x in serial)}")
PY
# A signal stops both processes after the same sweep (they agree on it in the sum).
cd two
"${mpi[@]}" "$ppl" infer "${one_lda[@]}" --draws 100000 -o team_stop.csv > team_stop.out 2> team_stop.err &
pid=$! waited=0
cd ..
until [ "$(rows two/team_stop.csv)" -ge 3 ]; do
  sleep 0.05; waited=$((waited + 1)); [ "$waited" -lt 1200 ] || fail "team: no draws after 60 s"
done
kill -TERM "$pid"
set +e; wait "$pid"; set -e
grep -q 'interrupted: chain 1' two/team_stop.err || { cat two/team_stop.err; fail "team: not stopped by SIGTERM"; }
[ "$(rows two/team_stop.csv)" -lt 100001 ] || fail "team: the run ended before the signal"
echo "team: stopped by SIGTERM after $(rows two/team_stop.csv) rows"

# SIGTERM to mpirun, which passes it on to every process: each chain stops after its
# iteration, the others' last rows and states reach rank 0, and the resumed run (under
# mpirun) ends with the uninterrupted run's draws. The chains are thinned so that the run
# lasts seconds, not the fraction of one that mpirun's start-up and the polling below may
# take on a loaded machine (the run then ended before the signal).
long=("$examples/eight_schools/eight_schools.ppl" "$examples/eight_schools/data.json" --seed 7 --chains 2 --warmup 300 --draws 30000 --thin 10
      --sampler mu=nuts --sampler tau=nuts --sampler eta=nuts --quiet)
(cd one && "$ppl" infer "${long[@]}" -o full.csv > /dev/null 2>&1)
cd two
"${mpi[@]}" "$ppl" infer "${long[@]}" -o stop.csv --checkpoint-every 0.05 > stop.out 2> stop.err &
pid=$! waited=0
chain_rows() { if [ -e "$1" ]; then grep -c "^$2," "$1" || true; else echo 0; fi; }
until [ "$(chain_rows stop.csv 2)" -ge 2 ] && [ -e stop.csv.state ]; do
  sleep 0.02
  waited=$((waited + 1))
  [ "$waited" -lt 3000 ] || fail "term: no draws from chain 2 after 60 s"
done
kill -TERM "$pid"
set +e; wait "$pid"; set -e
grep -q 'continue with: ppl infer --resume stop.csv' stop.err || { cat stop.err; fail "term: no resume hint"; }
before=$(rows stop.csv)
[ "$before" -lt "$(rows ../one/full.csv)" ] || fail "term: the run ended before the signal"
timeout 300 "${mpi[@]}" "$ppl" infer --resume stop.csv --quiet > resumed.out 2> resumed.err || { cat resumed.err; fail "term: resume"; }
cmp -s <(grep -v '^#' ../one/full.csv | sort) <(grep -v '^#' stop.csv | sort) || fail "term: the resumed draws differ"
cd ..
echo "term: stopped by SIGTERM after $((before - 1)) rows, resumed under mpirun, the uninterrupted run's draws"

# ppl sbc: replicates spread over processes (and threads) give the single process's ranks.
printf 'data N: int\ndata y: real[N]\nmu ~ Normal(0, 1)\nsigma ~ Exponential(1)\nfor n in 1:N {\n  y[n] ~ Normal(mu, sigma)\n}\n' > sbc.ppl
"$ppl" sbc sbc.ppl --set N=5 --replicates 40 --seed 2 -o one/ranks.csv > one/sbc.txt
timeout 120 "${mpi[@]}" "$ppl" sbc sbc.ppl --set N=5 --replicates 40 --seed 2 --threads 2 -o two/ranks.csv > two/sbc.txt
cmp -s one/ranks.csv two/ranks.csv || fail "sbc: the ranks differ"
cmp -s one/sbc.txt two/sbc.txt || fail "sbc: the report differs"
echo "sbc: 40 replicates on 2 processes x 2 threads, the single process's ranks"

# Bad input, and failures: the single process's message, once, and its status from mpirun;
# no hang.
expect_error() {
  local status=$1 pattern=$2; shift 2
  set +e; timeout 60 "${mpi[@]}" "$ppl" "$@" > err.out 2> err.txt; local rc=$?; set -e
  [ "$rc" = "$status" ] || { cat err.txt; fail "error $*: exit $rc, expected $status"; }
  [ "$(grep -c -- "$pattern" err.txt)" = 1 ] || { cat err.txt; fail "error $*: the message is not there once"; }
}
expect_error 1 "no value for data \`y\`" infer "$examples/eight_schools/eight_schools.ppl"
expect_error 2 "File does not exist" infer nothing.ppl
expect_error 1 "no value for data \`N\`" sbc sbc.ppl --replicates 4
# A chain that fails while sampling on rank 1 (chain 2, at its first iteration with this
# seed): rank 0 stops its own, prints the single process's message, and all exit.
printf 'data a: real[3]\ndata y: real\nk ~ Poisson(2)\ny ~ Normal(a[k + 1], 1)\n' > index.ppl
expect_error 1 "while sampling: chain 2, iteration 1" infer index.ppl --set 'a=[0,1,2]' --set y=0.5 --seed 3 --chains 2 --warmup 3 --draws 3
expect_error 2 "\`theta\` cannot be recorded" infer "$examples/lda/lda.ppl" "$examples/lda/data.csv" --chains 1 --monitor theta
echo "errors: one message, the single process's status, every process stopped"
