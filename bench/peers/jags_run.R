# One JAGS run for bench/peers.py.
#   Rscript jags_run.R MODEL.bug DATA.R OUT.csv CHAINS WARMUP DRAWS SEED MONITORS [glm]
# DATA.R: R assignments written by peers.py. MONITORS: comma-separated node names.
# WARMUP iterations in all: adaptation first where a sampler adapts, then burn-in for the
# rest (a model whose samplers do not adapt, such as conjugate Gibbs or glm, gets only burn-in).
# Prints CPU seconds (user + system of this process, from proc.time) of the set-up (compile,
# adaptation, burn-in) and of coda.samples(DRAWS), the draws phase, and writes the draws as
# chain,iteration,... (the layout of ppl's draws files).
suppressMessages(library(rjags))
a <- commandArgs(trailingOnly = TRUE)
chains <- as.integer(a[4]); warmup <- as.integer(a[5]); draws <- as.integer(a[6]); seed <- as.integer(a[7])
monitors <- strsplit(a[8], ",")[[1]]
if (length(a) >= 9 && a[9] == "glm") load.module("glm", quiet = TRUE)
env <- new.env(); sys.source(a[2], env); data <- as.list(env)
cpu <- function() { t <- proc.time(); t[["user.self"]] + t[["sys.self"]] }
inits <- lapply(seq_len(chains), function(c) list(.RNG.name = "base::Mersenne-Twister", .RNG.seed = seed * 100 + c))
t0 <- cpu()
m <- jags.model(a[1], data = data, inits = inits, n.chains = chains, n.adapt = warmup, quiet = TRUE)
left <- warmup - m$iter()
if (left > 0) update(m, left, progress.bar = "none")
t1 <- cpu()
s <- coda.samples(m, monitors, draws, progress.bar = "none")
t2 <- cpu()
cat(sprintf("samplers: %s\n", paste(unique(names(list.samplers(m))), collapse = " ")))
cat(sprintf("setup_cpu %.4f\ndraws_cpu %.4f\n", t1 - t0, t2 - t1))
d <- do.call(rbind, lapply(seq_along(s), function(c)
  data.frame(chain = c, iteration = seq_len(nrow(s[[c]])), as.matrix(s[[c]]), check.names = FALSE)))
write.csv(d, a[3], row.names = FALSE, quote = FALSE)
