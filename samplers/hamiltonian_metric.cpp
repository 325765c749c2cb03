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
  diagonal_ = v;
  sqrt_diagonal_ = v.cwiseSqrt();
}

void metric::set_covariance(const Eigen::MatrixXd& c) {
  Eigen::LLT<Eigen::MatrixXd> llt(c);
  if (llt.info() != Eigen::Success) return;
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

void metric_estimate::reset(long d, bool dense) {
  dense_ = dense;
  count_ = 0;
  mean_ = m2_diag_ = delta_ = after_ = Eigen::VectorXd::Zero(d);
  m2_ = dense ? Eigen::MatrixXd::Zero(d, d) : Eigen::MatrixXd();
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
      m.set_covariance(w * m2_ / (n - 1) + shrink * Eigen::MatrixXd::Identity(d, d));
    } else {
      m.set_diagonal((w * m2_diag_ / (n - 1)).array() + shrink);
    }
  }
  count_ = 0;
}

}  // namespace ppl::samplers::hamiltonian
