y <- counts
