#!/usr/bin/env bash
# What `ppl infer` and `ppl simulate` write, and what `ppl summary` reads back:
# - a failed write is an error (exit 1) naming the file, with every row before it whole;
# - an output that is an input of the run is refused, under any of its names;
# - Stan's layout: CmdStan's column order and sampler columns, the same draws as ppl's
#   layout, read back by `ppl summary` and `ppl plot`, as is simulate's output;
# - warnings for divergences, the tree depth limit and a low E-BFMI; notes for every
#   statistic printed as n/a and for variables left out for their size;
# - the summary of a file larger than its memory budget, in bounded memory.
set -euo pipefail
ppl=$1
examples=$2
models=$(dirname "$0")/models
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
coin=("$examples/coin/coin.ppl" "$examples/coin/data.csv")
schools=("$examples/eight_schools/eight_schools.ppl" "$examples/eight_schools/data.json")
expect_exit() {  # STATUS PATTERN COMMAND...: the command exits STATUS and its stderr matches PATTERN
  local status=$1 pattern=$2 rc=0
  shift 2
  "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
  [ "$rc" = "$status" ] || { echo "FAIL: exit $rc, not $status: $*"; cat "$tmp/err"; exit 1; }
  grep -q -- "$pattern" "$tmp/err" || { echo "FAIL: stderr lacks '$pattern': $*"; cat "$tmp/err"; exit 1; }
}

# 1. A file that cannot grow past 64 KB (RLIMIT_FSIZE, with SIGXFSZ ignored so that the
#    write fails with EFBIG as a full disk fails with ENOSPC): exit 1, the file named,
#    every row whole, and the file readable.
expect_exit 1 "cannot write the draws file $tmp/full.csv: File too large" \
  bash -c 'trap "" XFSZ; ulimit -f 64; exec "$@"' _ "$ppl" infer "${schools[@]}" --draws 5000 --quiet -o "$tmp/full.csv"
# How many rows were flushed before the failing write depends on timing (a flush every
# 200 rows or every second), so the file is held to the count the note gives.
python3 - "$tmp/full.csv" "$tmp/err" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
note = re.search(r"the (\d+) rows of draws written before it are intact", open(sys.argv[2]).read())
assert note, "no note of the rows kept"
assert text.endswith("\n"), "the file ends in half a row"
rows = [l for l in text.splitlines() if not l.startswith("#")]
width = len(rows[0].split(","))
assert all(len(r.split(",")) == width for r in rows), "a partial row"
assert len(rows) - 1 == int(note.group(1)) > 0, f"{len(rows) - 1} rows in the file, the note says {note.group(1)}"
print(f"write failure: {len(rows) - 1} whole rows kept")
PY
"$ppl" summary "$tmp/full.csv" > /dev/null
# The same through a 64 KB tmpfs, a real full disk, where this machine lets us mount one.
if mkdir -p "$tmp/small" && mount -t tmpfs -o size=64k tmpfs "$tmp/small" 2> /dev/null; then
  expect_exit 1 "cannot write the draws file $tmp/small/d.csv: No space left on device" \
    "$ppl" infer "${schools[@]}" --draws 5000 --quiet -o "$tmp/small/d.csv"
  "$ppl" summary "$tmp/small/d.csv" > /dev/null
  umount "$tmp/small"
  echo "write failure on a full tmpfs: exit 1, file readable"
fi
expect_exit 1 'cannot write the draws file /dev/full: No space left on device' "$ppl" infer "${coin[@]}" -o /dev/full
expect_exit 1 'cannot write the draws file /dev/full' "$ppl" simulate "${coin[@]}" -o /dev/full
# Standard output full: simulate's CSV goes there without -o.
expect_exit 1 'cannot write the draws file (standard output): No space left on device' \
  bash -c 'exec "$@" > /dev/full' _ "$ppl" simulate "${coin[@]}"

# 2. An output that is an input, by its own name or another.
cp "${coin[@]}" "$tmp/"
ln "$tmp/data.csv" "$tmp/hard.csv"
ln -s "$tmp/coin.ppl" "$tmp/soft.ppl"
expect_exit 2 'is the same file as an input of this run' "$ppl" infer "$tmp/coin.ppl" "$tmp/data.csv" -o "$tmp/hard.csv"
expect_exit 2 'is the same file as an input of this run' "$ppl" simulate "$tmp/coin.ppl" "$tmp/data.csv" -o "$tmp/soft.ppl"
expect_exit 2 'is an input of this run' "$ppl" infer "$tmp/coin.ppl" "$tmp/data.csv" --init "$tmp/data.csv" -o "$tmp/data.csv"
cmp -s "$tmp/data.csv" "${coin[1]}" && cmp -s "$tmp/coin.ppl" "${coin[0]}"

# 3. Stan's layout: the header CmdStan writes (sampler columns, matrices column-major),
#    the same draws as ppl's layout with the same seed, and the same summary read back.
run=(infer "$models/matrix.ppl" --set y=80 --chains 2 --warmup 200 --draws 300 --seed 5 --quiet)
"$ppl" "${run[@]}" -o "$tmp/m.csv" > "$tmp/m.out"
"$ppl" "${run[@]}" -o "$tmp/s.csv" --format stan > "$tmp/s.out"
grep -qx 'lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,m.1.1,m.2.1,m.1.2,m.2.2,m.1.3,m.2.3' "$tmp/s_1.csv"
grep -qx 'chain,iteration,lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,"m\[1,1\]","m\[1,2\]","m\[1,3\]","m\[2,1\]","m\[2,2\]","m\[2,3\]"' "$tmp/m.csv"
python3 - "$tmp/m.csv" "$tmp/s_1.csv" "$tmp/s_2.csv" <<'PY'
import csv, sys
def table(path):
    rows = list(csv.reader(l for l in open(path) if not l.startswith("#")))
    return rows[0], rows[1:]
head, rows = table(sys.argv[1])
for chain, path in enumerate(sys.argv[2:], 1):
    stan_head, stan_rows = table(path)
    mine = [r for r in rows if r[0] == str(chain)]
    assert len(mine) == len(stan_rows) == 300
    for name in head[2:]:
        stan_name = name.replace("[", ".").replace(",", ".").replace("]", "")
        a, b = head.index(name), stan_head.index(stan_name)
        assert all(x[a] == y[b] for x, y in zip(mine, stan_rows)), f"{name} differs in chain {chain}"
print("Stan layout: same draws as ppl's, matrices column-major")
PY
"$ppl" summary "$tmp/m.csv" 2> /dev/null | grep -v '^#' > "$tmp/m.sum"
"$ppl" summary "$tmp/s.csv" 2> /dev/null | grep -v '^#' > "$tmp/s.sum"
"$ppl" summary "$tmp/s_1.csv" "$tmp/s_2.csv" 2> /dev/null | grep -v '^#' > "$tmp/s12.sum"
cmp "$tmp/m.sum" "$tmp/s.sum" && cmp "$tmp/m.sum" "$tmp/s12.sum"
# The summary `infer` prints is the summary of the file it wrote.
grep -v '^#' "$tmp/m.out" | grep -v '^note' | cmp - "$tmp/m.sum"
# --variables keeps those rows alone; --percentiles 5,50,95 gives the default quantiles
# exactly (its own interpolation, R's type 7, against the summariser's); others are named
# by their percent, and a name not in the draws is a usage error.
"$ppl" summary "$tmp/s.csv" --format csv > "$tmp/all.csv"
"$ppl" summary "$tmp/s.csv" --format csv --percentiles 5,50,95 | cmp - "$tmp/all.csv"
"$ppl" summary "$tmp/s.csv" --format csv --variables m --percentiles 2.5,97.5 > "$tmp/some.csv"
[ "$(head -1 "$tmp/some.csv")" = "name,mean,sd,q2.5,q97.5,mcse_mean,ess_bulk,ess_tail,rhat" ]
[ "$(tail -n +2 "$tmp/some.csv" | cut -d, -f1 | sed 's/^"//; s/\[.*//' | sort -u)" = "m" ]
rc=0; "$ppl" summary "$tmp/s.csv" --variables nothing > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || { echo "FAIL: --variables nothing exited $rc"; exit 1; }
"$ppl" plot "$tmp/s.csv" m -o "$tmp/s.svg" > /dev/null
grep -q '<svg' "$tmp/s.svg"
# simulate's output reads back too.
"$ppl" simulate "${coin[@]}" --draws 200 -o "$tmp/sim.csv"
"$ppl" summary "$tmp/sim.csv" 2> /dev/null | grep -q '^p '
"$ppl" plot "$tmp/sim.csv" p -o "$tmp/sim.svg" > /dev/null

# 7. Hamiltonian diagnostics: the centred eight schools with NUTS on everything (dozens
#    of divergent transitions, how many depends on the last bit of every gradient), a
#    tree depth limit of 1, and a low E-BFMI.
centred=(infer "$models/eight_centred.ppl" "${schools[1]}" --sampler mu=nuts --sampler theta=nuts --quiet)
"$ppl" "${centred[@]}" > /dev/null 2> "$tmp/err"
grep -Eq '^warning: [1-9][0-9]* of 4000 transitions after warmup were divergent \(chain 1: [0-9]+, chain 2: [0-9]+, chain 3: [0-9]+, chain 4: [0-9]+\): .*raise --target-accept' "$tmp/err"
grep -Eq '^warning: E-BFMI below 0.3 \(chain [1-4]: 0\.[0-9]+' "$tmp/err"
"$ppl" infer "${schools[@]}" --sampler mu=nuts --sampler tau=nuts --sampler eta=nuts --max-depth 1 --quiet -o "$tmp/d1.csv" > /dev/null 2> "$tmp/err"
grep -q '^warning: [0-9]* of 4000 transitions after warmup stopped at the maximum tree depth 1 (chain 1: ' "$tmp/err"
# The same warnings from the file alone.
"$ppl" summary "$tmp/d1.csv" > /dev/null 2> "$tmp/err2"
grep -q 'stopped at the maximum tree depth 1' "$tmp/err2"

# 9. Statistics that cannot be estimated are explained, not printed bare.
python3 - "$tmp/na.csv" <<'PY'
import math, random, sys
random.seed(1)
with open(sys.argv[1], "w") as f:
    f.write("chain,iteration,lp__,top,flat,broken\n")
    for c in (1, 2):
        for i in range(1, 501):
            top = 0 if random.random() < 0.02 else 1  # 98% of draws at the largest value
            broken = "inf" if i == 7 else f"{random.gauss(0, 1):.4f}"
            f.write(f"{c},{i},{random.gauss(0, 1):.4f},{top},3,{broken}\n")
PY
"$ppl" summary "$tmp/na.csv" > "$tmp/na.out" 2> /dev/null
grep -q '^top .* n/a ' "$tmp/na.out"
grep -q '^note: ess_tail of top is n/a: 95% or more of the draws equal the largest value' "$tmp/na.out"
grep -q '^note: flat: the same value in every draw, so R-hat and ESS are n/a' "$tmp/na.out"
grep -q '^note: broken: some draws are infinite or NaN' "$tmp/na.out"
! grep -qw 'nan' "$tmp/na.out"

# 10. Variables left out of the draws for their size are named, with the way to record one.
"$ppl" infer "$examples/lda/lda.ppl" "$examples/lda/data.csv" --chains 1 --warmup 2 --draws 4 --quiet > "$tmp/lda.out"
grep -q '^note: not recorded, more than 1000 values each: .*z (71134).*; --monitor NAME records one' "$tmp/lda.out"

# 11. `summary --format csv`: a header, every element of an array (eight schools' theta has
#     8, more than the table's three would show past 20 — here all 8 rows), the table's
#     numbers at full precision, and no comment lines.
"$ppl" infer "${schools[@]}" --draws 200 --quiet -o "$tmp/csv_src.csv" > /dev/null
"$ppl" summary "$tmp/csv_src.csv" > "$tmp/table.txt"
"$ppl" summary "$tmp/csv_src.csv" --format csv > "$tmp/table.csv"
python3 - "$tmp/table.txt" "$tmp/table.csv" <<'PY'
import csv, sys
table = {l.split()[0]: l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith(("#", "name"))}
rows = list(csv.DictReader(open(sys.argv[2])))
assert list(rows[0].keys()) == ["name", "mean", "sd", "q5", "q50", "q95", "mcse_mean", "ess_bulk", "ess_tail", "rhat"], rows[0].keys()
names = [r["name"] for r in rows]
assert names[0] == "lp__" and sum(n.startswith("theta[") for n in names) == 8, names
for r in rows:
    t = table[r["name"]]
    assert f"{float(r['mean']):.4g}" == t[1] and f"{float(r['sd']):.4g}" == t[2], (r, t)
PY
expect_exit 2 "json not in" "$ppl" summary "$tmp/csv_src.csv" --format json

# 3. Bounded memory: a file of 6 million draws (three times the values held at once) is
#    summarised from one draw in every 6 (a column's summary reads at most 2^20) in far
#    less memory than its values take.
awk 'BEGIN { print "chain,iteration,lp__,x"; for (i = 1; i <= 3000000; i++) { print "1," i ",-" (i % 7) "," (i % 13); print "2," i ",-" (i % 5) "," (i % 11) } }' > "$tmp/big.csv"
python3 - "$ppl" "$tmp/big.csv" <<'PY'
import os, resource, subprocess, sys
out = subprocess.run([sys.argv[1], "summary", sys.argv[2]], capture_output=True, text=True, check=True).stdout
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
assert "one draw in every 6" in out, out
# 12 million values are 92 MB as doubles; the old reader held the text and every value.
# (AddressSanitizer's shadow memory and quarantine make the figure meaningless there.)
if "ASAN_OPTIONS" not in os.environ:
    assert peak_mb < 160, f"peak memory {peak_mb:.0f} MB"
print(f"summary of 6 million draws: peak memory {peak_mb:.0f} MB")
PY
echo "output checks passed"
