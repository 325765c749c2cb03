// GARCH(1, 1) of posteriordb's garch-garch11, in rstan 2.21's syntax, written for
// bench/peers_posteriordb.py: the variance at t from the last shock and the last variance.
data {
  int<lower=0> T;
  real y[T];
  real<lower=0> sigma1;
}
parameters {
  real mu;
  real<lower=0> alpha0;
  real<lower=0, upper=1> alpha1;
  real<lower=0, upper=1 - alpha1> beta1;
}
model {
  real s[T];
  s[1] = sigma1;
  for (t in 2:T)
    s[t] = sqrt(alpha0 + alpha1 * square(y[t - 1] - mu) + beta1 * square(s[t - 1]));
  y ~ normal(mu, s);
}
