#pragma once
// Factories of the built-in library, one per distribution file; used only by library.cpp.
#include <memory>

#include "stdlib/registry.hpp"

namespace ppl::stdlib {

std::unique_ptr<distribution> make_bernoulli();
std::unique_ptr<distribution> make_bernoulli_logit();
std::unique_ptr<distribution> make_beta();
std::unique_ptr<distribution> make_beta_binomial();
std::unique_ptr<distribution> make_binomial();
std::unique_ptr<distribution> make_binomial_logit();
std::unique_ptr<distribution> make_categorical();
std::unique_ptr<distribution> make_cauchy();
std::unique_ptr<distribution> make_chi_square();
std::unique_ptr<distribution> make_dirichlet();
std::unique_ptr<distribution> make_dirichlet_multinomial();
std::unique_ptr<distribution> make_discrete_uniform();
std::unique_ptr<distribution> make_double_exponential();
std::unique_ptr<distribution> make_exponential();
std::unique_ptr<distribution> make_flat();
std::unique_ptr<distribution> make_gamma();
std::unique_ptr<distribution> make_geometric();
std::unique_ptr<distribution> make_gumbel();
std::unique_ptr<distribution> make_half_cauchy();
std::unique_ptr<distribution> make_half_normal();
std::unique_ptr<distribution> make_half_student_t();
std::unique_ptr<distribution> make_hypergeometric();
std::unique_ptr<distribution> make_inverse_chi_square();
std::unique_ptr<distribution> make_inverse_gamma();
std::unique_ptr<distribution> make_inverse_wishart();
std::unique_ptr<distribution> make_lkj_corr();
std::unique_ptr<distribution> make_lkj_corr_cholesky();
std::unique_ptr<distribution> make_log_normal();
std::unique_ptr<distribution> make_logistic();
std::unique_ptr<distribution> make_multi_normal();
std::unique_ptr<distribution> make_multi_normal_cholesky();
std::unique_ptr<distribution> make_multi_normal_prec();
std::unique_ptr<distribution> make_multinomial();
std::unique_ptr<distribution> make_negative_binomial();
std::unique_ptr<distribution> make_negative_binomial_2();
std::unique_ptr<distribution> make_normal();
std::unique_ptr<distribution> make_ordered_logistic();
std::unique_ptr<distribution> make_pareto();
std::unique_ptr<distribution> make_poisson();
std::unique_ptr<distribution> make_poisson_log();
std::unique_ptr<distribution> make_scaled_inverse_chi_square();
std::unique_ptr<distribution> make_skew_normal();
std::unique_ptr<distribution> make_spin();
std::unique_ptr<distribution> make_student_t();
std::unique_ptr<distribution> make_sum();
std::unique_ptr<distribution> make_uniform();
std::unique_ptr<distribution> make_von_mises();
std::unique_ptr<distribution> make_weibull();
std::unique_ptr<distribution> make_wishart();

// Every built-in function and operator (stdlib/functions.cpp).
void register_functions(registry& r);

}  // namespace ppl::stdlib
