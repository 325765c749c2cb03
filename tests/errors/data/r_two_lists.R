list(N = 3, y = c(1, 2, 3))
list(N = 2, y = c(4, 5))
