// `slice`: univariate slice sampling with stepping out and shrinkage (samplers/slice_step.hpp),
// element by element on the unconstrained scale, each element's Markov blanket as its target. The initial interval
// width is adapted during warmup to twice the mean size of accepted moves.
//
// Integer-valued elements whose support is too large to enumerate (a Poisson count, the n
// of a Binomial) are sampled on their continuous extension: u is spread uniformly over
// [x, x + 1), has density f(floor(u)), and the slice update of u gives x = floor(u); the
// marginal of floor(u) is f, so the chain on x keeps the target (Neal 2003, §4 applies
// to any one-dimensional density; the same device as JAGS's discrete slice sampler).
#include <boost/random/uniform_01.hpp>
#include <cmath>

#include "model/blanket.hpp"
#include "samplers/factories.hpp"
#include "samplers/slice_step.hpp"
#include "samplers/structure.hpp"
#include "stdlib/transform.hpp"

namespace ppl::samplers {

using stdlib::simplex_transform;
using stdlib::transform;

namespace {

class slice_sampler final : public sampler {
 public:
  slice_sampler(model::graph& g, int v)
      : graph_(g), variable_(v), blanket_(g, v), moving_(model::supports(g).moves(v)), self_(model::supports(g).reads_itself(v)) {
    model::supports(g).visit(v, [&](ppl::index_t offset, ppl::index_t size, const stdlib::support& s) {
      ordered_ = s.kind == stdlib::support_kind::ordered;
      lower_ = s.lower;
      for (ppl::index_t e = offset; e < offset + size; ++e) {
        elements_.push_back({e, transform(s), 1.0, 0.0, 0, false, 0, 0});
        if (!ordered_) fit(elements_.back(), s);
      }
    });
  }

  void step(ppl::rng& rng, bool warmup) override {
    // Supports whose bounds follow other unknowns are read again each sweep, or before
    // each element when they follow this variable's own elements.
    if (moving_ && !self_) {
      std::size_t k = 0;
      model::supports(graph_).visit(variable_, [&](ppl::index_t, ppl::index_t size, const stdlib::support& s) {
        for (ppl::index_t e = 0; e < size; ++e) fit(elements_[k++], s);
      });
    }
    change_ = 0;
    for (auto& el : elements_) {
      if (self_) fit(el, model::supports(graph_).of_element(variable_, el.index));
      if (ordered_) fit(el, between_neighbours(el.index));
      update(el, rng, warmup);
    }
  }

 private:
  struct element {
    ppl::index_t index;
    transform t;
    double width, moved;
    long moves;
    bool integer;      // sampled on its continuous extension u, x = floor(u)
    double lo, hi;     // integers: u's range [lo, hi)
  };

  // An element's scale from its support: a transform for a real, or for an integer its
  // continuous extension's range [lower, upper + 1) with no transform.
  static void fit(element& el, const stdlib::support& s) {
    el.integer = s.kind == stdlib::support_kind::integer_interval;
    el.t = el.integer ? transform(stdlib::support{}) : transform(s);
    el.lo = s.lower;
    el.hi = s.upper + 1;
  }

  // An element of an ordered vector moves between its neighbours (above the bound for the
  // first): its full conditional is the joint's on that interval.
  stdlib::support between_neighbours(ppl::index_t i) const {
    const auto& x = graph_.value(variable_).data;
    const auto at = static_cast<std::size_t>(i);
    return {stdlib::support_kind::real_interval, at == 0 ? lower_ : x[at - 1], at + 1 == x.size() ? INFINITY : x[at + 1]};
  }

  double log_f(element& el, double y) {
    if (el.integer && !(y >= el.lo && y < el.hi)) return -INFINITY;
    graph_.values()[static_cast<std::size_t>(variable_)].data[static_cast<std::size_t>(el.index)] =
        el.integer ? std::floor(y) : el.t.to_constrained(y);
    blanket_.update(el.index);
    double lp = blanket_.log_density(el.index) + el.t.log_jacobian(y);
    if (std::isnan(lp)) {
      ++not_a_number_;  // treated as outside the slice
      return -INFINITY;
    }
    return lp;
  }

 public:
  void persist(ppl::archive& a) override {
    a(not_a_number_);
    for (auto& el : elements_) a(el.width, el.moved, el.moves);
  }

  double last_change() const override { return change_; }

  std::string report() const override {
    if (not_a_number_ == 0) return {};
    return std::to_string(not_a_number_) + " points with a NaN log density (warmup included), treated as outside the slice";
  }

 private:
  long not_a_number_ = 0;
  double change_ = NAN;  // the last sweep's change in the joint log density

  // An element's log Jacobian at y (none for an integer's continuous extension).
  static double jacobian(const element& el, double y) { return el.integer ? 0 : el.t.log_jacobian(y); }

  void update(element& el, ppl::rng& rng, bool warmup) {
    boost::random::uniform_01<double> uniform;
    double x0 = graph_.values()[static_cast<std::size_t>(variable_)].data[static_cast<std::size_t>(el.index)];
    double y0 = el.integer ? x0 + uniform(rng) : el.t.to_unconstrained(x0);
    const double at_start = log_f(el, y0);
    const double y1 = slice_step(y0, at_start, el.width, [&](double y) { return log_f(el, y); }, rng);
    const double at_end = log_f(el, y1);  // leaves the variable (and its derived values) at the accepted point
    // The blanket's terms are the joint's that change with this element; the Jacobian is
    // the unconstrained scale's, not the joint's. NaN (lp__ recomputed) unless finite.
    const double delta = (at_end - jacobian(el, y1)) - (at_start - jacobian(el, y0));
    change_ += std::isfinite(delta) ? delta : NAN;
    if (warmup) {
      el.moved += std::fabs(y1 - y0);
      el.width = std::max(el.integer ? 1.0 : 1e-6, 2 * el.moved / static_cast<double>(++el.moves));
    }
  }

  model::graph& graph_;
  int variable_;
  model::blanket blanket_;
  bool moving_, self_;
  bool ordered_ = false;  // an ordered vector: each element's interval is read before its update
  double lower_ = -INFINITY;
  std::vector<element> elements_;
};

// Scalars on an interval of the reals or of the integers (gibbs, earlier in the order,
// takes the integers it can enumerate).
bool sliceable(model::graph& g, int v, std::string& reason) {
  bool ok = true, integer = false, ordered = false;
  model::supports(g).visit(v, [&](ppl::index_t, ppl::index_t, const stdlib::support& s) {
    integer = integer || s.kind == stdlib::support_kind::integer_interval;
    ordered = s.kind == stdlib::support_kind::ordered;
    if (s.kind != stdlib::support_kind::real_interval && s.kind != stdlib::support_kind::integer_interval && !ordered) ok = false;
  });
  reason = !ok       ? "not a scalar on an interval (or array of them)"
           : integer ? "integers, one element at a time on the continuous extension floor(u) (gibbs takes those it can enumerate)"
           : ordered ? "an ordered vector, one element at a time between its neighbours"
                     : "continuous scalars, one element at a time";
  return ok;
}

class slice_factory final : public factory {
 public:
  std::string_view kind() const override { return "slice"; }
  claim can_sample(model::graph& g, int v) const override {
    std::string reason;
    bool ok = sliceable(g, v, reason);
    return {ok, reason};
  }
  std::unique_ptr<sampler> make(model::graph& g, int v) const override { return std::make_unique<slice_sampler>(g, v); }
};

}  // namespace

std::unique_ptr<factory> make_slice_factory() { return std::make_unique<slice_factory>(); }

}  // namespace ppl::samplers
