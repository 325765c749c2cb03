#!/usr/bin/env bash
# `--format coda`: JAGS's CODA files from a run.
# - the same run (same seed) in ppl's layout and as CODA files has the same draws: the index
#   gives each column's lines, the matrix's elements column-major as JAGS names them, no
#   lp__; each chain file's iterations are JAGS's, warmup + k * thin;
# - `ppl summary` reads the CODA files (by their index or their stem) as it reads the run's
#   ppl-layout file, lp__ aside;
# - a CODA file that cannot be written (its temporary is /dev/full) is an error, exit 1,
#   leaving no CODA file and the draws file whole; `ppl infer --resume` then writes them,
#   the same as a run that never failed;
# - a run writing CODA files first removes the stem's files of an earlier run.
set -euo pipefail
ppl=$1
examples=$2
models=$(dirname "$0")/models
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=(infer "$models/matrix.ppl" --set y=80 --chains 2 --warmup 200 --draws 300 --thin 2 --seed 5 --quiet)
"$ppl" "${run[@]}" -o "$tmp/m.csv" > /dev/null 2>&1
mkdir "$tmp/out"
"$ppl" "${run[@]}" --format coda -o "$tmp/out/" > /dev/null 2>&1
ls "$tmp/out" | sort | tr '\n' ' ' | grep -qx 'CODA.csv CODA.csv.state CODAchain1.txt CODAchain2.txt CODAindex.txt ' ||
  { echo "FAIL: the files written: $(ls "$tmp/out")"; exit 1; }
python3 - "$tmp/m.csv" "$tmp/out/CODAindex.txt" "$tmp/out/CODAchain1.txt" "$tmp/out/CODAchain2.txt" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if not l.startswith("#")))
head, rows = rows[0], rows[1:]
index = [l.split() for l in open(sys.argv[2])]
names = [i[0] for i in index]
assert names == ["m[1,1]", "m[2,1]", "m[1,2]", "m[2,2]", "m[1,3]", "m[2,3]"], names
for k, (name, first, last) in enumerate(index):
    assert (int(first), int(last)) == (300 * k + 1, 300 * k + 300), (name, first, last)
for chain, path in enumerate(sys.argv[3:], 1):
    lines = [l.rstrip("\n").split("  ") for l in open(path)]
    assert len(lines) == 6 * 300, len(lines)
    mine = [r for r in rows if r[0] == str(chain)]
    for name, first, last in index:
        part = lines[int(first) - 1:int(last)]
        assert [int(i) for i, _ in part] == [200 + 2 * k for k in range(1, 301)], f"iterations of {name}"
        col = head.index(name)
        assert all(float(v) == float(r[col]) for (_, v), r in zip(part, mine)), f"{name} differs in chain {chain}"
print("coda: 2 chains x 300 draws of a 2 x 3 matrix, the same draws as ppl's layout, iterations 202 .. 800")
PY
# The summary of the CODA files, by index or stem, is the run's without lp__.
"$ppl" summary "$tmp/m.csv" 2> /dev/null | grep -v -e '^#' -e '^lp__' > "$tmp/m.sum"
"$ppl" summary "$tmp/out/CODAindex.txt" 2> /dev/null > "$tmp/coda.sum"
"$ppl" summary "$tmp/out/CODA" 2> /dev/null > "$tmp/stem.sum"
cmp "$tmp/m.sum" "$tmp/coda.sum" && cmp "$tmp/m.sum" "$tmp/stem.sum"
"$ppl" plot "$tmp/out/CODAindex.txt" m -o "$tmp/coda.svg" > /dev/null
grep -q '<svg' "$tmp/coda.svg"
echo "coda: ppl summary and plot read the CODA files"

# A failed write: exit 1, the file named, no CODA file left, the draws file whole.
coin=(infer "$examples/coin/coin.ppl" "$examples/coin/data.csv" --chains 3 --draws 500 --seed 2 --quiet --format coda)
"$ppl" "${coin[@]}" -o "$tmp/whole" > /dev/null 2>&1
ln -s /dev/full "$tmp/fullchain2.txt.tmp"
rc=0
"$ppl" "${coin[@]}" -o "$tmp/full" > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q "^error: cannot write the CODA file $tmp/fullchain2.txt: No space left on device" "$tmp/err" &&
  grep -q "once there is room, write them with: ppl infer --resume $tmp/full.csv" "$tmp/err" ||
  { echo "FAIL: a failed CODA write (exit $rc)"; cat "$tmp/err"; exit 1; }
for f in fullindex.txt fullchain1.txt fullchain2.txt fullchain3.txt fullchain1.txt.tmp fullindex.txt.tmp; do
  [ ! -e "$tmp/$f" ] || { echo "FAIL: $f left after a failed write"; exit 1; }
done
cmp <(grep -v "^#" "$tmp/whole.csv" | sort) <(grep -v "^#" "$tmp/full.csv" | sort)  # chains interleave by timing
# Room again: the resumed run, complete already, writes the CODA files.
rm -f "$tmp/fullchain2.txt.tmp"  # (the failed write removed it)
"$ppl" infer --resume "$tmp/full.csv" --quiet > /dev/null 2>&1
for f in index.txt chain1.txt chain2.txt chain3.txt; do cmp "$tmp/whole$f" "$tmp/full$f"; done
echo "coda: a failed write leaves no CODA file; --resume writes them once there is room"

# An earlier run's files under the same stem, with more chains, go.
"$ppl" infer "$examples/coin/coin.ppl" "$examples/coin/data.csv" --chains 2 --draws 50 --seed 2 --quiet --format coda -o "$tmp/whole" > /dev/null 2>&1
[ ! -e "$tmp/wholechain3.txt" ] && [ "$(wc -l < "$tmp/wholeindex.txt")" = 1 ] && grep -qx 'p 1 50' "$tmp/wholeindex.txt"
"$ppl" summary "$tmp/whole" 2> /dev/null | grep -q '^p '
# A BUGS model's CODA files keep its own names, dots and all (JAGS's R scripts ask for
# pop.mean), while the draws file has ppl's.
rats=$(dirname "$0")/../suites/bugs/rats
mkdir "$tmp/rats"
"$ppl" infer "$rats/model.bug" "$rats/data.R" --chains 2 --warmup 20 --draws 10 --quiet --monitor 'alpha.c,tau.c,alpha[2]' \
  --format coda -o "$tmp/rats/" > /dev/null 2>&1
[ "$(cut -d' ' -f1 "$tmp/rats/CODAindex.txt" | tr '\n' ' ')" = "alpha.c tau.c alpha[2] " ] ||
  { echo "FAIL: the BUGS model's CODA index: $(cat "$tmp/rats/CODAindex.txt")"; exit 1; }
grep -v '^#' "$tmp/rats/CODA.csv" | head -1 | grep -qx 'chain,iteration,lp__,alpha_c,tau_c,alpha\[2\]' ||
  { echo "FAIL: the BUGS model's draws file header"; exit 1; }
echo "coda: a BUGS model's names as its text spells them"
echo "coda checks passed"
