y <- structure(1:32, .Dim = c(2L, 2L, 2L, 2L, 2L))
