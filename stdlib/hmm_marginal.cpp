// hmm_marginal(log_omega, Gamma, rho): the log density of a hidden Markov model's
// observations with the hidden states summed out, as Stan's function of that name:
//   log_omega[k, t]  the log density of observation t given state k (K x N),
//   Gamma[i, j]      the probability of moving from state i to state j (K x K, rows
//                    summing to 1),
//   rho[k]           the probability of starting in state k (K, summing to 1).
// The forward algorithm (Rabiner 1989, section III.A) in one call: alpha_1 = rho .* w_1,
// alpha_t = (Gamma' alpha_{t-1}) .* w_t with w_t = exp(log_omega[:, t] - max_k), each alpha
// rescaled to sum 1 and the logs of the scales added up, so nothing underflows; the value
// is their sum plus the maxima. The gradient is the backward pass's: with beta_N = 1 and
// beta_t = Gamma (w_{t+1} .* beta_{t+1}) (also rescaled),
//   d/d log_omega[k, t] = alpha_t[k] beta_t[k] / sum_k alpha_t[k] beta_t[k]  (the states'
//                         posterior probabilities),
//   d/d Gamma[i, j]     = sum_t alpha_{t-1}[i] w_t[j] beta_t[j] / Z_t, where Z_t is the
//                         sum over i, j of the same times Gamma[i, j],
//   d/d rho[k]          = w_1[k] beta_1[k] / sum_k rho[k] w_1[k] beta_1[k].
// The scales cancel in each ratio. A Gamma or rho that is not a probability (a negative
// entry, a row not summing to 1 within 1e-8, as Stan checks) gives NaN, which the samplers
// reject; observations impossible in every state give -inf.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "stdlib/function_groups.hpp"

namespace ppl::stdlib {

namespace {

bool is_probability(const double* p, index_t k) {
  double total = 0;
  for (index_t i = 0; i < k; ++i) {
    if (!(p[i] >= 0)) return false;
    total += p[i];
  }
  return std::fabs(total - 1) <= 1e-8;
}

class hmm_marginal final : public function {
 public:
  std::string_view name() const override { return "hmm_marginal"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 3 || a[0].rank != 2 || a[1].rank != 2 || a[2].rank != 1)
      return "hmm_marginal expects hmm_marginal(log_omega, Gamma, rho): a K x N matrix of log densities, a K x K "
             "transition matrix and a vector of K initial probabilities, got " +
             describe_types(a);
    return type_sig{scalar_kind::real, 0};
  }
  shape result_shape(std::span<const view> a) const override {
    const index_t k = a[0].shape[0];
    if (k == 0 || a[0].shape[1] == 0)
      throw argument_error("hmm_marginal: log_omega is " + a[0].shape.str() + "; it needs at least one state and one observation");
    if (a[1].shape[0] != k || a[1].shape[1] != k)
      throw argument_error("hmm_marginal: Gamma is " + a[1].shape.str() + " but log_omega has " + std::to_string(k) +
                           " states (rows), so Gamma must be " + std::to_string(k) + " x " + std::to_string(k));
    if (a[2].shape[0] != k)
      throw argument_error("hmm_marginal: rho has " + std::to_string(a[2].shape[0]) + " elements but log_omega has " +
                           std::to_string(k) + " states (rows)");
    return shape::scalar();
  }
  bool shape_from_shapes() const override { return true; }
  void eval(std::span<const view> a, double* out) const override { out[0] = run(a, nullptr); }
  // The value and every partial in one forward and one backward pass: log_omega's K x N,
  // then Gamma's K x K, then rho's K.
  bool eval_partials(std::span<const view> a, double* out, double* partials) const override {
    out[0] = run(a, partials);
    return true;
  }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d_args) const override {
    const index_t k = a[0].shape[0], n = a[0].shape[1];
    std::vector<double> partials(static_cast<std::size_t>(k * n + k * k + k));
    run(a, partials.data());
    const double* p = partials.data();
    for (std::size_t i = 0; i < 3; ++i) {
      const index_t size = a[i].size();
      if (double* d = d_args[i])
        for (index_t e = 0; e < size; ++e) d[e] += d_out[0] * p[e];
      p += size;
    }
  }

 private:
  static double column_max(const double* log_omega, index_t k, index_t n, index_t t) {
    double m = -INFINITY;
    for (index_t s = 0; s < k; ++s) m = std::max(m, log_omega[s * n + t]);
    return m;
  }

  // The value; with `partials`, also its partial derivatives (zero where the value is not
  // finite).
  static double run(std::span<const view> a, double* partials) {
    const index_t k = a[0].shape[0], n = a[0].shape[1];
    if (partials) std::fill(partials, partials + k * n + k * k + k, 0.0);
    // The rescaled forward vectors and the rescaled densities w_t, K per observation: the
    // backward pass reads both.
    thread_local std::vector<double> alpha, w;
    alpha.assign(static_cast<std::size_t>(k * n), 0.0);
    w.assign(static_cast<std::size_t>(k * n), 0.0);
    const double value = forward(a, alpha.data(), w.data());
    if (partials && std::isfinite(value)) backward_pass(a, alpha.data(), w.data(), partials);
    return value;
  }

  static double forward(std::span<const view> a, double* alphas, double* ws) {
    const index_t k = a[0].shape[0], n = a[0].shape[1];
    const double *log_omega = a[0].data, *gamma = a[1].data, *rho = a[2].data;
    if (!is_probability(rho, k)) return NAN;
    for (index_t i = 0; i < k; ++i)
      if (!is_probability(gamma + i * k, k)) return NAN;
    double total = 0;
    for (index_t t = 0; t < n; ++t) {
      const double m = column_max(log_omega, k, n, t);
      if (m == -INFINITY) return -INFINITY;  // impossible in every state
      if (m == INFINITY) return INFINITY;
      double *alpha = alphas + t * k, *w = ws + t * k;
      double scale = 0;
      for (index_t j = 0; j < k; ++j) {
        double v = 0;
        if (t == 0) {
          v = rho[j];
        } else {
          const double* before = alpha - k;
          for (index_t i = 0; i < k; ++i) v += before[i] * gamma[i * k + j];
        }
        w[j] = std::exp(log_omega[j * n + t] - m);
        alpha[j] = v * w[j];
        scale += alpha[j];
      }
      if (std::isnan(scale)) return NAN;   // a log density that is NaN
      if (!(scale > 0)) return -INFINITY;  // no state both reachable and possible
      for (index_t j = 0; j < k; ++j) alpha[j] /= scale;
      total += m + std::log(scale);
    }
    return total;
  }

  static void backward_pass(std::span<const view> a, const double* alphas, const double* ws, double* partials) {
    const index_t k = a[0].shape[0], n = a[0].shape[1];
    const double *gamma = a[1].data, *rho = a[2].data;
    double *d_omega = partials, *d_gamma = partials + k * n, *d_rho = d_gamma + k * k;
    const auto K = static_cast<std::size_t>(k);
    std::vector<double> beta(K, 1.0), wb(K);
    for (index_t t = n - 1; t >= 0; --t) {
      const double* alpha = alphas + t * k;
      // The states' posterior probabilities at t.
      double z = 0;
      for (index_t s = 0; s < k; ++s) z += alpha[s] * beta[static_cast<std::size_t>(s)];
      for (index_t s = 0; s < k; ++s) d_omega[s * n + t] = alpha[s] * beta[static_cast<std::size_t>(s)] / z;
      // w_t .* beta_t, which both the transition into t and beta_{t-1} read.
      const double* w = ws + t * k;
      for (index_t s = 0; s < k; ++s) wb[static_cast<std::size_t>(s)] = w[s] * beta[static_cast<std::size_t>(s)];
      if (t == 0) {
        double zr = 0;
        for (index_t s = 0; s < k; ++s) zr += rho[s] * wb[static_cast<std::size_t>(s)];
        for (index_t s = 0; s < k; ++s) d_rho[s] = wb[static_cast<std::size_t>(s)] / zr;
        break;
      }
      // The transition from t - 1 into t, and beta_{t-1} = Gamma (w_t .* beta_t) rescaled.
      const double* before = alpha - k;
      double zg = 0, total = 0;
      for (index_t i = 0; i < k; ++i) {
        double v = 0;
        for (index_t j = 0; j < k; ++j) v += gamma[i * k + j] * wb[static_cast<std::size_t>(j)];
        zg += before[i] * v;
        beta[static_cast<std::size_t>(i)] = v;
        total += v;
      }
      for (index_t i = 0; i < k; ++i)
        for (index_t j = 0; j < k; ++j) d_gamma[i * k + j] += before[i] * wb[static_cast<std::size_t>(j)] / zg;
      for (double& b : beta) b /= total;
    }
  }
};

}  // namespace

std::unique_ptr<function> make_hmm_marginal(std::string_view name) {
  expect_name(name, "hmm_marginal");
  return std::make_unique<hmm_marginal>();
}

}  // namespace ppl::stdlib
