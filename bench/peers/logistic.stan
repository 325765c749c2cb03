// bench/models/logistic.ppl for Stan
data {
  int<lower=0> N;
  int<lower=0> P;
  matrix[N, P] X;
  int<lower=0, upper=1> y[N];
}
parameters {
  real b0;
  vector[P] b;
}
model {
  b0 ~ normal(0, 2.5);
  b ~ normal(0, 2.5);
  y ~ bernoulli_logit(b0 + X * b);
}
