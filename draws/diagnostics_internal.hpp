#pragma once
// What the diagnostics' files share; not part of the interface (see diagnostics.hpp).
#include <complex>
#include <cstddef>
#include <cstdint>
#include <unsupported/Eigen/FFT>
#include <vector>

namespace ppl::draws::detail {

// Equal-length series read in place: series k is first[k][0 .. length). The halves of
// split chains are two pointers into one chain, so splitting copies nothing.
struct series_set {
  std::vector<const double*> first;
  std::size_t length = 0;
};

double mean_of(const double* x, std::size_t n);
double variance_of(const double* x, std::size_t n);  // divisor n - 1

// Buffers kept from one ESS to the next: the summary computes four per column, and
// allocating them afresh (or planning a new FFT) cost more than the arithmetic.
struct autocorrelation_buffers {
  std::vector<double> centred;  // each series minus its mean, then zeros for the lag blocks
  std::vector<double> means, mean_acov;
  std::size_t lags = 0;  // mean_acov holds lags 0 .. lags-1
  Eigen::FFT<double> fft;  // keeps its plan (twiddles) per size
  std::vector<double> padded, back;
  std::vector<std::complex<double>> spectrum;
};

// ESS of finite series as given (Section 3.2): NaN when they are constant (var+ = 0).
double ess(const series_set& s, autocorrelation_buffers& b);
// Plain R-hat of finite series as given (Section 3.1): NaN when they are constant.
double rhat(const series_set& s);

// A draw and where it goes: its place in the split chains' layout (series k of length h
// at k h), or `dropped` for the middle draw of an odd-length chain, which split chains leave out.
struct ranked_draw {
  double value;
  std::size_t at;
};
constexpr std::size_t dropped = SIZE_MAX;

// Sorts draws by value (ties in any order). An LSD radix sort on the values' bits: a
// summary sorts every column once, and for 40,000 draws this costs a sixth of std::sort.
// `scratch` is a buffer kept between calls.
void sort_by_value(std::vector<ranked_draw>& draws, std::vector<ranked_draw>& scratch);

// The normal scores of Section 4.1 for S draws, z = Phi^-1((r - 3/8) / (S + 1/4)),
// tabled for whole ranks: every column of a summary has the same S.
class normal_scores {
 public:
  void prepare(std::size_t total);
  double at_rank(double rank) const;  // rank from 1 to S; tied draws' average ranks may be halves
  double at_whole_rank(std::size_t rank) const { return table_[rank - 1]; }  // from 1 to S

 private:
  std::size_t total_ = 0;
  std::vector<double> table_;
};

// Draws sorted by value, ties in any order: scores the draws (writes out[at] for each draw
// not dropped) with tied values sharing their average rank.
void assign_scores(const std::vector<ranked_draw>& sorted, const normal_scores& scores, double* out);
// The draws not dropped, ordered by |value - median|, from `sorted` (ordered by value)
// without sorting again: the two sides of the median are merged outwards.
void fold_about(const std::vector<ranked_draw>& sorted, double median, std::vector<ranked_draw>& out);

}  // namespace ppl::draws::detail
