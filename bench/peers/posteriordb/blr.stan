// posteriordb's sblrc-blr in rstan 2.21's syntax, for bench/peers_posteriordb.py: a
// Bayesian linear regression with normal(0, 10) coefficients and a half-normal scale.
data {
  int<lower=0> N;
  int<lower=0> D;
  matrix[N, D] X;
  vector[N] y;
}
parameters {
  vector[D] beta;
  real<lower=0> sigma;
}
model {
  beta ~ normal(0, 10);
  sigma ~ normal(0, 10);
  y ~ normal(X * beta, sigma);
}
