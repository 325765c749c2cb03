#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

// Sorted by name; adding a distribution is one line here and one file beside this one.
using factory = std::unique_ptr<distribution> (*)();
constexpr factory distribution_table[] = {
    make_bernoulli,     make_bernoulli_logit, make_beta,          make_binomial,    make_binomial_logit,
    make_categorical,   make_cauchy,          make_dirichlet,     make_exponential, make_gamma,
    make_half_cauchy,   make_half_normal,     make_inverse_gamma, make_log_normal,  make_multi_normal,
    make_multinomial,   make_negative_binomial, make_normal,      make_poisson,     make_poisson_log,
    make_spin,          make_student_t,       make_uniform,
};

}  // namespace

void register_library(registry& r) {
  for (factory make : distribution_table) r.add(make());
  register_functions(r);
}

}  // namespace ppl::stdlib
