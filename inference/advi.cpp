// `ppl infer --method advi`: automatic differentiation variational inference (Kucukelbir,
// Tran, Ranganath, Gelman & Blei 2017, JMLR 18(14)), the seeds' "turn inference into
// optimisation". q is a normal on the unconstrained scale of the continuous unknowns:
// mean-field, N(mu, diag(exp(omega))^2), or full-rank, N(mu, L L') with L lower triangular.
// The ELBO, E_q[log p(y)] + H(q), is climbed by stochastic gradients through y = mu + s(e),
// e ~ N(0, I) (the reparameterisation), with the paper's adaptive step size
//   rho_k = eta k^(-1/2 + 1e-16) / (1 + sqrt(s_k)),  s_k = 0.1 g_k^2 + 0.9 s_(k-1),
// eta chosen, unless given, by a short trial of 100, 10, 1, 0.1 and 0.01. Every --eval-elbo
// iterations the ELBO is estimated; the run stops when the mean or the median of its recent
// relative changes falls below --tol-rel-obj (the paper's and Stan's rule). Two choices of
// ours make that rule and the result steadier than the paper's:
// - what is returned, and whose ELBO is estimated, is not the last iterate but the
//   polynomial-decay average of the iterates (Shamir & Zhang 2013, weights (h + 1) / (k + h),
//   h = 3: about the last quarter of the iterations): the iterates scatter around the
//   optimum by the gradients' noise, and their average does not;
// - every ELBO estimate uses the same --elbo-samples draws of e (common random numbers), so
//   that its changes are the parameters' and not the estimate's noise.
#include <fmt/core.h>

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <chrono>
#include <functional>
#include <cmath>
#include <numbers>
#include <numeric>

#include "core/interrupt.hpp"
#include "inference/mode.hpp"

namespace ppl::inference {

namespace {

constexpr std::uint32_t advi_purpose = 0x61647669u;

// The variational parameters: mu and, mean-field, omega (log scales) or, full-rank, L's
// lower triangle row by row. One vector, so that the step-size rule and the average treat
// both alike.
class normal_family {
 public:
  normal_family(bool full, const Eigen::VectorXd& mean) : full_(full), d_(mean.size()) {
    theta_ = Eigen::VectorXd::Zero(d_ + (full ? d_ * (d_ + 1) / 2 : d_));
    theta_.head(d_) = mean;
    if (full)
      for (long i = 0; i < d_; ++i) theta_[d_ + index(i, i)] = 1;
  }
  Eigen::VectorXd& theta() { return theta_; }
  const Eigen::VectorXd& theta() const { return theta_; }
  long dimension() const { return d_; }
  // y = mu + S e, S = diag(exp(omega)) or L.
  Eigen::VectorXd transform(const Eigen::VectorXd& e) const {
    Eigen::VectorXd y = theta_.head(d_);
    if (!full_) return y + theta_.tail(d_).array().exp().matrix().cwiseProduct(e);
    for (long i = 0; i < d_; ++i)
      for (long j = 0; j <= i; ++j) y[i] += theta_[d_ + index(i, j)] * e[j];
    return y;
  }
  // The covariance S S'.
  Eigen::MatrixXd covariance() const {
    Eigen::MatrixXd s = Eigen::MatrixXd::Zero(d_, d_);
    for (long i = 0; i < d_; ++i)
      for (long j = 0; j <= i; ++j)
        if (full_) s(i, j) = theta_[d_ + index(i, j)];
        else if (i == j) s(i, i) = std::exp(theta_[d_ + i]);
    return s * s.transpose();
  }
  // log |det S|: sum(omega), or sum log |L_ii|.
  double log_det() const {
    double out = 0;
    for (long i = 0; i < d_; ++i) out += full_ ? std::log(std::abs(theta_[d_ + index(i, i)])) : theta_[d_ + i];
    return out;
  }
  // The entropy H(q) = d/2 (1 + log 2 pi) + log |det S|.
  double entropy() const { return 0.5 * static_cast<double>(d_) * (1 + std::log(2 * std::numbers::pi)) + log_det(); }
  // log q(y) at y = transform(e): -d/2 log 2 pi - |e|^2 / 2 - log |det S|.
  double log_q(const Eigen::VectorXd& e) const {
    return -0.5 * static_cast<double>(d_) * std::log(2 * std::numbers::pi) - 0.5 * e.squaredNorm() - log_det();
  }
  // Adds to `out` the reparameterisation gradient of log p through y = transform(e), given
  // g = d log p / dy; the entropy's gradient is added by add_entropy_gradient.
  void add_gradient(const Eigen::VectorXd& e, const Eigen::VectorXd& g, Eigen::VectorXd& out) const {
    out.head(d_) += g;
    if (!full_) {
      out.tail(d_) += g.cwiseProduct(e).cwiseProduct(theta_.tail(d_).array().exp().matrix());
      return;
    }
    for (long i = 0; i < d_; ++i)
      for (long j = 0; j <= i; ++j) out[d_ + index(i, j)] += g[i] * e[j];
  }
  void add_entropy_gradient(Eigen::VectorXd& out) const {
    for (long i = 0; i < d_; ++i) {
      if (full_) out[d_ + index(i, i)] += 1 / theta_[d_ + index(i, i)];
      else out[d_ + i] += 1;
    }
  }
 private:
  static long index(long i, long j) { return i * (i + 1) / 2 + j; }
  bool full_;
  long d_;
  Eigen::VectorXd theta_;
};

// A draw e ~ N(0, I) whose y has a finite log p and gradient, up to 50 tries; false when
// none has.
bool finite_draw(samplers::unconstrained_target& target, const normal_family& q, ppl::rng& rng, Eigen::VectorXd& e,
                 Eigen::VectorXd& y, Eigen::VectorXd& g, double& lp, long& evaluations) {
  boost::random::normal_distribution<double> normal;
  for (int tries = 0; tries < 50; ++tries) {
    for (long i = 0; i < e.size(); ++i) e[i] = normal(rng);
    y = q.transform(e);
    ++evaluations;
    lp = target.log_density(y, g);
    if (std::isfinite(lp)) return true;
  }
  return false;
}

// The ELBO estimated at the draws e (one a column: common random numbers) of q (draws where
// log p is not finite count as -inf: the ELBO is then -inf, as it is).
double estimate_elbo(samplers::unconstrained_target& target, const normal_family& q, const Eigen::MatrixXd& draws, long& evaluations) {
  Eigen::VectorXd g(q.dimension());
  double sum = 0;
  for (long k = 0; k < draws.cols(); ++k) {
    ++evaluations;
    sum += target.log_density(q.transform(draws.col(k)), g);
  }
  return sum / static_cast<double>(draws.cols()) + q.entropy();
}

struct fit {
  normal_family q;
  std::vector<std::pair<int, double>> trace;  // (iteration, ELBO)
  std::vector<double> relative;               // the relative changes, in the order measured
  int iterations = 0;
  long evaluations = 0;
  bool converged = false;
  std::string stopped;
};

// Stochastic gradient ascent with step size eta for at most `limit` iterations (a trial of
// eta: no ELBO estimates, no convergence test).
fit climb(samplers::unconstrained_target& target, const normal_family& start, double eta, int limit, bool trial, const monte_carlo_options& o,
          const Eigen::MatrixXd& elbo_draws, ppl::rng& rng) {
  fit f{start, {}, {}, 0, 0, false, {}};
  normal_family q = start;  // the iterate; f.q holds the average
  const long d = q.dimension(), size = q.theta().size();
  Eigen::VectorXd e(d), y(d), g(d), grad(size), s(size);
  double last_elbo = NAN;
  const std::size_t window = static_cast<std::size_t>(std::max(2.0, 0.1 * limit / o.eval_elbo));
  for (int k = 1; k <= limit; ++k) {
    if (ppl::interrupted()) {
      f.stopped = "interrupted";
      break;
    }
    grad.setZero();
    for (int m = 0; m < o.grad_samples; ++m) {
      double lp = 0;
      if (!finite_draw(target, q, rng, e, y, g, lp, f.evaluations)) {
        f.stopped = "50 draws in a row fell where log p is not finite";
        return f;
      }
      q.add_gradient(e, g, grad);
    }
    grad /= o.grad_samples;
    q.add_entropy_gradient(grad);
    if (!grad.allFinite()) {
      f.stopped = "the ELBO's gradient is not finite";
      return f;
    }
    s = k == 1 ? grad.cwiseAbs2() : Eigen::VectorXd(0.1 * grad.cwiseAbs2() + 0.9 * s);
    const double rate = eta * std::pow(static_cast<double>(k), -0.5 + 1e-16);
    q.theta().array() += rate * grad.array() / (1 + s.array().sqrt());
    const double weight = trial ? 1.0 : 4.0 / (k + 3.0);
    f.q.theta() += weight * (q.theta() - f.q.theta());
    f.iterations = k;
    if (trial || k % o.eval_elbo != 0) continue;
    const double elbo = estimate_elbo(target, f.q, elbo_draws, f.evaluations);
    f.trace.emplace_back(k, elbo);
    if (!std::isnan(last_elbo)) f.relative.push_back(std::abs((elbo - last_elbo) / elbo));
    last_elbo = elbo;
    const std::size_t n = std::min(window, f.relative.size());
    if (n > 0) {
      std::vector<double> recent(f.relative.end() - static_cast<std::ptrdiff_t>(n), f.relative.end());
      const double mean = std::accumulate(recent.begin(), recent.end(), 0.0) / static_cast<double>(n);
      std::nth_element(recent.begin(), recent.begin() + static_cast<std::ptrdiff_t>(n / 2), recent.end());
      const double median = recent[n / 2];
      if (mean < o.tol_rel_obj || median < o.tol_rel_obj) {
        f.converged = true;
        f.stopped = fmt::format("the {} of the ELBO's last {} relative changes fell below {}", mean < o.tol_rel_obj ? "mean" : "median", n,
                                o.tol_rel_obj);
        break;
      }
    }
  }
  if (f.stopped.empty()) f.stopped = fmt::format("the iteration limit ({})", limit);
  return f;
}

// The step size by the paper's trial: each candidate climbs from the start for 50
// iterations and the one whose ELBO is then largest is taken (the first that does not
// fall below the start's, going down from 100).
double choose_eta(samplers::unconstrained_target& target, const normal_family& start, const monte_carlo_options& o,
                  const Eigen::MatrixXd& elbo_draws, ppl::rng& rng, long& evaluations, std::string& line) {
  const double start_elbo = estimate_elbo(target, start, elbo_draws, evaluations);
  double best = NAN, best_elbo = -INFINITY;
  for (double eta : {100.0, 10.0, 1.0, 0.1, 0.01}) {
    fit f = climb(target, start, eta, 50, true, o, elbo_draws, rng);
    evaluations += f.evaluations;
    const double elbo = f.stopped.empty() || f.stopped.starts_with("the iteration limit")
                            ? estimate_elbo(target, f.q, elbo_draws, evaluations) : -INFINITY;
    line += fmt::format("{}{:g}: {:.6g}", line.empty() ? "" : ", ", eta, elbo);
    if (std::isfinite(elbo) && elbo > best_elbo) best = eta, best_elbo = elbo;
  }
  if (std::isnan(best) || best_elbo < start_elbo)
    throw std::invalid_argument("--method advi: no step size from 100 to 0.01 raised the ELBO from the start (" + line +
                                "); give --eta, start elsewhere with --init, or use --method mcmc");
  return best;
}

// The draws of e for the ELBO's estimates and the refinement: antithetic pairs (their
// mean is 0) whitened to a covariance of exactly I when they outnumber the coordinates.
// At such draws the fixed-draw ELBO of a normal posterior is maximised by the posterior
// itself, so the refinement below is exact there.
Eigen::MatrixXd fixed_draws(long d, int n, ppl::rng& rng) {
  boost::random::normal_distribution<double> normal;
  const long half = std::max(1, n / 2);
  Eigen::MatrixXd e(d, 2 * half);
  for (long j = 0; j < half; ++j)
    for (long i = 0; i < d; ++i) e(i, j) = normal(rng), e(i, half + j) = -e(i, j);
  if (e.cols() > d && d > 0) {
    const Eigen::LLT<Eigen::MatrixXd> llt(e * e.transpose() / static_cast<double>(e.cols()));
    if (llt.info() == Eigen::Success) e = llt.matrixL().solve(e);
  }
  return e;
}

// The fixed-draw ELBO climbed by L-BFGS from the stochastic ascent's q (Giordano, Ingram &
// Broderick 2024, "deterministic ADVI"): what noise leaves of the ascent's error goes, and
// the result does not depend on where the averaging stopped. Returns the refined q, or
// `from` when the climb gained nothing.
normal_family refine(samplers::unconstrained_target& target, const normal_family& from, const Eigen::MatrixXd& draws, int limit,
                     long& evaluations, std::string& line) {
  normal_family q = from;
  Eigen::VectorXd g(q.dimension());
  const auto m = static_cast<double>(draws.cols());
  const std::function<double(const Eigen::VectorXd&, Eigen::VectorXd&)> elbo = [&](const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) -> double {
    q.theta() = theta;
    gradient = Eigen::VectorXd::Zero(theta.size());
    double sum = 0;
    for (long k = 0; k < draws.cols(); ++k) {
      ++evaluations;
      sum += target.log_density(q.transform(draws.col(k)), g);
      if (!std::isfinite(sum)) return -INFINITY;
      q.add_gradient(draws.col(k), g, gradient);
    }
    gradient /= m;
    q.add_entropy_gradient(gradient);
    return sum / m + q.entropy();
  };
  Eigen::VectorXd unused;
  const double before = elbo(from.theta(), unused);
  const mode_result found = maximise(elbo, from.theta(), limit);
  line = fmt::format("refined: L-BFGS on the ELBO at the {} fixed draws, {} iterations, stopped: {}; ELBO {:.6f} -> {:.6f}", draws.cols(),
                     found.iterations, found.stopped, before, found.objective);
  if (!(found.objective > before)) {
    line += " (the ascent's q kept)";
    return from;
  }
  q.theta() = found.y;
  return q;
}

}  // namespace

weighted_result advi_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o) {
  const auto start = std::chrono::steady_clock::now();
  if (o.family != "meanfield" && o.family != "fullrank")
    throw std::invalid_argument("--family " + o.family + ": expected meanfield or fullrank");
  if (!o.jacobian) throw std::invalid_argument("--jacobian false: ADVI's q is a density on the unconstrained scale, which needs the Jacobian");
  mode_problem problem(m, data, o, "advi");
  auto& target = problem.target();
  ppl::rng rng = particles::item_stream(o.seed, 0, advi_purpose);
  const normal_family initial(o.family == "fullrank", target.position());
  weighted_result r;
  long evaluations = 0;
  std::string trial;
  const Eigen::MatrixXd elbo_draws = fixed_draws(initial.dimension(), o.elbo_samples, rng);
  double eta = o.eta > 0 ? o.eta : choose_eta(target, initial, o, elbo_draws, rng, evaluations, trial);
  r.report.push_back(fmt::format("eta: {:g}{}", eta, trial.empty() ? " (given)" : " (adapted; ELBO after 50 iterations: " + trial + ")"));
  // An ascent whose draws all fall outside the support (a first step of eta in a log
  // scale) is tried again from the start with a tenth of the step, down to 0.01.
  fit f = climb(target, initial, eta, iteration_limit(o, 10000), false, o, elbo_draws, rng);
  auto failed = [&f] { return f.stopped.starts_with("50 draws") || f.stopped.starts_with("the ELBO's gradient"); };
  while (failed() && eta > 0.0101) {
    evaluations += f.evaluations;
    r.report.push_back(fmt::format("eta {:g} failed after {} iterations ({}): again from the start with eta {:g}", eta, f.iterations,
                                   f.stopped, eta / 10));
    eta /= 10;
    f = climb(target, initial, eta, iteration_limit(o, 10000), false, o, elbo_draws, rng);
  }
  evaluations += f.evaluations;
  std::string refined;
  if (o.refine && f.stopped != "interrupted" && !failed()) f.q = refine(target, f.q, elbo_draws, 1000, evaluations, refined);
  r.report.push_back(fmt::format("iterations: {}, gradients: {}", f.iterations, evaluations));
  r.report.push_back("stopped: " + f.stopped);
  for (const auto& [k, elbo] : f.trace) r.report.push_back(fmt::format("elbo: {} {:.6f}", k, elbo));
  if (!refined.empty()) r.report.push_back(refined);
  if (!f.converged && f.stopped != "interrupted")
    r.warnings.push_back("ADVI did not converge (" + f.stopped + "): q is where the ascent stopped (raise --iterations, or give --eta)");
  report_summed(problem, r);
  r.columns = approximation_columns(problem);
  if (f.stopped == "interrupted") {
    r.interrupted = true;
    r.stopped = fmt::format("the ascent after {} iterations", f.iterations);
    return r;
  }
  keep_approximation(r, f.q.theta().head(f.q.dimension()), f.q.covariance());
  std::vector<double> log_ratios;
  draw_approximation(problem, o.particles, rng, [&f](ppl::rng& stream, Eigen::VectorXd& y) {
    boost::random::normal_distribution<double> normal;
    Eigen::VectorXd e(f.q.dimension());
    for (long k = 0; k < e.size(); ++k) e[k] = normal(stream);
    y = f.q.transform(e);
    return f.q.log_q(e);
  }, r.rows, log_ratios);
  r.row_count = log_ratios.size();
  r.report.push_back(fmt::format("draws: approximate, from ADVI's {} normal q, mapped to the constrained scale", o.family));
  r.evidence = judge_ratios(r, log_ratios, "ADVI's " + o.family + " q");
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ppl::inference
