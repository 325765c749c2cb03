#pragma once
// Warmup's adaptation for `nuts` and `hmc`, as Stan does it: the step size by dual
// averaging towards a target acceptance statistic, restarted after every metric update,
// and the windows whose draws estimate the metric (samplers/hamiltonian_metric.hpp).
#include <algorithm>
#include <cmath>

#include "core/archive.hpp"

namespace ppl::samplers::hamiltonian {

// Dual averaging of log step size (Hoffman & Gelman 2014, JMLR 15, Algorithm 5, after
// Nesterov 2009) with Stan's constants.
struct dual_averaging {
  double target = 0.8, mu = 0, s_bar = 0, x_bar = 0;
  long count = 0;
  void restart(double step) {
    mu = std::log(10 * step);
    s_bar = x_bar = 0;
    count = 0;
  }
  // Learns from one transition's acceptance statistic; returns the next step size.
  double learn(double accept_stat) {
    constexpr double gamma = 0.05, kappa = 0.75, t0 = 10;
    ++count;
    const double n = static_cast<double>(count), eta = 1 / (n + t0);
    s_bar = (1 - eta) * s_bar + eta * (target - std::min(1.0, accept_stat));
    const double x = mu - s_bar * std::sqrt(n) / gamma, weight = std::pow(n, -kappa);
    x_bar = weight * x + (1 - weight) * x_bar;
    return std::exp(x);
  }
  // The step size kept after warmup: the average of the iterates.
  double final_step() const { return std::exp(x_bar); }
  void persist(ppl::archive& a) { a(target, mu, s_bar, x_bar, count); }
};

// Stan's warmup windows: an initial buffer (step size only), windows of doubling length
// whose draws estimate the metric, and a final buffer (step size only). Too short a
// warmup for the defaults 75 / 25 / 50 gets 15% / 75% / 10%. A chain that starts in the
// bulk with a metric already estimated (a path's: --init pathfinder) has no typical set to
// travel to, and its initial buffer is 25 iterations of step size alone.
class windows {
 public:
  void reset(long warmup, bool in_bulk = false) {
    warmup_ = warmup;
    init_ = in_bulk ? 25 : 75, term_ = 50, base_ = 25;
    if (warmup < 20) {
      init_ = warmup, term_ = 0, base_ = 0;  // too short to estimate a metric
    } else if (init_ + term_ + base_ > warmup) {
      init_ = static_cast<long>(0.15 * static_cast<double>(warmup));
      term_ = static_cast<long>(0.1 * static_cast<double>(warmup));
      base_ = warmup - init_ - term_;
    }
    size_ = base_;
    end_ = init_ + base_ - 1;
  }
  // Whether warmup iteration i (0-based) contributes to the metric's estimate.
  bool collects(long i) const { return base_ > 0 && i >= init_ && i < warmup_ - term_; }
  // Whether a window ends at iteration i; then moves to the next.
  bool closes(long i) {
    if (!collects(i) || i != end_) return false;
    const long last = warmup_ - term_ - 1;
    if (end_ != last) {
      size_ *= 2;
      end_ = i + size_;
      if (end_ + 2 * size_ > last) end_ = last;  // a last window too short to stand alone joins this one
    }
    return true;
  }
  void persist(ppl::archive& a) { a(warmup_, init_, term_, base_, size_, end_); }

 private:
  long warmup_ = 0, init_ = 0, term_ = 0, base_ = 0, size_ = 0, end_ = -1;
};

}  // namespace ppl::samplers::hamiltonian
