y <- c("low", "high")
