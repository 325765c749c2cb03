#pragma once
// Conjugate updates. A pair names the prior, the likelihoods it is conjugate to (and
// through which argument the variable enters each), how a child adds to the sufficient
// statistics of the element it reads, and how to draw an element from its posterior.
// One file per pair defines one; the `conjugate` factory tries them all. Statistics are
// summed over the plates of the children, so an update costs O(children + elements).
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "samplers/sampler.hpp"
#include "samplers/structure.hpp"
#include "stdlib/distribution.hpp"

namespace ppl::samplers {

struct conjugate_pair {
  std::string name;                     // "beta_binomial"
  std::string prior;                    // "Beta"
  std::vector<likelihood> likelihoods;  // {"Bernoulli", 0}, {"Binomial", 1}
  // Statistics per element of the variable; -1: the size of a value block plus one (a
  // vector prior of size K keeps K + K^2 numbers per block, spread over its K elements).
  int stats_per_element = 2;
  // Adds one child (which of `likelihoods` it is, its value and arguments) to the
  // statistics of the element (or block) it reads.
  void (*accumulate)(std::size_t which, ppl::view x, std::span<const ppl::view> args, double* stats);
  // Draws a value (the prior's value shape) from the posterior given the prior's
  // arguments and the statistics.
  void (*draw)(std::span<const ppl::view> prior, const double* stats, ppl::rng& rng, double* out, ppl::index_t size);
  // The children's log density as a function of the value (or block) alone, given its
  // statistics, up to terms free of the value: the sampler's change in lp__ is the
  // difference of this at the new and the old value, plus the prior's.
  double (*log_kernel)(const double* stats, const double* value, ppl::index_t size);
  // Vector pairs with Normal children linear in the block: adds one child with
  // coefficients c (k of them), residual y and weight w = 1 / s^2 straight to the
  // statistics, for the sampler's loops over children whose coefficients are read in place.
  void (*add_linear)(const double* c, double y, double w, ppl::index_t k, double* stats) = nullptr;
  // Optional: the prior's log density as a function of the value alone, up to terms free
  // of it (for MultiNormalPrec(m, P), -(v - m)' P (v - m) / 2): the sampler's change in
  // lp__ then needs no evaluation of the prior's statement (a factorisation per block).
  double (*prior_log_kernel)(std::span<const ppl::view> prior, const double* value, ppl::index_t size) = nullptr;
  // Optional: `accumulate` over n scalar children of one statement at once, child i with
  // value y[value_offsets[i]], argument k cols[k][i], adding to the statistics at
  // stats + elements[i] * stride; one call and a loop the compiler sees whole, not a call
  // per child (a precision's update over rats' 150 observations).
  void (*accumulate_rows)(std::size_t which, const double* y, const ppl::index_t* value_offsets, const double* const* cols, std::size_t n,
                          const ppl::index_t* elements, ppl::index_t stride, double* stats) = nullptr;
  // Mean-field coordinate ascent (inference/cavi.cpp), for scalar pairs: the prior's
  // natural parameters in the statistics' coordinates (`prior_stats` adds them), so that
  // the posterior is a function of the total alone; and that posterior as a distribution
  // `q` of two arguments (`posterior` writes them). A pair without them has no update there.
  void (*prior_stats)(std::span<const ppl::view> prior, double* stats) = nullptr;
  const char* q = nullptr;  // "Normal" (mean, sd), "Gamma" (shape, rate), "InverseGamma" (shape, scale), "Beta"
  void (*posterior)(const double* total, double* q_args) = nullptr;
};

// The statistics of a variable's conjugate update at the graph's current values, its
// prior's natural parameters added: `stride()` numbers per element, which coordinate
// ascent averages over q of the other unknowns (inference/cavi.cpp).
class conjugate_totals {
 public:
  virtual ~conjugate_totals() = default;
  // Without the base, only the children's statistics that can change: no constant
  // children (observed, at fixed places with fixed arguments), no prior.
  virtual void totals(std::vector<double>& out, bool with_base = true) = 0;
  virtual ppl::index_t stride() const = 0;
  // Weights for the children's instances, weight(statement, instance) in the order of
  // model::instances::table: each instance's statistics count that many times, summed
  // instance by instance (the average over a discrete unknown's q that the children read
  // through an index, mu[z[n]]). An empty function: every instance once.
  using instance_weight = std::function<double(int statement, std::size_t instance)>;
  virtual void weigh(instance_weight weight) = 0;
};

// The scalar priors' log densities in their value alone (conjugate_pair::prior_log_kernel),
// from the prior's two arguments: the sampler's change in lp__ then evaluates no statement.
// Gamma(shape, rate)
inline double gamma_prior_kernel(std::span<const ppl::view> prior, const double* x, ppl::index_t) {
  return (prior[0][0] - 1) * std::log(x[0]) - prior[1][0] * x[0];
}
// InverseGamma(shape, scale)
inline double inverse_gamma_prior_kernel(std::span<const ppl::view> prior, const double* x, ppl::index_t) {
  return -(prior[0][0] + 1) * std::log(x[0]) - prior[1][0] / x[0];
}
// Normal(mean, sd)
inline double normal_prior_kernel(std::span<const ppl::view> prior, const double* x, ppl::index_t) {
  const double z = (x[0] - prior[0][0]) / prior[1][0];
  return -0.5 * z * z;
}
// Beta(a, b)
inline double beta_prior_kernel(std::span<const ppl::view> prior, const double* x, ppl::index_t) {
  return (prior[0][0] - 1) * std::log(x[0]) + (prior[1][0] - 1) * std::log1p(-x[0]);
}

// A Beta, Gamma or InverseGamma prior's natural parameters as conjugate_pair::prior_stats
// counts them: its two arguments (a and b; shape, and rate or scale), added as they are.
inline void both_arguments(std::span<const ppl::view> prior, double* stats) {
  stats[0] += prior[0][0];
  stats[1] += prior[1][0];
}

// Their posterior's arguments: the totals as they are.
inline void totals_as_arguments(const double* total, double* q) { q[0] = total[0], q[1] = total[1]; }

// A pair of scalar children written once, as a kernel over argument columns:
// kernel(which, y, args, i, stats) adds child i, of value y, whose argument k is args[k][i].
// child_of makes `accumulate` of it (one child, i = 0), rows_of `accumulate_rows`.
template <auto kernel>
void child_of(std::size_t which, ppl::view x, std::span<const ppl::view> args, double* stats) {
  std::array<const double*, stdlib::max_params> columns{};
  for (std::size_t k = 0; k < args.size() && k < columns.size(); ++k) columns[k] = args[k].data;
  kernel(which, x[0], columns.data(), 0, stats);
}
// Children in a run of one element (all of them, for a scalar prior) are summed in local
// statistics and added once: a sum kept in memory would make each child wait for the last
// one's store.
template <auto kernel>
void rows_of(std::size_t which, const double* y, const ppl::index_t* value_offsets, const double* const* cols, std::size_t n,
             const ppl::index_t* elements, ppl::index_t stride, double* stats) {
  constexpr ppl::index_t most = 4;
  if (stride > most) {
    for (std::size_t i = 0; i < n; ++i) kernel(which, y[value_offsets[i]], cols, i, stats + elements[i] * stride);
    return;
  }
  for (std::size_t i = 0; i < n;) {
    const ppl::index_t element = elements[i];
    std::array<double, most> local{};
    for (; i < n && elements[i] == element; ++i) kernel(which, y[value_offsets[i]], cols, i, local.data());
    for (ppl::index_t k = 0; k < stride; ++k) stats[element * stride + k] += local[static_cast<std::size_t>(k)];
  }
}

conjugate_pair beta_binomial_pair();
conjugate_pair gamma_rate_pair();
conjugate_pair normal_normal_pair();
conjugate_pair gamma_precision_pair();
conjugate_pair inverse_gamma_variance_pair();
conjugate_pair multi_normal_normal_pair();
conjugate_pair multi_normal_prec_normal_pair();
conjugate_pair multi_normal_mean_pair();
conjugate_pair multi_normal_prec_mean_pair();
conjugate_pair wishart_precision_pair();
conjugate_pair inverse_wishart_covariance_pair();
conjugate_pair dirichlet_categorical_pair();

// The sampler that runs a pair for `v` with the children direct_children found
// (samplers/conjugate.cpp; the factory that finds them is samplers/conjugate_factory.cpp).
std::unique_ptr<sampler> make_conjugate_sampler(model::graph& g, int v, const conjugate_pair& pair, const std::vector<int>& children);
std::unique_ptr<conjugate_totals> make_conjugate_totals(model::graph& g, int v, const conjugate_pair& pair, const std::vector<int>& children);

// The pair, if any, that `v`'s prior and children make, and those children's statements;
// otherwise null, with the reason in `why` (samplers/conjugate_factory.cpp).
const conjugate_pair* match_conjugate(model::graph& g, int v, std::vector<int>& children, std::string& why);

}  // namespace ppl::samplers
