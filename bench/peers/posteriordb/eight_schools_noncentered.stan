// posteriordb's eight_schools-eight_schools_noncentered in rstan 2.21's syntax, for
// bench/peers_posteriordb.py: each school's effect as mu + tau * a standard normal.
data {
  int<lower=0> J;
  vector[J] y;
  vector<lower=0>[J] sigma;
}
parameters {
  vector[J] theta_trans;
  real mu;
  real<lower=0> tau;
}
transformed parameters {
  vector[J] theta = theta_trans * tau + mu;
}
model {
  theta_trans ~ normal(0, 1);
  mu ~ normal(0, 5);
  tau ~ cauchy(0, 5);
  y ~ normal(theta, sigma);
}
