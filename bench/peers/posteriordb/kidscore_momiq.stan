// posteriordb's kidiq-kidscore_momiq in rstan 2.21's syntax, for
// bench/peers_posteriordb.py: a child's score against the mother's IQ, flat coefficients.
data {
  int<lower=0> N;
  vector[N] kid_score;
  vector[N] mom_iq;
}
parameters {
  vector[2] beta;
  real<lower=0> sigma;
}
model {
  sigma ~ cauchy(0, 2.5);
  kid_score ~ normal(beta[1] + beta[2] * mom_iq, sigma);
}
