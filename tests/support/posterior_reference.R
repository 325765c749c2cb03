# Makes the fixture of tests/draws/test_diagnostics_posterior.cpp: a few columns of draws
# (4 chains x 200) and what the R package posterior 1.4.0 computes for them. Run once from
# the repository's root, and again only to change the fixture:
#
#   Rscript tests/support/posterior_reference.R
#
# It writes tests/data/posterior_draws.csv (chain, iteration, one column per quantity) and
# tests/data/posterior_summary.csv (a row per quantity and chain length: posterior's
# figures for all 200 draws of each chain and for the first 199, which makes split chains
# drop a middle draw). Numbers are written with 17 significant digits, so the C++ test
# reads back the doubles R computed; NA where posterior gives none.
suppressPackageStartupMessages(library(posterior))
stopifnot(packageVersion("posterior") == "1.4.0")
set.seed(20261125)
chains <- 4
n <- 200

# Stationary Gaussian AR(1) chains x_t = phi x_{t-1} + e_t, one column of the matrix each.
ar1 <- function(phi) {
  sapply(seq_len(chains), function(c) {
    x <- numeric(n)
    prev <- rnorm(1) / sqrt(1 - phi^2)
    for (i in seq_len(n)) x[i] <- prev <- phi * prev + rnorm(1)
    x
  })
}

columns <- list()
columns$mixing <- ar1(0.5)                 # an ordinary well-mixing chain
columns$antithetic <- ar1(-0.6)            # negatively correlated draws, as NUTS gives
stuck <- ar1(0.97)                         # badly mixing, and chain 3 elsewhere
stuck[, 3] <- stuck[, 3] + 4
columns$stuck <- stuck
wide <- ar1(0.2)                           # chain 2 three times as wide: the folded R-hat
wide[, 2] <- 3 * wide[, 2]
columns$wide <- wide
latent <- ar1(0.7)                         # counts with many ties, correlated through a latent AR(1)
columns$counts <- matrix(rpois(chains * n, exp(0.8 + 0.5 * latent)), n, chains)
columns$binary <- matrix(as.numeric(runif(chains * n) < pnorm(-0.5 + 0.6 * ar1(0.4))), n, chains)
columns$cauchy <- matrix(rcauchy(chains * n), n, chains)  # heavy tails

g <- function(x) if (is.na(x)) "NA" else sprintf("%.17g", x)

draws <- data.frame(chain = rep(seq_len(chains), each = n), iteration = rep(seq_len(n), chains))
for (name in names(columns)) draws[[name]] <- sapply(as.vector(columns[[name]]), g)
write.csv(draws, "tests/data/posterior_draws.csv", row.names = FALSE, quote = FALSE)

# posterior's functions on an iterations x chains matrix, as summarise_draws calls them;
# the bulk and folded halves of rhat() from its own internal functions.
figures <- function(x) {
  folded <- posterior:::fold_draws(x)
  q <- quantile(x, c(0.05, 0.5, 0.95))
  e <- ess_quantile(x, c(0.05, 0.95))
  c(mean = mean(x), sd = sd(x), q5 = q[[1]], q50 = q[[2]], q95 = q[[3]],
    mcse_mean = mcse_mean(x), ess_bulk = ess_bulk(x), ess_tail = ess_tail(x),
    ess_q5 = e[[1]], ess_q95 = e[[2]], rhat = rhat(x),
    rhat_bulk = rhat_basic(z_scale(posterior:::.split_chains(x)), split = FALSE),
    rhat_folded = rhat_basic(z_scale(posterior:::.split_chains(folded)), split = FALSE),
    ess_unsplit = ess_basic(x, split = FALSE), rhat_unsplit = rhat_basic(x, split = FALSE),
    ess_chain1 = ess_basic(x[, 1, drop = FALSE], split = FALSE))
}

rows <- list()
for (name in names(columns)) for (len in c(n, n - 1)) {
  x <- columns[[name]][seq_len(len), , drop = FALSE]
  f <- suppressWarnings(figures(x))  # the ESS cap warns; its value is what is wanted
  # summarise_draws must agree with the functions called one by one.
  s <- suppressWarnings(summarise_draws(as_draws_array(array(x, c(len, chains, 1), dimnames = list(NULL, NULL, "v")))))
  stopifnot(isTRUE(all.equal(as.numeric(c(s$rhat, s$ess_bulk, s$ess_tail)), unname(f[c("rhat", "ess_bulk", "ess_tail")]))))
  rows[[length(rows) + 1]] <- c(column = name, draws = len, sapply(f, g))
}
summary <- do.call(rbind, rows)
write.csv(summary, "tests/data/posterior_summary.csv", row.names = FALSE, quote = FALSE)
