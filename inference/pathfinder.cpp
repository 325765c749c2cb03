// Pathfinder's single path (inference/pathfinder.hpp). The paper's algorithm, with two
// choices of ours, both for a start rather than for an approximation to keep:
// - the path's own steps read the same inverse Hessian as its approximations (the
//   paper's diagonal estimate, where L-BFGS usually scales the identity by s'y / y'y);
// - the line search only backtracks from the quasi-Newton step until log p rises enough
//   (Armijo); pairs without positive curvature are left out of the history, as the
//   paper leaves them out, so the matrix stays positive definite.
#include "inference/pathfinder.hpp"

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <numbers>

namespace ppl::inference {

inverse_hessian::inverse_hessian(const std::deque<Eigen::VectorXd>& s, const std::deque<Eigen::VectorXd>& y, const Eigen::VectorXd& diagonal)
    : a_(diagonal) {
  const auto j = static_cast<long>(s.size());
  if (j == 0) return;
  const long d = a_.size();
  Eigen::MatrixXd sm(d, j), ym(d, j);
  for (long i = 0; i < j; ++i) {
    sm.col(i) = s[static_cast<std::size_t>(i)];
    ym.col(i) = y[static_cast<std::size_t>(i)];
  }
  const Eigen::MatrixXd sty = sm.transpose() * ym;
  const Eigen::MatrixXd r = sty.triangularView<Eigen::Upper>();
  const Eigen::MatrixXd rinv = r.triangularView<Eigen::Upper>().solve(Eigen::MatrixXd::Identity(j, j));
  b_.resize(d, 2 * j);
  b_ << a_.asDiagonal() * ym, sm;
  g_ = Eigen::MatrixXd::Zero(2 * j, 2 * j);
  g_.topRightCorner(j, j) = -rinv;
  g_.bottomLeftCorner(j, j) = -rinv.transpose();
  const Eigen::MatrixXd middle = ym.transpose() * a_.asDiagonal() * ym + Eigen::MatrixXd(sty.diagonal().asDiagonal());
  g_.bottomRightCorner(j, j) = rinv.transpose() * middle * rinv;
}

Eigen::VectorXd inverse_hessian::times(const Eigen::VectorXd& v) const {
  Eigen::VectorXd out = a_.cwiseProduct(v);
  if (b_.cols() > 0) out += b_ * (g_ * (b_.transpose() * v));
  return out;
}

Eigen::VectorXd inverse_hessian::diagonal() const {
  Eigen::VectorXd out = a_;
  if (b_.cols() > 0) out += (b_ * g_).cwiseProduct(b_).rowwise().sum();
  return out;
}

// diag(a) + B G B' = A (I + A^-1 B G B' A^-1) A with A = diag(a)^(1/2); with A^-1 B = Q R
// (thin QR) and L L' = I + R G R', the map A (I - Q Q' + Q L Q') takes N(0, I) to the
// approximation, and its log determinant is sum(log a) / 2 + log det L.
bool inverse_hessian::factor() {
  if (b_.cols() == 0) return true;
  const Eigen::MatrixXd scaled = a_.cwiseSqrt().cwiseInverse().asDiagonal() * b_;
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(scaled);
  const long k = std::min(scaled.rows(), scaled.cols());
  q_ = qr.householderQ() * Eigen::MatrixXd::Identity(scaled.rows(), k);
  Eigen::MatrixXd r = qr.matrixQR().topRows(k);
  for (long i = 0; i < k; ++i)
    for (long c = 0; c < std::min(i, r.cols()); ++c) r(i, c) = 0;
  const Eigen::LLT<Eigen::MatrixXd> llt(Eigen::MatrixXd::Identity(k, k) + r * g_ * r.transpose());
  if (llt.info() != Eigen::Success) {
    b_.resize(a_.size(), 0);
    g_.resize(0, 0);
    q_.resize(0, 0);
    return false;
  }
  l_ = llt.matrixL();
  log_det_l_ = l_.diagonal().array().log().sum();
  return true;
}

double inverse_hessian::draw(ppl::rng& rng, const Eigen::VectorXd& mean, Eigen::VectorXd& y) const {
  boost::random::normal_distribution<double> normal;
  const long d = a_.size();
  Eigen::VectorXd z(d);
  for (long i = 0; i < d; ++i) z[i] = normal(rng);
  y = z;
  if (q_.cols() > 0) {
    const Eigen::VectorXd w = q_.transpose() * z;
    y += q_ * (l_.triangularView<Eigen::Lower>() * w - w);
  }
  y = mean + a_.cwiseSqrt().cwiseProduct(y);
  return -0.5 * z.squaredNorm() - 0.5 * static_cast<double>(d) * std::log(2 * std::numbers::pi) - 0.5 * a_.array().log().sum() - log_det_l_;
}

void update_diagonal(Eigen::VectorXd& a, const Eigen::VectorXd& s, const Eigen::VectorXd& y) {
  const double ay = y.dot(a.cwiseProduct(y)), sy = s.dot(y), sa = s.dot(s.cwiseQuotient(a));
  const Eigen::ArrayXd inverse = ay / (sy * a.array()) + y.array().square() / sy - ay * s.array().square() / (sy * sa * a.array().square());
  // Rounding can leave an element that is not positive: that one keeps its value.
  for (long i = 0; i < a.size(); ++i)
    if (inverse[i] > 0 && std::isfinite(1 / inverse[i])) a[i] = 1 / inverse[i];
}

namespace {

// One iterate's approximation and its ELBO, the mean of log p - log q over draws from it
// (-inf when a draw falls where log p is not finite).
struct candidate {
  Eigen::VectorXd mean;
  inverse_hessian covariance;
  double elbo = -INFINITY;
};

candidate approximate(samplers::unconstrained_target& target, ppl::rng& rng, const Eigen::VectorXd& x, const Eigen::VectorXd& gradient,
                      const inverse_hessian& h, const pathfinder_options& o, long& evaluations) {
  candidate c{.mean = {}, .covariance = h};
  c.covariance.factor();
  c.mean = x + c.covariance.times(gradient);
  Eigen::VectorXd point, unused(target.dimension());
  double sum = 0;
  for (int k = 0; k < o.elbo_draws; ++k) {
    const double log_q = c.covariance.draw(rng, c.mean, point);
    ++evaluations;
    const double log_p = target.log_density(point, unused);
    if (!std::isfinite(log_p)) return c;
    sum += log_p - log_q;
  }
  c.elbo = sum / o.elbo_draws;
  return c;
}

}  // namespace

path_result find_path(samplers::unconstrained_target& target, ppl::rng& rng, const pathfinder_options& o) {
  path_result out;
  const long d = target.dimension();
  Eigen::VectorXd x = target.position(), gradient(d), next(d), next_gradient(d);
  ++out.evaluations;
  double lp = target.log_density(x, gradient);
  out.mean = x;
  if (!std::isfinite(lp)) {
    out.stopped = "the log density is not finite at the start";
    return out;
  }
  std::deque<Eigen::VectorXd> s, y;
  Eigen::VectorXd diagonal = Eigen::VectorXd::Ones(d);
  inverse_hessian h(s, y, diagonal);  // from the history as it stands: the step's and the approximation's
  int since_better = 0;
  for (int it = 1; it <= o.max_iterations; ++it) {
    // The quasi-Newton step up log p; the gradient's direction, at most a unit long, when
    // there is no history or the step does not go up.
    Eigen::VectorXd step = h.times(gradient);
    double slope = gradient.dot(step);
    if (s.empty() || !(slope > 0)) {
      s.clear(), y.clear();
      diagonal.setOnes();
      step = gradient / std::max(1.0, gradient.norm());
      slope = gradient.dot(step);
    }
    double next_lp = -INFINITY, length = 1;
    bool moved = false;
    for (int k = 0; k < 60 && !moved; ++k, length *= 0.5) {
      next = x + length * step;
      ++out.evaluations;
      next_lp = target.log_density(next, next_gradient);
      moved = std::isfinite(next_lp) && next_lp >= lp + 1e-4 * length * slope;
    }
    if (!moved) {
      out.stopped = "no step raised the log density";
      break;
    }
    Eigen::VectorXd ds = next - x, dy = gradient - next_gradient;  // dy: the change of -log p's gradient
    if (ds.dot(dy) > 1e-12 * dy.squaredNorm()) {
      update_diagonal(diagonal, ds, dy);
      s.push_back(std::move(ds));
      y.push_back(std::move(dy));
      if (static_cast<int>(s.size()) > o.history) s.pop_front(), y.pop_front();
    }
    h = inverse_hessian(s, y, diagonal);
    const double change = next_lp - lp;
    x = next, gradient = next_gradient, lp = next_lp;
    out.iterations = it;
    candidate c = approximate(target, rng, x, gradient, h, o, out.evaluations);
    if (c.elbo > out.elbo) {
      out.elbo = c.elbo, out.mean = std::move(c.mean), out.covariance = std::move(c.covariance), out.chosen = it;
      since_better = 0;
    } else if (out.chosen > 0 && ++since_better >= o.patience) {
      out.stopped = "no better ELBO in " + std::to_string(o.patience) + " iterations";
      break;
    }
    // Far out in a tail a step changes log p by little against its size: the path goes on
    // until some approximation has a finite ELBO.
    if (out.chosen > 0 && std::abs(change) <= o.relative_tolerance * std::max({1.0, std::abs(lp)})) {
      out.stopped = "log p changed by less than its relative tolerance";
      break;
    }
  }
  if (out.stopped.empty()) out.stopped = "the iteration limit";
  if (out.chosen == 0) out.mean = x;
  return out;
}

}  // namespace ppl::inference
