#include "draws/weighted.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ppl::draws {

double kish_ess(const std::vector<double>& w) {
  double sum = 0, squares = 0;
  for (double v : w) {
    sum += v;
    squares += v * v;
  }
  return squares > 0 ? sum * sum / squares : NAN;
}

scalar_summary weighted_summary(const std::vector<double>& x, const std::vector<double>& w) {
  scalar_summary s{NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
  const double total = std::accumulate(w.begin(), w.end(), 0.0);
  if (x.empty() || x.size() != w.size() || !(total > 0)) return s;
  // A draw of weight 0 (a prior draw the data rule out) counts for nothing, finite or not.
  for (std::size_t i = 0; i < x.size(); ++i)
    if (w[i] > 0 && !std::isfinite(x[i])) return s;
  double mean = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (w[i] > 0) mean += w[i] / total * x[i];
  double variance = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (w[i] > 0) variance += w[i] / total * (x[i] - mean) * (x[i] - mean);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (w[i] > 0) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  auto quantile = [&](double p) {
    double cumulative = 0;
    for (std::size_t i : order) {
      cumulative += w[i] / total;
      if (cumulative >= p * (1 - 1e-12)) return x[i];
    }
    return x[order.back()];
  };
  s.mean = mean;
  s.sd = std::sqrt(variance);
  s.q5 = quantile(0.05);
  s.q50 = quantile(0.5);
  s.q95 = quantile(0.95);
  const double ess = kish_ess(w);
  s.ess_bulk = s.ess_tail = ess;
  s.mcse_mean = s.sd / std::sqrt(ess);
  return s;
}

}  // namespace ppl::draws
