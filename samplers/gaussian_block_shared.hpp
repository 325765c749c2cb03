#pragma once
// A `gaussian_block` term read once (its residuals r_i = r0_i + A_i b have r0_i and A_i
// fixed for the run) whose scale, covariance or precision is one for all its instances:
// rats' Normal(mu[i, j], 1 / sqrt(tau_c)), birats' MultiNormalPrec(mu_beta, R). With W its
// weight at a sweep (1 / s^2, Sigma^-1 or P), its share of the precision, sum_i A_i' W A_i,
// and of the linear term, -sum_i A_i' W r0_i, are sums over W's entries of matrices fixed
// for the run: those are summed once, and a sweep adds dim^2 products per entry of Q and c
// instead of whitening and multiplying out every instance.
#include <cstddef>
#include <vector>

#include "core/tensor.hpp"

namespace ppl::samplers {

// The rows of a block's terms: row r holds the coordinates row_column[row_start[r] ..
// row_start[r + 1]), with slopes (unwhitened) at the same places; its pairs (i >= j in that
// list, i-major) have their entries of Q at pair_slot[row_pair_start[r] ...].
struct block_rows {
  const std::vector<std::size_t>& row_start;
  const std::vector<int>& row_column;
  const std::vector<std::size_t>& row_pair_start;
  const std::vector<std::size_t>& pair_slot;
  const std::vector<double>& r0;
  const std::vector<double>& slope;
};

struct shared_term {
  std::size_t dim = 1;
  std::vector<std::size_t> q_slots;  // entries of Q the term reaches
  std::vector<double> q_sums;        // dim^2 per entry: sum_i A_ia[k] A_ib[l], for W_ab
  std::vector<int> c_columns;        // coordinates of c
  std::vector<double> c_sums;        // dim^2 per coordinate: -sum_i A_ia[k] r0_ib

  // From `count` instances of `dim` rows each from `first_row` (a MultiNormal instance's
  // rows hold the same coordinates); `slots` and `coordinates` size Q's entries and c.
  shared_term(const block_rows& rows, std::size_t first_row, std::size_t count, std::size_t dim, std::size_t slots, std::size_t coordinates);
  // q += w sum_ab W_ab q_sums, c += w sum_ab W_ab c_sums; W row-major, dim x dim.
  void add(double* q, double* c, const double* weight, double w) const;
};

// W for a term of form 0 (Normal: its sd), 1 (MultiNormal: Sigma) or 2 (MultiNormalPrec: P),
// row-major; false where it is not finite (a Sigma that is not positive definite).
bool shared_weight(int form, view scale, std::vector<double>& out);

}  // namespace ppl::samplers
