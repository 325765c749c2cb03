#pragma once
// The one contract every distribution meets (DESIGN.md, requirement 4). Each distribution
// lives in its own file, stdlib/<name>.cpp, and is registered in stdlib/library.cpp.
//
// Conventions, after Stan Math's `*_lpdf`: `check` throws `parameter_error` whose message
// names the distribution and the argument ("Normal: scale sigma is -1; it must be
// positive"); `log_density` assumes valid parameters, returns -inf for a value outside the
// support, adds normalising constants only when asked (with_constants = false may drop
// terms that depend on the value alone, such as -lgamma(k + 1) of a Poisson count, so it is
// only for values that are data; the graph and the samplers pass true), and accumulates (+=) partial
// derivatives only into the non-null slots of `gradient_out`.
#include <array>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/random.hpp"
#include "core/tensor.hpp"
#include "stdlib/types.hpp"

namespace ppl::stdlib {

using ppl::index_t;
using ppl::shape;
using ppl::view;

// A parameter outside its domain, or parameters whose shapes disagree.
struct parameter_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct param_spec {
  std::string_view name;  // as in messages: "sigma"
  scalar_kind kind;       // integer parameters accept ints only (Binomial's n)
  int rank;               // 0 scalar, 1 vector, 2 matrix
  // The value's shape reads this parameter's value, not only its shape (LKJCorr's size K):
  // it must be data, which the checker holds it to, as it does loop bounds.
  bool sizes_value = false;
};

enum class support_kind {
  real_interval,     // finite reals in [lower, upper]; lower/upper may be infinite
  integer_interval,  // integers lower..upper inclusive; upper may be +inf
  spin,              // {-1, +1}
  simplex,           // non-negative vector summing to one
  real_vector,       // any real vector
  count_vector,      // non-negative integer vector summing to `upper`
  ordered,           // strictly increasing real vector, above `lower` where it is finite (a param's
                     // `ordered[K]` or `positive_ordered[K]`: the graph's, not a distribution's)
  covariance,        // symmetric positive-definite matrix (Wishart, InverseWishart)
  cholesky_corr,     // lower-triangular K x K, rows of unit length, positive diagonal: the
                     // Cholesky factor of a correlation matrix (LKJCorrCholesky)
  correlation,       // symmetric positive-definite with unit diagonal (LKJCorr)
};

struct support {
  support_kind kind = support_kind::real_interval;
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
};

// The most parameters a distribution takes: four of its own, and two more for the bounds
// of a censored or truncated one (stdlib/restricted.cpp).
inline constexpr std::size_t max_params = 6;

// Where log_density accumulates partial derivatives; a null slot is not wanted.
struct gradient_out {
  double* value = nullptr;                 // d/dx, x's size
  std::array<double*, max_params> params{};  // d/d(param i), param i's size
};

// A distribution function at one point x: log P(X <= x) and log P(X > x) (for integer
// values, at the integer floor(x), as Stan's _lcdf and _lccdf), and where asked their
// derivatives in x (slot 0) and in parameter i (slot i + 1). NaN: not available.
struct cdf_parts {
  double log_cdf = std::numeric_limits<double>::quiet_NaN();
  double log_ccdf = std::numeric_limits<double>::quiet_NaN();
  std::array<double, 5> d_log_cdf{};
  std::array<double, 5> d_log_ccdf{};
};

// The scalar parameters of a plate of scalar terms, one row per term: parameter i of row k
// is p[i][k * step[i]] (step 0: one value shared by every row), and its derivative is
// added into dp[i][k * step[i]] where dp[i] is not null (a shared one's summed over rows).
struct rows_params {
  std::array<const double*, max_params> p{};
  std::array<ppl::index_t, max_params> step{};
  std::array<double*, max_params> dp{};
};

// Rows' parameters from views: a scalar shared by every row, else one value per row; their
// derivatives into dp[i] where dp is given.
inline rows_params rows_of(std::span<const view> params, double* const* dp = nullptr) {
  rows_params r;
  for (std::size_t i = 0; i < params.size() && i < max_params; ++i) {
    r.p[i] = params[i].data;
    r.step[i] = params[i].shape.rank == 0 ? 0 : 1;
    r.dp[i] = dp ? dp[i] : nullptr;
  }
  return r;
}

class distribution {
 public:
  virtual ~distribution() = default;

  virtual std::string_view name() const = 0;
  virtual std::span<const param_spec> params() const = 0;
  virtual scalar_kind value_kind() const = 0;
  virtual int value_rank() const { return 0; }

  // The shape of a value given the parameters' shapes; throws parameter_error when the
  // shapes disagree (MultiNormal's mu and Sigma). Scalar distributions need not override.
  virtual shape value_shape(std::span<const shape> params) const;
  // The same given the parameters themselves, which is what the graph asks: a distribution
  // whose value's size is a parameter's value (LKJCorr's K, marked param_spec::sizes_value)
  // overrides this one. By default the shapes alone.
  virtual shape value_shape_at(std::span<const view> params) const;

  // Throws parameter_error when a parameter is outside its domain.
  virtual void check(std::span<const view> params) const = 0;

  virtual support value_support(std::span<const view> params) const = 0;

  // Whether the support's bounds move with the parameters' values (Uniform's lower and
  // upper, Binomial's n). Observed values of such a distribution are checked at the chain's
  // start when the parameters are unknowns, and its log_density must be -inf outside the
  // support; the others' observed values are checked once, when the data are bound.
  virtual bool support_moves() const { return false; }
  // Which parameters the support's bounds read (Binomial's n, not its p): observed values
  // are checked when the data are bound unless one of these depends on unknowns. By
  // default all of them when the support moves at all.
  virtual bool support_reads(std::size_t /*param*/) const { return support_moves(); }

  // Whether x lies in the support: integer-valued where the kind is integer, within the
  // bounds, on the simplex, ... The default covers the interval and spin kinds.
  virtual bool in_support(std::span<const view> params, view x) const;

  virtual double log_density(std::span<const view> params, view x, bool with_constants,
                             const gradient_out* grad = nullptr) const = 0;

  // The sum of the log densities (with constants) of n scalar values sharing the same
  // parameters: a plate such as y[n] ~ Bernoulli(p). Distributions override it where the
  // sum has a cheaper form than n calls (counts and two logs for a Bernoulli).
  virtual double log_density_sum(std::span<const view> params, const double* values, index_t n) const;

  // The sum of n scalar terms and their gradients, a plate's rows at once (the batched
  // gradient, model/graph_batch_backward.cpp): value k is x[k], its derivative added into
  // dx[k] when dx is given; parameters as rows_params says. With `check`, the parameters are
  // checked as check() does, and the first invalid one makes the result -inf (derivatives
  // unspecified). The default calls log_density row by row; distributions override it where
  // rows share work (a Normal's shared scale: one log).
  virtual double log_density_rows(const rows_params& r, std::size_t nparams, const double* x, double* dx, index_t n,
                                  bool check) const;
  // The same rows, each row's log density (with constants) kept apart, not summed: out[k],
  // and its partials set (not added) at partials[k * (nparams + 1)]: the value's first,
  // then each parameter's (a log density inside a log_mix, row by row). Value k is
  // x[k * sx]. The caller has checked the values' support; a row whose parameters are
  // invalid gives a value that is not finite (its partials unspecified), for the caller to
  // evaluate again. The default calls log_density_rows one row at a time; distributions
  // override it where rows share work.
  virtual void log_density_each(const rows_params& r, std::size_t nparams, const double* x, index_t sx, index_t n, double* out,
                                double* partials) const;
  // Whether each of n scalar values x[k] lies in the support given its row's parameters,
  // as in_support() says row by row; the support is worked out once where it does not
  // move. For values not known to lie in it (a `factor` of a log density, whose value is
  // any expression), with log_density_rows: checked_log_density_rows below.
  bool rows_in_support(const rows_params& r, std::size_t nparams, const double* x, index_t n) const;

  // The distribution function, for censoring and truncation (stdlib/cdf.hpp has the
  // helpers). A scalar distribution that has one says has_cdf() and overrides cdf(); the
  // default log_cdf and log_ccdf read it, returning NaN without it, and accumulate (+=) the
  // derivatives in x and the real parameters into grad's non-null slots, as log_density
  // does (an integer value gets none: its distribution function is a step). Parameters
  // must be valid (check() first). Where a derivative has no closed form (the shapes of
  // the incomplete gamma and beta functions) cdf() takes a central difference
  // (cdf_shape_difference); cdf_differentiable(i) says whether parameter i has a
  // derivative at all (false for integer parameters such as Binomial's n).
  virtual bool has_cdf() const { return false; }
  virtual bool cdf_differentiable(std::size_t param) const;
  virtual cdf_parts cdf(std::span<const view> params, double x, bool gradient) const;
  virtual double log_cdf(std::span<const view> params, double x, const gradient_out* grad = nullptr) const;
  virtual double log_ccdf(std::span<const view> params, double x, const gradient_out* grad = nullptr) const;
  // The inverse of the distribution function, for draws within an interval (censoring
  // and truncation, stdlib/restricted.cpp): the least x with log P(X <= x) >= log_p, or
  // with `upper` the least x with log P(X > x) <= log_p (for integer values an integer).
  // A tail's logarithm keeps its accuracy where the tail itself is below the least double
  // (a Weibull of scale 1 beyond 40: log P(X > 40) = -40^alpha). The default inverts cdf()
  // by bisection on the doubles (stdlib/distribution.cpp); a distribution whose quantile
  // has a closed form overrides it. Parameters must be valid; only for has_cdf().
  virtual double quantile(std::span<const view> params, double log_p, bool upper) const;

  // A typical value (value_shape_at(params).size() doubles), where a chain starts from by
  // default before its jitter, as JAGS starts from each prior's typical value: the mean
  // where it is finite, else the median or mode. False for a distribution without one to
  // give (discrete ones, which a start draws instead).
  virtual bool typical(std::span<const view> /*params*/, double* /*out*/) const { return false; }

  // Writes one draw (value_shape_at(params).size() doubles) to out.
  virtual void draw(std::span<const view> params, ppl::rng& rng, double* out) const = 0;
};

// The sum of n log densities of values that may lie outside the support (row k's value
// x[k], parameters as rows_params says), their derivatives added into dx and r.dp as
// log_density_rows adds them: -inf when a value is outside the support or a parameter
// invalid (derivatives then unspecified). A `factor normal_lpdf(y[n] | mu[n], s)` costs
// what the same `~` costs through this (stdlib/log_density_function.cpp, model/graph_batch.cpp).
double checked_log_density_rows(const distribution& d, const rows_params& r, std::size_t nparams, const double* x, double* dx,
                                index_t n);

}  // namespace ppl::stdlib
