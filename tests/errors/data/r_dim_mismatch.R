# y as a 5 x 3 array, one value short
N <- 5
y <- structure(c(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14),
  .Dim = c(5, 3))
