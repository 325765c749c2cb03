// A chain's trial of its plan: the optional samplers run in one window of the warmup and
// not in the next; the least ESS per unit of work decides whether they stay.
#include "inference/chain_trial.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "draws/diagnostics.hpp"
#include "model/graph.hpp"
#include "stdlib/moments.hpp"

namespace ppl::inference {

plan_trial::plan_trial(std::vector<char> optional, std::string what, long warmup, bool adapting, const model::graph& g,
                       const std::vector<int>& unknowns, std::vector<int> scales)
    : optional_(std::move(optional)), what_(std::move(what)), scales_(std::move(scales)) {
  if (std::none_of(optional_.begin(), optional_.end(), [](char o) { return o != 0; })) return;
  if (adapting) {
    // Leaving them out after the warmup would leave a metric and step size adapted to a
    // sweep the sampling no longer makes (Magnesium's NUTS block then stuck: ESS 13 of 4,000).
    verdict_ = what_ + " kept: a Hamiltonian block adapts during the warmup, which a trial would disturb";
    return;
  }
  if (warmup < min_warmup) {
    verdict_ = fmt::format("{} kept: the warmup ({} iterations) is too short to try the plan without them (at least {})", what_, warmup,
                           min_warmup);
    return;
  }
  // Four windows after the warmup's first quarter, which lets a chain leave its start with the
  // moves: with them, without, with, without. The earlier the choice, the fewer sweeps pay
  // for samplers that do not pay (on Rats the moves cost twice the rest of the sweep).
  const long window = std::min(warmup / 8, max_window);
  for (std::size_t i = 0; i < marks_.size(); ++i) marks_[i] = warmup / 4 + static_cast<long>(i) * window;
  std::vector<int> order = unknowns;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return g.value(a).size() < g.value(b).size(); });
  for (int v : order)
    for (std::size_t k = 0; k < g.value(v).data.size() && tracked_.size() < max_scalars; ++k) tracked_.emplace_back(v, k);
  for (auto& w : windows_) w.assign(tracked_.size(), {});
  scale_logs_.assign(scales_.size(), {});
}

bool plan_trial::steps(std::size_t k, long it) const {
  if (k >= optional_.size() || !optional_[k] || marks_.back() == 0) return true;
  if (it > marks_.back()) return decided_ != 0;
  for (std::size_t w = 1; w < windows_.size(); w += 2)
    if (it > marks_[w] && it <= marks_[w + 1]) return false;
  return true;
}

void plan_trial::before(const model::graph& g) { sweep_start_ = g.work(); }

void plan_trial::after(const model::graph& g, long it) {
  if (marks_.back() == 0 || decided_ >= 0 || it <= marks_.front() || it > marks_.back()) return;
  const auto w = static_cast<std::size_t>(std::upper_bound(marks_.begin(), marks_.end(), it - 1) - marks_.begin()) - 1;
  window_work_[w] += g.work() - sweep_start_;
  for (std::size_t i = 0; i < tracked_.size(); ++i) windows_[w][i].push_back(g.value(tracked_[i].first).data[tracked_[i].second]);
  if (w % 2 == 0)  // with them: the scale's spread as the move lets it range
    for (std::size_t i = 0; i < scales_.size(); ++i) scale_logs_[i].push_back(std::log(g.value(scales_[i]).data[0]));
  if (it < marks_.back()) return;
  decide(g);
  for (auto& window : windows_) window.clear();
  scale_logs_.clear();
}

void plan_trial::decide(const model::graph& g) {
  // A scale spread widely (a funnel's neck within reach): kept, whatever the windows say.
  for (std::size_t i = 0; i < scales_.size(); ++i) {
    const auto& logs = scale_logs_[i];
    const double spread = logs.size() < 2 ? NAN : stdlib::sample_sd(logs.data(), static_cast<index_t>(logs.size()));
    if (!(spread <= max_log_sd)) {
      decided_ = 1;
      verdict_ = fmt::format("{} kept: `{}` spreads widely in the trial's windows with them (sd of its log {:.3g}, above {:.3g}), "
                             "where centred updates alone can stall",
                             what_, g.model().variables[static_cast<std::size_t>(scales_[i])].name, spread, max_log_sd);
      return;
    }
  }
  // Dropped only when both pairs of windows say the plan without them is clearly better
  // (a NaN says nothing, and keeps them).
  std::array<double, 4> e{};
  for (std::size_t i = 0; i < windows_.size(); ++i) e[i] = efficiency(windows_[i], window_work_[i]);
  decided_ = e[1] > margin * e[0] && e[3] > margin * e[2] ? 0 : 1;
  verdict_ = fmt::format("{} {} after a trial in warmup iterations {}-{}, with them and without in turns of {}: least ESS per 1000 "
                         "evaluations {:.3g} with, {:.3g} without, then {:.3g} with, {:.3g} without (dropped only when both times "
                         "above {:.3g}x)",
                         what_, decided_ ? "kept" : "dropped", marks_.front() + 1, marks_.back(), marks_[1] - marks_[0], 1000 * e[0],
                         1000 * e[1], 1000 * e[2], 1000 * e[3], margin);
}

double plan_trial::efficiency(const std::vector<std::vector<double>>& window, std::uint64_t work) {
  double least = INFINITY;
  for (const auto& series : window)
    if (const double ess = rank_ess(series); std::isfinite(ess)) least = std::min(least, ess);
  return std::isfinite(least) && work > 0 ? least / static_cast<double>(work) : NAN;
}

double plan_trial::rank_ess(const std::vector<double>& s) {
  if (s.size() < 4) return NAN;
  std::vector<std::size_t> order(s.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return s[a] < s[b]; });
  std::vector<std::vector<double>> ranks(1, std::vector<double>(s.size(), 0.0));
  auto& r = ranks[0];
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && s[order[j + 1]] == s[order[i]]) ++j;
    for (std::size_t k = i; k <= j; ++k) r[order[k]] = 0.5 * static_cast<double>(i + j);
    i = j + 1;
  }
  return draws::effective_sample_size(ranks);
}

void plan_trial::persist(ppl::archive& a) {
  a(decided_, verdict_, window_work_, scale_logs_);
  for (auto& window : windows_) a(window);
}

}  // namespace ppl::inference
