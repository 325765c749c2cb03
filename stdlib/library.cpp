#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

// Sorted by name; adding a distribution is one line here and one file beside this one.
using factory = std::unique_ptr<distribution> (*)();
constexpr factory distribution_table[] = {
    make_bernoulli, make_bernoulli_logit, make_beta, make_beta_binomial, make_binomial, make_binomial_logit,
    make_categorical, make_cauchy, make_chi_square, make_dirichlet, make_dirichlet_multinomial, make_discrete_uniform,
    make_double_exponential, make_exponential, make_flat, make_gamma, make_geometric, make_gumbel, make_half_cauchy,
    make_half_normal, make_half_student_t, make_hypergeometric, make_inverse_chi_square, make_inverse_gamma,
    make_inverse_wishart, make_lkj_corr, make_lkj_corr_cholesky, make_log_normal, make_logistic, make_multi_normal,
    make_multi_normal_cholesky, make_multi_normal_prec, make_multinomial, make_negative_binomial,
    make_negative_binomial_2, make_normal, make_ordered_logistic, make_pareto, make_poisson, make_poisson_log,
    make_scaled_inverse_chi_square, make_skew_normal, make_spin, make_student_t, make_sum, make_uniform, make_von_mises,
    make_weibull, make_wishart,
};

}  // namespace

void register_library(registry& r) {
  for (factory make : distribution_table) r.add(make());
  register_functions(r);
}

}  // namespace ppl::stdlib
