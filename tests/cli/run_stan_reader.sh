#!/usr/bin/env bash
# `--format stan` read by a real reader: rstan's read_stan_csv (Debian's r-cran-rstan).
# The same run written in ppl's layout and in Stan's, with the same seed, must give R the
# same draws for every element of a matrix (Stan's column-major order undone by the
# reader), the sampler's columns, the adaptation block and the elapsed times; and for a
# model without a Hamiltonian sampler, the same draws with the sampler columns empty.
set -euo pipefail
ppl=$1
examples=$2
models=$(dirname "$0")/models
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=(infer "$models/matrix.ppl" --set y=80 --chains 3 --warmup 200 --draws 250 --seed 11 --quiet)
"$ppl" "${run[@]}" -o "$tmp/m.csv" > /dev/null 2>&1
"$ppl" "${run[@]}" -o "$tmp/s.csv" --format stan > /dev/null 2>&1
coin=(infer "$examples/coin/coin.ppl" "$examples/coin/data.csv" --chains 2 --draws 300 --seed 3 --quiet)
"$ppl" "${coin[@]}" -o "$tmp/c.csv" > /dev/null 2>&1
"$ppl" "${coin[@]}" -o "$tmp/cs.csv" --format stan > /dev/null 2>&1
# (R's notes about a recommended package it lacks are not ours to show.)
Rscript - "$tmp" 2> >(grep -v -e codetools -e "warmup samples not saved" -e "^Warning message" >&2) <<'R'
suppressPackageStartupMessages(library(rstan))
dir <- commandArgs(trailingOnly = TRUE)[1]
ppl_draws <- function(path) read.csv(text = grep("^#", readLines(path), value = TRUE, invert = TRUE), check.names = FALSE)
compare <- function(stem, ppl_file, chains, pars) {
  fit <- suppressWarnings(read_stan_csv(file.path(dir, sprintf("%s_%d.csv", stem, seq_len(chains)))))
  ours <- ppl_draws(file.path(dir, ppl_file))
  arr <- as.array(fit)  # iterations x chains x parameters, in each chain's order
  stopifnot(dim(arr)[2] == chains)
  for (p in pars) for (c in seq_len(chains)) {
    mine <- ours[ours$chain == c, p]
    if (!isTRUE(all.equal(as.numeric(arr[, c, p]), mine, tolerance = 1e-12)))
      stop(sprintf("%s: %s differs in chain %d", stem, p, c))
  }
  fit
}
m <- compare("s", "m.csv", 3, c(sprintf("m[%d,%d]", rep(1:2, 3), rep(1:3, each = 2)), "lp__"))
stopifnot(identical(dim(extract(m)$m), c(750L, 2L, 3L)))
sp <- get_sampler_params(m, inc_warmup = FALSE)
ours <- ppl_draws(file.path(dir, "m.csv"))
for (c in 1:3) for (col in c("accept_stat__", "stepsize__", "treedepth__", "n_leapfrog__", "divergent__", "energy__"))
  stopifnot(isTRUE(all.equal(as.numeric(sp[[c]][, col]), ours[ours$chain == c, col], tolerance = 1e-12)))
stopifnot(all(grepl("Step size = ", get_adaptation_info(m))))
stopifnot(all(!is.na(get_elapsed_time(m))))
stopifnot(m@sim$iter == 450, m@sim$warmup == 200, m@stan_args[[1]]$sampler_t == "NUTS(diag_e)")
cat(sprintf("rstan::read_stan_csv: 3 chains x 250 draws of a 2 x 3 matrix, the same as ppl's layout; %d divergent\n",
            sum(sapply(sp, function(s) sum(s[, "divergent__"])))))
k <- compare("cs", "c.csv", 2, c("p", "lp__"))
stopifnot(all(is.na(get_sampler_params(k)[[1]][, "accept_stat__"])))
cat("rstan::read_stan_csv: the coin (conjugate, no Hamiltonian sampler) reads back too\n")
R
