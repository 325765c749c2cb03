// posteriordb's hmm_example-hmm_example in rstan 2.21's syntax, for
// bench/peers_posteriordb.py: two states, Gaussian emissions with unit scale, the states
// summed out by the forward algorithm (no generated quantities: only the posterior is timed).
data {
  int<lower=0> N;
  int<lower=0> K;
  real y[N];
}
parameters {
  simplex[K] theta1;
  simplex[K] theta2;
  positive_ordered[K] mu;
}
model {
  vector[K] theta[K];
  real forward[N, K];
  real terms[K];
  theta[1] = theta1;
  theta[2] = theta2;
  target += normal_lpdf(mu[1] | 3, 1);
  target += normal_lpdf(mu[2] | 10, 1);
  for (k in 1:K) forward[1, k] = normal_lpdf(y[1] | mu[k], 1);
  for (t in 2:N)
    for (k in 1:K) {
      for (j in 1:K) terms[j] = forward[t - 1, j] + log(theta[j, k]) + normal_lpdf(y[t] | mu[k], 1);
      forward[t, k] = log_sum_exp(terms);
    }
  target += log_sum_exp(forward[N]);
}
