// Cases for the functions of whole arrays added after sum and dot: prod and variance,
// log_mix, cumulative_sum and the orderings, the constructors and sizes, concatenation,
// the matrix functions (inverse, log_determinant, cholesky), and the products that build a
// covariance from a correlation and scales (multiply_lower_tri_self_transpose,
// diag_pre_multiply, quad_form_diag). See function_cases.hpp
// for how the tables are used; the few checks that do not fit a table follow them.
#include <numbers>

#include "tests/stdlib/function_cases.hpp"

namespace ppl::testing {

namespace {

const tensor m22 = mat(2, 2, {4, 7, 2, 6});            // det 10
const tensor spd = mat(3, 3, {4, 2, 0.6, 2, 3, 0.4, 0.6, 0.4, 2});  // symmetric positive definite

// An n x n symmetric positive definite matrix: n on the diagonal, small off it.
tensor spd_of(int n) {
  std::vector<double> v(static_cast<std::size_t>(n * n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) v[static_cast<std::size_t>(i * n + j)] = i == j ? n : 0.5 * std::cos(0.7 * (i + j)) + 0.1 * std::sin(1.3 * i * j);
  return mat(n, n, v);
}

std::vector<value_case> reduction_values() {
  return {
      {"prod", {vec({2, 3, 4})}, scalar(24)},
      {"prod", {mat(2, 2, {1, -2, 3, 0.5})}, scalar(-3)},
      {"prod", {vec({})}, scalar(1)},
      {"variance", {vec({2, 4, 4, 4, 5, 5, 7, 9})}, scalar(32.0 / 7)},  // n - 1 denominator
      {"log_mix", {scalar(0.3), scalar(std::log(2.0)), scalar(std::log(5.0))}, scalar(std::log(4.1))},
      {"log_mix", {scalar(0.5), scalar(-1000), scalar(-1000)}, scalar(-1000)},  // e^-1000 underflows; this does not
      {"log_mix", {scalar(0), scalar(1), scalar(2)}, scalar(2)},
      {"log_mix", {vec({0.2, 0.8}), vec({0, std::log(3.0)})}, scalar(std::log(2.6))},
      // Two states, two observations: the four paths' weights 0.5 * 1 * 0.9 * 2,
      // 0.5 * 1 * 0.1 * 3, 0.5 * 4 * 0.2 * 2 and 0.5 * 4 * 0.8 * 3 sum to 6.65.
      {"hmm_marginal", {mat(2, 2, {0, std::log(2.0), std::log(4.0), std::log(3.0)}), mat(2, 2, {0.9, 0.1, 0.2, 0.8}), vec({0.5, 0.5})},
       scalar(std::log(6.65))},
      {"cumulative_sum", {vec({1, 2, 3.5})}, vec({1, 3, 6.5})},
      {"cumulative_sum", {vec({})}, vec({})},
      {"sort_asc", {vec({3, 1, 2, 1})}, vec({1, 1, 2, 3})},
      {"sort_desc", {vec({3, 1, 2, 1})}, vec({3, 2, 1, 1})},
      {"rank", {vec({3, 1, 2, 1}), scalar(1)}, scalar(3)},
      {"rank", {vec({3, 1, 2, 1}), scalar(2)}, scalar(0)},  // ties are not below
  };
}

std::vector<value_case> construction_values() {
  return {
      {"rows", {mat(2, 3, std::vector<double>(6, 0.0))}, scalar(2)},
      {"cols", {mat(2, 3, std::vector<double>(6, 0.0))}, scalar(3)},
      {"rows", {vec({1, 2, 3, 4})}, scalar(4)},
      {"cols", {vec({1, 2, 3, 4})}, scalar(1)},
      {"rep_matrix", {scalar(1.5), scalar(2), scalar(3)}, mat(2, 3, std::vector<double>(6, 1.5))},
      {"rep_matrix", {vec({1, 2}), scalar(3)}, mat(2, 3, {1, 1, 1, 2, 2, 2})},
      {"diag_matrix", {vec({1, 2})}, mat(2, 2, {1, 0, 0, 2})},
      {"identity_matrix", {scalar(2)}, mat(2, 2, {1, 0, 0, 1})},
      {"identity_matrix", {scalar(0)}, mat(0, 0, {})},
      {"append_row", {vec({1, 2}), vec({3})}, vec({1, 2, 3})},
      {"append_row", {scalar(0), vec({1})}, vec({0, 1})},
      {"append_row", {mat(1, 2, {1, 2}), mat(2, 2, {3, 4, 5, 6})}, mat(3, 2, {1, 2, 3, 4, 5, 6})},
      {"append_col", {mat(2, 1, {1, 2}), mat(2, 2, {3, 4, 5, 6})}, mat(2, 3, {1, 3, 4, 2, 5, 6})},
      {"append_col", {vec({1, 2}), vec({3, 4})}, mat(2, 2, {1, 3, 2, 4})},
      // Stan's names: rep_vector and its kin as rep; num_elements all elements, size the first dimension.
      {"rep_vector", {scalar(1.5), scalar(2)}, vec({1.5, 1.5})},
      {"rep_row_vector", {scalar(2), scalar(1)}, vec({2})},
      {"rep_array", {scalar(0), scalar(3)}, vec({0, 0, 0})},
      {"num_elements", {mat(2, 3, std::vector<double>(6, 0.0))}, scalar(6)},
      {"size", {mat(2, 3, std::vector<double>(6, 0.0))}, scalar(2)},
      {"size", {scalar(4)}, scalar(1)},
      // Selections: a matrix's to_vector column by column (Stan's), to_array_1d in order.
      {"head", {vec({1, 2, 3}), scalar(2)}, vec({1, 2})},
      {"head", {vec({1, 2, 3}), scalar(0)}, vec({})},
      {"tail", {vec({1, 2, 3}), scalar(2)}, vec({2, 3})},
      {"segment", {vec({1, 2, 3, 4}), scalar(2), scalar(2)}, vec({2, 3})},
      {"row", {mat(2, 3, {1, 2, 3, 4, 5, 6}), scalar(2)}, vec({4, 5, 6})},
      {"col", {mat(2, 3, {1, 2, 3, 4, 5, 6}), scalar(3)}, vec({3, 6})},
      {"to_vector", {mat(2, 3, {1, 2, 3, 4, 5, 6})}, vec({1, 4, 2, 5, 3, 6})},
      {"to_vector", {scalar(7)}, vec({7})},
      {"to_array_1d", {mat(2, 3, {1, 2, 3, 4, 5, 6})}, vec({1, 2, 3, 4, 5, 6})},
      {"take", {vec({10, 20, 30}), vec({3, 1, 3})}, vec({30, 10, 30})},
      {"take", {mat(3, 2, {1, 2, 3, 4, 5, 6}), vec({3, 1})}, mat(2, 2, {5, 6, 1, 2})},
      {"log_sum_exp", {scalar(std::log(2.0)), scalar(std::log(3.0))}, scalar(std::log(5.0))},
  };
}

std::vector<value_case> matrix_values() {
  return {
      {"inverse", {m22}, mat(2, 2, {0.6, -0.7, -0.2, 0.4})},
      {"log_determinant", {m22}, scalar(std::log(10.0))},
      {"log_determinant", {mat(2, 2, {1, 2, 3, 4})}, scalar(std::log(2.0))},  // det -2: log |det|
      {"log_determinant", {mat(2, 2, {1, 2, 2, 4})}, scalar(-INFINITY)},      // singular
      // 2x + y = 3, x + 3y = 5
      {"mdivide_left", {mat(2, 2, {2, 1, 1, 3}), vec({3, 5})}, vec({0.8, 1.4})},
      // the lower triangle [[2, 0], [1, 4]] only (the 9 is not read), two right-hand sides
      {"mdivide_left_tri_low", {mat(2, 2, {2, 9, 1, 4}), mat(2, 2, {2, 4, 5, 6})}, mat(2, 2, {1, 2, 1, 1})},
      {"cholesky", {mat(2, 2, {4, 2, 2, 3})}, mat(2, 2, {2, 0, 1, std::sqrt(2.0)})},
      {"cholesky_decompose", {mat(2, 2, {9, 3, 3, 5})}, mat(2, 2, {3, 0, 1, 2})},
      // The upper triangle (9) is not read: [[1, 0], [2, 3]] times its transpose.
      {"multiply_lower_tri_self_transpose", {mat(2, 2, {1, 9, 2, 3})}, mat(2, 2, {1, 2, 2, 13})},
      {"multiply_lower_tri_self_transpose", {mat(3, 2, {1, 9, 2, 3, 4, 5})}, mat(3, 3, {1, 2, 4, 2, 13, 23, 4, 23, 41})},
      {"diag_pre_multiply", {vec({2, -1}), mat(2, 3, {1, 2, 3, 4, 5, 6})}, mat(2, 3, {2, 4, 6, -4, -5, -6})},
      {"quad_form_diag", {mat(2, 2, {1, 0.5, 0.5, 1}), vec({2, 3})}, mat(2, 2, {4, 3, 3, 9})},
      // alpha^2 exp(-d^2 / (2 rho^2)): d = 1 and 2 at rho = 1, alpha = 2
      {"gp_exp_quad_cov", {vec({0, 1, 2}), scalar(2), scalar(1)},
       mat(3, 3, {4, 4 * std::exp(-0.5), 4 * std::exp(-2.0), 4 * std::exp(-0.5), 4, 4 * std::exp(-0.5), 4 * std::exp(-2.0), 4 * std::exp(-0.5), 4})},
      // points in two dimensions, a row each: d^2 = 3^2 + 4^2 = 25 at rho = 5
      {"cov_exp_quad", {mat(2, 2, {0, 0, 3, 4}), scalar(1), scalar(5)}, mat(2, 2, {1, std::exp(-0.5), std::exp(-0.5), 1})},
      // Two points 5 apart (a 3-4-5 triangle), rho 2.5: u = 2; alpha 2.
      {"gp_exponential_cov", {mat(2, 2, {0, 0, 3, 4}), scalar(2), scalar(2.5)}, mat(2, 2, {4, 4 * std::exp(-2.0), 4 * std::exp(-2.0), 4})},
      {"gp_matern32_cov", {mat(2, 2, {0, 0, 3, 4}), scalar(2), scalar(2.5)},
       mat(2, 2, {4, 4 * (1 + 2 * std::sqrt(3.0)) * std::exp(-2 * std::sqrt(3.0)), 4 * (1 + 2 * std::sqrt(3.0)) * std::exp(-2 * std::sqrt(3.0)), 4})},
      {"gp_matern52_cov", {vec({0, 5}), scalar(2), scalar(2.5)},
       mat(2, 2, {4, 4 * (1 + 2 * std::sqrt(5.0) + 20.0 / 3) * std::exp(-2 * std::sqrt(5.0)),
                  4 * (1 + 2 * std::sqrt(5.0) + 20.0 / 3) * std::exp(-2 * std::sqrt(5.0)), 4})},
  };
}

}  // namespace

std::vector<value_case> array_value_cases() {
  std::vector<value_case> all = reduction_values();
  for (const auto& more : {construction_values(), matrix_values()}) all.insert(all.end(), more.begin(), more.end());
  return all;
}

std::vector<type_case> array_type_cases() {
  const auto i0 = int_t(0), i1 = int_t(1), i2 = int_t(2), r0 = real_t(0), r1 = real_t(1), r2 = real_t(2);
  return {
      ok("prod", {i1}, i0), ok("prod", {r2}, r0), ok("variance", {i1}, r0),
      ok("log_mix", {r0, r0, i0}, r0), ok("log_mix", {r1, r1}, r0),
      bad("log_mix", {r0, r1}, "log_mix expects three scalars, log_mix(theta, lp1, lp2), or two vectors"),
      ok("hmm_marginal", {r2, r2, r1}, r0),
      bad("hmm_marginal", {r2, r1, r1}, "hmm_marginal expects hmm_marginal(log_omega, Gamma, rho): a K x N matrix"),
      ok("cumulative_sum", {i1}, i1), ok("cumulative_sum", {r1}, r1),
      bad("cumulative_sum", {r2}, "cumulative_sum expects one vector, got real[,]"),
      ok("sort_asc", {i1}, i1), ok("sort_desc", {r1}, r1), bad("sort_asc", {r0}, "sort_asc expects one vector, got real"),
      ok("rank", {r1, i0}, i0), bad("rank", {r1, r0}, "rank expects a vector and an integer index, rank(v, s)"),
      ok("rows", {r2}, i0), ok("cols", {r1}, i0), bad("rows", {r0}, "rows expects a vector or a matrix, got real"),
      ok("rep_matrix", {r0, i0, i0}, r2), ok("rep_matrix", {i1, i0}, i2),
      ok("rep_vector", {r0, i0}, r1), ok("rep_row_vector", {i0, i0}, i1), ok("rep_array", {r0, i0}, r1),
      bad("rep_vector", {r0, r0}, "rep_vector expects a scalar and an integer count, rep_vector(x, n), got real and real"),
      ok("num_elements", {r2}, i0), ok("size", {r1}, i0), ok("size", {r0}, i0),
      ok("head", {r1, i0}, r1), ok("tail", {i1, i0}, i1), ok("segment", {r1, i0, i0}, r1),
      bad("head", {r1, r0}, "head expects head(v, n) of a vector and an integer count, got real[] and real"),
      bad("segment", {r2, i0, i0}, "segment expects segment(v, i, n) of a vector"),
      ok("row", {r2, i0}, r1), ok("col", {i2, i0}, i1), bad("col", {r1, i0}, "col expects col(M, j) of a matrix"),
      ok("to_vector", {r2}, r1), ok("to_vector", {i0}, i1), ok("to_array_1d", {r2}, r1),
      ok("take", {r1, i1}, r1), ok("take", {r2, i1}, r2), bad("take", {r1, r1}, "take expects take(x, idx) of a vector or a matrix and an integer array"),
      ok("log_sum_exp", {r0, i0}, r0), bad("log_sum_exp", {r0, r0, r0}, "log_sum_exp takes one array or two scalars, got 3"),
      bad("rep_matrix", {r0, r0, i0}, "rep_matrix expects rep_matrix(x, m, n) of a scalar and two integer counts"),
      ok("diag_matrix", {r1}, r2), ok("diag_matrix", {i1}, i2), bad("diag_matrix", {r2}, "diag_matrix expects one vector"),
      ok("identity_matrix", {i0}, r2), bad("identity_matrix", {r0}, "identity_matrix expects an integer size, got real"),
      ok("append_row", {i1, i1}, i1), ok("append_row", {r0, i1}, r1), ok("append_row", {r2, i2}, r2),
      bad("append_row", {r0, r0}, "append_row expects two vectors, a scalar and a vector, or two matrices, got real and real"),
      bad("append_row", {r2, r1}, "append_row expects two vectors"),
      ok("append_col", {r1, r1}, r2), ok("append_col", {i2, i1}, i2),
      bad("append_col", {r0, r1}, "append_col expects two matrices or vectors, got real and real[]"),
      ok("inverse", {i2}, r2), ok("log_determinant", {r2}, r0), ok("cholesky", {r2}, r2),
      ok("mdivide_left", {r2, r1}, r1), ok("mdivide_left_tri_low", {r2, r2}, r2),
      bad("mdivide_left", {r1, r1}, "mdivide_left expects a square matrix and a vector or matrix, mdivide_left(A, B), got"),
      ok("cholesky_decompose", {r2}, r2), bad("inverse", {r1}, "inverse expects one matrix, got real[]"),
      bad("cholesky", {r2, r2}, "cholesky expects one matrix, got real[,] and real[,]"),
      ok("multiply_lower_tri_self_transpose", {r2}, r2), ok("multiply_lower_tri_self_transpose", {i2}, r2),
      bad("multiply_lower_tri_self_transpose", {r1}, "multiply_lower_tri_self_transpose expects one matrix, got real[]"),
      ok("diag_pre_multiply", {r1, r2}, r2), ok("diag_pre_multiply", {i1, i2}, r2),
      bad("diag_pre_multiply", {r2, r1}, "diag_pre_multiply expects a vector and a matrix, diag_pre_multiply(v, M), got real[,] and real[]"),
      ok("quad_form_diag", {r2, r1}, r2),
      ok("gp_exp_quad_cov", {r1, r0, r0}, r2), ok("gp_exp_quad_cov", {r2, r0, r0}, r2), ok("cov_exp_quad", {i1, i0, r0}, r2),
      ok("gp_exponential_cov", {r1, r0, r0}, r2), ok("gp_matern32_cov", {r2, r0, r0}, r2), ok("gp_matern52_cov", {i1, i0, r0}, r2),
      bad("gp_exp_quad_cov", {r1, r1, r0}, "gp_exp_quad_cov expects points (real[N], or real[N, D] a point per row), alpha and rho, "
                                            "gp_exp_quad_cov(x, alpha, rho), got real[], real[] and real"),
      bad("quad_form_diag", {r1, r2}, "quad_form_diag expects a matrix and a vector, quad_form_diag(M, v), got real[] and real[,]"),
  };
}

std::vector<gradient_case> array_gradient_cases() {
  const tensor m23 = mat(2, 3, {1, -2, 3, 0.5, 5, -6});
  return {
      {"prod", {vec({0.4, 1.3, -2.0})}},
      {"prod", {vec({0.5, 0.0, 2.0})}},  // a zero factor: the others' product, not 0 / 0
      {"variance", {mat(2, 2, {0.4, 1.3, -2.0, 7})}},
      {"log_mix", {scalar(0.3), scalar(-1.2), scalar(0.4)}},
      {"log_mix", {scalar(0.8), scalar(0.4), scalar(-1.2)}},  // the first component the larger
      {"log_mix", {vec({0.2, 0.5, 0.3}), vec({-1.0, 0.5, -30.0})}},
      {"cumulative_sum", {vec({0.4, 1.3, -2.0})}},
      {"rows", {m23}}, {"cols", {vec({0.5, 1.5})}},
      {"rep_matrix", {scalar(0.7), scalar(2), scalar(3)}, {false, true, true}},
      {"rep_matrix", {vec({0.7, -1.2}), scalar(3)}, {false, true}},
      {"diag_matrix", {vec({0.7, -1.2, 2})}},
      {"identity_matrix", {scalar(3)}, {true}},
      {"append_row", {vec({0.7, -1.2}), vec({2})}},
      {"append_row", {scalar(0.3), vec({2, 5})}},
      {"append_row", {mat(1, 3, {0.1, 0.2, 0.3}), m23}},
      {"append_col", {vec({0.7, -1.2}), m23}},
      {"append_col", {m23, mat(2, 1, {0.1, 0.2})}},
      {"rep_vector", {scalar(0.7), scalar(3)}, {false, true}},
      {"rep_row_vector", {scalar(0.7), scalar(2)}, {false, true}},
      {"rep_array", {scalar(-0.3), scalar(2)}, {false, true}},
      {"num_elements", {m23}}, {"size", {vec({0.5, 1.5})}},
      {"head", {vec({0.7, -1.2, 2}), scalar(2)}, {false, true}},
      {"tail", {vec({0.7, -1.2, 2}), scalar(2)}, {false, true}},
      {"segment", {vec({0.7, -1.2, 2, 0.4}), scalar(2), scalar(3)}, {false, true, true}},
      {"row", {m23, scalar(2)}, {false, true}},
      {"col", {m23, scalar(1)}, {false, true}},
      {"to_vector", {m23}}, {"to_array_1d", {m23}},
      {"take", {vec({0.7, -1.2, 2}), vec({3, 1, 3})}, {false, true}},  // an element taken twice gets both adjoints
      {"take", {m23, vec({2, 2, 1})}, {false, true}},
      {"log_sum_exp", {scalar(0.3), scalar(-1.7)}},
      {"inverse", {mat(3, 3, {2, -1, 0.5, 1, 3, -0.2, 0.4, 0.1, 1.5})}},
      {"log_determinant", {mat(3, 3, {2, -1, 0.5, 1, 3, -0.2, 0.4, 0.1, 1.5})}},
      {"log_determinant", {mat(2, 2, {1, 2, 3, 4})}},  // negative determinant
      {"mdivide_left", {mat(3, 3, {2, -1, 0.5, 1, 3, -0.2, 0.4, 0.1, 1.5}), vec({1, -2, 0.5})}},
      {"mdivide_left", {mat(2, 2, {2, 0.5, 0.3, 1.5}), mat(2, 3, {1, -2, 0.5, 0.7, 0.2, -1})}},
      {"mdivide_left_tri_low", {mat(3, 3, {2, 7, -3, 1, 3, 5, 0.4, 0.1, 1.5}), vec({1, -2, 0.5})}},
      {"mdivide_left_tri_low", {mat(2, 2, {1.5, 0.8, -0.6, 2.5}), mat(2, 2, {1, -2, 0.5, 0.7})}},
      {"cholesky", {spd}, {}, true},
      {"cholesky", {spd_of(40)}, {}, true},  // past 32: the blocked reverse pass
      {"cholesky_decompose", {mat(2, 2, {2, -0.5, -0.5, 1})}, {}, true},
      {"multiply_lower_tri_self_transpose", {mat(3, 3, {1, 0.7, -0.4, 0.3, 0.9, 2, -0.5, 0.2, 0.8})}},
      {"multiply_lower_tri_self_transpose", {m23}},  // wide: the lower triangle stops at the last column
      {"multiply_lower_tri_self_transpose", {mat(3, 2, {1, 0.7, 0.3, 0.9, -0.5, 0.2})}},
      {"diag_pre_multiply", {vec({0.7, -1.2}), m23}},
      {"quad_form_diag", {mat(3, 3, {1, 0.3, -0.2, 0.4, 1, 0.5, -0.1, 0.6, 1}), vec({0.7, -1.2, 2})}},
      {"gp_exp_quad_cov", {vec({0.3, -1.1, 0.9, 2.0}), scalar(1.3), scalar(0.8)}},
      {"cov_exp_quad", {mat(3, 2, {0.3, -1.1, 0.9, 2.0, -0.4, 0.6}), scalar(0.7), scalar(1.6)}},
      {"gp_exponential_cov", {vec({0.3, -1.1, 0.9, 2.0}), scalar(1.3), scalar(0.8)}},
      {"gp_matern32_cov", {mat(3, 2, {0.3, -1.1, 0.9, 2.0, -0.4, 0.6}), scalar(0.7), scalar(1.6)}},
      {"gp_matern52_cov", {vec({0.3, -1.1, 0.9, 2.0}), scalar(1.3), scalar(0.8)}},
  };
}

std::vector<error_case> array_error_cases() {
  return {
      {"variance", {vec({1})}, "variance needs at least 2 values, got 1"},
      {"gp_exp_quad_cov", {vec({0, 1}), scalar(1), scalar(0)}, "gp_exp_quad_cov: rho is 0; it must be > 0 and finite"},
      {"gp_exp_quad_cov", {vec({0, 1}), scalar(-1), scalar(1)}, "gp_exp_quad_cov: alpha is -1; it must be >= 0 and finite"},
      {"gp_matern32_cov", {vec({0, 1}), scalar(1), scalar(-2)}, "gp_matern32_cov: rho is -2; it must be > 0 and finite"},
      {"log_mix", {vec({0.5, 0.5}), vec({1, 2, 3})}, "log_mix: theta has size 2 but lps has size 3"},
      {"log_mix", {vec({}), vec({})}, "log_mix needs at least 1 component, got 0"},
      {"hmm_marginal", {mat(2, 2, {0, 0, 0, 0}), mat(2, 2, {1, 0, 0, 1}), vec({0.2, 0.3, 0.5})},
       "hmm_marginal: rho has 3 elements but log_omega has 2 states (rows)"},
      {"sort_asc", {vec({1, NAN})}, "sort_asc: v[2] is nan"},
      {"rank", {vec({1, 2}), scalar(3)}, "rank: index s is 3 but v has size 2"},
      {"rank", {vec({1, 2}), scalar(0)}, "rank: index s is 0"},
      {"rep_matrix", {scalar(1), scalar(-2), scalar(2)}, "rep_matrix: the count m is -2; it must be a non-negative integer"},
      {"identity_matrix", {scalar(1e300)}, "identity_matrix: the count n is 1e+300, more than the limit"},
      {"append_row", {mat(1, 2, {1, 2}), mat(1, 3, {1, 2, 3})}, "append_row: operands have columns 2 and 3"},
      {"head", {vec({1, 2}), scalar(3)}, "head: n = 3 must be between 0 and 2 (v has 2)"},
      {"segment", {vec({1, 2, 3}), scalar(2), scalar(3)}, "segment: n = 3 must be between 0 and 2 (from i, v has 2)"},
      {"segment", {vec({1, 2, 3}), scalar(0), scalar(1)}, "segment: i = 0 is outside 1..3"},
      {"row", {mat(2, 2, {1, 2, 3, 4}), scalar(3)}, "row: i = 3 is outside 1..2 (M has rows 2)"},
      {"take", {vec({1, 2}), vec({1, 5})}, "take: an index = 5 is outside 1..2 (v has 2)"},
      {"append_col", {vec({1, 2}), vec({1, 2, 3})}, "append_col: operands have rows 2 and 3; they must be the same"},
      {"inverse", {mat(2, 3, std::vector<double>(6, 1.0))}, "inverse: the matrix is 2 x 3; it must be square"},
      {"mdivide_left", {mat(2, 2, {1, 0, 0, 1}), vec({1, 2, 3})}, "mdivide_left: the matrix is 2 x 2 but the right-hand side has 3 rows"},
      {"log_determinant", {mat(1, 2, {1, 2})}, "log_determinant: the matrix is 1 x 2"},
      {"cholesky", {mat(2, 2, {4, 1, 1.5, 3})}, "cholesky: the matrix is not symmetric: A[2, 1] is 1.5 but A[1, 2] is 1"},
      {"diag_pre_multiply", {vec({1, 2, 3}), mat(2, 2, {1, 0, 0, 1})}, "diag_pre_multiply: v has size 3 but M has 2 rows; they must be equal"},
      {"quad_form_diag", {mat(2, 3, std::vector<double>(6, 1.0)), vec({1, 2})}, "quad_form_diag: M is 2 x 3; it must be square"},
      {"quad_form_diag", {mat(2, 2, {1, 0, 0, 1}), vec({1, 2, 3})}, "quad_form_diag: v has size 3 but M is 2 x 2; they must agree"},
  };
}

TEST_CASE("cholesky of a symmetric matrix that is not positive definite is NaN, for the sampler to reject") {
  const tensor out = call("cholesky", {mat(2, 2, {1, 2, 2, 1})});
  for (double x : out.data) CHECK(std::isnan(x));
}

TEST_CASE("the matrix functions agree with one another") {
  // L L' = A, inverse(A) A = I, and log det A = 2 sum log L_ii.
  const tensor l = call("cholesky", {spd}), inv = call("inverse", {spd});
  const double log_det = call("log_determinant", {spd}).data[0];
  double from_l = 0;
  for (index_t i = 0; i < 3; ++i) {
    from_l += 2 * std::log(l.data[static_cast<std::size_t>(i * 4)]);
    for (index_t j = 0; j < 3; ++j) {
      double llt = 0, identity = 0;
      for (index_t k = 0; k < 3; ++k) {
        llt += l.data[static_cast<std::size_t>(i * 3 + k)] * l.data[static_cast<std::size_t>(j * 3 + k)];
        identity += inv.data[static_cast<std::size_t>(i * 3 + k)] * spd.data[static_cast<std::size_t>(k * 3 + j)];
      }
      CHECK(llt == doctest::Approx(spd.data[static_cast<std::size_t>(i * 3 + j)]).epsilon(1e-12));
      CHECK(identity == doctest::Approx(i == j ? 1.0 : 0.0).scale(1).epsilon(1e-12));
    }
  }
  CHECK(log_det == doctest::Approx(from_l).epsilon(1e-12));
}

TEST_CASE("Stan's covariance from a correlation factor and scales: quad_form_diag(L L', tau) = diag_pre_multiply(tau, L) times its transpose") {
  const tensor l = mat(3, 3, {1, 0, 0, 0.6, 0.8, 0, -0.28, 0.96 * 0.5, 0.96 * std::sqrt(0.75)});  // rows of unit length
  const tensor tau = vec({0.5, 2, 1.5});
  const tensor omega = call("multiply_lower_tri_self_transpose", {l});
  const tensor sigma = call("quad_form_diag", {omega, tau});
  const tensor factor = call("diag_pre_multiply", {tau, l});
  const tensor product = call("multiply_lower_tri_self_transpose", {factor});
  for (index_t i = 0; i < 3; ++i) {
    CHECK(omega.data[static_cast<std::size_t>(i * 4)] == doctest::Approx(1).epsilon(1e-12));
    for (index_t j = 0; j < 3; ++j) {
      const auto at = static_cast<std::size_t>(i * 3 + j), mirror = static_cast<std::size_t>(j * 3 + i);
      CHECK(omega.data[at] == omega.data[mirror]);  // exactly: MultiNormal reads it as a covariance
      CHECK(sigma.data[at] == doctest::Approx(product.data[at]).epsilon(1e-12));
    }
  }
}

TEST_CASE("cholesky's adjoint is symmetric: A[i, j] and A[j, i] enter alike, through (A + A') / 2") {
  const tensor l = call("cholesky", {spd});
  std::vector<double> d_out(9), d_a(9, 0.0);
  for (std::size_t i = 0; i < 9; ++i) d_out[i] = 0.3 + 0.1 * static_cast<double>(i);
  std::vector<double*> slots = {d_a.data()};
  fn("cholesky").backward(views({spd}), l.as_view(), d_out.data(), slots);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < i; ++j) CHECK(d_a[i * 3 + j] == doctest::Approx(d_a[j * 3 + i]).epsilon(1e-12));
}

}  // namespace ppl::testing
