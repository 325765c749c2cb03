#!/usr/bin/env bash
# LDA over MPI processes (issue 20): one chain on the full corpus, K = 50, its sweep shared
# by 2 processes of 1 thread (AD-LDA across processes) against 1 process, both timed whole
# by farm-bench in turn; then the final log p(w, z) (lp__ of the last draw) of serial runs
# and of 2-process runs, seeds 1-3, from the same kind of start (prior draws).
#   bash bench/lda_mpi.sh [build] [sweeps]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ppl=$root/${1:-build}/ppl
sweeps=${2:-50}
corpus=$root/../shared/data/debian-descriptions/full/tokens.csv.gz
args="infer $root/examples/lda/lda.ppl $corpus --set K=50 --chains 1 --warmup 5 --draws $sweeps --quiet"
mpi="mpirun --bind-to none -np 2"
[ "$(id -u)" != 0 ] || mpi="mpirun --allow-run-as-root --bind-to none -np 2"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
uptime
farm-bench -n 3 --warmup 0 --timeout 1200 --vs "sh -c 'exec $ppl $args --seed 1 >>$out/one.txt 2>&1'" \
  -- sh -c "exec $mpi $ppl $args --seed 1 >>$out/two.txt 2>&1"
uptime
echo "sampling phase (ppl's own timer), 1 process:";   grep -h 'elapsed' "$out/one.txt"
echo "sampling phase (ppl's own timer), 2 processes:"; grep -h 'elapsed' "$out/two.txt"
last_lp() { grep -v '^#' "$1" | tail -1 | cut -d, -f3; }
for seed in 1 2 3; do
  $ppl $args --seed "$seed" -o "$out/serial$seed.csv" > /dev/null 2>&1
  $mpi $ppl $args --seed "$seed" -o "$out/team$seed.csv" > /dev/null 2>&1
  echo "seed $seed: final log p(w, z) serial $(last_lp "$out/serial$seed.csv"), 2 processes $(last_lp "$out/team$seed.csv")"
done
