// The registration table of every built-in function and operator: a name and the group
// that implements it (stdlib/function_groups.hpp). Adding a function is a row here and a
// row, or a class, in its group's file.
#include <algorithm>

#include "stdlib/function_groups.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

struct builtin {
  std::string_view name;
  function_factory make;
};

// Sorted by name (byte order).
constexpr builtin builtin_table[] = {
    {"!", make_operator},
    {"!=", make_operator},
    {"%", make_operator},
    {"&&", make_operator},
    {"'", make_transpose},
    {"*", make_product},
    {"+", make_operator},
    {"-", make_operator},
    {".*", make_operator},
    {"./", make_operator},
    {"/", make_operator},
    {"<", make_operator},
    {"<=", make_operator},
    {"==", make_operator},
    {">", make_operator},
    {">=", make_operator},
    {"Phi", make_special_function},
    {"Phi_approx", make_special_function},
    {"^", make_math_function},
    {"abs", make_math_function},
    {"append_col", make_append},
    {"append_row", make_append},
    {"atan", make_math_function},
    {"atan2", make_math_function},
    {"cbrt", make_math_function},
    {"ceil", make_math_function},
    {"cholesky", make_cholesky},
    {"cholesky_decompose", make_cholesky},
    {"choose", make_special_function},
    {"cloglog", make_special_function},
    {"cols", make_size},
    {"cos", make_math_function},
    {"cov_exp_quad", make_covariance_function},
    {"cumulative_sum", make_cumulative_sum},
    {"diag_matrix", make_diagonal},
    {"diag_pre_multiply", make_covariance_function},
    {"digamma", make_special_function},
    {"dot", make_dot},
    {"equals", make_math_function},
    {"erf", make_special_function},
    {"erfc", make_special_function},
    {"exp", make_math_function},
    {"exp2", make_math_function},
    {"expm1", make_math_function},
    {"fabs", make_math_function},
    {"fdim", make_math_function},
    {"floor", make_math_function},
    {"fmax", make_math_function},
    {"fmin", make_math_function},
    {"gp_exp_quad_cov", make_covariance_function},
    {"gp_exponential_cov", make_covariance_function},
    {"gp_matern32_cov", make_covariance_function},
    {"gp_matern52_cov", make_covariance_function},
    {"hmm_marginal", make_hmm_marginal},
    {"identity_matrix", make_diagonal},
    {"ifelse", make_ifelse},
    {"int_step", make_math_function},
    {"inv", make_math_function},
    {"inv_Phi", make_special_function},
    {"inv_cloglog", make_special_function},
    {"inv_logit", make_math_function},
    {"inv_sqrt", make_math_function},
    {"inverse", make_inverse},
    {"is_nan", make_math_function},
    {"lbeta", make_special_function},
    {"lchoose", make_special_function},
    {"length", make_size},
    {"lgamma", make_special_function},
    {"log", make_math_function},
    {"log10", make_math_function},
    {"log1m", make_special_function},
    {"log1m_inv_logit", make_special_function},
    {"log1p", make_math_function},
    {"log1p_exp", make_special_function},
    {"log2", make_math_function},
    {"log_determinant", make_log_determinant},
    {"log_inv_logit", make_special_function},
    {"log_mix", make_log_mix},
    {"log_sum_exp", make_reduction},
    {"logfact", make_special_function},
    {"logit", make_math_function},
    {"max", make_reduction},
    {"mdivide_left", make_left_division},
    {"mdivide_left_tri_low", make_left_division},
    {"mean", make_reduction},
    {"min", make_reduction},
    {"multiply_lower_tri_self_transpose", make_covariance_function},
    {"neg", make_operator},
    {"pow", make_math_function},
    {"probit", make_special_function},
    {"prod", make_reduction},
    {"quad_form_diag", make_covariance_function},
    {"rank", make_rank},
    {"rep", make_rep},
    {"rep_matrix", make_rep_matrix},
    {"round", make_math_function},
    {"rows", make_size},
    {"sd", make_reduction},
    {"sin", make_math_function},
    {"softmax", make_softmax},
    {"softplus", make_math_function},
    {"sort_asc", make_sort},
    {"sort_desc", make_sort},
    {"sqrt", make_math_function},
    {"square", make_math_function},
    {"step", make_math_function},
    {"sum", make_reduction},
    {"tan", make_math_function},
    {"tanh", make_math_function},
    {"tgamma", make_special_function},
    {"to_int", make_math_function},
    {"transpose", make_transpose},
    {"variance", make_reduction},
    {"||", make_operator},
};

static_assert(std::ranges::is_sorted(builtin_table, {}, &builtin::name), "keep builtin_table sorted by name");

}  // namespace

void register_functions(registry& r) {
  for (const builtin& b : builtin_table) r.add(b.make(b.name));
}

}  // namespace ppl::stdlib
