#!/usr/bin/env bash
# `ppl plot` and `ppl heatmap`: the pictures are well-formed (check_picture.py), PNG and
# SVG of the same draws have the same size, and the SVG carries what a reader needs —
# panel titles with names in their own case, axis titles, tick labels, a legend naming the
# chains, a heatmap's title and colour bar — with no two labels overlapping.
set -euo pipefail
ppl=$1
examples=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check="python3 $(dirname "$0")/check_picture.py"
blue=1f77b4 orange=ff7f0e pale=cdd7e6  # chains 1 and 2, the pooled density

# plot: trace, density and rank plots; an array stands for its first elements.
eight="$examples/eight_schools/eight_schools.ppl"
"$ppl" infer "$eight" "$examples/eight_schools/data.json" --chains 2 --warmup 100 --draws 50 -q -o "$tmp/eight.csv" > /dev/null 2>&1
"$ppl" plot "$tmp/eight.csv" mu eta --max-elements 2 -o "$tmp/plot.png" | grep -q '3 quantities, 2 chains'
"$ppl" plot "$tmp/eight.csv" mu eta --max-elements 2 -o "$tmp/plot.svg" > /dev/null
$check "$tmp/plot.png" "$tmp/plot.svg" "$blue" "$orange" "$pale"
# Three rows of panels under one legend; titles name the element as written.
$check "$tmp/plot.svg" 'label:mu: trace' 'label:eta[1]: density' 'label:eta[2]: trace' 'label:ranks, chain 2' \
  label:iteration label:value label:density label:count 'label:rank bin' 'label:chain 1' 'label:chain 2' \
  'label:all chains (density)' 'label:expected count (ranks)' label:50
# One quantity, 2 chains: a background, 3 legend swatches, 30 pooled bars, 2 x 20 rank bars.
"$ppl" plot "$tmp/eight.csv" tau -o "$tmp/tau.svg" > /dev/null
$check "$tmp/tau.svg" rect=74 'label:tau: trace'
[ "$(grep -c '>value</text>' "$tmp/tau.svg")" = 2 ]  # the trace's vertical axis and the density's horizontal one

# Names with brackets, commas and underscores print as written; eight chains, one legend.
awk 'BEGIN { print "chain,iteration,lp__,\"theta[1,2]\",sigma_y"; for (c = 1; c <= 8; ++c) for (i = 1; i <= 40; ++i) printf "%d,%d,0,%g,%g\n", c, i, sin(c * i), c + i / 7 }' > "$tmp/named.csv"
"$ppl" plot "$tmp/named.csv" theta sigma_y -o "$tmp/named.svg" > /dev/null
"$ppl" plot "$tmp/named.csv" theta sigma_y -o "$tmp/named.png" > /dev/null
$check "$tmp/named.svg" 'label:theta[1,2]: trace' 'label:sigma_y: density' 'label:chain 8' 'label:ranks, chain 8'
$check "$tmp/named.png" "$tmp/named.svg" 7f7f7f  # chain 8's grey

# Draws that are NaN, infinite or at the ends of the doubles (a derived quantity can be)
# are plotted (no bin from NaN, no pixel from 1e308, no endless ranking of NaN), inside
# their panels.
printf 'chain,iteration,lp__,mu\n1,1,0,1\n1,2,0,nan\n1,3,0,inf\n1,4,0,-1e308\n1,5,0,1e308\n2,1,0,nan\n2,2,0,0\n' > "$tmp/odd.csv"
"$ppl" plot "$tmp/odd.csv" mu -o "$tmp/odd.png" > /dev/null
"$ppl" plot "$tmp/odd.csv" mu -o "$tmp/odd.svg" > /dev/null
$check "$tmp/odd.svg" 'label:mu: trace'
set +e
"$ppl" plot "$tmp/eight.csv" nothing -o "$tmp/x.svg" > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q 'no column `nothing`' "$tmp/err"

# heatmap: the grid under a title naming the draw, a colour bar with its values.
"$ppl" infer "$examples/ising/ising.ppl" --set L=8 --chains 1 --warmup 20 --draws 10 --monitor s --quiet -o "$tmp/ising.csv" > /dev/null 2>&1
"$ppl" heatmap "$tmp/ising.csv" s --draw last --cell 3 -o "$tmp/field.png" > /dev/null
"$ppl" heatmap "$tmp/ising.csv" s --draw last --cell 3 -o "$tmp/field.svg" > /dev/null
# Width: the title (32 characters of 6 pixels) and margins, 10 + 192 + 10; height: 10, the
# title's 18, the column numbers' 14, the colour bar's 120 (taller than the 24-pixel grid), 10.
$check "$tmp/field.png" 212 172 2166ac b2182b  # the bar's blue and red ends
$check "$tmp/field.png" "$tmp/field.svg"
# A background, 64 cells, the bar's 64 strips; spins are -1 and 1, the bar's ends.
$check "$tmp/field.svg" rect=129 'label:s: draw 10 of chain 1 (the last)' label:-1.0 label:1.0
# Rows and columns numbered, as far as 3-pixel cells leave room: rows 1 and 8 (13 pixels
# apart at least), columns 1 and 5 (10 pixels apart at least; 8 would be 9 from 5).
grep -c '>1</text>' "$tmp/field.svg" | grep -qx 2
grep -c '>8</text>' "$tmp/field.svg" | grep -qx 1
grep -c '>5</text>' "$tmp/field.svg" | grep -qx 1
"$ppl" heatmap "$tmp/ising.csv" s -o "$tmp/mean.svg" > /dev/null
$check "$tmp/mean.svg" 'label:s: posterior mean of chain 1 (10 draws)'
"$ppl" heatmap "$tmp/ising.csv" s --draw 3 --range -2 2 -o "$tmp/three.svg" > /dev/null
$check "$tmp/three.svg" 'label:s: draw 3 of chain 1' label:-2.0 label:2.0
set +e
"$ppl" heatmap "$tmp/ising.csv" lp__ -o "$tmp/bad.png" > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" = 2 ] && grep -q 'no matrix `lp__`' "$tmp/err"
# Two chains: the mean pools both unless --chain names one; the range printed to 4 digits.
"$ppl" infer "$examples/ising/ising.ppl" --set L=8 --chains 2 --warmup 20 --draws 10 --monitor s --quiet -o "$tmp/two.csv" > /dev/null 2>&1
"$ppl" heatmap "$tmp/two.csv" s -o "$tmp/two.svg" > "$tmp/two.out"
$check "$tmp/two.svg" 'label:s: posterior mean of 2 chains (20 draws)'
grep -Eq '^.*two.svg: 8 x 8 posterior means, -?[0-9.]{1,6} \.\. -?[0-9.]{1,6} \(blue to red\)$' "$tmp/two.out" ||
  { echo "FAIL: the heatmap's line: $(cat "$tmp/two.out")"; exit 1; }
"$ppl" heatmap "$tmp/two.csv" s --chain 2 -o "$tmp/second.svg" > /dev/null
$check "$tmp/second.svg" 'label:s: posterior mean of chain 2 (10 draws)'
echo "pictures: all checks passed"
