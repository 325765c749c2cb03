N <- 4
band <- c(0, 1, 3, 0)
t <- c(NA, NA, NA, 0.5)
cuts <- c(1, 2, 4)
