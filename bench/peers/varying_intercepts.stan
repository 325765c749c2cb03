// bench/models/varying_intercepts.ppl for Stan: centred, the same priors
data {
  int<lower=1> J;
  int<lower=0> N;
  int<lower=1, upper=J> g[N];
  vector[N] x;
  vector[N] y;
}
parameters {
  real mu;
  real<lower=0> tau;
  vector[J] a;
  real b;
  real<lower=0> s;
}
model {
  mu ~ normal(0, 5);
  tau ~ normal(0, 2);
  a ~ normal(mu, tau);
  b ~ normal(0, 2);
  s ~ normal(0, 2);
  y ~ normal(a[g] + b * x, s);
}
