N <- 3
is.censored <- c(0, 1, 0)
t <- c(1, NA, 0.5)
c <- c(2, 3, 1)
