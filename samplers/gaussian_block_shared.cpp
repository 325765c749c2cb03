// The shared terms of a `gaussian_block` (samplers/gaussian_block_shared.hpp).
#include "samplers/gaussian_block_shared.hpp"

#include <Eigen/Dense>
#include <cmath>

namespace ppl::samplers {

shared_term::shared_term(const block_rows& rows, std::size_t first_row, std::size_t count, std::size_t dim, std::size_t slots,
                         std::size_t coordinates)
    : dim(dim) {
  const std::size_t dd = dim * dim;
  std::vector<double> q(slots * dd, 0.0), c(coordinates * dd, 0.0);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t first = first_row + i * dim;
    const std::size_t n = rows.row_start[first + 1] - rows.row_start[first];
    for (std::size_t a = 0; a < dim; ++a)
      for (std::size_t b = 0; b < dim; ++b) {
        const std::size_t ra = first + a, rb = first + b, ab = a * dim + b;
        const double* slope_a = rows.slope.data() + rows.row_start[ra];
        const double* slope_b = rows.slope.data() + rows.row_start[rb];
        for (std::size_t p = 0; p < n; ++p) {
          c[static_cast<std::size_t>(rows.row_column[rows.row_start[ra] + p]) * dd + ab] -= slope_a[p] * rows.r0[rb];
          // Pair (p, q), p >= q, of the row's coordinates: its entry of Q gets A_a[p] A_b[q].
          const std::size_t* pair = rows.pair_slot.data() + rows.row_pair_start[ra] + p * (p + 1) / 2;
          for (std::size_t k = 0; k <= p; ++k) q[pair[k] * dd + ab] += slope_a[p] * slope_b[k];
        }
      }
  }
  const auto keep = [dd](const std::vector<double>& all, auto& where, std::vector<double>& sums) {
    for (std::size_t k = 0; k * dd < all.size(); ++k) {
      bool any = false;
      for (std::size_t ab = 0; ab < dd; ++ab) any = any || all[k * dd + ab] != 0;
      if (!any) continue;
      where.push_back(static_cast<typename std::decay_t<decltype(where)>::value_type>(k));
      sums.insert(sums.end(), all.begin() + static_cast<long>(k * dd), all.begin() + static_cast<long>((k + 1) * dd));
    }
  };
  keep(q, q_slots, q_sums);
  keep(c, c_columns, c_sums);
}

void shared_term::add(double* q, double* c, const double* weight, double w) const {
  const std::size_t dd = dim * dim;
  if (dd == 1) {  // a Normal term: one weight 1 / s^2
    const double scale = w * weight[0];
    for (std::size_t k = 0; k < q_slots.size(); ++k) q[q_slots[k]] += scale * q_sums[k];
    for (std::size_t k = 0; k < c_columns.size(); ++k) c[c_columns[k]] += scale * c_sums[k];
    return;
  }
  const auto dotted = [&](const double* sums) {
    double s = 0;
    for (std::size_t ab = 0; ab < dd; ++ab) s += weight[ab] * sums[ab];
    return w * s;
  };
  for (std::size_t k = 0; k < q_slots.size(); ++k) q[q_slots[k]] += dotted(q_sums.data() + k * dd);
  for (std::size_t k = 0; k < c_columns.size(); ++k) c[c_columns[k]] += dotted(c_sums.data() + k * dd);
}

bool shared_weight(int form, view scale, std::vector<double>& out) {
  if (form == 0) {
    out.assign(1, 1 / (scale[0] * scale[0]));
    return true;
  }
  const auto k = static_cast<Eigen::Index>(std::lround(std::sqrt(static_cast<double>(scale.size()))));
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> m(scale.data, k, k);
  Eigen::MatrixXd w = m;
  if (form == 1) {
    const Eigen::LLT<Eigen::MatrixXd> llt(w);
    if (llt.info() != Eigen::Success) return false;
    w = llt.solve(Eigen::MatrixXd::Identity(k, k));
  }
  out.resize(static_cast<std::size_t>(k * k));
  for (Eigen::Index a = 0; a < k; ++a)
    for (Eigen::Index b = 0; b < k; ++b) out[static_cast<std::size_t>(a * k + b)] = w(a, b);
  return w.allFinite();
}

}  // namespace ppl::samplers
