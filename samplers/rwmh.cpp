// `rwmh`: adaptive random-walk Metropolis for a whole variable as one block, on the
// unconstrained scale (log, logit, stick-breaking for simplexes). During warmup only, the proposal covariance follows the empirical
// covariance of the chain (Haario, Saksman & Tamminen 2001) scaled by 2.38^2 / d (Roberts,
// Gelman & Gilks 1997), and a global scale is tuned towards acceptance 0.234 by
// Robbins–Monro steps; after warmup the proposal is fixed, so the chain is Markov.
#include <Eigen/Dense>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cmath>

#include "samplers/factories.hpp"
#include "samplers/unconstrained.hpp"

namespace ppl::samplers {

namespace {

constexpr long dense_limit = 50;  // larger blocks adapt a diagonal covariance

class rwmh_sampler final : public sampler {
 public:
  rwmh_sampler(model::graph& g, int v) : graph_(g), target_(g, {v}), dimension_(target_.dimension()) {
    auto d = static_cast<long>(dimension_);
    chol_ = Eigen::MatrixXd::Identity(d, d) * (2.38 / std::sqrt(static_cast<double>(d)));
    mean_ = Eigen::VectorXd::Zero(d);
    scatter_ = Eigen::MatrixXd::Zero(d, d);
  }

  void step(ppl::rng& rng, bool warmup) override {
    target_.refresh_supports();
    auto d = static_cast<long>(dimension_);
    Eigen::VectorXd y = current(), z(d);
    boost::random::normal_distribution<double> normal;
    for (long i = 0; i < d; ++i) z[i] = normal(rng);
    double before = log_target(y);
    Eigen::VectorXd proposal = y + std::exp(log_scale_) * (chol_ * z);
    double after = log_target(proposal);
    if (!warmup && !std::isfinite(after)) ++non_finite_;  // rejected below: exp(-inf) is 0
    bool accept = std::log(boost::random::uniform_01<double>()(rng)) < after - before;
    if (!accept) log_target(y);  // restore
    if (warmup) adapt(accept ? proposal : y, accept);
    else {
      ++proposals_;
      accepted_ += accept;
    }
  }

  void persist(ppl::archive& a) override { a(chol_, scatter_, mean_, log_scale_, iterations_, proposals_, accepted_, non_finite_); }

  std::string report() const override {
    if (proposals_ == 0) return {};
    std::string out = "acceptance " + std::to_string(static_cast<double>(accepted_) / static_cast<double>(proposals_)).substr(0, 5);
    if (non_finite_ > 0) out += ", " + std::to_string(non_finite_) + " proposals with a non-finite log density rejected";
    return out;
  }

 private:
  Eigen::VectorXd current() const { return target_.position(); }

  // Sets the variable to y and returns the joint log density plus the Jacobian.
  double log_target(const Eigen::VectorXd& y) {
    const double log_jacobian = target_.set_with_jacobian(y);
    const double lp = graph_.log_density() + log_jacobian;
    return std::isnan(lp) ? -INFINITY : lp;
  }

  void adapt(const Eigen::VectorXd& y, bool accepted) {
    ++iterations_;
    auto n = static_cast<double>(iterations_);
    log_scale_ += ((accepted ? 1.0 : 0.0) - 0.234) / std::sqrt(n);
    Eigen::VectorXd delta = y - mean_;
    mean_ += delta / n;
    scatter_ += delta * (y - mean_).transpose();
    if (iterations_ < 100 || iterations_ % 50 != 0) return;
    auto d = static_cast<long>(dimension_);
    Eigen::MatrixXd cov = scatter_ / (n - 1) + 1e-8 * Eigen::MatrixXd::Identity(d, d);
    if (d > dense_limit) cov = Eigen::MatrixXd(cov.diagonal().asDiagonal());
    Eigen::LLT<Eigen::MatrixXd> llt(cov * (2.38 * 2.38 / static_cast<double>(d)));
    if (llt.info() == Eigen::Success) {
      chol_ = llt.matrixL();
      log_scale_ = 0;
    }
  }

  model::graph& graph_;
  unconstrained_target target_;
  long dimension_ = 0;
  Eigen::MatrixXd chol_, scatter_;
  Eigen::VectorXd mean_;
  double log_scale_ = 0;
  long iterations_ = 0, proposals_ = 0, accepted_ = 0;
  long non_finite_ = 0;  // proposals whose log density was NaN or -inf
};

class rwmh_factory final : public factory {
 public:
  std::string_view kind() const override { return "rwmh"; }
  claim can_sample(model::graph& g, int v) const override {
    bool ok = true;
    model::supports(g).visit(v, [&](ppl::index_t, ppl::index_t, const stdlib::support& s) { ok = ok && continuous_support(s); });
    if (!ok) return {false, "not continuous"};
    if (model::supports(g).reads_itself(v)) return {false, "its support's bounds follow its own values"};
    return {true, "continuous block, adaptive random-walk Metropolis"};
  }
  std::unique_ptr<sampler> make(model::graph& g, int v) const override { return std::make_unique<rwmh_sampler>(g, v); }
};

}  // namespace

std::unique_ptr<factory> make_rwmh_factory() { return std::make_unique<rwmh_factory>(); }

}  // namespace ppl::samplers
