// The `gaussian_block` kind: its factory, and the block's companions. A companion is a
// continuous scalar that the block's terms read outside their Normal form — a change
// point x_c in mu[i] = alpha + beta[J[i]] * (x[i] - x_c), J[i] = 1 + step(x[i] - x_c) (BUGS's
// Stagnant), a rate inside exp(-k t) multiplying a coefficient — so that the block's
// conditional moves with it. Moved alone, such a scalar crawls: alpha is the line's value
// at the change point, and any other change point with alpha held is a worse fit. The
// companion is instead moved with the block integrated out, then the block drawn from its
// conditional at the companion's new value: together one draw of (companion, block) from
// their joint conditional, the partially collapsed Gibbs sampler of van Dyk & Park (2008,
// JASA 103(482)), as the two steps are taken one right after the other. The companion
// moves by slice sampling (samplers/slice_step.hpp) on its unconstrained scale, with
// target its own prior and other terms plus the block's integrated log density
// (gaussian_block_base::integrated_log_density); each evaluation reads the block's linear
// form anew and factors its precision.
#include <algorithm>
#include <boost/random/uniform_01.hpp>
#include <cmath>
#include <stdexcept>

#include "model/blanket.hpp"
#include "samplers/factories.hpp"
#include "samplers/gaussian_block.hpp"
#include "samplers/gaussian_block_structure.hpp"
#include "samplers/slice_step.hpp"
#include "samplers/structure.hpp"
#include "samplers/unconstrained.hpp"
#include "stdlib/transform.hpp"

namespace ppl::samplers {

using lang::ir::statement;

namespace {

// A scalar whose single-variable block structure fails, but which can be sliced with the
// block integrated out: real, one element, on an interval that does not follow other
// unknowns.
bool companion_candidate(model::graph& g, int v) {
  const auto& var = g.model().variables[static_cast<std::size_t>(v)];
  if (var.type.kind != stdlib::scalar_kind::real || g.value(v).size() != 1 || model::supports(g).moves(v)) return false;
  bool interval = false;
  model::supports(g).visit(v, [&](ppl::index_t, ppl::index_t, const stdlib::support& s) { interval = s.kind == stdlib::support_kind::real_interval; });
  return interval;
}

// The variables `v` reaches through `=` definitions, `v` included.
std::vector<char> reached_from(const lang::ir::model& m, int v) {
  std::vector<char> marked(m.variables.size(), 0);
  marked[static_cast<std::size_t>(v)] = 1;
  return reaching(m, std::move(marked));
}

// The terms that read `v`, directly or through `=` definitions (`reached`, from
// reached_from), its own `~` left out.
std::vector<const statement*> terms_reading(const lang::ir::model& m, int v, const std::vector<char>& reached) {
  std::vector<const statement*> out;
  for (const statement& s : m.statements) {
    if (s.which == statement::kind::assign || (s.which == statement::kind::sample && s.target == v)) continue;
    for (int r : lang::ir::statement_reads(s))
      if (reached[static_cast<std::size_t>(r)]) {
        out.push_back(&s);
        break;
      }
  }
  return out;
}

class block_with_companions final : public sampler {
 public:
  block_with_companions(model::graph& g, std::unique_ptr<gaussian_block_base> block, const std::vector<int>& companions)
      : graph_(g), block_(std::move(block)) {
    const auto& m = g.model();
    for (int v : companions) {
      stdlib::support support;
      model::supports(g).visit(v, [&](ppl::index_t, ppl::index_t, const stdlib::support& s) { support = s; });
      companion c{v, stdlib::transform(support), model::blanket(g, v), {}, 1.0, 0.0, 0};
      // Its own terms outside the block: its prior and any other term that reads it.
      for (int s : m.variables[static_cast<std::size_t>(v)].statements) c.own.push_back(&m.statements[static_cast<std::size_t>(s)]);
      for (const statement* st : terms_reading(m, v, reached_from(m, v)))
        if (std::find(block_->terms().begin(), block_->terms().end(), st) == block_->terms().end()) c.own.push_back(st);
      companions_.push_back(std::move(c));
    }
  }

  void step(ppl::rng& rng, bool warmup) override {
    for (auto& c : companions_) move(c, rng, warmup);
    block_->step(rng, warmup);
  }

  // The companions' moves change lp__ by what the draw of the block does not tell: recomputed.
  double last_change() const override { return NAN; }

  void persist(ppl::archive& a) override {
    for (auto& c : companions_) a(c.width, c.moved, c.moves);
    block_->persist(a);
  }

 private:
  struct companion {
    int variable;
    stdlib::transform t;
    model::blanket blanket;  // updates the derived values that read it
    std::vector<const statement*> own;
    double width, moved;
    long moves;
  };

  // The companion's target at y on its unconstrained scale, leaving it there.
  double log_f(companion& c, double y) {
    graph_.values()[static_cast<std::size_t>(c.variable)].data[0] = c.t.to_constrained(y);
    c.blanket.update(0);
    double lp = c.t.log_jacobian(y);
    for (const statement* s : c.own) lp += model::instances(graph_).log_density(*s);
    if (std::isfinite(lp)) lp += block_->integrated_log_density();
    return std::isnan(lp) ? -INFINITY : lp;
  }

  void move(companion& c, ppl::rng& rng, bool warmup) {
    const double y0 = c.t.to_unconstrained(graph_.value(c.variable).data[0]);
    const double y1 = slice_step(y0, log_f(c, y0), c.width, [&](double y) { return log_f(c, y); }, rng);
    log_f(c, y1);  // leaves the companion (and what reads it) at the accepted point
    if (warmup) {
      c.moved += std::fabs(y1 - y0);
      c.width = std::max(1e-6, 2 * c.moved / static_cast<double>(++c.moves));
    }
  }

  model::graph& graph_;
  std::unique_ptr<gaussian_block_base> block_;
  std::vector<companion> companions_;
};

class gaussian_block_factory final : public factory {
 public:
  std::string_view kind() const override { return "gaussian_block"; }
  // Each variable on its own: real, with Normal (or MultiNormal) priors and terms. Whether a set of
  // them is jointly affine is known only for the set (gaussian_block_possible). A companion
  // joins a block only by the planner (plan_efficiency.cpp).
  claim can_sample(model::graph& g, int v) const override {
    if (g.model().variables[static_cast<std::size_t>(v)].type.kind != stdlib::scalar_kind::real) return {false, "not real"};
    block_structure b;
    if (std::string why = structure_of(g, {v}, b); !why.empty()) return {false, why};
    return {true, "Normal or MultiNormal prior and terms, affine in it: drawn jointly with the block's other unknowns from their multivariate normal conditional"};
  }
  bool joins_block() const override { return true; }
  std::unique_ptr<sampler> make(model::graph& g, int v) const override { return make_block(g, {v}); }
  std::unique_ptr<sampler> make_block(model::graph& g, const std::vector<int>& variables) const override {
    return make_gaussian_block(g, variables);
  }
};

// Whether `v` is a companion of the block whose structure is `block`: a continuous scalar
// that is no Normal unknown, whose terms are not smooth in it, read by the mean of a term
// of the block.
bool is_companion(model::graph& g, int v, const block_structure& block) {
  // Only a scalar whose terms are not differentiable in it: a smooth one could move with
  // the block by gradients (as eight schools' tau beside its non-centred effects does,
  // where the trial of this move found it not to pay for its cost); a change point read
  // through step() or an index has no such joint move.
  std::string why;
  if (!companion_candidate(g, v) || smooth_block(g, v, why)) return false;
  block_structure own;
  if (structure_of(g, {v}, own).empty()) return false;
  // Read by a block term's mean: one that reads it only in a scale (a likelihood's sigma)
  // moves the block's conditional less than its own conditional moves it, and has the
  // scale move.
  const auto& m = g.model();
  const std::vector<char> reached = reached_from(m, v);
  for (const statement* s : terms_reading(m, v, reached))
    if (std::find(block.terms.begin(), block.terms.end(), s) != block.terms.end() && reads_marked(s->args[0].get(), reached)) return true;
  return false;
}

}  // namespace

bool gaussian_block_possible(model::graph& g, const std::vector<int>& variables, std::string& why) {
  // Refused from the text where it can be: building the block to find out holds a plate's
  // worth of structure (480 MB for BPMF at ten million ratings).
  if (multiplies_them(g.model(), variables)) {
    why = "a term multiplies two values that read its unknowns, so it is not affine in them";
    return false;
  }
  try {
    make_gaussian_block(g, variables);
  } catch (const std::invalid_argument& e) {
    why = e.what();
    return false;
  }
  return true;
}

std::vector<companion_move> find_companion_moves(model::graph& g, const std::vector<assignment>& plan) {
  const factory* block = find_factory("gaussian_block");
  std::vector<int> members;
  for (const auto& a : plan)
    if (a.chosen == block) members.push_back(a.variable);
  std::vector<companion_move> out;
  block_structure structure;
  if (members.empty() || !structure_of(g, members, structure).empty()) return out;
  // A hierarchical scale has the non-centred scale move for its coupling with the effects.
  std::vector<int> scales;
  for (const auto& [theta, b] : find_scale_moves(g, plan)) scales.push_back(theta);
  for (const auto& a : plan)
    if (a.chosen->kind() == "slice" && !a.forced && std::find(scales.begin(), scales.end(), a.variable) == scales.end() &&
        is_companion(g, a.variable, structure))
      out.push_back({a.variable, members});
  return out;
}

std::unique_ptr<sampler> make_companion_move(model::graph& g, const companion_move& move) {
  return std::make_unique<block_with_companions>(g, make_gaussian_block(g, move.block), std::vector<int>{move.companion});
}

std::unique_ptr<factory> make_gaussian_block_factory() { return std::make_unique<gaussian_block_factory>(); }

}  // namespace ppl::samplers
