#pragma once
// A distribution's log density as a function of its value and parameters, as Stan writes
// it: `normal_lpdf(y | mu, sigma)`, `poisson_lpmf(k | lambda)`, also `logpdf(Normal(mu,
// sigma), y)`. With constants, so that it is the density a `~` adds (for log_lik, LOO and
// WAIC). A distribution of scalars with scalar parameters takes arrays as a vectorised `~`
// does (each argument a scalar or of one common shape) and gives the sum over their
// elements; others take their declared shapes. Invalid parameters give NaN, which a
// sampler treats as -inf; a value outside the support gives -inf.
//
// The same machinery gives the distribution functions of the scalar distributions that
// have one (distribution::has_cdf): `normal_lcdf(y | mu, sigma)` (log P(Y <= y)),
// `weibull_lccdf(t | alpha, sigma)` (log P(Y > t): a right-censored observation) and
// `normal_cdf(y | mu, sigma)` (P(Y <= y)); over arrays the logarithms are summed, and the
// plain cdf is the product, as Stan's. Differentiable in the value and the parameters.
#include <memory>
#include <string>

#include "stdlib/distribution.hpp"
#include "stdlib/function.hpp"

namespace ppl::stdlib {

enum class density_kind { log_density, log_cdf, log_ccdf, cdf };

std::unique_ptr<function> make_log_density_function(const distribution& d, std::string name,
                                                    density_kind kind = density_kind::log_density);

}  // namespace ppl::stdlib
