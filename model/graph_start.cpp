// Where a chain starts (docs/samplers.md, "Starting points"). Unknowns get their first values in
// dependency order, so that each is chosen given the values its parents already have:
// - values given with --init, checked against the variable's shape and support;
// - by default, a typical value of the prior (its mean, or median where the mean is not
//   finite; stdlib::distribution::typical) moved by a uniform jitter in (-r, r) on the
//   unconstrained scale a Hamiltonian sampler moves on, as JAGS starts from typical values
//   and Stan from uniform(-2, 2) there; discrete unknowns, which have no such scale, are
//   drawn from their prior; an ordered vector's typical values are sorted and spread before
//   its jitter (arrange_ordered_start);
// - with `from_prior`, every unknown drawn from its prior.
// A vague prior's draw (tau ~ Gamma(0.001, 0.001) underflows to 0) no longer decides
// where a chain starts, and an instance whose parameters are invalid at the values chosen
// is left NaN rather than failing: the chain's start sees a log density that is not
// finite and starts again, and only then names the statement and why.
// Two repairs follow a start whose log density is not finite:
// - scalar unknowns whose terms are not finite are drawn again where the start stands
//   (model/failed_start.cpp: discrete ones from their full conditional by enumeration,
//   continuous ones uniform(-2, 2) on their unconstrained scale), before the chain
//   (inference/chain_start.cpp) starts again;
// - when starts at typical values keep failing, the chain's later starts
//   (inference/chain.cpp) take the continuous unknowns that the failing terms read
//   (failed_start::mark_non_finite_inputs) as Stan takes every unknown, uniform(-2, 2) on the
//   unconstrained scale whatever their typical value (start_options::uniform). A vague
//   prior's mean can be where no observation is possible (Kidney's Weibull shape r ~
//   Gamma(1, 0.001) starts near 1000, where every Weibull term underflows), and no jitter
//   of it moves far enough.
#include <algorithm>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>
#include <vector>

#include "model/graph.hpp"
#include "model/sums.hpp"
#include "stdlib/block_transform.hpp"
#include "stdlib/checks.hpp"

namespace ppl::model {

using lang::ir::role;
using lang::ir::statement;

namespace {

// Moves a typical value x (n doubles) by a uniform jitter in (-radius, radius) on the
// unconstrained scale of its support; values on discrete supports are left as they are.
void jitter(const stdlib::support& s, double* x, index_t n, rng& rng, double radius) {
  if (radius <= 0) return;
  boost::random::uniform_real_distribution<double> u(-radius, radius);
  switch (s.kind) {
    case stdlib::support_kind::real_interval:
      for (index_t i = 0; i < n; ++i) {
        const stdlib::transform t(s);
        double y = t.to_unconstrained(x[i]);
        if (!std::isfinite(y)) y = 0;  // a typical value on a bound: start from the middle of the scale
        x[i] = t.to_constrained(y + u(rng));
      }
      break;
    case stdlib::support_kind::real_vector:
      for (index_t i = 0; i < n; ++i) x[i] += u(rng);
      break;
    case stdlib::support_kind::simplex:
    case stdlib::support_kind::ordered:
    case stdlib::support_kind::covariance:
    case stdlib::support_kind::cholesky_corr:
    case stdlib::support_kind::correlation: {
      const stdlib::block_transform t(s, n);
      std::vector<double> y(static_cast<std::size_t>(t.dimension()));
      t.to_unconstrained(x, y.data());
      for (double& v : y) v += u(rng);
      t.to_constrained(y.data(), x);
      break;
    }
    default:
      break;
  }
}

// Stan's default start (Stan Reference Manual, "Initialization"): uniform(-2, 2) on the
// unconstrained scale of the support, whatever the prior. False on discrete supports,
// which have no such scale.
bool uniform_start(const stdlib::support& s, double* x, index_t n, rng& rng) {
  boost::random::uniform_real_distribution<double> u(-2, 2);
  switch (s.kind) {
    case stdlib::support_kind::real_interval: {
      const stdlib::transform t(s);
      for (index_t i = 0; i < n; ++i) x[i] = t.to_constrained(u(rng));
      return true;
    }
    case stdlib::support_kind::real_vector:
      for (index_t i = 0; i < n; ++i) x[i] = u(rng);
      return true;
    case stdlib::support_kind::simplex:
    case stdlib::support_kind::covariance:
    case stdlib::support_kind::cholesky_corr:
    case stdlib::support_kind::correlation: {
      const stdlib::block_transform t(s, n);
      std::vector<double> y(static_cast<std::size_t>(t.dimension()));
      for (double& v : y) v = u(rng);
      t.to_constrained(y.data(), x);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

void graph::start_value(const statement& s, std::span<const view> args, double* out, index_t size, rng& rng) {
  const start_options& o = options_.start;
  // An ordered vector's elements are jittered together once all are chosen.
  const double radius = supports(*this).ordered(s.target) ? 0 : o.radius;
  const auto v = static_cast<std::size_t>(s.target);
  const stdlib::support support = s.dist->value_support(args);
  const bool typical = !o.from_prior && s.dist->typical(args, out);
  // A simplex with components fixed at 0 (a Dirichlet concentration of 0) has no
  // unconstrained scale to move on: it starts at its typical value, with those zeros.
  if (typical && support.kind == stdlib::support_kind::simplex && std::find(out, out + size, 0.0) != out + size) return;
  if (!o.from_prior && !supports(*this).ordered(s.target) && v < o.uniform.size() && o.uniform[v] && uniform_start(support, out, size, rng))
    return;
  if (typical) jitter(support, out, size, rng, radius);
  else s.dist->draw(args, rng, out);
}

// The elements' typical values sorted, then spread by unit steps: centred on the reals
// (0, 0, 0 becomes -1, 0, 1), from one unit above a finite bound (1, 2, 3 above 0); the
// jitter then moves each step by a factor within e^(+-radius). Sorted draws (--init prior)
// are kept where they are already inside the ordered set.
void graph::arrange_ordered_start(int variable, rng& rng) {
  auto& x = values_[static_cast<std::size_t>(variable)].data;
  if (std::any_of(x.begin(), x.end(), [](double v) { return std::isnan(v); })) return;  // invalid parameters: the start retries
  const stdlib::support s = supports(*this).ordered_support(variable);
  std::sort(x.begin(), x.end());
  if (options_.start.from_prior && supports(*this).first_unordered(variable).empty()) return;
  const double centre = (static_cast<double>(x.size()) - 1) / 2;
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = std::isfinite(s.lower) ? std::max(x[i], s.lower + 1) + static_cast<double>(i) : x[i] + static_cast<double>(i) - centre;
  if (!options_.start.from_prior) jitter(s, x.data(), static_cast<index_t>(x.size()), rng, options_.start.radius);
}

bool graph::completes_target(std::size_t index) const {
  const statement& s = model_.statements[index];
  return s.target >= 0 && static_cast<std::size_t>(model_.variables[static_cast<std::size_t>(s.target)].statements.back()) == index;
}

// The values --init gives an unknown, set in place of its statements' draws. Throws
// std::invalid_argument (a usage error) when they do not fit.
bool graph::set_initial(int v) {
  const data::data_table* init = options_.start.init;
  const auto& var = model_.variables[static_cast<std::size_t>(v)];
  if (!init || var.role != role::unknown) return false;
  const auto it = init->values().find(var.name);
  if (it == init->values().end()) return false;
  tensor& t = values_[static_cast<std::size_t>(v)];
  const auto& given = it->second.value;
  if (!(t.shape == given.shape))
    throw std::invalid_argument("--init: `" + var.name + "` has shape " + (given.shape.rank ? given.shape.str() : "[] (a scalar)") +
                                " but the model gives it shape " + (t.shape.rank ? t.shape.str() : "[] (a scalar)"));
  // A partly observed variable takes --init values only where the data lack one (JAGS's
  // inits hold NA at the observed places); any other variable must be given whole.
  const auto& imputed = imputed_[static_cast<std::size_t>(v)];
  if (var.filled_from >= 0) {
    for (index_t e : imputed) t.data[static_cast<std::size_t>(e)] = given.data[static_cast<std::size_t>(e)];
  } else {
    t.data = given.data;
  }
  for (index_t e = 0; e < t.size(); ++e)
    if (std::isnan(t.data[static_cast<std::size_t>(e)]))
      throw std::invalid_argument("--init: " + element_name(var.name, t.shape, e) + " is missing (NA or null)" +
                                  (var.filled_from >= 0 ? ", and so is the data's value: give it, or leave `" + var.name + "` out of --init"
                                                        : ": give every element of `" + var.name + "`, or leave it out of --init"));
  if (std::string outside = first_outside_support(v); !outside.empty()) throw std::invalid_argument("--init: " + outside);
  return true;
}

void graph::check_initial_names() const {
  if (!options_.start.init) return;
  for (const auto& [name, value] : options_.start.init->values()) {
    const int v = model_.find(name);
    if (v < 0 || model_.variables[static_cast<std::size_t>(v)].role != role::unknown)
      throw std::invalid_argument("--init: `" + name + "` is not an unknown of the model");
  }
}

void graph::start(rng& rng, const start_options& o) {
  options_.start = o;
  check_initial_names();
  struct flag {
    bool& on;
    explicit flag(bool& f) : on(f) { on = true; }
    ~flag() { on = false; }
  } starting(starting_);
  std::vector<char> given(model_.variables.size(), 0), seen(model_.variables.size(), 0);
  for (const statement& s : model_.statements) {
    if (s.which == statement::kind::factor) continue;
    const auto v = static_cast<std::size_t>(s.target);
    const auto& var = model_.variables[v];
    if (!seen[v]) {
      seen[v] = 1;
      given[v] = set_initial(s.target);
    }
    if (given[v]) continue;
    if (var.role == role::unknown || missing_[v] || var.role == role::derived)
      run_statement(s, &rng, s.which == statement::kind::sample);
    if (supports(*this).ordered(s.target) && completes_target(static_cast<std::size_t>(&s - model_.statements.data()))) arrange_ordered_start(s.target, rng);
  }
  start_on_sums(*this);  // observed sums of unknowns hold from the start
}

}  // namespace ppl::model
