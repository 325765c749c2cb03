#!/usr/bin/env bash
# `ppl loo` (and `--waic`) against R's loo (Debian's r-cran-loo) on a fresh run, in both layouts: ppl's
# draws file of the outliers example with Normal errors (k from below 0 to above 1) and the
# same run in Stan's layout, read by R as CmdStan files. Every pointwise figure must be
# loo's within 1e-9 relative, as in tests/draws/test_loo_reference.cpp (the same algorithm;
# only sums are in another order), and the MCSE the 2024 paper's, from loo's own weights.
# Chains of 700 draws, on purpose: loo 2.5.1's relative_eff scales its autocovariances by
# 2 N^2 where its FFT is 2 M long, M the next 2^a 3^b 5^c from N (720 here), which moves
# r_eff by about 3% here; loo 2.6 to 2.8 take posterior's autocovariance, and their r_eff is
# ppl's. The expected r_eff is therefore posterior's ESS of the unsplit chains over S, and
# loo's PSIS is given it.
set -euo pipefail
ppl=$1
examples=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=(infer "$examples/outliers/outliers.ppl" "$examples/outliers/data.json" --chains 3 --draws 700 --seed 8 --quiet)
"$ppl" "${run[@]}" -o "$tmp/normal.csv" > /dev/null 2>&1
"$ppl" "${run[@]}" -o "$tmp/stan.csv" --format stan > /dev/null 2>&1
"$ppl" loo "$tmp/normal.csv" --waic --pointwise "$tmp/pointwise.csv" > /dev/null 2>&1
"$ppl" loo "$tmp/stan.csv" --waic --pointwise "$tmp/stan_pointwise.csv" > /dev/null 2>&1
Rscript - "$tmp" <<'R'
suppressPackageStartupMessages(library(loo))
dir <- commandArgs(trailingOnly = TRUE)[1]
read_draws <- function(path) read.csv(text = grep("^#", readLines(path), value = TRUE, invert = TRUE), check.names = FALSE)
check <- function(ll, chain_id, pointwise_file) {
  chains <- length(unique(chain_id))
  r_eff <- apply(exp(ll), 2, function(x) posterior::ess_basic(matrix(x, ncol = chains), split = FALSE)) / nrow(ll)
  slip <- max(abs(relative_eff(exp(ll), chain_id = chain_id) / r_eff - 1))
  stopifnot(packageVersion("loo") >= "2.6.0" || slip > 1e-3)  # as the comment above says
  fit <- suppressWarnings(loo(ll, r_eff = r_eff, save_psis = TRUE))
  w <- weights(fit$psis_object, log = FALSE)
  E <- exp(fit$pointwise[, "elpd_loo"])
  expected <- list(r_eff = r_eff, elpd_loo = fit$pointwise[, "elpd_loo"], p_loo = fit$pointwise[, "p_loo"],
                   looic = fit$pointwise[, "looic"], pareto_k = pareto_k_values(fit), n_eff = psis_n_eff_values(fit),
                   mcse_elpd_loo = sqrt(log(1 + colSums(w^2 * sweep(exp(ll), 2, E)^2) / r_eff / E^2)))
  ours <- read.csv(file.path(dir, pointwise_file))
  for (name in names(expected)) {
    rel <- max(abs(ours[[name]] - expected[[name]]) / abs(expected[[name]]))
    if (!(rel < 1e-9)) stop(sprintf("%s: %s differs from loo's by %g (relative)", pointwise_file, name, rel))
  }
  # WAIC (--waic) as loo::waic computes it.
  wa <- suppressWarnings(waic(ll))
  for (name in c("elpd_waic", "p_waic", "waic")) {
    rel <- max(abs(ours[[name]] - wa$pointwise[, name]) / abs(wa$pointwise[, name]))
    if (!(rel < 1e-9)) stop(sprintf("%s: %s differs from loo::waic's by %g (relative)", pointwise_file, name, rel))
  }
  stopifnot(any(expected$pareto_k > 0.7), any(expected$pareto_k < 0.5))
  cat(sprintf("%s: %d observations, every figure within 1e-9 of loo %s's (k from %.2f to %.2f)\n", pointwise_file,
              ncol(ll), packageVersion("loo"), min(expected$pareto_k), max(expected$pareto_k)))
}
d <- read_draws(file.path(dir, "normal.csv"))
d <- d[order(d$chain, d$iteration), ]  # the chains' rows interleave as they were made
check(as.matrix(d[, grep("^log_lik\\[", names(d))]), d$chain, "pointwise.csv")
chains <- lapply(1:3, function(c) read_draws(file.path(dir, sprintf("stan_%d.csv", c))))
ll <- do.call(rbind, lapply(chains, function(x) as.matrix(x[, sprintf("log_lik.%d", 1:30)])))
check(ll, rep(1:3, sapply(chains, nrow)), "stan_pointwise.csv")
R
