#include "draws/psis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace ppl::draws {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// mean(log(1 - theta x)): the shape k that best goes with theta = -k / sigma.
double shape_for(double theta, const std::vector<double>& x) {
  double sum = 0;
  for (double v : x) sum += std::log1p(-theta * v);
  return sum / static_cast<double>(x.size());
}

}  // namespace

pareto_estimate pareto_fit(const std::vector<double>& x, bool regularise) {
  if (x.size() < 2) throw std::invalid_argument("pareto_fit: needs at least 2 exceedances");
  const std::size_t n = x.size();
  const double size = static_cast<double>(n);
  // The grid: 1 / x_(n) (where the likelihood ends) plus offsets on the scale of the first
  // quartile, dense near the end and spreading out below it.
  const std::size_t points = 30 + static_cast<std::size_t>(std::sqrt(size));
  const double quartile = x[std::max<std::size_t>(1, static_cast<std::size_t>(size / 4 + 0.5)) - 1];
  constexpr double prior = 3;
  std::vector<double> theta(points), profile(points);
  for (std::size_t j = 0; j < points; ++j) {
    theta[j] = 1 / x[n - 1] + (1 - std::sqrt(static_cast<double>(points) / (static_cast<double>(j) + 0.5))) / prior / quartile;
    // The profile log likelihood of theta, with k at its best for that theta.
    const double k = shape_for(theta[j], x);
    profile[j] = size * (std::log(-theta[j] / k) - k - 1);
  }
  // The posterior mean of theta over the grid.
  const double normaliser = log_sum_exp(profile);
  double theta_hat = 0;
  for (std::size_t j = 0; j < points; ++j) theta_hat += theta[j] * std::exp(profile[j] - normaliser);
  double k = shape_for(theta_hat, x);
  const double sigma = -k / theta_hat;
  if (regularise) k = (k * size + 10 * 0.5) / (size + 10);
  if (std::isnan(k)) k = infinity;
  return {k, sigma};
}

double pareto_quantile(double p, const pareto_estimate& g) {
  if (g.k == 0) return -g.sigma * std::log1p(-p);
  return g.sigma * std::expm1(-g.k * std::log1p(-p)) / g.k;
}

std::size_t psis_tail_length(std::size_t draws, double r_eff) {
  const double s = static_cast<double>(draws);
  return static_cast<std::size_t>(std::ceil(std::min(0.2 * s, 3 * std::sqrt(s / r_eff))));
}

double pareto_k_threshold(std::size_t draws) { return std::min(1 - 1 / std::log10(static_cast<double>(draws)), 0.7); }

double log_sum_exp(const std::vector<double>& x) {
  if (x.empty()) return -infinity;
  const double top = *std::max_element(x.begin(), x.end());
  if (std::isinf(top)) return top;
  double sum = 0;
  for (double v : x) sum += std::exp(v - top);
  return top + std::log(sum);
}

namespace {

// Replaces the `tail` largest of the log ratios `lw` by the logs of the fitted quantiles
// above the cutoff and returns the fit's k: +inf when the fit is undefined, NaN when the
// tail is flat, and the ratios stay as they are in both cases.
double smooth_tail(std::vector<double>& lw, std::size_t tail) {
  const std::size_t s = lw.size();
  // Only the tail and the cutoff just below it need to be in order.
  std::vector<std::size_t> order(s);
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto by_ratio = [&lw](std::size_t a, std::size_t b) { return lw[a] < lw[b]; };
  const auto cut = order.begin() + static_cast<std::ptrdiff_t>(s - tail - 1);
  std::nth_element(order.begin(), cut, order.end(), by_ratio);
  std::sort(cut, order.end(), by_ratio);
  const std::size_t* first = &order[s - tail];
  // Flat to rounding (log p - log q computed apart differ by some 1e-14 where q is p):
  // no tail to fit.
  if (lw[order[s - 1]] - lw[first[0]] < 1e-10) return std::numeric_limits<double>::quiet_NaN();
  // The fit is on the ratios' own scale, above the cutoff: exp(lw) <= 1 as the largest log
  // ratio is 0.
  const double cutoff = std::exp(lw[*cut]);
  std::vector<double> exceedances(tail);
  for (std::size_t i = 0; i < tail; ++i) exceedances[i] = std::exp(lw[first[i]]) - cutoff;
  const pareto_estimate fit = pareto_fit(exceedances);
  if (!std::isfinite(fit.k) || !(fit.sigma > 0)) return infinity;
  // The expected order statistics, i-th smallest at probability (i - 1/2) / M.
  for (std::size_t i = 0; i < tail; ++i)
    lw[first[i]] = std::log(pareto_quantile((static_cast<double>(i) + 0.5) / static_cast<double>(tail), fit) + cutoff);
  return fit.k;
}

}  // namespace

psis_weights psis_smooth(const std::vector<double>& log_ratios, double r_eff) {
  if (log_ratios.size() < 2) throw std::invalid_argument("psis_smooth: needs at least 2 log ratios");
  psis_weights out{log_ratios, infinity, psis_tail_length(log_ratios.size(), r_eff)};
  auto& lw = out.log_weights;
  // Shifted so that exp never overflows; normalising takes the shift out again.
  const double top = *std::max_element(lw.begin(), lw.end());
  for (double& v : lw) v -= top;
  // loo's minimum: fewer than 5 ratios make no tail to fit (at S >= 25 there are more).
  if (out.tail_length >= 5 && out.tail_length < lw.size()) out.pareto_k = smooth_tail(lw, out.tail_length);
  // Truncated at the largest raw ratio, now 0.
  for (double& v : lw) v = std::min(v, 0.0);
  const double total = log_sum_exp(lw);
  for (double& v : lw) v -= total;
  return out;
}

}  // namespace ppl::draws
