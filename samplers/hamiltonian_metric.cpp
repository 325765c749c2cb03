#include "samplers/hamiltonian_metric.hpp"

#include <boost/random/normal_distribution.hpp>
#include <fmt/core.h>

namespace ppl::samplers::hamiltonian {

void metric::reset(long d, bool dense) {
  dense_ = dense;
  diagonal_ = sqrt_diagonal_ = Eigen::VectorXd::Ones(d);
  if (dense) covariance_ = chol_ = Eigen::MatrixXd::Identity(d, d);
}

void metric::set_diagonal(const Eigen::VectorXd& v) {
  dense_ = false;
  diagonal_ = v;
  sqrt_diagonal_ = v.cwiseSqrt();
}

void metric::set_covariance(const Eigen::MatrixXd& c) {
  Eigen::LLT<Eigen::MatrixXd> llt(c);
  if (llt.info() != Eigen::Success) return;
  dense_ = true;
  covariance_ = c;
  chol_ = llt.matrixL();
}

void metric::draw(ppl::rng& rng, Eigen::VectorXd& p) const {
  boost::random::normal_distribution<double> normal;
  p.resize(diagonal_.size());
  for (long i = 0; i < p.size(); ++i) p[i] = normal(rng);
  if (dense_) chol_.transpose().triangularView<Eigen::Upper>().solveInPlace(p);
  else p.array() /= sqrt_diagonal_.array();
}

void metric::persist(ppl::archive& a) {
  a(dense_, diagonal_, covariance_, chol_);
  sqrt_diagonal_ = diagonal_.cwiseSqrt();  // derived, so not saved
}

std::vector<std::string> metric::lines() const {
  auto row = [](const auto& v) {
    std::string out;
    for (long i = 0; i < v.size(); ++i) out += fmt::format("{}{:.6g}", i ? ", " : "", v[i]);
    return out;
  };
  if (!dense_) return {"Diagonal elements of inverse mass matrix:", row(diagonal_)};
  std::vector<std::string> out{"Elements of inverse mass matrix:"};
  for (long r = 0; r < covariance_.rows(); ++r) out.push_back(row(covariance_.row(r)));
  return out;
}

void metric_estimate::reset(long d, metric_choice choice) {
  automatic_ = choice == metric_choice::automatic && d <= dense_limit;
  guide_.resize(0, 0);
  dense_ = choice == metric_choice::dense || automatic_;
  count_ = 0;
  mean_ = m2_diag_ = delta_ = after_ = Eigen::VectorXd::Zero(d);
  m2_ = dense_ ? Eigen::MatrixXd::Zero(d, d) : Eigen::MatrixXd();
}

void metric_estimate::add(const Eigen::VectorXd& q) {
  if (count_ == 0) {
    mean_.setZero(q.size());
    m2_diag_.setZero(q.size());
    if (dense_) m2_.setZero(q.size(), q.size());
  }
  ++count_;
  delta_ = q - mean_;
  mean_ += delta_ / static_cast<double>(count_);
  after_ = q - mean_;
  m2_diag_ += delta_.cwiseProduct(after_);
  if (dense_) m2_.noalias() += delta_ * after_.transpose();
}

void metric_estimate::update(metric& m) {
  const double n = static_cast<double>(count_);
  if (count_ >= 3) {
    const double w = n / (n + 5), shrink = 1e-3 * 5 / (n + 5);
    if (dense_) {
      const long d = m2_.rows();
      const Eigen::MatrixXd c = w * m2_ / (n - 1) + shrink * Eigen::MatrixXd::Identity(d, d);
      if (!automatic_ || strongly_correlated(c, count_)) {
        m.set_covariance(c);
      } else if (guide_.rows() == d && static_cast<double>(d) > 0.1 * n && guide_fits(c.diagonal())) {
        const Eigen::VectorXd sd = c.diagonal().cwiseSqrt();
        m.set_covariance(sd.asDiagonal() * guide_ * sd.asDiagonal());
      } else {
        m.set_diagonal(c.diagonal());
      }
    } else {
      m.set_diagonal((w * m2_diag_ / (n - 1)).array() + shrink);
    }
  }
  count_ = 0;
}

// Whether the window's draws are likelier under a normal with the guide's correlations
// than under one without (both with the window's variances and mean): the Gaussian log
// likelihood of n draws with scatter M2 about their mean is -n/2 log |S| - tr(S^-1 M2) / 2,
// and with S = D^1/2 R D^1/2 the variances' part is common to both. A path whose
// correlations are not the posterior's (a nearly collinear regression's, which its few
// L-BFGS pairs miss) then leaves the metric diagonal.
bool metric_estimate::guide_fits(const Eigen::VectorXd& variances) const {
  const Eigen::VectorXd scale = variances.cwiseSqrt().cwiseInverse();
  const Eigen::MatrixXd scatter = scale.asDiagonal() * m2_ * scale.asDiagonal();
  const Eigen::LLT<Eigen::MatrixXd> llt(guide_);
  if (llt.info() != Eigen::Success) return false;
  const double log_det = 2 * Eigen::MatrixXd(llt.matrixL()).diagonal().array().log().sum();
  const double n = static_cast<double>(count_);
  const double guided = -0.5 * n * log_det - 0.5 * llt.solve(scatter).trace();
  const double diagonal = -0.5 * scatter.trace();
  return guided > diagonal;
}

bool metric_estimate::strongly_correlated(const Eigen::MatrixXd& covariance, long draws) {
  const long d = covariance.rows();
  if (d < 2) return false;
  const double ratio = static_cast<double>(d) / static_cast<double>(draws);
  // Below ten draws a coordinate the covariance's own error (about sqrt(d / n) of it)
  // would steer the trajectories as much as the correlations do.
  if (ratio > 0.1) return false;
  const Eigen::VectorXd scale = covariance.diagonal().cwiseSqrt().cwiseInverse();
  const Eigen::MatrixXd correlation = scale.asDiagonal() * covariance * scale.asDiagonal();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(correlation, Eigen::EigenvaluesOnly);
  const double low = eigen.eigenvalues().minCoeff(), high = eigen.eigenvalues().maxCoeff();
  const double chance = std::pow((1 + std::sqrt(ratio)) / (1 - std::sqrt(ratio)), 2);
  return !(low > 0) || high / low > std::max(10.0, 3 * chance);
}

}  // namespace ppl::samplers::hamiltonian
