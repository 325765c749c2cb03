// ESS and R-hat of series held in place (Vehtari et al. 2021, Sections 3.1 and 3.2), as
// the R package posterior 1.4.0 and Stan 2.21 compute them (tests/draws/
// test_diagnostics_posterior.cpp compares with posterior's figures).
//
// Geyer's initial monotone sequence reads the autocorrelations only up to the first
// non-positive pair, a few lags for a chain that mixes well. Those lags are summed
// directly, a block of lags per pass over the series; only a series still correlated far
// out goes to the FFT, which gives every lag at once for O(n log n). Both compute the same
// biased autocovariances; they differ in rounding only.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "draws/diagnostics_internal.hpp"

namespace ppl::draws::detail {

namespace {

constexpr std::size_t block = 8;  // lags summed per pass over a series

// Past this many lags an FFT of every series costs less than further passes. One forward
// and inverse FFT of `size` points cost as much as about 8 size log2(size) / n lags summed
// directly (measured on x86-64 at -O2 for n from 5,000 to 500,000; the FFT does worse than
// that for the larger n), so at worst the direct lags double what the FFT alone would cost.
std::size_t direct_lag_limit(std::size_t n) {
  std::size_t size = 1, log2 = 0;
  while (size < 2 * n) size *= 2, ++log2;
  return std::max<std::size_t>(4 * block, 8 * size * log2 / n);
}

// Sums y_i y_{i+t} over i for the lags t0 .. t0+block-1 of a series of n values followed
// by block-1 zeros. The lags are independent sums, so the inner loop vectorises.
void lag_sums(const double* y, std::size_t n, std::size_t t0, double* out) {
  double acc[block] = {};
  for (std::size_t i = 0; i + t0 < n; ++i) {
    const double yi = y[i];
    const double* ahead = y + i + t0;
#pragma GCC unroll 8  // keeps the sums in registers, twice as fast as GCC's own vectorisation
    for (std::size_t b = 0; b < block; ++b) acc[b] += yi * ahead[b];
  }
  std::copy(acc, acc + block, out);
}

// The combined autocorrelation of Section 3.2 as far as it is read, in the form of
// posterior 1.4.0's .ess and Stan 2.21's compute_effective_sample_size, whose figures Stan
// users compare ours with: rho_t = 1 - (W - mean_m gamma_{t,m}) / var+, where gamma_{t,m}
// is chain m's biased autocovariance (divisor N), W = mean_m gamma_{0,m} N/(N-1) the mean
// within-chain variance and var+ = W (N-1)/N + B/N. The paper's equation scales every
// autocovariance by N/(N-1); they scale only W, which moves ESS by O(1/N). With one chain
// there is no B.
class combined_rho {
 public:
  combined_rho(const series_set& s, autocorrelation_buffers& b) : s_(s), b_(b), m_(s.first.size()), n_(s.length) {
    const std::size_t stride = n_ + block;
    b_.centred.assign(m_ * stride, 0.0);
    b_.means.resize(m_);
    for (std::size_t k = 0; k < m_; ++k) {
      b_.means[k] = mean_of(s_.first[k], n_);
      for (std::size_t i = 0; i < n_; ++i) b_.centred[k * stride + i] = s_.first[k][i] - b_.means[k];
    }
    b_.mean_acov.assign(n_ + block, 0.0);
    b_.lags = 0;
    more_direct_lags();
    const double n = static_cast<double>(n_);
    within_ = b_.mean_acov[0] * n / (n - 1);  // in posterior's order of operations
    var_plus_ = within_ * (n - 1) / n + (m_ > 1 ? variance_of(b_.means.data(), m_) : 0.0);
  }
  bool defined() const { return var_plus_ > 0; }
  double operator()(std::size_t t) {
    while (t >= b_.lags) {
      if (b_.lags >= direct_lag_limit(n_)) all_lags_by_fft();
      else more_direct_lags();
    }
    return 1 - (within_ - b_.mean_acov[t]) / var_plus_;
  }

 private:
  void add(std::size_t t, double sum) { b_.mean_acov[t] += sum / static_cast<double>(n_) / static_cast<double>(m_); }
  void more_direct_lags() {
    double sums[block];
    for (std::size_t k = 0; k < m_; ++k) {
      lag_sums(b_.centred.data() + k * (n_ + block), n_, b_.lags, sums);
      for (std::size_t j = 0; j < block; ++j) add(b_.lags + j, sums[j]);
    }
    b_.lags = std::min(b_.lags + block, n_);
  }
  // Padded with zeros to a power of two of at least 2n, so that the circular correlation
  // does not wrap around.
  void all_lags_by_fft() {
    std::size_t size = 1;
    while (size < 2 * n_) size *= 2;
    std::fill(b_.mean_acov.begin(), b_.mean_acov.end(), 0.0);
    for (std::size_t k = 0; k < m_; ++k) {
      const double* y = b_.centred.data() + k * (n_ + block);
      b_.padded.assign(size, 0.0);
      std::copy(y, y + n_, b_.padded.begin());
      b_.fft.fwd(b_.spectrum, b_.padded);
      for (auto& f : b_.spectrum) f = std::norm(f);
      b_.fft.inv(b_.back, b_.spectrum);  // Eigen scales the inverse by 1 / size
      for (std::size_t t = 0; t < n_; ++t) add(t, b_.back[t]);
    }
    b_.lags = n_;
  }

  const series_set& s_;
  autocorrelation_buffers& b_;
  std::size_t m_, n_;
  double within_, var_plus_;
};

// Section 3.2: tau = -1 + 2 sum_{t'<k} P_t' + rho_2k, P_t' = rho_2t' + rho_2t'+1 (rho_0 = 1),
// k the first t' > 0 whose P_t' is not positive (Geyer's initial positive sequence), each
// P_t' lowered to the minimum of those before it (initial monotone sequence). rho_2k, which
// the paper adds for antithetic chains, counts only where it is positive or P_k is not
// negative, as in posterior and Stan. Like them, the sequence also stops at the first even
// lag 2k of at least n - 5, and with no pair read after P_0 (n <= 5, or P_0 <= 0) tau is 2.
double geyer_tau(combined_rho& rho, std::size_t n) {
  double even = 1, odd = rho(1), last = even;  // last: rho_2k as posterior keeps it
  double sum = 0, smallest = std::numeric_limits<double>::infinity();
  std::size_t t = 0;
  while (t + 5 < n && even + odd > 0) {  // NaN stops it too
    smallest = std::min(smallest, even + odd);
    sum += smallest;
    t += 2;
    even = rho(t);
    odd = rho(t + 1);
    last = even + odd >= 0 ? even : 0;
  }
  if (t == 0) return 2;
  return -1 + 2 * sum + (even > 0 ? even : last);
}

}  // namespace

double mean_of(const double* x, std::size_t n) { return std::accumulate(x, x + n, 0.0) / static_cast<double>(n); }

double variance_of(const double* x, std::size_t n) {
  double m = mean_of(x, n), s = 0;
  for (std::size_t i = 0; i < n; ++i) s += (x[i] - m) * (x[i] - m);
  return s / static_cast<double>(n - 1);
}

double ess(const series_set& s, autocorrelation_buffers& b) {
  if (s.length < 3) return std::numeric_limits<double>::quiet_NaN();  // as posterior; Stan wants 4
  combined_rho rho(s, b);
  if (!rho.defined()) return std::numeric_limits<double>::quiet_NaN();
  const double total = static_cast<double>(s.first.size() * s.length);
  // The paper caps ESS at S log10 S: very short antithetic chains can give absurd estimates.
  const double tau = std::max(geyer_tau(rho, s.length), 1 / std::log10(total));
  return total / tau;
}

double rhat(const series_set& s) {
  const std::size_t m = s.first.size();
  const double n = static_cast<double>(s.length);
  std::vector<double> means(m);
  double within = 0;
  for (std::size_t k = 0; k < m; ++k) {
    means[k] = mean_of(s.first[k], s.length);
    within += variance_of(s.first[k], s.length) / static_cast<double>(m);
  }
  const double var_plus = (n - 1) / n * within + variance_of(means.data(), m);  // B / N = variance of the means
  return std::sqrt(var_plus / within);
}

}  // namespace ppl::draws::detail
