# The posterior mean of Stagnant's change point (tests/suites/bugs/stagnant, the OpenBUGS
# manual's continuous version), exactly up to quadrature: alpha and beta, Normal with
# precision 1e-6, integrated out analytically given x_change and tau; tau (Gamma(0.001,
# 0.001)) on a grid of its logarithm; x_change on a grid of its Uniform(x[5], x[26]) prior.
# Prints the mean. Used by tests/cli/run_bugs.sh.
import math, sys
Y = [1.12, 1.12, 0.99, 1.03, 0.92, 0.90, 0.81, 0.83, 0.65, 0.67, 0.60, 0.59, 0.51, 0.44, 0.43,
     0.43, 0.33, 0.30, 0.25, 0.24, 0.13, -0.01, -0.13, -0.14, -0.30, -0.33, -0.46, -0.43, -0.65]
x = [-1.39, -1.39, -1.08, -1.08, -0.94, -0.80, -0.63, -0.63, -0.25, -0.25, -0.12, -0.12, 0.01, 0.11, 0.11,
     0.11, 0.25, 0.25, 0.34, 0.34, 0.44, 0.59, 0.70, 0.70, 0.85, 0.85, 0.99, 0.99, 1.19]
n, p0 = len(Y), 1e-6
yy = sum(v * v for v in Y)
def solve3(A, b):  # Gaussian elimination; returns (A^-1 b, log det A)
    M = [row[:] + [bb] for row, bb in zip(A, b)]
    logdet = 0.0
    for i in range(3):
        piv = max(range(i, 3), key=lambda r: abs(M[r][i])); M[i], M[piv] = M[piv], M[i]
        logdet += math.log(abs(M[i][i]))
        for r in range(i + 1, 3):
            f = M[r][i] / M[i][i]
            for k in range(i, 4): M[r][k] -= f * M[i][k]
    sol = [0.0] * 3
    for i in (2, 1, 0): sol[i] = (M[i][3] - sum(M[i][k] * sol[k] for k in range(i + 1, 3))) / M[i][i]
    return sol, logdet
taus = [math.exp(math.log(150) + k * (math.log(20000) - math.log(150)) / 150) for k in range(151)]
lo, hi, K = x[4], x[25], 900
grid = [lo + (hi - lo) * (k + 0.5) / K for k in range(K)]
logw = []
for xc in grid:
    rows = [(1.0, (xi - xc) if xi < xc else 0.0, (xi - xc) if xi >= xc else 0.0) for xi in x]
    XtX = [[sum(r[a] * r[b] for r in rows) for b in range(3)] for a in range(3)]
    Xty = [sum(r[a] * yv for r, yv in zip(rows, Y)) for a in range(3)]
    terms = []
    for t in taus:
        Q = [[t * XtX[a][b] + (p0 if a == b else 0.0) for b in range(3)] for a in range(3)]
        c = [t * v for v in Xty]
        sol, logdet = solve3(Q, c)
        l = 0.5 * n * math.log(t / (2 * math.pi)) - 0.5 * t * yy + 0.5 * sum(a * b for a, b in zip(c, sol)) - 0.5 * logdet + 1.5 * math.log(p0)
        l += (0.001 - 1) * math.log(t) - 0.001 * t + math.log(t)  # Gamma(0.001, 0.001) prior, d tau = tau d log tau
        terms.append(l)
    m = max(terms)
    logw.append(m + math.log(sum(math.exp(v - m) for v in terms)))
m = max(logw)
w = [math.exp(v - m) for v in logw]
mean = sum(g * v for g, v in zip(grid, w)) / sum(w)
print("%.6f" % mean)
