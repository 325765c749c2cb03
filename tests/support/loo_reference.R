# Makes the fixture of tests/draws/test_loo_reference.cpp: a log-likelihood matrix
# (4 chains x 250 draws, 13 observations) and what the R package loo 2.5.1 computes for it.
# Run once from the repository's root, and again only to change the fixture:
#
#   Rscript tests/support/loo_reference.R
#
# The draws play a posterior of a normal model: mu and sigma are autocorrelated (AR(1))
# chains around the mean and sd of ten observations, as wide as 40 such observations would
# leave them, and r_eff is well below 1. Three more observations lie 3.1, 3.5 and 4 sds out,
# which the draws do not expect: their importance ratios have heavy tails. Their Pareto k
# are about 0.67 (between the 2024 threshold for S = 1000, 0.667, and loo 2.5.1's 0.7),
# 0.86 and 1.04, and the other k spread from 0.03 to 0.49.
#
# It writes
# - tests/data/loo_log_lik.csv: the matrix as a draws file in ppl's layout (chain,
#   iteration, log_lik[1], ...), the numbers with 17 significant digits; loo is then run
#   on the matrix read back from that file, so both sides start from the same doubles;
# - tests/data/loo_pointwise.csv: per observation, loo's r_eff (relative_eff of exp(log_lik)
#   with the chains), elpd_loo, p_loo, looic, pareto_k and n_eff; loo 2.5.1's
#   mcse_elpd_loo (mcse_2_5_1, by quantiles of a normal approximation) and the 2024 paper's
#   (mcse_elpd_loo: loo >= 2.6's formula, computed here from loo 2.5.1's own smoothed weights);
# - tests/data/loo_estimates.csv: elpd_loo, p_loo and looic with their SEs.
suppressPackageStartupMessages(library(loo))
stopifnot(packageVersion("loo") == "2.5.1")
set.seed(20261126)
chains <- 4
n <- 250
clean <- rnorm(10, 1, 2)
ybar <- mean(clean)
s <- sd(clean)
y <- c(clean, ybar + c(3.1, 3.5, 4) * s)

# A stationary AR(1) chain per column with marginal sd `sd`.
ar1 <- function(phi, sd) {
  sapply(seq_len(chains), function(c) {
    x <- numeric(n)
    prev <- rnorm(1) / sqrt(1 - phi^2)
    for (i in seq_len(n)) x[i] <- prev <- phi * prev + rnorm(1)
    x * sd * sqrt(1 - phi^2)
  })
}
mu <- as.vector(ybar + ar1(0.6, s / sqrt(40)))
sigma <- as.vector(s * exp(ar1(0.3, 1 / sqrt(2 * 40))))
ll <- sapply(y, function(yi) dnorm(yi, mu, sigma, log = TRUE))

g <- function(x) ifelse(is.na(x), "NA", sprintf("%.17g", x))
draws <- data.frame(chain = rep(seq_len(chains), each = n), iteration = rep(seq_len(n), chains))
for (i in seq_along(y)) draws[[sprintf("log_lik[%d]", i)]] <- g(ll[, i])
write.csv(draws, "tests/data/loo_log_lik.csv", row.names = FALSE, quote = FALSE)

back <- read.csv("tests/data/loo_log_lik.csv", check.names = FALSE)
ll <- as.matrix(back[, -(1:2)])
chain_id <- back$chain
r_eff <- relative_eff(exp(ll), chain_id = chain_id)
fit <- suppressWarnings(loo(ll, r_eff = r_eff, save_psis = TRUE))  # it warns of the high k, which are meant

# The 2024 MCSE: the variance of sum_s w_s p_s (equation 6) over r_eff, on the log scale by
# a log-normal's moments.
w <- weights(fit$psis_object, log = FALSE)
E <- exp(fit$pointwise[, "elpd_loo"])
mcse_2024 <- sqrt(log(1 + colSums(w^2 * sweep(exp(ll), 2, E)^2) / r_eff / E^2))

pointwise <- data.frame(
  observation = colnames(ll), r_eff = g(r_eff), elpd_loo = g(fit$pointwise[, "elpd_loo"]),
  mcse_elpd_loo = g(mcse_2024), mcse_2_5_1 = g(fit$pointwise[, "mcse_elpd_loo"]),
  p_loo = g(fit$pointwise[, "p_loo"]), looic = g(fit$pointwise[, "looic"]),
  pareto_k = g(pareto_k_values(fit)), n_eff = g(psis_n_eff_values(fit)))
write.csv(pointwise, "tests/data/loo_pointwise.csv", row.names = FALSE, quote = FALSE)

est <- fit$estimates
estimates <- data.frame(quantity = rownames(est), estimate = g(est[, "Estimate"]), se = g(est[, "SE"]))
write.csv(estimates, "tests/data/loo_estimates.csv", row.names = FALSE, quote = FALSE)
print(fit)
