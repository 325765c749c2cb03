#include "draws/loo.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "draws/diagnostics.hpp"
#include "draws/psis.hpp"

namespace ppl::draws {

namespace {


double largest(const chains_t& chains) {
  double top = -std::numeric_limits<double>::infinity();
  for (const auto& c : chains)
    for (double v : c) top = std::max(top, v);
  return top;
}

// The sum of the values and sqrt(N) times their sd (divisor N - 1).
template <class Point>
loo_estimate total(const std::vector<Point>& points, double Point::*field) {
  const double n = static_cast<double>(points.size());
  double sum = 0;
  for (const auto& p : points) sum += p.*field;
  double squares = 0;
  for (const auto& p : points) squares += (p.*field - sum / n) * (p.*field - sum / n);
  return {sum, points.size() > 1 ? std::sqrt(n * squares / (n - 1)) : NAN};
}

}  // namespace

double relative_efficiency(const chains_t& log_lik) {
  if (log_lik.empty() || log_lik[0].size() < 3) return 1;
  const double top = largest(log_lik);
  chains_t likelihood(log_lik);
  std::size_t draws = 0;
  for (auto& c : likelihood) {
    for (double& v : c) v = std::exp(v - top);
    draws += c.size();
  }
  const double ess = effective_sample_size(likelihood);
  return std::isfinite(ess) && ess > 0 ? ess / static_cast<double>(draws) : 1;
}

loo_point loo_observation(const chains_t& log_lik) {
  std::vector<double> pooled;
  for (const auto& c : log_lik) pooled.insert(pooled.end(), c.begin(), c.end());
  const double r_eff = relative_efficiency(log_lik);
  // The ratios of the leave-one-out posterior to the full one are 1 / p(y_i | theta_s).
  std::vector<double> ratios(pooled.size());
  std::transform(pooled.begin(), pooled.end(), ratios.begin(), [](double ll) { return -ll; });
  const psis_weights w = psis_smooth(ratios, r_eff);
  std::vector<double> terms(pooled.size());
  double squares = 0;
  for (std::size_t s = 0; s < pooled.size(); ++s) {
    terms[s] = pooled[s] + w.log_weights[s];
    squares += std::exp(2 * w.log_weights[s]);
  }
  const double elpd = log_sum_exp(terms);
  const double lpd = log_sum_exp(pooled) - std::log(static_cast<double>(pooled.size()));
  // Equation 6 of the 2024 paper relative to E^2, E = exp(elpd): sum_s w_s^2 (p_s / E - 1)^2.
  double spread = 0;
  for (std::size_t s = 0; s < pooled.size(); ++s) {
    const double deviation = std::exp(terms[s] - w.log_weights[s] - elpd) - 1;
    spread += std::exp(2 * w.log_weights[s]) * deviation * deviation;
  }
  return {elpd, std::sqrt(std::log1p(spread / r_eff)), lpd - elpd, -2 * elpd, w.pareto_k, r_eff / squares, r_eff};
}

loo_result loo(const std::vector<loo_point>& points, std::size_t draws) {
  const double threshold = pareto_k_threshold(draws);
  double variance = 0;
  bool reliable = true;
  for (const auto& p : points) {
    variance += p.mcse_elpd_loo * p.mcse_elpd_loo;
    reliable = reliable && !(p.pareto_k > threshold);
  }
  return {total(points, &loo_point::elpd_loo), total(points, &loo_point::p_loo), total(points, &loo_point::looic),
          reliable ? std::sqrt(variance) : NAN};
}

waic_point waic_observation(const chains_t& log_lik) {
  std::vector<double> pooled;
  for (const auto& c : log_lik) pooled.insert(pooled.end(), c.begin(), c.end());
  const double n = static_cast<double>(pooled.size());
  const double lpd = log_sum_exp(pooled) - std::log(n);
  double mean = 0;
  for (double x : pooled) mean += x / n;
  double squares = 0;
  for (double x : pooled) squares += (x - mean) * (x - mean);
  const double p_waic = squares / (n - 1);
  return {lpd - p_waic, p_waic, -2 * (lpd - p_waic)};
}

waic_result waic(const std::vector<waic_point>& points) {
  return {total(points, &waic_point::elpd_waic), total(points, &waic_point::p_waic), total(points, &waic_point::waic)};
}

std::vector<pareto_k_bin> pareto_k_table(const std::vector<loo_point>& points, double threshold) {
  constexpr double infinity = std::numeric_limits<double>::infinity();
  std::vector<pareto_k_bin> bins = {{-infinity, threshold, 0, NAN}, {threshold, 1, 0, NAN}, {1, infinity, 0, NAN}};
  for (const auto& p : points) {
    const std::size_t b = !(p.pareto_k > threshold) ? 0 : p.pareto_k <= 1 ? 1 : 2;
    ++bins[b].count;
    if (b == 0 && !(p.n_eff >= bins[0].min_n_eff)) bins[0].min_n_eff = p.n_eff;
  }
  return bins;
}

}  // namespace ppl::draws
