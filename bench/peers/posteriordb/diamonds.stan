// posteriordb's diamonds-diamonds (brms 2.10's program) in rstan 2.21's syntax, for
// bench/peers_posteriordb.py: log price against 24 predictors, centred, with a separate
// intercept; the likelihood by normal_id_glm, as brms writes it.
data {
  int<lower=1> N;
  vector[N] Y;
  int<lower=1> K;
  matrix[N, K] X;
  int prior_only;
}
transformed data {
  int Kc = K - 1;
  matrix[N, Kc] Xc;
  vector[Kc] means_X;
  for (i in 2:K) {
    means_X[i - 1] = mean(X[, i]);
    Xc[, i - 1] = X[, i] - means_X[i - 1];
  }
}
parameters {
  vector[Kc] b;
  real Intercept;
  real<lower=0> sigma;
}
model {
  target += normal_lpdf(b | 0, 1);
  target += student_t_lpdf(Intercept | 3, 8, 10);
  target += student_t_lpdf(sigma | 3, 0, 10) - student_t_lccdf(0 | 3, 0, 10);
  if (!prior_only) target += normal_id_glm_lpdf(Y | Xc, Intercept, b, sigma);
}
