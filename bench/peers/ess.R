# The one ESS estimator of bench/peers.py, applied to every system's draws: the posterior
# package's rank-normalised bulk ESS (Vehtari et al. 2021), with the MCSE of the mean.
#   Rscript ess.R PARS FILE...
# PARS: comma-separated column names. FILE: chain,iteration,... CSV ('#' lines skipped).
# Prints one tab-separated line per file and parameter: file, name, mean, mcse_mean, ess_bulk, rhat.
suppressMessages(library(posterior))
a <- commandArgs(trailingOnly = TRUE)
pars <- strsplit(a[1], ",")[[1]]
for (f in a[-1]) {
  d <- read.csv(f, comment.char = "#", check.names = FALSE)
  chains <- sort(unique(d$chain))
  for (p in pars) {
    if (!p %in% names(d)) stop(sprintf("%s: no column %s", f, p))
    x <- sapply(chains, function(c) { r <- d[d$chain == c, ]; r[order(r$iteration), p] })  # iterations x chains
    cat(f, p, sprintf("%.10g", c(mean(x), mcse_mean(x), ess_bulk(x), rhat(x))), sep = "\t"); cat("\n")
  }
}
