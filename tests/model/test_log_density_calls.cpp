// Log-density calls (lang/checker_log_density.cpp, stdlib/log_density_function.hpp):
// `normal_lpdf(y | mu, sigma)`, `poisson_lpmf(k | lambda)`, `logpdf(Normal(mu, sigma), y)`
// give the log density a `~` adds, with constants, summed over the elements of arrays.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/support/gradient_check.hpp"
#include "tests/support/model_fixture.hpp"

namespace test_log_density_calls {

using ppl::testing::error_of;
using ppl::testing::fixture;

namespace {

double computed(const std::string& expression, const std::vector<std::string>& sets = {}) {
  fixture f("data y: real[3] = [0.5, -1, 2]\nv = " + expression + "\n", sets);
  return f.value("v").data.at(0);
}

const double log_root_two_pi = 0.5 * std::log(2 * M_PI);

}  // namespace

TEST_CASE("values, with constants, for continuous and discrete distributions") {
  CHECK(computed("normal_lpdf(1 | 0, 2)") == doctest::Approx(-log_root_two_pi - std::log(2.0) - 0.125));
  CHECK(computed("poisson_lpmf(2 | 1.5)") == doctest::Approx(2 * std::log(1.5) - 1.5 - std::log(2.0)));
  CHECK(computed("neg_binomial_2_lpmf(0 | 2, 1)") == doctest::Approx(std::log(1.0 / 3)));  // (phi / (mu + phi))^phi
  CHECK(computed("negative_binomial_2_lpmf(0 | 2, 1)") == doctest::Approx(std::log(1.0 / 3)));
  CHECK(computed("exponential_lpdf(2 | 0.5)") == doctest::Approx(std::log(0.5) - 1));
  CHECK(computed("dirichlet_lpdf([0.2, 0.8] | [1, 1])") == doctest::Approx(0.0).epsilon(1e-12));
  CHECK(computed("logpdf(Normal(0, 2), 1)") == doctest::Approx(computed("normal_lpdf(1 | 0, 2)")));
  CHECK(computed("logpmf(Poisson(1.5), 2)") == doctest::Approx(computed("poisson_lpmf(2 | 1.5)")));
}

TEST_CASE("matrix distributions: Stan's names (inv_wishart) and ours in snake case") {
  const std::string w = "[[3, -0.4], [-0.4, 1.5]]", s = "[[2, 0.6], [0.6, 1]]";
  CHECK(computed("wishart_lpdf(" + w + " | 4, " + s + ")") == doctest::Approx(-5.45523649324285));  // R, as in test_wishart
  CHECK(computed("inv_wishart_lpdf(" + w + " | 4, " + s + ")") == doctest::Approx(-8.11888294105196));
  CHECK(computed("inverse_wishart_lpdf(" + w + " | 4, " + s + ")") == doctest::Approx(-8.11888294105196));
  CHECK(computed("multi_normal_prec_lpdf([1, 0] | [0, 0], [[2, 0], [0, 1]])") == doctest::Approx(-std::log(2 * M_PI) + 0.5 * std::log(2.0) - 1));
}

TEST_CASE("arrays: the sum over elements, as a vectorised ~ adds") {
  const double each = computed("normal_lpdf(0.5 | 1, 2)") + computed("normal_lpdf(-1 | 0, 2)") + computed("normal_lpdf(2 | -1, 2)");
  CHECK(computed("normal_lpdf(y | [1, 0, -1], 2)") == doctest::Approx(each));
  CHECK(computed("normal_lpdf(y | 0, 1)") == doctest::Approx(-3 * log_root_two_pi - 0.5 * (0.25 + 1 + 4)));
  CHECK(error_of("data y: real[3] = [0.5, -1, 2]\nv = normal_lpdf(y | [1, 2], 1)\n") ==
        "test.ppl:2:5: error: normal_lpdf: arguments have shapes [3] and [2]; each must be a scalar or of one common shape");
}

TEST_CASE("outside the support -inf; invalid parameters NaN") {
  CHECK(computed("poisson_lpmf(-1 | 1.5)") == -INFINITY);
  CHECK(computed("beta_lpdf(1.5 | 2, 2)") == -INFINITY);
  CHECK(std::isnan(computed("normal_lpdf(0 | 0, -1)")));
}

TEST_CASE("arrays through the distribution's rows: support and parameter refusals, gradients") {
  // A value outside the support at one element, of a distribution whose support is fixed
  // and of one whose support moves with its parameters; an invalid parameter at one.
  CHECK(computed("exponential_lpdf(y | 1)") == -INFINITY);
  CHECK(computed("uniform_lpdf(y | -1, 1.5)") == -INFINITY);
  CHECK(computed("uniform_lpdf(y | -1, [3, 3, 1.5])") == -INFINITY);
  CHECK(computed("uniform_lpdf(y | -1, 3)") == doctest::Approx(-3 * std::log(4.0)));
  CHECK(std::isnan(computed("normal_lpdf(y | 0, [1, -1, 2])")));
  CHECK(computed("gamma_lpdf([1, 2] | 2, [1, 3])") == doctest::Approx(computed("gamma_lpdf(1 | 2, 1)") + computed("gamma_lpdf(2 | 2, 3)")));
  // Vectorised factors of densities with and without their own rows kernel, the value and
  // the parameters unknown, against finite differences.
  for (const std::string& term : {"factor normal_lpdf(z | a * y, s)", "factor gamma_lpdf(s + z .* z | 2, exp(a))",
                                   "factor student_t_lpdf(y | 4, z, s)", "factor normal_lpdf(y | a, s * z .* z + 0.5)"}) {
    CAPTURE(term);
    fixture f("data y: real[3] = [0.5, -1, 2]\na ~ Normal(0, 1)\ns ~ Gamma(2, 2)\nparam z: real[3]\nz ~ Normal(0, 1)\n" + term + "\n");
    ppl::testing::check_model_gradient(f, {"a", "s", "z"}, 0.8);
  }
}

TEST_CASE("log_lik as a derived quantity, recomputed from the unknowns") {
  fixture f("data y: real[N]\nmu ~ Normal(0, 1)\ny ~ Normal(mu, 1)\nfor n in 1:N { log_lik[n] = normal_lpdf(y[n] | mu, 1) }\n",
            {"y=[0.5,1.5]"});
  f.mutable_value("mu").data[0] = 1;
  f.graph->update_derived();
  CHECK(f.value("log_lik").data[1] == doctest::Approx(-log_root_two_pi - 0.125));
  CHECK(f.model->variables[static_cast<std::size_t>(f.model->find("log_lik"))].role == ppl::lang::ir::role::derived);
}

TEST_CASE("log-density calls: errors") {
  CHECK(error_of("v = normal_lpmf(1 | 0, 1)\n") == "test.ppl:1:5: error: Normal is continuous: its log density is normal_lpdf, not normal_lpmf");
  CHECK(error_of("v = poisson_lpdf(1 | 2)\n") == "test.ppl:1:5: error: Poisson is discrete: its log probability is poisson_lpmf, not poisson_lpdf");
  CHECK(error_of("v = normal_lpdf(1, 0, 1)\n") ==
        "test.ppl:1:5: error: write normal_lpdf(y | ...): a `|` separates the value from the parameters of Normal");
  CHECK(error_of("v = normall_lpdf(1 | 0, 1)\n").find("did you mean `normal_lpdf`") != std::string::npos);
  CHECK(error_of("v = exp(1 | 2)\n") ==
        "test.ppl:1:11: error: `|` separates the value from the parameters only in a log-density call: normal_lpdf(y | mu, sigma)");
  CHECK(error_of("v = normal_lpdf(1 | 0)\n") == "test.ppl:1:5: error: normal_lpdf takes 3 arguments (the value, then 2 of Normal), got 2");
  CHECK(error_of("v = logpdf(exp(1), 2)\n") == "test.ppl:1:5: error: logpdf takes a distribution and a value: logpdf(Normal(mu, sigma), y)");
}

}  // namespace test_log_density_calls
