// `nuts` and `hmc`: Hamiltonian Monte Carlo on a block of smooth continuous unknowns, on
// the unconstrained scale (samplers/unconstrained.*), with the gradient from the graph's
// reverse-mode pass.
//
// - `nuts`: the No-U-Turn sampler (Hoffman & Gelman 2014, JMLR 15) in the form Stan uses:
//   the trajectory doubles forwards or backwards in time until it turns back on itself
//   (the generalised criterion on the sum of momenta, Betancourt 2017, "A conceptual
//   introduction to Hamiltonian Monte Carlo", §A.4.2, checked across the merged subtrees
//   too) or reaches the maximum depth; the next state is drawn from the trajectory with
//   weights exp(-H) — uniformly within a new subtree, biased towards the new subtree when
//   it is merged — rather than by slice sampling.
// - `hmc`: static HMC, a fixed integration time of pi/2 in the adapted metric (a quarter
//   of the period of a unit-scale Gaussian), jittered by +-20% to avoid periodicities,
//   and a Metropolis correction.
//
// Warmup adapts both as Stan does: the step size by dual averaging towards a target
// acceptance statistic (Hoffman & Gelman 2014, §3.2; Nesterov 2009), restarted after
// every metric update; the inverse metric (the posterior's variances, or its covariance
// with --metric dense) estimated in windows that double in length between an initial
// and a final fast-adaptation buffer, shrunk towards a small multiple of the identity.
// A transition whose energy error exceeds 1000 is divergent: it ends the trajectory and is
// counted and reported with its iteration, as a sign that the sampler cannot follow the
// posterior's geometry there.
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cmath>
#include <fmt/core.h>
#include <numbers>

#include "samplers/factories.hpp"
#include "samplers/unconstrained.hpp"

namespace ppl::samplers {

namespace {

constexpr double max_energy_error = 1000;

struct point {
  Eigen::VectorXd q, p, g;  // position, momentum, gradient of log p at q
  double lp = 0;
};

// The kinetic energy 1/2 p' M^-1 p, with M^-1 the adapted inverse metric: a diagonal or,
// on request, a dense covariance (held by its Cholesky factor L, M^-1 = L L').
class metric {
 public:
  void reset(long d, bool dense) {
    dense_ = dense;
    diagonal_ = Eigen::VectorXd::Ones(d);
    if (dense) covariance_ = chol_ = Eigen::MatrixXd::Identity(d, d);
  }
  bool dense() const { return dense_; }
  void set_diagonal(const Eigen::VectorXd& v) { diagonal_ = v; }
  void set_covariance(const Eigen::MatrixXd& c) {
    Eigen::LLT<Eigen::MatrixXd> llt(c);
    if (llt.info() != Eigen::Success) return;
    covariance_ = c;
    chol_ = llt.matrixL();
  }
  // p ~ N(0, M): p = z / sqrt(diagonal), or p = L'^-1 z.
  Eigen::VectorXd draw(runtime::rng& rng) const {
    boost::random::normal_distribution<double> normal;
    Eigen::VectorXd z(diagonal_.size());
    for (long i = 0; i < z.size(); ++i) z[i] = normal(rng);
    if (dense_) return chol_.transpose().triangularView<Eigen::Upper>().solve(z);
    return z.cwiseQuotient(diagonal_.cwiseSqrt());
  }
  Eigen::VectorXd velocity(const Eigen::VectorXd& p) const {
    return dense_ ? Eigen::VectorXd(covariance_ * p) : Eigen::VectorXd(diagonal_.cwiseProduct(p));
  }
  double kinetic(const Eigen::VectorXd& p) const { return 0.5 * p.dot(velocity(p)); }
  void persist(runtime::archive& a) { a(dense_, diagonal_, covariance_, chol_); }
  // As Stan's adaptation block gives it: the diagonal on one line, or the matrix by rows.
  std::vector<std::string> lines() const {
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

 private:
  bool dense_ = false;
  Eigen::VectorXd diagonal_;
  Eigen::MatrixXd covariance_, chol_;
};

// Dual averaging of log step size (Hoffman & Gelman 2014, Algorithm 5) with Stan's constants.
struct dual_averaging {
  double target = 0.8, mu = 0, s_bar = 0, x_bar = 0;
  long count = 0;
  void restart(double step) {
    mu = std::log(10 * step);
    s_bar = x_bar = 0;
    count = 0;
  }
  double learn(double accept_stat) {
    constexpr double gamma = 0.05, kappa = 0.75, t0 = 10;
    ++count;
    const double n = static_cast<double>(count), eta = 1 / (n + t0);
    s_bar = (1 - eta) * s_bar + eta * (target - std::min(1.0, accept_stat));
    const double x = mu - s_bar * std::sqrt(n) / gamma, weight = std::pow(n, -kappa);
    x_bar = weight * x + (1 - weight) * x_bar;
    return std::exp(x);
  }
  double final_step() const { return std::exp(x_bar); }
  void persist(runtime::archive& a) { a(target, mu, s_bar, x_bar, count); }
};

// Stan's warmup windows: an initial buffer (step size only), windows of doubling length
// whose draws estimate the metric, and a final buffer (step size only). Too short a
// warmup for the defaults 75 / 25 / 50 gets 15% / 75% / 10%.
class windows {
 public:
  void reset(long warmup) {
    warmup_ = warmup;
    init_ = 75, term_ = 50, base_ = 25;
    if (warmup < 20) {
      init_ = warmup, term_ = 0, base_ = 0;  // too short to estimate a metric
    } else if (init_ + term_ + base_ > warmup) {
      init_ = static_cast<long>(0.15 * static_cast<double>(warmup));
      term_ = static_cast<long>(0.1 * static_cast<double>(warmup));
      base_ = warmup - init_ - term_;
    }
    size_ = base_;
    end_ = init_ + base_ - 1;
  }
  // Whether warmup iteration i (0-based) contributes to the metric's estimate.
  bool collects(long i) const { return base_ > 0 && i >= init_ && i < warmup_ - term_; }
  // Whether a window ends at iteration i; then moves to the next.
  bool closes(long i) {
    if (!collects(i) || i != end_) return false;
    const long last = warmup_ - term_ - 1;
    if (end_ != last) {
      size_ *= 2;
      end_ = i + size_;
      if (end_ + 2 * size_ > last) end_ = last;  // a last window too short to stand alone joins this one
    }
    return true;
  }
  void persist(runtime::archive& a) { a(warmup_, init_, term_, base_, size_, end_); }

 private:
  long warmup_ = 0, init_ = 0, term_ = 0, base_ = 0, size_ = 0, end_ = -1;
};

enum class integrator { nuts, static_hmc };

class hamiltonian_sampler final : public sampler {
 public:
  hamiltonian_sampler(runtime::graph& g, std::vector<int> variables, integrator kind)
      : target_(g, std::move(variables)), kind_(kind) {
    configure(sampler_settings{});  // no warmup known: step size adapted, metric the identity
  }

  void configure(const sampler_settings& s) override {
    warmup_ = s.warmup;
    max_depth_ = s.max_depth;
    adapt_.target = s.target_accept;
    metric_.reset(target_.dimension(), s.dense_metric);
    windows_.reset(s.warmup);
  }

  void step(runtime::rng& rng, bool warmup) override {
    target_.refresh_supports();
    point z;
    z.q = target_.position();
    z.lp = target_.log_density(z.q, z.g);
    // The block's terms of the joint, without the Jacobian, at the start: the change in
    // lp__ is theirs at the end minus this.
    const double start_terms = z.lp - target_.log_jacobian();
    change_ = 0;
    if (!std::isfinite(z.lp)) {
      // The other samplers moved the state where this block's density is not finite; stay.
      target_.set(z.q);
      count(false, warmup);
      ++not_finite_start_;
      stats_ = {0, step_size_, 0, 0, false, NAN};
      return;
    }
    if (step_size_ <= 0) {
      step_size_ = find_step_size(z, rng, 1.0);
      adapt_.restart(step_size_);
    }
    const double used = kind_ == integrator::nuts ? step_size_ : jittered(rng);
    double accept_stat = kind_ == integrator::nuts ? nuts_transition(z, rng, used) : hmc_transition(z, rng, used);
    stats_ = {accept_stat, used, depth_, leapfrogs_, divergent_, hamiltonian(z)};
    change_ = z.lp - target_.set_with_jacobian(z.q) - start_terms;
    count(divergent_, warmup);
    if (warmup) adapt(z, accept_stat, rng);
    else {
      sum_accept_ += accept_stat;
      sum_depth_ += static_cast<double>(depth_);
      sum_leapfrogs_ += static_cast<double>(leapfrogs_);
    }
  }

  void persist(runtime::archive& a) override {
    metric_.persist(a);
    adapt_.persist(a);
    windows_.persist(a);
    a(warmup_, warmup_iteration_, max_depth_, step_size_, divergent_, depth_, leapfrogs_, collected_, mean_, m2_diag_, m2_,
      kept_, divergent_warmup_, divergent_kept_, sum_accept_, sum_depth_, sum_leapfrogs_, not_finite_start_);
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
    out += fmt::format("mean leapfrog steps {:.1f}, {} divergent after warmup", sum_leapfrogs_ / n, divergent_kept_.size());
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
  // ---- the dynamics ----
  // One leapfrog step of size eps (negative: backwards in time); false when the new
  // position's density or gradient is not finite.
  void leapfrog(point& z, double eps) {
    z.p += 0.5 * eps * z.g;
    z.q += eps * metric_.velocity(z.p);
    z.lp = target_.log_density(z.q, z.g);
    if (std::isfinite(z.lp)) z.p += 0.5 * eps * z.g;
  }
  double hamiltonian(const point& z) const {
    const double h = -z.lp + metric_.kinetic(z.p);
    return std::isnan(h) ? INFINITY : h;
  }

  // Stan's heuristic: double or halve the step until one leapfrog step's acceptance
  // probability crosses 0.8.
  double find_step_size(const point& start, runtime::rng& rng, double eps) {
    int direction = 0;
    for (int tries = 0; tries < 100; ++tries) {
      point z = start;
      z.p = metric_.draw(rng);
      const double h0 = hamiltonian(z);
      leapfrog(z, eps);
      const double delta = h0 - hamiltonian(z);
      const int want = delta > std::log(0.8) ? 1 : -1;
      if (direction == 0) direction = want;
      else if (want != direction) break;
      eps = direction > 0 ? 2 * eps : eps / 2;
      if (eps > 1e7 || eps < 1e-12) break;
    }
    return eps;
  }

  double jittered(runtime::rng& rng) const {
    return step_size_ * (0.8 + 0.4 * boost::random::uniform_01<double>()(rng));
  }

  double hmc_transition(point& z, runtime::rng& rng, double eps) {
    z.p = metric_.draw(rng);
    const point start = z;
    const double h0 = hamiltonian(z);
    const long steps = std::max(1L, std::lround(std::numbers::pi / 2 / eps));
    divergent_ = false;
    leapfrogs_ = 0;
    for (long s = 0; s < steps; ++s) {
      leapfrog(z, eps);
      ++leapfrogs_;
      if (hamiltonian(z) - h0 > max_energy_error) {
        divergent_ = true;
        break;
      }
    }
    const double h = hamiltonian(z);
    const double accept = divergent_ ? 0 : std::min(1.0, std::exp(h0 - h));
    if (boost::random::uniform_01<double>()(rng) >= accept) z = start;
    depth_ = 0;
    return accept;
  }

  // One NUTS transition from z (whose momentum is redrawn); returns the mean acceptance
  // statistic over the trajectory, for step-size adaptation.
  struct tree_state {
    double h0;
    double eps;
    long leapfrogs = 0;
    double sum_metro = 0;
    bool divergent = false;
  };
  struct edge {  // the momentum and velocity at one end of a (sub)trajectory
    Eigen::VectorXd p, v;
  };

  double nuts_transition(point& z, runtime::rng& rng, double eps) {
    boost::random::uniform_01<double> uniform;
    z.p = metric_.draw(rng);
    tree_state t{hamiltonian(z), eps};
    point forward = z, backward = z, sample = z;
    edge fwd_end{z.p, metric_.velocity(z.p)}, bwd_end = fwd_end;
    // The inner ends of the two halves next to the last merge, for the extra checks.
    Eigen::VectorXd rho = z.p;
    double log_weight = 0;  // log of the sum of exp(H0 - H) over the trajectory
    depth_ = 0;
    while (depth_ < max_depth_) {
      const bool go_forward = uniform(rng) > 0.5;
      point proposal;
      Eigen::VectorXd rho_new = Eigen::VectorXd::Zero(z.p.size());
      double log_weight_new = -INFINITY;
      edge new_begin, new_end;
      point& end = go_forward ? forward : backward;
      bool valid = build_tree(depth_, end, proposal, new_begin, new_end, rho_new, log_weight_new, go_forward ? 1 : -1, t, rng);
      if (!valid) break;
      ++depth_;
      // Biased progressive sampling: move to the new subtree with probability
      // min(1, its weight / the old trajectory's weight).
      if (log_weight_new > log_weight || uniform(rng) < std::exp(log_weight_new - log_weight)) sample = proposal;
      log_weight = log_sum_exp(log_weight, log_weight_new);
      // The merged trajectory, ends ordered in time: [backward end ... forward end].
      const edge old_fwd = fwd_end, old_bwd = bwd_end;
      const Eigen::VectorXd rho_old = rho;
      rho = rho_old + rho_new;
      bool turning;
      if (go_forward) {
        fwd_end = new_end;
        // old [bwd_end .. old_fwd] + new [new_begin .. new_end]
        turning = !no_u_turn(bwd_end.v, fwd_end.v, rho) || !no_u_turn(bwd_end.v, new_begin.v, rho_old + new_begin.p) ||
                  !no_u_turn(old_fwd.v, fwd_end.v, rho_new + old_fwd.p);
      } else {
        bwd_end = new_end;
        // new [new_end .. new_begin] + old [old_bwd .. fwd_end]
        turning = !no_u_turn(bwd_end.v, fwd_end.v, rho) || !no_u_turn(bwd_end.v, old_bwd.v, rho_new + old_bwd.p) ||
                  !no_u_turn(new_begin.v, fwd_end.v, rho_old + new_begin.p);
      }
      if (turning) break;
    }
    divergent_ = t.divergent;
    leapfrogs_ = t.leapfrogs;
    z = sample;
    return t.leapfrogs > 0 ? t.sum_metro / static_cast<double>(t.leapfrogs) : 0;
  }

  // The trajectory keeps going while its ends' velocities both point along rho, the sum of
  // the momenta between them.
  static bool no_u_turn(const Eigen::VectorXd& v_back, const Eigen::VectorXd& v_front, const Eigen::VectorXd& rho) {
    return v_front.dot(rho) > 0 && v_back.dot(rho) > 0;
  }
  static double log_sum_exp(double a, double b) {
    if (a == -INFINITY) return b;
    if (b == -INFINITY) return a;
    const double m = std::max(a, b);
    return m + std::log(std::exp(a - m) + std::exp(b - m));
  }

  // Extends the trajectory from `end` by 2^depth leapfrog steps in direction `sign`,
  // leaving `end` at the new end. `begin`/`last` get the momenta and velocities at the
  // subtree's first and last states (in the direction of travel), `rho` the sum of its
  // momenta, `log_weight` the log of its sum of exp(H0 - H), `proposal` a state drawn from
  // it with those weights. False when it diverged or a sub-trajectory turned.
  bool build_tree(int depth, point& end, point& proposal, edge& begin, edge& last, Eigen::VectorXd& rho, double& log_weight,
                  int sign, tree_state& t, runtime::rng& rng) {
    if (depth == 0) {
      leapfrog(end, sign * t.eps);
      ++t.leapfrogs;
      const double h = hamiltonian(end);
      if (h - t.h0 > max_energy_error) t.divergent = true;
      const double delta = t.h0 - h;
      log_weight = log_sum_exp(log_weight, delta);
      t.sum_metro += delta > 0 ? 1 : std::exp(delta);
      proposal = end;
      begin = {end.p, metric_.velocity(end.p)};
      last = begin;
      rho += end.p;
      return !t.divergent;
    }
    // First half.
    edge first_end;
    Eigen::VectorXd rho_first = Eigen::VectorXd::Zero(rho.size());
    double log_weight_first = -INFINITY;
    if (!build_tree(depth - 1, end, proposal, begin, first_end, rho_first, log_weight_first, sign, t, rng)) return false;
    // Second half.
    point proposal_second;
    edge second_begin;
    Eigen::VectorXd rho_second = Eigen::VectorXd::Zero(rho.size());
    double log_weight_second = -INFINITY;
    if (!build_tree(depth - 1, end, proposal_second, second_begin, last, rho_second, log_weight_second, sign, t, rng))
      return false;
    // Within a subtree the draw is uniform in the weights.
    const double log_weight_both = log_sum_exp(log_weight_first, log_weight_second);
    if (boost::random::uniform_01<double>()(rng) < std::exp(log_weight_second - log_weight_both)) proposal = proposal_second;
    log_weight = log_sum_exp(log_weight, log_weight_both);
    const Eigen::VectorXd rho_both = rho_first + rho_second;
    rho += rho_both;
    // In time order the subtree is [begin .. first_end][second_begin .. last] whatever the
    // direction, and the criterion is symmetric in it.
    return no_u_turn(begin.v, last.v, rho_both) && no_u_turn(begin.v, second_begin.v, rho_first + second_begin.p) &&
           no_u_turn(first_end.v, last.v, rho_second + first_end.p);
  }

  // ---- adaptation ----
  void adapt(const point& z, double accept_stat, runtime::rng& rng) {
    const long i = warmup_iteration_++;
    step_size_ = adapt_.learn(accept_stat);
    if (windows_.collects(i)) collect(z.q);
    if (windows_.closes(i)) {
      update_metric();
      point here = z;
      here.lp = target_.log_density(here.q, here.g);
      step_size_ = find_step_size(here, rng, step_size_);
      // The trial steps wrote their positions to the graph: the chain stays where it was.
      target_.set(here.q);
      adapt_.restart(step_size_);
    }
    if (warmup_iteration_ == warmup_) step_size_ = adapt_.final_step();
  }

  void collect(const Eigen::VectorXd& q) {
    const long d = q.size();
    if (collected_ == 0) {
      mean_ = Eigen::VectorXd::Zero(d);
      m2_diag_ = Eigen::VectorXd::Zero(d);
      if (metric_.dense()) m2_ = Eigen::MatrixXd::Zero(d, d);
    }
    ++collected_;
    const Eigen::VectorXd delta = q - mean_;
    mean_ += delta / static_cast<double>(collected_);
    const Eigen::VectorXd after = q - mean_;
    m2_diag_ += delta.cwiseProduct(after);
    if (metric_.dense()) m2_ += delta * after.transpose();
  }

  // The window's sample (co)variance, shrunk towards 1e-3 I as Stan does: n / (n + 5) of the
  // estimate and 5 / (n + 5) of the regulariser.
  void update_metric() {
    const double n = static_cast<double>(collected_);
    if (collected_ >= 3) {
      const double w = n / (n + 5), shrink = 1e-3 * 5 / (n + 5);
      if (metric_.dense()) {
        const long d = m2_.rows();
        metric_.set_covariance(w * m2_ / (n - 1) + shrink * Eigen::MatrixXd::Identity(d, d));
      } else {
        metric_.set_diagonal((w * m2_diag_ / (n - 1)).array() + shrink);
      }
    }
    collected_ = 0;
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
  dual_averaging adapt_;
  windows windows_;
  long warmup_ = 0, warmup_iteration_ = 0;
  int max_depth_ = 10;
  double step_size_ = 0;
  // The last transition.
  transition_stats stats_;
  double change_ = NAN;  // the last step's change in the joint log density
  bool divergent_ = false;
  int depth_ = 0;
  long leapfrogs_ = 0;
  // The metric's running estimate (Welford).
  long collected_ = 0;
  Eigen::VectorXd mean_, m2_diag_;
  Eigen::MatrixXd m2_;
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
  claim can_sample(runtime::graph& g, int v) const override {
    std::string reason;
    const bool ok = smooth_block(g, v, reason);
    if (ok)
      reason += std::string(kind_ == integrator::nuts ? ": NUTS" : ": static HMC") +
                (g.support_moves(v) ? " on its own, its support's bounds following other unknowns" : " with the block's other smooth unknowns");
    return {ok, reason};
  }
  bool joins_block() const override { return true; }
  std::unique_ptr<sampler> make(runtime::graph& g, int v) const override { return make_block(g, {v}); }
  std::unique_ptr<sampler> make_block(runtime::graph& g, const std::vector<int>& variables) const override {
    return std::make_unique<hamiltonian_sampler>(g, variables, kind_);
  }

 private:
  integrator kind_;
};

}  // namespace

std::unique_ptr<factory> make_nuts_factory() { return std::make_unique<hamiltonian_factory>(integrator::nuts); }
std::unique_ptr<factory> make_hmc_factory() { return std::make_unique<hamiltonian_factory>(integrator::static_hmc); }

}  // namespace ppl::samplers
