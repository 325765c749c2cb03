# Fixtures for ppl's reader of R's dump format (tests/data/test_data_r.cpp): arrays of
# one to four dimensions with known values, written by R's own dump(), and the same
# values in a plain form the test reads without that reader, expected.txt:
#
#   var NAME RANK D1 ... Dr INTEGER   a variable: its dimensions (none for a scalar) and
#                                     whether every element is written as an integer
#   NAME I1 ... Ir VALUE              one element, R's (1-based) indices; VALUE is NA or a
#                                     number with 17 significant digits
#
# dump.R is dump()'s default form (R 4: `dim = c(2L, 3L)`, `1:24`, L suffixes);
# dump_s.R the same values with control = c("S_compatible", "showAttributes"), as older
# tools write them (`2.` for a whole double, no L). Made with R 4.2.2; run from this
# folder: Rscript make_fixtures.R

# Element (i, j, k, l) of an array holds 1000 i + 100 j + 10 k + l, plus 0.5 so that the
# values are doubles: a value names its place, whatever order it was read in.
place_array <- function(dims) {
  a <- array(0.5, dims)
  idx <- arrayInd(seq_along(a), dims)
  a[] <- a[] + as.vector(idx %*% 10^(3:(4 - length(dims))))
  a
}

v1 <- as.vector(place_array(5))
m2 <- place_array(c(3, 4))
a3 <- place_array(c(2, 3, 4))
a4 <- place_array(c(2, 3, 2, 3))
i3 <- array(as.integer(place_array(c(2, 2, 3)) - 0.5) %/% 10L, c(2, 2, 3))  # 100 i + 10 j + k, integers
seq3 <- array(1:24, c(2, 3, 4))   # dump() writes structure(1:24, dim = 2:4)
y_na <- c(1.5, NA, 3)
m_na <- matrix(c(1L, 2L, NA, 4L, 5L, 6L), 2)
flags <- c(TRUE, FALSE, NA)
N <- 10L
tau <- 0.25
down <- 5:-2
tiny <- c(-1.5e-8, 2.5e10, -3)
none <- numeric(0)

# Written as integers: R's integers and logicals, and doubles that dump() writes without a
# decimal point or exponent (none of these).
variables <- c("v1", "m2", "a3", "a4", "i3", "seq3", "y_na", "m_na", "flags", "N", "tau", "down", "tiny", "none")
integer_written <- c(v1 = FALSE, m2 = FALSE, a3 = FALSE, a4 = FALSE, i3 = TRUE, seq3 = TRUE, y_na = FALSE, m_na = TRUE,
                     flags = TRUE, N = TRUE, tau = FALSE, down = TRUE, tiny = FALSE, none = FALSE)

dump(variables, file = "dump.R")
dump(variables, file = "dump_s.R", control = c("S_compatible", "showAttributes"))

lines <- character(0)
for (name in variables) {
  x <- get(name)
  dims <- if (is.null(dim(x))) length(x) else dim(x)
  rank <- if (is.null(dim(x)) && length(x) == 1) 0 else length(dims)  # dump() writes one value alone
  lines <- c(lines, paste("var", name, rank, paste(dims[seq_len(rank)], collapse = " "), as.integer(integer_written[[name]])))
  for (k in seq_along(x)) {
    value <- if (is.na(x[k])) "NA" else sprintf("%.17g", as.numeric(x[k]))
    idx <- if (rank == 0) integer(0) else arrayInd(k, dims)
    lines <- c(lines, paste(c(name, idx, value), collapse = " "))
  }
}
writeLines(lines, "expected.txt")
