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
#include "samplers/transform.hpp"

namespace ppl::samplers {

namespace {

constexpr long dense_limit = 50;  // larger blocks adapt a diagonal covariance

class rwmh_sampler final : public sampler {
 public:
  rwmh_sampler(runtime::graph& g, int v) : graph_(g), variable_(v) {
    g.visit_supports(v, [&](runtime::index_t offset, runtime::index_t size, const stdlib::support& s) {
      if (s.kind == stdlib::support_kind::simplex) {
        simplexes_.push_back({offset, size, dimension_});
        dimension_ += size - 1;
      } else {
        for (runtime::index_t e = offset; e < offset + size; ++e) transforms_.push_back({e, transform(s), dimension_++});
      }
    });
    auto d = static_cast<long>(dimension_);
    chol_ = Eigen::MatrixXd::Identity(d, d) * (2.38 / std::sqrt(static_cast<double>(d)));
    mean_ = Eigen::VectorXd::Zero(d);
    scatter_ = Eigen::MatrixXd::Zero(d, d);
  }

  void step(runtime::rng& rng, bool warmup) override {
    auto d = static_cast<long>(dimension_);
    Eigen::VectorXd y = current(), z(d);
    boost::random::normal_distribution<double> normal;
    for (long i = 0; i < d; ++i) z[i] = normal(rng);
    double before = target(y);
    Eigen::VectorXd proposal = y + std::exp(log_scale_) * (chol_ * z);
    double after = target(proposal);
    bool accept = std::log(boost::random::uniform_01<double>()(rng)) < after - before;
    if (!accept) target(y);  // restore
    if (warmup) adapt(accept ? proposal : y, accept);
    else {
      ++proposals_;
      accepted_ += accept;
    }
  }

  std::string report() const override {
    if (proposals_ == 0) return {};
    return "acceptance " + std::to_string(static_cast<double>(accepted_) / static_cast<double>(proposals_)).substr(0, 5);
  }

 private:
  Eigen::VectorXd current() const {
    const auto& x = graph_.value(variable_).data;
    Eigen::VectorXd y(static_cast<long>(dimension_));
    for (const auto& t : transforms_) y[t.position] = t.t.to_unconstrained(x[static_cast<std::size_t>(t.element)]);
    for (const auto& b : simplexes_)
      simplex_transform::to_unconstrained(x.data() + b.offset, static_cast<std::size_t>(b.size), y.data() + b.position);
    return y;
  }

  // Sets the variable to y and returns the joint log density plus the Jacobian.
  double target(const Eigen::VectorXd& y) {
    auto& x = graph_.values()[static_cast<std::size_t>(variable_)].data;
    double jacobian = 0;
    for (const auto& t : transforms_) {
      x[static_cast<std::size_t>(t.element)] = t.t.to_constrained(y[t.position]);
      jacobian += t.t.log_jacobian(y[t.position]);
    }
    for (const auto& b : simplexes_)
      jacobian += simplex_transform::to_constrained(y.data() + b.position, static_cast<std::size_t>(b.size), x.data() + b.offset);
    graph_.update_derived();
    double lp = graph_.log_density() + jacobian;
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

  runtime::graph& graph_;
  int variable_;
  struct scalar_block {
    runtime::index_t element;
    transform t;
    long position;  // in the unconstrained vector
  };
  struct simplex_block {
    runtime::index_t offset, size;
    long position;
  };
  std::vector<scalar_block> transforms_;
  std::vector<simplex_block> simplexes_;
  long dimension_ = 0;
  Eigen::MatrixXd chol_, scatter_;
  Eigen::VectorXd mean_;
  double log_scale_ = 0;
  long iterations_ = 0, proposals_ = 0, accepted_ = 0;
};

class rwmh_factory final : public factory {
 public:
  std::string_view kind() const override { return "rwmh"; }
  claim can_sample(runtime::graph& g, int v) const override {
    bool ok = true;
    g.visit_supports(v, [&](runtime::index_t, runtime::index_t, const stdlib::support& s) {
      if (s.kind != stdlib::support_kind::real_interval && s.kind != stdlib::support_kind::real_vector &&
          s.kind != stdlib::support_kind::simplex)
        ok = false;
    });
    return {ok, ok ? "continuous block, adaptive random-walk Metropolis" : "not continuous"};
  }
  std::unique_ptr<sampler> make(runtime::graph& g, int v) const override { return std::make_unique<rwmh_sampler>(g, v); }
};

}  // namespace

std::unique_ptr<factory> make_rwmh_factory() { return std::make_unique<rwmh_factory>(); }

}  // namespace ppl::samplers
