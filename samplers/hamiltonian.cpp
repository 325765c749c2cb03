// `nuts` and `hmc`: Hamiltonian Monte Carlo on a block of smooth continuous unknowns, on
// the unconstrained scale (samplers/unconstrained.*), with the gradient from the graph's
// reverse-mode pass.
//
// - `nuts`: the No-U-Turn sampler as Stan has it (samplers/nuts_tree.*).
// - `hmc`: static HMC, a fixed integration time of pi/2 in the adapted metric (a quarter
//   of the period of a unit-scale Gaussian), jittered by +-20% to avoid periodicities,
//   and a Metropolis correction (samplers/hamiltonian_dynamics.*).
//
// Warmup adapts both as Stan does (samplers/hamiltonian_adaptation.hpp): the step size by
// dual averaging towards a target acceptance statistic, restarted after every metric
// update; the inverse metric (the posterior's variances, or its covariance with --metric
// dense) estimated in windows that double in length between an initial and a final
// fast-adaptation buffer, shrunk towards a small multiple of the identity
// (samplers/hamiltonian_metric.*). A transition whose energy error exceeds 1000 is
// divergent: it ends the trajectory and is counted and reported with its iteration, as a
// sign that the sampler cannot follow the posterior's geometry there.
//
// A transition starts from the state the last one drew, whose density and gradient it
// already has, unless another sampler has since moved something the block's terms read
// (unconstrained_target::inputs_unchanged); then it evaluates them again.
#include <boost/random/uniform_01.hpp>
#include <cmath>
#include <limits>
#include <fmt/core.h>
#include <numbers>

#include "samplers/factories.hpp"
#include "samplers/hamiltonian_adaptation.hpp"
#include "samplers/hamiltonian_dynamics.hpp"
#include "samplers/nuts_tree.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers {

namespace {

using namespace hamiltonian;

enum class integrator { nuts, static_hmc };

class hamiltonian_sampler final : public sampler {
 public:
  hamiltonian_sampler(model::graph& g, std::vector<int> variables, integrator kind)
      : target_(g, std::move(variables)), kind_(kind), dynamics_(target_, metric_) {
    configure(sampler_settings{});  // no warmup known: step size adapted, metric the identity
  }

  void configure(const sampler_settings& s) override {
    warmup_ = s.warmup;
    max_depth_ = s.max_depth;
    adapt_.target = s.target_accept;
    metric_.reset(target_.dimension(), s.metric == metric_choice::dense);
    // A funnel's metric follows its scale: auto keeps such a block diagonal.
    const bool funnel = s.metric == metric_choice::automatic && funnel_shaped(target_.graph().model(), target_.variables());
    estimate_.reset(target_.dimension(), funnel ? metric_choice::diagonal : s.metric);
    windows_.reset(s.warmup, start_metric(s, funnel));
  }

  void step(ppl::rng& rng, bool warmup) override {
    const double start_terms = start();
    change_ = 0;
    if (!std::isfinite(z_.lp)) {
      // The other samplers moved the state where this block's density is not finite; stay.
      target_.set(z_.q);
      count(false, warmup);
      ++not_finite_start_;
      stats_ = {0, step_size_, 0, 0, false, NAN};
      return;
    }
    if (step_size_ <= 0) {
      step_size_ = dynamics_.find_step_size(z_, rng, 1.0);
      adapt_.restart(step_size_);
    }
    const double used = kind_ == integrator::nuts ? step_size_ : jittered(rng);
    const transition_result r = kind_ == integrator::nuts ? tree_.transition(dynamics_, z_, rng, used, max_depth_)
                                                          : dynamics_.static_transition(z_, rng, used, hmc_steps(used));
    divergent_ = r.divergent, depth_ = r.depth, leapfrogs_ = r.leapfrogs;
    stats_ = {r.accept_stat, used, depth_, leapfrogs_, divergent_, dynamics::hamiltonian(z_)};
    if (!dynamics_.holds(z_)) target_.set(z_.q);
    change_ = z_.lp - z_.log_jacobian - start_terms;
    count(divergent_, warmup);
    if (warmup) {
      warmup_leapfrogs_ += leapfrogs_;
      adapt(r.accept_stat, rng);
    } else {
      sum_accept_ += r.accept_stat;
      sum_depth_ += static_cast<double>(depth_);
      sum_leapfrogs_ += static_cast<double>(leapfrogs_);
    }
    target_.remember_inputs();
    have_start_ = true;
  }

  bool stranded() const override { return warmup_iteration_ > 0 && step_size_ < 1e-8; }

  void persist(ppl::archive& a) override {
    metric_.persist(a);
    adapt_.persist(a);
    windows_.persist(a);
    a(warmup_, warmup_iteration_, max_depth_, step_size_, divergent_, depth_, leapfrogs_);
    estimate_.persist(a);
    a(kept_, divergent_warmup_, divergent_kept_, sum_accept_, sum_depth_, sum_leapfrogs_, not_finite_start_, warmup_leapfrogs_);
    // The state drawn, exactly (the graph holds it constrained, which need not give the same
    // bits back), so that a resumed chain starts its next transition where the chain would have.
    a(have_start_, z_.q);
    target_.persist_inputs(a);
    if (a.reading()) z_.evaluation = 0;  // its density and gradient are evaluated at the next step
  }

  const transition_stats* last_transition() const override { return &stats_; }
  double last_change() const override { return change_; }

  std::vector<std::string> adaptation() const override {
    std::vector<std::string> out{fmt::format("Step size = {:.6g}", step_size_)};
    for (auto& line : metric_.lines()) out.push_back(std::move(line));
    return out;
  }

  std::string report() const override {
    const double n = static_cast<double>(std::max(1L, kept_));
    std::string out = fmt::format("{}: step size {:.3g}, mean accept_stat {:.3f}, ", kind_ == integrator::nuts ? "nuts" : "hmc",
                                  step_size_, sum_accept_ / n);
    if (kind_ == integrator::nuts) out += fmt::format("mean tree depth {:.2f}, ", sum_depth_ / n);
    out += fmt::format("mean leapfrog steps {:.1f}, {} leapfrog steps in warmup, {} divergent after warmup", sum_leapfrogs_ / n,
                       warmup_leapfrogs_, divergent_kept_.size());
    if (!divergent_kept_.empty()) {
      out += " (iterations";
      for (std::size_t i = 0; i < divergent_kept_.size() && i < 20; ++i) out += " " + std::to_string(divergent_kept_[i]);
      out += divergent_kept_.size() > 20 ? " ...)" : ")";
    }
    if (divergent_warmup_ > 0) out += fmt::format(", {} during warmup", divergent_warmup_);
    if (not_finite_start_ > 0)
      out += fmt::format("; {} transitions skipped (warmup included): the other samplers left the block where its log density is not finite",
                         not_finite_start_);
    return out;
  }

 private:
  // z_ at the block's state, its log density and gradient evaluated there unless the last
  // step left them and nothing they read has moved since. Returns the block's terms of the
  // joint there, without the Jacobian: the change in lp__ is theirs at the end minus these.
  double start() {
    target_.refresh_supports();
    const bool same_start = have_start_ && target_.inputs_unchanged();
    if (!same_start) target_.position(z_.q);
    if (!same_start || z_.evaluation == 0) dynamics_.evaluate(z_);
    have_start_ = false;
    return z_.lp - z_.log_jacobian;
  }

  double jittered(ppl::rng& rng) const {
    return step_size_ * (0.8 + 0.4 * boost::random::uniform_01<double>()(rng));
  }
  static long hmc_steps(double eps) { return std::max(1L, std::lround(std::numbers::pi / 2 / eps)); }

  void adapt(double accept_stat, ppl::rng& rng) {
    const long i = warmup_iteration_++;
    step_size_ = adapt_.learn(accept_stat);
    if (windows_.collects(i)) estimate_.add(z_.q);
    if (windows_.closes(i)) {
      estimate_.update(metric_);
      step_size_ = dynamics_.find_step_size(z_, rng, step_size_);
      // The trial steps wrote their positions to the graph: the chain stays where it was.
      target_.set(z_.q);
      adapt_.restart(step_size_);
    }
    if (warmup_iteration_ == warmup_) step_size_ = adapt_.final_step();
  }

  // Starts the metric from a path's approximation where it covers every coordinate: its
  // covariance where the block may be dense and the path's correlations are strong (the
  // windows too short to estimate them then keep them: metric_estimate::guide), else its
  // variances.
  bool start_metric(const sampler_settings& s, bool funnel) {
    if (!s.start_metric || target_.dimension() == 0) return false;
    const path_metric& path = *s.start_metric;
    std::vector<long> rows;
    for (const auto& key : target_.coordinate_keys()) {
      const auto found = path.row.find(key);
      if (found == path.row.end()) return false;
      rows.push_back(found->second);
    }
    const auto d = static_cast<long>(rows.size());
    Eigen::VectorXd variances(d);
    for (long i = 0; i < d; ++i) variances[i] = path.variances[rows[static_cast<std::size_t>(i)]];
    if (!variances.allFinite() || !(variances.minCoeff() > 0)) return false;
    const bool may_be_dense = s.metric == metric_choice::dense || (estimate_.automatic() && !funnel);
    if (may_be_dense && path.covariance.rows() > 0) {
      Eigen::MatrixXd c(d, d);
      for (long i = 0; i < d; ++i)
        for (long j = 0; j < d; ++j) c(i, j) = path.covariance(rows[static_cast<std::size_t>(i)], rows[static_cast<std::size_t>(j)]);
      if (s.metric == metric_choice::dense || metric_estimate::strongly_correlated(c, std::numeric_limits<long>::max())) {
        metric_.set_covariance(c);
        if (metric_.dense()) {
          const Eigen::VectorXd scale = c.diagonal().cwiseSqrt().cwiseInverse();
          if (s.metric != metric_choice::dense ) estimate_.guide(scale.asDiagonal() * c * scale.asDiagonal());
          return true;
        }
      }
    }
    metric_.set_diagonal(variances);
    return true;
  }

  void count(bool divergent, bool warmup) {
    if (warmup) {
      divergent_warmup_ += divergent;
      return;
    }
    ++kept_;
    if (divergent) divergent_kept_.push_back(kept_);
  }

  unconstrained_target target_;
  integrator kind_;
  metric metric_;
  metric_estimate estimate_;
  dual_averaging adapt_;
  windows windows_;
  dynamics dynamics_;
  nuts_tree tree_;
  point z_;                  // the current state: after a step, the one drawn
  bool have_start_ = false;  // z_ holds the graph's state, its density and gradient evaluated
  long warmup_ = 0, warmup_iteration_ = 0;
  int max_depth_ = 10;
  double step_size_ = 0;
  // The last transition.
  transition_stats stats_;
  double change_ = NAN;  // the last step's change in the joint log density
  bool divergent_ = false;
  int depth_ = 0;
  long leapfrogs_ = 0;
  long warmup_leapfrogs_ = 0;  // each a gradient: the warmup's cost, which a start nearer the bulk can save
  // After warmup.
  long kept_ = 0, divergent_warmup_ = 0;
  std::vector<long> divergent_kept_;
  double sum_accept_ = 0, sum_depth_ = 0, sum_leapfrogs_ = 0;
  long not_finite_start_ = 0;
};

class hamiltonian_factory final : public factory {
 public:
  explicit hamiltonian_factory(integrator kind) : kind_(kind) {}
  std::string_view kind() const override { return kind_ == integrator::nuts ? "nuts" : "hmc"; }
  claim can_sample(model::graph& g, int v) const override {
    std::string reason;
    const bool ok = smooth_block(g, v, reason);
    if (ok)
      reason += std::string(kind_ == integrator::nuts ? ": NUTS" : ": static HMC") +
                (!model::supports(g).moves(v)     ? " with the block's other smooth unknowns"
                 : model::supports(g).follows_bounds(v) ? " with the block's other smooth unknowns, its bounds moving with those they read"
                                       : " on its own, its support's bounds following other unknowns");
    return {ok, reason};
  }
  bool joins_block() const override { return true; }
  std::unique_ptr<sampler> make(model::graph& g, int v) const override { return make_block(g, {v}); }
  std::unique_ptr<sampler> make_block(model::graph& g, const std::vector<int>& variables) const override {
    return std::make_unique<hamiltonian_sampler>(g, variables, kind_);
  }

 private:
  integrator kind_;
};

}  // namespace

std::unique_ptr<factory> make_nuts_factory() { return std::make_unique<hamiltonian_factory>(integrator::nuts); }
std::unique_ptr<factory> make_hmc_factory() { return std::make_unique<hamiltonian_factory>(integrator::static_hmc); }

}  // namespace ppl::samplers
