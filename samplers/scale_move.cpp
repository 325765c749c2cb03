// The non-centred scale move: after the sweep, a hierarchical scale theta and the random
// effects b[i] ~ Normal(m[i], g(theta)) it scales are moved together, theta by a slice step
// (Neal 2003) with the standardised effects eta[i] = (b[i] - m[i]) / g(theta) held fixed.
// That is the Gibbs update of theta in the non-centred parameterisation, interwoven with
// the sweep's centred one (Yu & Meng 2011, "To center or not to center"): the centred
// update of theta given b cannot move far when the effects pin it (the funnel of weakly
// informed random effects: Oxford, Magnesium, LeukFr), the non-centred one can, and
// alternating the two mixes well whichever the data favour. In the coordinates (theta, eta)
// the target is p(theta, b(theta, eta)) prod_i g_i(theta), the last factor the Jacobian of
// eta -> b; the slice runs on log theta (theta > 0), with its Jacobian theta.
#include <algorithm>
#include <array>
#include <boost/random/uniform_01.hpp>
#include <cmath>

#include "samplers/factories.hpp"
#include "samplers/gaussian_block_structure.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers {

using lang::ir::role;
using lang::ir::statement;

namespace {

// Whether (theta, b) has the form: theta a real scalar unknown on a positive interval whose prior does
// not read b; every statement defining b is Normal with a scale reading theta and neither
// argument reading b, the mean not reading theta.
bool scale_pair(model::graph& g, int theta, int b) {
  const auto& m = g.model();
  const auto& tv = m.variables[static_cast<std::size_t>(theta)];
  const auto& bv = m.variables[static_cast<std::size_t>(b)];
  if (theta == b || tv.role != role::unknown || bv.role != role::unknown) return false;
  if (tv.type.kind != stdlib::scalar_kind::real || bv.type.kind != stdlib::scalar_kind::real || g.value(theta).size() != 1) return false;
  if (bv.filled_from >= 0 || bv.constraint != lang::ir::vector_constraint::none || model::supports(g).moves(b) || model::supports(g).moves(theta)) return false;
  // The cheap test first: the planner asks it of every pair of unknowns.
  const auto normal = [&](int si) {
    const statement& s = m.statements[static_cast<std::size_t>(si)];
    return s.which == statement::kind::sample && s.dist_name == "Normal" && s.args.size() == 2;
  };
  if (bv.statements.empty() || !std::all_of(bv.statements.begin(), bv.statements.end(), normal)) return false;
  std::vector<char> from_theta(m.variables.size(), 0), from_b(m.variables.size(), 0);
  from_theta[static_cast<std::size_t>(theta)] = 1;
  from_b[static_cast<std::size_t>(b)] = 1;
  from_theta = reaching(m, from_theta);
  from_b = reaching(m, from_b);
  for (int si : tv.statements) {
    const statement& s = m.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample) return false;
    for (const auto& a : s.args)
      if (reads_marked(a.get(), from_b)) return false;
    const auto loops = model::instances(g).table(s);
    const auto support = s.dist->value_support(model::instances(g).args_at(s, loops.data()));
    if (support.kind != stdlib::support_kind::real_interval || !(support.lower >= 0)) return false;
  }
  for (int si : bv.statements) {
    const statement& s = m.statements[static_cast<std::size_t>(si)];
    if (reads_marked(s.args[0].get(), from_b) || reads_marked(s.args[0].get(), from_theta)) return false;
    if (reads_marked(s.args[1].get(), from_b) || !reads_marked(s.args[1].get(), from_theta)) return false;
    for (const auto& ix : s.target_indices)
      if (reads_marked(ix.get(), from_b) || reads_marked(ix.get(), from_theta)) return false;
  }
  return true;
}

class scale_move_sampler final : public sampler {
 public:
  scale_move_sampler(model::graph& g, int theta, int b) : graph_(g), theta_(theta), b_(b) {
    const auto& m = g.model();
    std::vector<char> marked(m.variables.size(), 0);
    marked[static_cast<std::size_t>(theta)] = marked[static_cast<std::size_t>(b)] = 1;
    needed_ = reaching(m, marked);
    for (const statement& s : m.statements) {
      if (s.which == statement::kind::assign || g.predictive(s)) continue;
      const auto reads = lang::ir::statement_reads(s);
      const bool own = s.target == theta || s.target == b;
      if (own || std::any_of(reads.begin(), reads.end(), [&](int r) { return needed_[static_cast<std::size_t>(r)] != 0; }))
        terms_.push_back(&s);
    }
    for (std::size_t v = 0; v < needed_.size(); ++v)
      if (m.variables[v].role != role::derived) needed_[v] = 0;
    // Of those, what b's scales can read: nothing downstream of b (scale_pair).
    std::vector<char> from_b(m.variables.size(), 0);
    from_b[static_cast<std::size_t>(b)] = 1;
    from_b = reaching(m, from_b);
    scale_needed_ = needed_;
    for (std::size_t v = 0; v < scale_needed_.size(); ++v)
      if (from_b[v]) scale_needed_[v] = 0;
    for (int si : m.variables[static_cast<std::size_t>(b)].statements) {
      const statement& s = m.statements[static_cast<std::size_t>(si)];
      auto table = model::instances(g).table(s);
      const std::size_t depth = s.loops.size(), count = depth ? table.size() / depth : 1;
      for (std::size_t i = 0; i < count; ++i) instances_.push_back({&s, std::vector<ppl::index_t>(table.begin() + static_cast<long>(i * depth), table.begin() + static_cast<long>((i + 1) * depth)), 0});
      statements_.emplace_back(&s, count);
    }
    for (auto& in : instances_) in.offset = model::instances(g).target(*in.s, in.loops.data()).first;
    split_terms(from_b);
  }

  void step(ppl::rng& rng, bool) override {
    change_ = 0;
    const double theta = graph_.value(theta_).data[0];
    if (!(theta > 0) || !std::isfinite(theta)) return;
    // The means and the standardised effects at the current state.
    read_argument(0, means_);
    read_argument(1, scales_);
    scales0_ = scales_;
    eta_.resize(instances_.size());
    constant_ = 0;
    for (std::size_t i = 0; i < instances_.size(); ++i) {
      eta_[i] = (graph_.value(b_).data[static_cast<std::size_t>(instances_[i].offset)] - means_[i]) / scales_[i];
      constant_ -= 0.5 * (log_two_pi + eta_[i] * eta_[i]);
    }
    fitted_ = false;
    if (quadratic_) {  // the logs only where the quadratic may stand in
      log_scales0_ = 0;
      for (const double g : scales0_) log_scales0_ += std::log(g);
      fitted_ = std::isfinite(log_scales0_) && fit();
    }
    const double u0 = std::log(theta);
    const double f0 = target(u0);
    const double joint0 = f0 - jacobian_;
    if (!std::isfinite(f0)) return settle(u0);
    // Stepping out and shrinkage on u = log theta (Neal 2003, figures 3 and 5).
    boost::random::uniform_01<double> uniform;
    const double level = f0 + std::log(uniform(rng));
    double lo = u0 - width_ * uniform(rng), hi = lo + width_;
    for (int k = 0; k < max_steps_ && target(lo) > level; ++k) lo -= width_;
    for (int k = 0; k < max_steps_ && target(hi) > level; ++k) hi += width_;
    for (;;) {
      const double u = lo + (hi - lo) * uniform(rng);
      if (const double f = target(u); f > level) {
        change_ = f - jacobian_ - joint0;
        return settle(u);
      }
      if (u < u0) lo = u;
      else hi = u;
      if (hi - lo < 1e-12) return settle(u0);
    }
  }

  double last_change() const override { return change_; }
  // Whether the quadratic was checked, and found to hold: a resumed chain neither checks
  // again (its work in the plan's trial stays the uninterrupted run's) nor fits where it failed.
  void persist(ppl::archive& a) override { a(quadratic_, checked_); }

 private:
  struct instance {
    const statement* s;
    std::vector<ppl::index_t> loops;
    ppl::index_t offset;
  };

  // Argument k of b's prior at each instance, in instances_' order: a statement's column at
  // once through the graph's batch path where it has one.
  void read_argument(std::size_t k, std::vector<double>& out) {
    out.resize(instances_.size());
    std::size_t i = 0;
    for (const auto& [s, count] : statements_) {
      if (model::instances(graph_).batch_values(*s, *s->args[k], column_) && column_.size() == count) {
        std::copy(column_.begin(), column_.end(), out.begin() + static_cast<long>(i));
        i += count;
        continue;
      }
      for (const std::size_t end = i + count; i < end; ++i) out[i] = model::instances(graph_).args_at(*s, instances_[i].loops.data())[k][0];
    }
  }

  // The target at u: theta = e^u, b = m + eta g(theta). Sets jacobian_ to its log Jacobian
  // u + sum log g; the graph holds the state at u (placed_) unless the quadratic stood in
  // for b's children.
  double target(double u) {
    placed_ = false;
    if (!place_scale(u)) return -INFINITY;
    double lp;
    if (const double rho = fitted_ ? common_ratio() : -1; rho > 0) {
      // b's priors and the Jacobian's sum log g cancel: their sum is u + constant_.
      const double t = rho - 1;
      jacobian_ = u + log_scales0_ + static_cast<double>(scales_.size()) * std::log(rho);
      lp = u + constant_ + fit_[0] + fit_[1] * t + 0.5 * fit_[2] * t * t + sum(rest_);
    } else {
      jacobian_ = u;
      for (const double g : scales_) jacobian_ += std::log(g);
      place_effects(1, scales_);
      lp = jacobian_ + sum(own_) + sum(children_) + sum(rest_);
    }
    return std::isnan(lp) ? -INFINITY : lp;
  }

  // theta = e^u and what reads it but not b; b's scales there into scales_. False where a
  // scale is not positive and finite.
  bool place_scale(double u) {
    graph_.values()[static_cast<std::size_t>(theta_)].data[0] = std::exp(u);
    graph_.update_derived(scale_needed_);  // the scales at theta; what reads b waits for b
    read_argument(1, scales_);
    return std::all_of(scales_.begin(), scales_.end(), [](double g) { return g > 0 && std::isfinite(g); });
  }

  // b = m + rho eta g, and what reads b.
  void place_effects(double rho, const std::vector<double>& g) {
    auto& b = graph_.values()[static_cast<std::size_t>(b_)].data;
    for (std::size_t i = 0; i < instances_.size(); ++i) b[static_cast<std::size_t>(instances_[i].offset)] = means_[i] + rho * eta_[i] * g[i];
    graph_.update_derived(needed_);
    placed_ = true;
  }

  // Leaves the graph at u, the step's outcome.
  // theta, and the scales read at it (place_scale keeps them together), may already be u's.
  void settle(double u) {
    const bool at_u = graph_.value(theta_).data[0] == std::exp(u);
    if (placed_ && at_u) return;
    if (!at_u) place_scale(u);
    place_effects(1, scales_);
  }

  double sum(const std::vector<const statement*>& terms) {
    double lp = 0;
    for (const statement* s : terms) lp += model::instances(graph_).log_density(*s);
    return lp;
  }

  // rho with g(theta) = rho g(theta0) for every effect's scale, or -1 when the ratios differ.
  double common_ratio() const {
    if (scales_.empty()) return -1;
    const double rho = scales_[0] / scales0_[0];
    for (std::size_t i = 1; i < scales_.size(); ++i)
      if (!(std::abs(scales_[i] / scales0_[i] - rho) <= 1e-12 * rho)) return -1;
    return rho;
  }

  // The terms other than b's priors: b's children (they read b, through derived variables
  // or not) and the rest (theta's prior, what reads theta but not b). When every child is
  // Normal with a mean affine in b and the rest fixed (its scale, value, bounds and indices
  // free of theta and b), moving b along the ray b = m + rho (b0 - m) makes their sum a
  // quadratic in rho, known from three evaluations (fit): the slice then reads it instead
  // of the children. Affinity is checked numerically at the first step that fits.
  void split_terms(const std::vector<char>& from_b) {
    const auto& m = graph_.model();
    std::vector<char> from_theta(m.variables.size(), 0);
    from_theta[static_cast<std::size_t>(theta_)] = 1;
    from_theta = reaching(m, from_theta);
    std::vector<char> either = from_theta;
    for (std::size_t v = 0; v < either.size(); ++v) either[v] = either[v] || from_b[v];
    // One scalar effect per instance: each prior's density, with its Jacobian, is constant.
    quadratic_ = std::all_of(instances_.begin(), instances_.end(),
                             [&](const instance& in) { return model::instances(graph_).target(*in.s, in.loops.data()).second == 1; });
    for (const statement* s : terms_) {
      if (s->target == b_) {
        own_.push_back(s);
        continue;
      }
      const auto reads = lang::ir::statement_reads(*s);
      if (std::none_of(reads.begin(), reads.end(), [&](int r) { return from_b[static_cast<std::size_t>(r)] != 0; })) {
        rest_.push_back(s);
        continue;
      }
      children_.push_back(s);
      bool fixed = s->which == statement::kind::sample && term_form(*s) >= 0 && !reads_marked(s->args[1].get(), either) &&
                   !either[static_cast<std::size_t>(s->target)] && !reads_marked(s->args[0].get(), from_theta);
      for (const auto& l : s->loops) fixed = fixed && !reads_marked(l.lo.get(), either) && !reads_marked(l.hi.get(), either);
      for (const auto& ix : s->target_indices) fixed = fixed && !reads_marked(ix.get(), either);
      quadratic_ = quadratic_ && fixed;
    }
    quadratic_ = quadratic_ && !children_.empty();
    // Where every child is Normal with a scalar value per instance, the fit reads their means.
    bool normal = quadratic_;
    for (const statement* s : children_) {
      normal = normal && term_form(*s) == 0;
      if (!normal) break;
      const auto table = model::instances(graph_).table(*s);
      const std::size_t depth = s->loops.size(), count = depth ? table.size() / depth : 1;
      child_offsets_.emplace_back();
      for (std::size_t i = 0; i < count && normal; ++i) {
        const auto [offset, size] = model::instances(graph_).target(*s, table.data() + i * depth);
        normal = size == 1;
        child_offsets_.back().push_back(offset);
      }
    }
    if (!normal) child_offsets_.clear();
  }

  // Normal children, one scalar each instance (child_offsets_): the quadratic from their
  // means at rho = 1 and 0 and their scales, which the move leaves alone. With d = m(1) -
  // m(0), r = y - m(1) and w = 1 / s^2 (the likelihood's times the temperature), the sum at
  // rho is its value at 1 plus t sum w r d - t^2 sum w d^2 / 2, t = rho - 1: one placement
  // of the effects and no evaluation of the children's densities. False where a column
  // cannot be read at once (the general fit then runs).
  bool fit_from_means(double at1) {
    model::instances instances(graph_);
    means1_.resize(children_.size());
    sds_.resize(children_.size());
    for (std::size_t k = 0; k < children_.size(); ++k)
      if (!instances.batch_values(*children_[k], *children_[k]->args[0], means1_[k]) ||
          !instances.batch_values(*children_[k], *children_[k]->args[1], sds_[k]) || means1_[k].size() != child_offsets_[k].size() ||
          sds_[k].size() != child_offsets_[k].size())
        return false;
    place_effects(0, scales0_);
    double slope = 0, curvature = 0;
    const double beta = graph_.temperature();
    for (std::size_t k = 0; k < children_.size(); ++k) {
      if (!instances.batch_values(*children_[k], *children_[k]->args[0], mean0_) || mean0_.size() != child_offsets_[k].size()) {
        place_effects(1, scales0_);
        return false;
      }
      const double tempered = beta != 1 && graph_.likelihood(static_cast<int>(children_[k] - graph_.model().statements.data())) ? beta : 1.0;
      const auto& y = graph_.value(children_[k]->target).data;
      for (std::size_t i = 0; i < mean0_.size(); ++i) {
        const double d = means1_[k][i] - mean0_[i], w = tempered / (sds_[k][i] * sds_[k][i]);
        slope += w * (y[static_cast<std::size_t>(child_offsets_[k][i])] - means1_[k][i]) * d;
        curvature -= w * d * d;
      }
    }
    fit_ = {at1, slope, curvature};
    placed_ = false;
    return std::isfinite(at1) && std::isfinite(slope) && std::isfinite(curvature);
  }

  // The children's sum at rho = 1, 0, 2 as a + b t + c t^2 / 2 in t = rho - 1 (fit_); false,
  // leaving the slice to evaluate them, where a value is not finite or (at the first fit) the
  // sum at rho = -1 and 3 is not that quadratic. The graph is left off the chain's state for
  // the target to place (placed_ is false).
  bool fit() {
    const double at1 = sum(children_);
    if (checked_ && !child_offsets_.empty() && fit_from_means(at1)) return true;
    place_effects(0, scales0_);
    const double at0 = sum(children_);
    place_effects(2, scales0_);
    const double at2 = sum(children_);
    fit_ = {at1, (at2 - at0) / 2, at2 + at0 - 2 * at1};
    bool ok = std::isfinite(at0) && std::isfinite(at1) && std::isfinite(at2);
    for (const double rho : {-1.0, 3.0}) {
      if (checked_ || !ok) break;
      place_effects(rho, scales0_);
      const double t = rho - 1, predicted = fit_[0] + fit_[1] * t + 0.5 * fit_[2] * t * t, actual = sum(children_);
      ok = std::abs(actual - predicted) <= 1e-7 * (1 + std::abs(fit_[0]) + std::abs(fit_[1] * t) + std::abs(fit_[2] * t * t));
      if (!ok) quadratic_ = false;  // not affine: the slice evaluates the children from now on
    }
    checked_ = checked_ || ok;
    placed_ = false;
    return ok;
  }

  model::graph& graph_;
  int theta_, b_;
  std::vector<char> needed_;               // derived variables to recompute as theta and b move
  std::vector<char> scale_needed_;         // those of them that do not read b
  std::vector<const statement*> terms_;    // every term reading theta or b
  std::vector<const statement*> own_, children_, rest_;  // split_terms
  std::vector<instance> instances_;        // b's prior instances
  std::vector<std::pair<const statement*, std::size_t>> statements_;  // b's prior statements and their instance counts
  std::vector<double> means_, scales_, scales0_, eta_, column_;
  std::vector<std::vector<ppl::index_t>> child_offsets_;  // Normal children's value offsets (fit_from_means)
  std::vector<std::vector<double>> means1_, sds_;
  std::vector<double> mean0_;
  bool quadratic_ = false;  // the children's sum can be a quadratic in rho (split_terms)
  bool checked_ = false;    // and was found to be one at a first fit
  bool fitted_ = false;     // fit_ holds this step's quadratic
  std::array<double, 3> fit_{};
  double constant_ = 0;     // sum over b's priors of -(log 2 pi + eta^2) / 2
  double jacobian_ = 0;     // the last target's log Jacobian
  double log_scales0_ = 0;  // sum log g at the step's start
  bool placed_ = false;     // the graph holds the last target's state
  double change_ = NAN;     // lp__'s change in the last step
  static constexpr double log_two_pi = 1.8378770664093454836;
  static constexpr double width_ = 1.0;    // on log theta: a factor e per step out
  static constexpr int max_steps_ = 20;
};

}  // namespace

std::vector<std::pair<int, int>> find_scale_moves(model::graph& g, const std::vector<assignment>& plan) {
  std::vector<std::pair<int, int>> out;
  auto kind_of = [&](int v) -> std::string_view {
    for (const auto& a : plan)
      if (a.variable == v) return a.chosen->kind();
    return {};
  };
  for (const auto& t : plan)
    for (const auto& b : plan) {
      if (t.forced || b.forced) continue;  // --sampler says how they move
      // b's sampler must be one that reads b from the graph at each step (not collapsed,
      // whose counts would go stale; not ancestral, which redraws b from its prior anyway).
      const std::string_view kb = kind_of(b.variable), kt = kind_of(t.variable);
      if (kb == "collapsed" || kb == "ancestral" || kt == "collapsed" || kt == "ancestral") continue;
      if (scale_pair(g, t.variable, b.variable)) out.emplace_back(t.variable, b.variable);
    }
  return out;
}

std::unique_ptr<sampler> make_scale_move(model::graph& g, int theta, int b) { return std::make_unique<scale_move_sampler>(g, theta, b); }

}  // namespace ppl::samplers
