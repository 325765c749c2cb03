// A Wishart precision matrix in coordinate ascent (inference/cavi.hpp): q(W) = Wishart(nu, S)
// with nu = nu0 + n and S^-1 = S0^-1 + E sum_i c_i r_i r_i', r_i = x_i - m_i, the
// expectation over q of the multivariate normal children's values and means (Bishop 2006,
// section 10.2.1); an InverseWishart covariance likewise, q(C) = InverseWishart(nu0 + n,
// S0 + E sum_i r_i r_i' / c_i). The statistics are the samplers' own (samplers/
// conjugate_wishart.cpp), the prior's added by the pair's `prior_stats`.
#include "inference/cavi.hpp"
#include "inference/cavi_internal.hpp"

#include <fmt/core.h>

#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "model/instances.hpp"
#include "stdlib/registry.hpp"
#include "stdlib/spd_matrix.hpp"

namespace ppl::inference {

namespace {

using stdlib::log_determinant;

// E log |W| under Wishart(nu, S): sum_i digamma((nu + 1 - i) / 2) + K log 2 + log |S|.
double expected_log_det(double nu, const Eigen::MatrixXd& scale) {
  const auto k = scale.rows();
  return stdlib::multi_digamma(k, 0.5 * nu) + static_cast<double>(k) * std::log(2.0) + log_determinant(scale.llt());
}

}  // namespace

void cavi::add_wishart(int v, const samplers::conjugate_pair* pair, std::vector<int> children) {
  const auto& m = graph_.model();
  const auto& name = m.variables[static_cast<std::size_t>(v)].name;
  auto w = std::make_unique<wishart>();
  w->variable = v;
  w->inverse = pair->prior == "InverseWishart";
  int blocks = 0;
  for (int si : m.variables[static_cast<std::size_t>(v)].statements) {
    const auto& s = m.statements[static_cast<std::size_t>(si)];
    model::instances(graph_).visit(s, [&](const ppl::index_t* loops) {
      const auto [offset, size] = model::instances(graph_).target(s, loops);
      w->offset = offset;
      w->k = static_cast<ppl::index_t>(std::lround(std::sqrt(static_cast<double>(size))));
      ++blocks;
    });
  }
  if (blocks != 1 || graph_.partly_observed(v))
    throw std::invalid_argument("--method vb: `" + name + "` holds " + (blocks != 1 ? "several Wishart matrices" : "a partly observed matrix") +
                                "; a Wishart factor is built for one whole matrix (use --method mcmc)");
  auto u = pair_update(v, pair, std::move(children));
  u->matrix = w.get();
  wishart_of_[static_cast<std::size_t>(v)] = w.get();
  wisharts_.push_back(std::move(w));
  hold(v);
  updates_.push_back(std::move(u));
}

// The statistics averaged over the design, the prior's natural parameters among them: nu
// their count; S the inverse of their scatter (InverseWishart: the scatter itself). Returns
// the largest change of an element's mean in units of the mean's scale.
double cavi::update_wishart(update& u) {
  wishart& w = *u.matrix;
  std::vector<double> sum;
  average_totals(u, sum);
  const ppl::index_t k = w.k;
  const double* total = sum.data() + w.offset * u.totals->stride();
  const Eigen::MatrixXd scatter = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(total, k, k);
  const Eigen::LLT<Eigen::MatrixXd> llt(0.5 * (scatter + scatter.transpose()));
  const double nu = total[k * k];
  const auto& name = graph_.model().variables[static_cast<std::size_t>(w.variable)].name;
  if (llt.info() != Eigen::Success || !(nu > static_cast<double>(k) - 1))
    throw std::runtime_error(fmt::format("--method vb: the update of {} gave {}({}, ...) with a scale that is not positive definite", name,
                                         w.inverse ? "InverseWishart" : "Wishart", nu));
  const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(k, k);
  Eigen::MatrixXd precision_scale = llt.solve(identity);  // of W: S, or the InverseWishart's scale inverted
  precision_scale = (0.5 * (precision_scale + precision_scale.transpose())).eval();
  const Eigen::MatrixXd expected_w = nu * precision_scale;
  // The point each element is reported at: E[W], or E[C] = S / (nu - K - 1) where finite
  // (else E[W]^-1).
  const Eigen::MatrixXd shown = !w.inverse ? expected_w : nu > static_cast<double>(k) + 1 ? Eigen::MatrixXd(scatter / (nu - static_cast<double>(k) - 1))
                                                                                          : Eigen::MatrixXd(expected_w.inverse());
  auto& q = q_[static_cast<std::size_t>(w.variable)];
  double largest = 0;
  for (ppl::index_t i = 0; i < k * k; ++i) {
    const double next = shown(i / k, i % k), size = std::sqrt(std::abs(shown(i / k, i / k) * shown(i % k, i % k)));
    largest = std::max(largest, w.fitted ? std::abs(next - q[static_cast<std::size_t>(w.offset + i)].a) / size : INFINITY);
    q[static_cast<std::size_t>(w.offset + i)] = {nullptr, next, 0};
  }
  w.nu = nu;
  w.scale = w.inverse ? Eigen::MatrixXd(0.5 * (scatter + scatter.transpose())) : precision_scale;
  w.expected_log_det = expected_log_det(nu, precision_scale);
  w.fitted = true;
  // The two points lo E[W], hi E[W]: mean 1 and K (log lo + log hi) / 2 = E log |W| - log |E W|.
  const double gap = w.expected_log_det - log_determinant(expected_w.llt());
  const double g = std::exp(std::min(0.0, gap) / static_cast<double>(k)), hi = 1 + std::sqrt(std::max(0.0, 1 - g * g)), lo = g * g / hi;
  const Eigen::MatrixXd low = w.inverse ? Eigen::MatrixXd(expected_w.inverse() / lo) : Eigen::MatrixXd(lo * expected_w);
  const Eigen::MatrixXd high = w.inverse ? Eigen::MatrixXd(expected_w.inverse() / hi) : Eigen::MatrixXd(hi * expected_w);
  auto& points = points_[static_cast<std::size_t>(w.variable)];
  for (ppl::index_t i = 0; i < k * k; ++i) points[static_cast<std::size_t>(w.offset + i)] = {low(i / k, i % k), high(i / k, i % k)};
  return largest == INFINITY ? 1.0 : largest;
}

// The precision's: H(W) = nu / 2 log |S| + nu K / 2 log 2 + log Gamma_K(nu / 2) -
// (nu - K - 1) / 2 E log |W| + nu K / 2 (Bishop 2006, B.82), S W's scale. A covariance
// C = W^-1 adds the log Jacobian of the inversion, |C|^(K + 1): H(C) = H(W) - (K + 1) E log |W|.
double cavi::wishart_entropy() const {
  double total = 0;
  for (const auto& w : wisharts_) {
    if (!w->fitted) continue;
    const auto k = static_cast<double>(w->k);
    const double log_det_scale = log_determinant(w->scale.llt());
    const double log_det_s = w->inverse ? -log_det_scale : log_det_scale;
    total += 0.5 * w->nu * log_det_s + 0.5 * w->nu * k * std::log(2.0) + stdlib::log_multi_gamma(w->k, 0.5 * w->nu) -
             0.5 * (w->nu - k - 1) * w->expected_log_det + 0.5 * w->nu * k;
    if (w->inverse) total -= (k + 1) * w->expected_log_det;
  }
  return total;
}

// Each fitted matrix drawn from its q by the library's Wishart; returns their log q.
double cavi::wishart_draw(ppl::rng& rng) {
  static const stdlib::distribution* wishart = stdlib::library().find_distribution("Wishart");
  static const stdlib::distribution* inverse = stdlib::library().find_distribution("InverseWishart");
  double log_q = 0;
  for (const auto& w : wisharts_) {
    if (!w->fitted) continue;
    const stdlib::distribution* family = w->inverse ? inverse : wishart;
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> scale = w->scale;
    const std::array<ppl::view, 2> args = {ppl::view{&w->nu, ppl::shape::scalar()}, ppl::view{scale.data(), ppl::shape::matrix(w->k, w->k)}};
    double* out = graph_.values()[static_cast<std::size_t>(w->variable)].data.data() + w->offset;
    family->draw(args, rng, out);
    log_q += family->log_density(args, ppl::view{out, ppl::shape::matrix(w->k, w->k)}, true);
  }
  return log_q;
}

}  // namespace ppl::inference
