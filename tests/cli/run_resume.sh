#!/usr/bin/env bash
# Long runs (issue 8): a run stopped by SIGINT, SIGTERM or SIGKILL and continued with
# `ppl infer --resume DRAWS.csv` ends with exactly the draws file of a run never stopped
# (same seed): NUTS on eight schools (adaptation state), and LDA's collapsed sampler on two
# threads (2 x 71,134 topics in the state). SIGKILL leaves what the last periodic save
# (--checkpoint-every) counted, and a draws file that may run past it. Also: a model
# changed since the run began is refused.
set -euo pipefail
ppl=$(realpath "$1")
examples=$(realpath "$2")
tmp=$(mktemp -d)
trap 'jobs -p | xargs -r kill -9; rm -rf "$tmp"' EXIT
cd "$tmp"

rows() { if [ -e "$1" ]; then grep -vc '^#' "$1" || true; else echo 0; fi; }

# check NAME SIGNAL MIN_ROWS ARGS...: the uninterrupted run, then one stopped by SIGNAL once
# its draws file has MIN_ROWS lines, resumed; the two files must hold the same rows.
check() {
  local name=$1 signal=$2 min_rows=$3; shift 3
  "$ppl" infer "$@" --quiet -o "$name.full.csv" > /dev/null 2>&1
  "$ppl" infer "$@" --quiet -o "$name.csv" --checkpoint-every 0.05 > "$name.out" 2> "$name.err" &
  local pid=$! waited=0
  until [ "$(rows "$name.csv")" -ge "$min_rows" ] && [ -e "$name.csv.state" ]; do
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
  local before total
  before=$(rows "$name.csv")
  total=$(rows "$name.full.csv")
  [ "$before" -lt "$total" ] || { echo "FAIL $name: the run ended before the signal ($before rows)"; exit 1; }
  "$ppl" infer --resume "$name.csv" --quiet > "$name.resumed.out" 2> "$name.resumed.err" ||
    { echo "FAIL $name: resume failed"; cat "$name.resumed.err"; exit 1; }
  if ! cmp -s <(grep -v '^#' "$name.full.csv" | sort) <(grep -v '^#' "$name.csv" | sort); then
    echo "FAIL $name: the resumed run's draws differ from the uninterrupted run's"
    diff <(grep -v '^#' "$name.full.csv" | sort) <(grep -v '^#' "$name.csv" | sort) | head -5
    exit 1
  fi
  grep -q '^# chain 1 iteration [0-9]*: resumed' "$name.csv"
  echo "$name: stopped by SIG$signal after $((before - 1)) draws, resumed to $((total - 1)), same draws"
}

schools=("$examples/eight_schools/eight_schools.ppl" "$examples/eight_schools/data.json" --chains 2 --warmup 300 --draws 1000 --seed 7)
lda=("$examples/lda/lda.ppl" "$examples/lda/data.csv" --chains 2 --warmup 20 --draws 150 --threads 2 --seed 3)
check schools_int INT 1 "${schools[@]}"
check schools_term TERM 400 "${schools[@]}"
check schools_kill KILL 700 "${schools[@]}"
check lda_int INT 3 "${lda[@]}"
check lda_kill KILL 40 "${lda[@]}"

# A resumed run needs the model it began with.
cp "$examples/coin/coin.ppl" "$examples/coin/data.csv" .
"$ppl" infer coin.ppl data.csv --chains 1 --draws 5 --warmup 5 --quiet -o coin.csv > /dev/null 2>&1
echo "# edited" >> coin.ppl
set +e
"$ppl" infer --resume coin.csv > /dev/null 2> coin.err; rc=$?
set -e
[ "$rc" = 2 ] && grep -q 'coin.ppl has changed since the run began' coin.err
echo "resume checks passed"
