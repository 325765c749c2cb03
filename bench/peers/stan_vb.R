# One rstan ADVI run for bench/advi_peers.py.
#   Rscript stan_vb.R CACHE.rds DATA.R OUT.csv ALGORITHM SEED PARS
# ALGORITHM is meanfield or fullrank; Stan's defaults otherwise (iter 10000, adaptive eta,
# tol_rel_obj 0.01, eval_elbo 100, grad_samples 1, elbo_samples 100, 1000 output draws).
# Prints the CPU seconds of the vb() call alone (proc.time: user + system of this process,
# the compiled model's loading and the data's reading left out) and the Pareto k-hat Stan
# prints for its draws; writes the draws of PARS as chain,iteration,... A vb() that stops
# with an error prints `failed 1` and its reason and exits 0.
suppressMessages(library(rstan))
rstan_options(boost_lib = "/usr/include")
a <- commandArgs(trailingOnly = TRUE)
m <- readRDS(a[1])
env <- new.env(); sys.source(a[2], env); data <- as.list(env)
pars <- strsplit(a[6], ",")[[1]]
# Stan prints its k-hat on the message stream ("Warning: Pareto k diagnostic value is
# 0.96. ..."), not as an R condition: the stream is kept in a file and read back.
log <- tempfile(); con <- file(log, open = "wt"); sink(con, type = "message")
before <- proc.time()
fit <- tryCatch(vb(m, data = data, algorithm = a[4], seed = as.integer(a[5]), refresh = 0, pars = pars),
                error = function(e) conditionMessage(e))
used <- proc.time() - before
sink(type = "message"); close(con)
if (is.character(fit)) {  # Stan stopped (all draws outside the support, say): said, not fatal to the benchmark
  cat(sprintf("failed 1\nvb_cpu %.4f\n", used[["user.self"]] + used[["sys.self"]]))
  writeLines(paste("reason:", gsub("\n", " ", fit)))
  quit(status = 0)
}
k <- regmatches(readLines(log), regexpr("Pareto k diagnostic value is -?[0-9]+([.][0-9]+)?(e[-+]?[0-9]+)?", readLines(log)))
khat <- if (length(k)) as.numeric(sub("Pareto k diagnostic value is ", "", k[1])) else NA
cat(sprintf("vb_cpu %.4f\nkhat %s\n", used[["user.self"]] + used[["sys.self"]], format(khat)))
x <- as.matrix(fit, pars = pars)
d <- data.frame(chain = 1, iteration = seq_len(nrow(x)), x, check.names = FALSE)
write.csv(d, a[3], row.names = FALSE, quote = FALSE)
