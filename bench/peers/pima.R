# Writes MASS::Pima.tr (200 women) for the logistic workload of bench/peers.py: the 7
# predictors standardised with scale(), and y = 1 for diabetes. Usage: Rscript pima.R OUT.csv
d <- MASS::Pima.tr
X <- scale(as.matrix(d[, c("npreg", "glu", "bp", "skin", "bmi", "ped", "age")]))
write.csv(data.frame(X, y = as.integer(d$type == "Yes")), commandArgs(trailingOnly = TRUE)[1], row.names = FALSE)
