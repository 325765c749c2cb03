#!/usr/bin/env bash
# The BPMF example end to end (examples/bpmf, its small bundled data): `ppl plan` gives every
# unknown a conjugate update; `--heldout` reports the held-out RMSE of the posterior-mean
# prediction, which must equal the RMSE computed from the draws of U and V the run writes
# (to the rounding of the file's 9 digits), and agree with the hand-written Gibbs sampler
# of bench/reference/bpmf_reference.cpp within 0.01 (both estimate the same quantity; the
# Monte Carlo error of either is below 0.002 at these lengths), and stay above the noise
# floor (the noise-free truth's RMSE, 0.495, less 0.02).
#   run_bpmf.sh PPL ROOT [BPMF_REFERENCE]
set -euo pipefail
ppl=$1
root=$2
reference=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir="$root/examples/bpmf"
"$ppl" plan "$dir/bpmf.ppl" "$dir/data.json" > "$tmp/plan.txt"
grep -q '^U\[1:60, 1:3\] .* conjugate .*\[multi_normal_prec_normal\]' "$tmp/plan.txt"
grep -q '^Lambda_v\[1:3, 1:3\] .* conjugate .*\[wishart_precision\]' "$tmp/plan.txt"
grep -q '^mu_u\[1:3\] .* conjugate .*\[multi_normal_prec_mean\]' "$tmp/plan.txt"
"$ppl" infer "$dir/bpmf.ppl" "$dir/data.json" --heldout "$dir/heldout.json" --chains 2 --warmup 100 --draws 400 --seed 3 -q \
    --monitor U,V -o "$tmp/draws.csv" > "$tmp/out.txt"
ref_rmse=""
if [ -n "$reference" ] && [ -x "$reference" ]; then
  ref_rmse=$("$reference" "$dir/data.json" "$dir/heldout.json" --sweeps 2000 --burnin 200 --seed 3 2>/dev/null | awk '$1 == "heldout_rmse" {print $2}')
fi
python3 - "$tmp/out.txt" "$tmp/draws.csv" "$dir/heldout.json" "$ref_rmse" <<'PY'
import csv, json, math, re, sys
out, draws, heldout, ref = sys.argv[1:5]
reported = {int(m.group(1)): float(m.group(2))
            for m in re.finditer(r"# chain (\d+) held-out RMSE of rating \(posterior-mean prediction\): (\S+)", open(out).read())}
assert sorted(reported) == [1, 2], reported
h = json.load(open(heldout))
rows = [r for r in csv.DictReader(l for l in open(draws) if not l.startswith("#"))]
for chain in (1, 2):
    mine = [r for r in rows if int(r["chain"]) == chain]
    sums = [0.0] * len(h["rating"])
    for r in mine:
        for k, (u, v) in enumerate(zip(h["user"], h["item"])):
            sums[k] += sum(float(r[f"U[{u},{d}]"]) * float(r[f"V[{v},{d}]"]) for d in (1, 2, 3))
    rmse = math.sqrt(sum((s / len(mine) - y) ** 2 for s, y in zip(sums, h["rating"])) / len(sums))
    print(f"chain {chain}: reported {reported[chain]:.6f}, from the draws {rmse:.6f}")
    assert abs(rmse - reported[chain]) < 1e-4, (rmse, reported[chain])
    assert reported[chain] > 0.495 - 0.02, reported[chain]
    if ref:
        print(f"  hand-written reference {float(ref):.6f}")
        assert abs(reported[chain] - float(ref)) < 0.01, (reported[chain], ref)
PY
# The same data as NumPy's .npz (`ppl convert`) give the same run, draw for draw; the data
# and held-out files in either format, and convert refuses to write over its input or to a
# name that is not .npz, leaving the files as they were.
"$ppl" convert "$dir/data.json" "$tmp/data.npz"
"$ppl" convert "$dir/heldout.json" "$tmp/heldout.npz"
"$ppl" infer "$dir/bpmf.ppl" "$tmp/data.npz" --heldout "$tmp/heldout.npz" --chains 2 --warmup 100 --draws 400 --seed 3 -q \
    --monitor U,V -o "$tmp/draws_npz.csv" > "$tmp/out_npz.txt"
# (The chains' rows interleave as they come: compared sorted.)
cmp <(grep -v '^#' "$tmp/draws.csv" | sort) <(grep -v '^#' "$tmp/draws_npz.csv" | sort)
diff <(grep 'held-out RMSE' "$tmp/out.txt" | sort) <(grep 'held-out RMSE' "$tmp/out_npz.txt" | sort)
cp "$tmp/data.npz" "$tmp/keep.npz"
set +e
"$ppl" convert "$tmp/data.npz" "$tmp/data.npz" 2> "$tmp/err"; rc_same=$?
"$ppl" convert "$dir/data.json" "$tmp/data.csv" 2>> "$tmp/err"; rc_name=$?
set -e
[ "$rc_same" = 2 ] && [ "$rc_name" = 2 ] || { echo "FAIL: convert onto its input or to .csv exited $rc_same, $rc_name"; cat "$tmp/err"; exit 1; }
grep -q 'an input of this run' "$tmp/err" && grep -q 'does not end in .npz' "$tmp/err"
cmp "$tmp/data.npz" "$tmp/keep.npz"
[ ! -e "$tmp/data.csv" ]
echo "bpmf: all checks passed"
