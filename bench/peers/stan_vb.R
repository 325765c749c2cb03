# One rstan ADVI run for bench/advi_peers.py.
#   Rscript stan_vb.R CACHE.rds DATA.R OUT.csv ALGORITHM SEED PARS
# ALGORITHM is meanfield or fullrank; Stan's defaults otherwise (iter 10000, adaptive eta,
# tol_rel_obj 0.01, eval_elbo 100, grad_samples 1, elbo_samples 100, 1000 output draws).
# Prints the CPU seconds of the vb() call alone (proc.time: user + system of this process,
# the compiled model's loading and the data's reading left out) and the Pareto k-hat Stan
# prints for its draws; writes the draws of PARS as chain,iteration,... (the first row,
# which rstan fills with q's mean, left out).
suppressMessages(library(rstan))
rstan_options(boost_lib = "/usr/include")
a <- commandArgs(trailingOnly = TRUE)
m <- readRDS(a[1])
env <- new.env(); sys.source(a[2], env); data <- as.list(env)
pars <- strsplit(a[6], ",")[[1]]
khat <- NA
before <- proc.time()
fit <- withCallingHandlers(
  vb(m, data = data, algorithm = a[4], seed = as.integer(a[5]), refresh = 0, pars = pars),
  message = function(c) {
    k <- regmatches(conditionMessage(c), regexpr("Pareto k diagnostic value is -?[0-9.]+(e[-+]?[0-9]+)?", conditionMessage(c)))
    if (length(k)) khat <<- as.numeric(sub("Pareto k diagnostic value is ", "", k))
    invokeRestart("muffleMessage")
  },
  warning = function(w) {
    k <- regmatches(conditionMessage(w), regexpr("Pareto k diagnostic value is -?[0-9.]+(e[-+]?[0-9]+)?", conditionMessage(w)))
    if (length(k)) khat <<- as.numeric(sub("Pareto k diagnostic value is ", "", k))
    invokeRestart("muffleWarning")
  })
used <- proc.time() - before
cat(sprintf("vb_cpu %.4f\nkhat %s\n", used[["user.self"]] + used[["sys.self"]], format(khat)))
x <- as.matrix(fit, pars = pars)
d <- data.frame(chain = 1, iteration = seq_len(nrow(x)), x, check.names = FALSE)
write.csv(d, a[3], row.names = FALSE, quote = FALSE)
