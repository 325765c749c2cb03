y <- c(1, 2, Inf)
