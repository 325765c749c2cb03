# One rstan run for bench/peers.py, or the model's compilation.
#   Rscript stan_run.R compile MODEL.stan CACHE.rds
#   Rscript stan_run.R sample CACHE.rds DATA.R OUT.csv CHAINS WARMUP DRAWS SEED PARS
# Compilation is a separate call so that no timed run includes it. Sampling runs the chains
# one after another in this process (cores = 1). Prints CPU seconds of warmup and of the
# draws phase, each summed over the chains: get_elapsed_time, which Stan 2.21 measures with
# clock(), the process's CPU time. Writes the draws of PARS as chain,iteration,...
suppressMessages(library(rstan))
rstan_options(boost_lib = "/usr/include")  # Debian's rstan takes Boost from libboost-dev, not the BH package
a <- commandArgs(trailingOnly = TRUE)
if (a[1] == "compile") {
  t <- system.time(m <- stan_model(a[2]))
  saveRDS(m, a[3])
  cat(sprintf("compile_elapsed %.1f\n", t[["elapsed"]]))
  quit(status = 0)
}
m <- readRDS(a[2])
env <- new.env(); sys.source(a[3], env); data <- as.list(env)
chains <- as.integer(a[5]); warmup <- as.integer(a[6]); draws <- as.integer(a[7]); seed <- as.integer(a[8])
pars <- strsplit(a[9], ",")[[1]]
fit <- sampling(m, data = data, chains = chains, warmup = warmup, iter = warmup + draws, cores = 1, seed = seed,
                refresh = 0, pars = pars)
et <- get_elapsed_time(fit)
sp <- get_sampler_params(fit, inc_warmup = FALSE)
cat(sprintf("warmup_cpu %.4f\ndraws_cpu %.4f\ndivergent %d\n", sum(et[, "warmup"]), sum(et[, "sample"]),
            sum(sapply(sp, function(x) sum(x[, "divergent__"])))))
if ("n_leapfrog__" %in% colnames(sp[[1]]))  # NUTS: how long the trajectories were after warmup, and their step
  cat(sprintf("mean_leapfrog %.2f\nmean_stepsize %.6g\nmean_accept %.4f\n", mean(sapply(sp, function(x) mean(x[, "n_leapfrog__"]))),
              mean(sapply(sp, function(x) mean(x[, "stepsize__"]))), mean(sapply(sp, function(x) mean(x[, "accept_stat__"])))))
x <- as.array(fit, pars = pars)  # iterations x chains x parameters
d <- do.call(rbind, lapply(seq_len(dim(x)[2]), function(c)
  data.frame(chain = c, iteration = seq_len(dim(x)[1]), matrix(x[, c, ], nrow = dim(x)[1], dimnames = list(NULL, dimnames(x)[[3]])),
             check.names = FALSE)))
write.csv(d, a[4], row.names = FALSE, quote = FALSE)
