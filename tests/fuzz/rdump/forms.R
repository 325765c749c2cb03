# every form the reader knows, once
"N" <- 3L; `M` = 2
x <- c(1, -2.5, 3e-2, .5, 2., 1E+2, NA, NA_real_, NA_integer_, TRUE, FALSE)
r <- c(1:3, -2:-4, 1.5:3)
e <- integer(0); z <- numeric(2); d <- as.integer(c(2.7, -1))
Y <- structure(.Data = c(1, 2, 3, 4, 5, 6), .Dim = as.integer(c(2, 3)))
A <- structure(1:24, dim = 2:4, dimnames = list(c("a", "b"), NULL, NULL))
data <- list(p = 0.5, q = structure(c(1, NA, 3, 4), .Dim = c(2, 2)))
