// posteriordb's low_dim_gauss_mix-low_dim_gauss_mix in rstan 2.21's syntax, for
// bench/peers_posteriordb.py: a two-component normal mixture, one log_mix per value.
data {
  int<lower=0> N;
  vector[N] y;
}
parameters {
  ordered[2] mu;
  real<lower=0> sigma[2];
  real<lower=0, upper=1> theta;
}
model {
  mu ~ normal(0, 2);
  sigma ~ normal(0, 2);
  theta ~ beta(5, 5);
  for (n in 1:N)
    target += log_mix(theta, normal_lpdf(y[n] | mu[1], sigma[1]), normal_lpdf(y[n] | mu[2], sigma[2]));
}
