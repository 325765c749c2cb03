#!/usr/bin/env bash
# `ppl sbc` (simulation-based calibration, Talts et al. 2018). Each scalar's ranks are
# tested for uniformity by a chi-square over 10 bins with 9 degrees of freedom; with the
# fixed seed, a correct plan (conjugate mu, slice sigma, Gibbs for the discrete k, whose
# ties the random tie-break resolves) must give every p >= 0.001, which a calibrated scalar
# misses with probability 0.001. A sampler that cannot have converged (random-walk
# Metropolis from the start, no warmup, unthinned) must be flagged. The ranks do not depend
# on the number of threads.
set -euo pipefail
ppl=$(realpath "$1")
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL $*"; exit 1; }
cp "$here/models/sbc.ppl" m.ppl

"$ppl" sbc m.ppl --set N=8 --replicates 300 --seed 11 -o ranks.csv > report.txt 2> err.txt
cat report.txt
[ ! -s err.txt ] || { cat err.txt; fail "calibrated: a warning"; }
python3 - report.txt ranks.csv <<'PY'
import csv, sys
rows = [l.split() for l in open(sys.argv[1]) if l.split() and l.split()[0] in ("mu", "sigma", "k")]
assert len(rows) == 3, rows
for name, chi2, df, p in rows:
    assert df == "9" and float(p) >= 0.001, f"{name}: chi2 {chi2}, p {p}"
ranks = list(csv.reader(open(sys.argv[2])))
assert ranks[0] == ["replicate", "mu", "sigma", "k"], ranks[0]
assert [int(r[0]) for r in ranks[1:]] == list(range(1, 301))
assert all(0 <= int(q) <= 99 for r in ranks[1:] for q in r[1:])
PY
echo "calibrated: 300 replicates, every p >= 0.001"

"$ppl" sbc m.ppl --set N=8 --replicates 300 --seed 11 -o threads.csv --threads 2 > /dev/null
cmp -s ranks.csv threads.csv || fail "threads: the ranks differ"
echo "threads: the same ranks on 2 threads"

"$ppl" sbc m.ppl --set N=8 --replicates 200 --seed 11 --sampler sigma=rwmh --warmup 0 --draws 19 --thin 1 --bins 5 > bad.txt 2> bad.err
grep -q 'warning: the ranks of sigma are not uniform' bad.err || { cat bad.txt bad.err; fail "unconverged: not flagged"; }
echo "unconverged: flagged"

set +e
"$ppl" sbc m.ppl --set N=2 --set 'y=[1,2]' --set 'c=[0,1]' --replicates 5 > /dev/null 2> given.err; rc=$?
set -e
[ "$rc" = 2 ] && grep -q 'the data give every observation' given.err || { cat given.err; fail "observations given: exit $rc"; }
echo "errors: observations given in the data are refused"
