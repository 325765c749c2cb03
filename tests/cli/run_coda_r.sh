#!/usr/bin/env bash
# `--format coda` read by R's coda package (Debian's r-cran-coda), as JAGS users read
# JAGS's files: coda::read.coda of each chain, and read.openbugs of the whole set, give the
# draws' means that `ppl summary` prints, the matrix's elements under their BUGS names,
# and JAGS's iteration numbers (start warmup + thin, thinning interval thin).
set -euo pipefail
ppl=$1
models=$(dirname "$0")/models
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/out"
"$ppl" infer "$models/matrix.ppl" --set y=80 --chains 3 --warmup 150 --draws 400 --thin 3 --seed 8 --quiet \
  --format coda -o "$tmp/out/" > /dev/null 2>&1
"$ppl" summary "$tmp/out/CODA.csv" --format csv > "$tmp/summary.csv" 2> /dev/null
Rscript - "$tmp" <<'R'
suppressPackageStartupMessages(library(coda))
dir <- commandArgs(trailingOnly = TRUE)[1]
ours <- read.csv(file.path(dir, "summary.csv"), check.names = FALSE)
index <- file.path(dir, "out", "CODAindex.txt")
chains <- mcmc.list(lapply(1:3, function(c) read.coda(file.path(dir, "out", sprintf("CODAchain%d.txt", c)), index, quiet = TRUE)))
names <- c("m[1,1]", "m[2,1]", "m[1,2]", "m[2,2]", "m[1,3]", "m[2,3]")
stopifnot(identical(varnames(chains), names), niter(chains) == 400, nchain(chains) == 3)
stopifnot(start(chains) == 153, end(chains) == 150 + 3 * 400, thin(chains) == 3)
means <- colMeans(as.matrix(chains))
for (n in names) {
  mine <- ours$mean[ours$name == n]
  if (!isTRUE(all.equal(unname(means[n]), mine, tolerance = 1e-9))) stop(sprintf("%s: coda's mean %.10g, ppl's %.10g", n, means[n], mine))
}
whole <- read.openbugs(stem = file.path(dir, "out", ""), quiet = TRUE)
stopifnot(isTRUE(all.equal(as.matrix(whole), as.matrix(chains))))
cat(sprintf("coda::read.coda: 3 chains x 400 draws of a 2 x 3 matrix, iterations %d to %d by %d, ppl's means\n",
            start(chains), end(chains), thin(chains)))
R
