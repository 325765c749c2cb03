// Lotka-Volterra predator-prey dynamics fitted to the hare and lynx pelts, as posteriordb's
// hudson_lynx_hare-lotka_volterra, in Stan 2.21's syntax (integrate_ode_rk45 with the
// tolerances the posteriordb model gives: relative 1e-5, absolute 1e-3, 500 steps).
functions {
  real[] rates(real t, real[] z, real[] theta, real[] x_r, int[] x_i) {
    real prey = z[1];
    real predators = z[2];
    return { (theta[1] - theta[2] * predators) * prey,
             (-theta[3] + theta[4] * prey) * predators };
  }
}
data {
  int<lower=0> N;
  real ts[N];
  real y_init[2];
  real<lower=0> y[N, 2];
}
parameters {
  real<lower=0> theta[4];
  real<lower=0> z_init[2];
  real<lower=0> sigma[2];
}
transformed parameters {
  real z[N, 2] = integrate_ode_rk45(rates, z_init, 0, ts, theta, rep_array(0.0, 0), rep_array(0, 0), 1e-5, 1e-3, 500);
}
model {
  theta[{1, 3}] ~ normal(1, 0.5);
  theta[{2, 4}] ~ normal(0.05, 0.05);
  sigma ~ lognormal(-1, 1);
  z_init ~ lognormal(log(10), 1);
  for (k in 1:2) {
    y_init[k] ~ lognormal(log(z_init[k]), sigma[k]);
    y[, k] ~ lognormal(log(z[, k]), sigma[k]);
  }
}
