// StudentT(nu, mu, sigma): Boost.Math's standard students_t, shifted by mu and scaled by sigma.
#include <boost/math/distributions/students_t.hpp>
#include <numbers>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_student_t {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// log(pdf((x - mu) / sigma) / sigma); dropping constants removes -log(pi) / 2.
density_case at(double nu, double mu, double sigma, double x) {
  const double z = (x - mu) / sigma;
  return {{scalar(nu), scalar(mu), scalar(sigma)}, scalar(x), std::log(bm::pdf(bm::students_t(nu), z) / sigma),
          -0.5 * std::log(std::numbers::pi)};
}

}  // namespace

TEST_CASE("StudentT: log densities, with and without constants") {
  check_log_densities(dist("StudentT"), {
                                            at(4.5, 2, 3, -5), at(4.5, 2, 3, 2), at(4.5, 2, 3, 4.4),
                                            at(1, 0, 1, 10), at(0.5, -1, 2, 1e4), at(1e5, 0, 1, 2.5),
                                            at(30, 100, 0.01, 100.02),
                                            {{scalar(3), scalar(0), scalar(1)}, scalar(INFINITY), -INFINITY},
                                            {{scalar(3), scalar(0), scalar(1)}, scalar(NAN), -INFINITY},
                                        });
}

TEST_CASE("StudentT: signature, support and invalid parameters") {
  const auto& d = dist("StudentT");
  check_real_signature(d, {{"nu", 0}, {"mu", 0}, {"sigma", 0}}, 0);
  check_interval_support(d, {scalar(3), scalar(0), scalar(1)}, -INFINITY, INFINITY);
  check_invalid(d, {
                       {{scalar(-2), scalar(0), scalar(1)}, "StudentT: degrees of freedom nu is -2; it must be positive"},
                       {{scalar(0), scalar(0), scalar(1)}, "StudentT: degrees of freedom nu is 0"},
                       {{scalar(NAN), scalar(0), scalar(1)}, "StudentT: degrees of freedom nu is nan"},
                       {{scalar(INFINITY), scalar(0), scalar(1)}, "StudentT: degrees of freedom nu is inf"},
                       {{scalar(3), scalar(NAN), scalar(1)}, "StudentT: location mu is nan; it must be finite"},
                       {{scalar(3), scalar(0), scalar(-1)}, "StudentT: scale sigma is -1; it must be positive"},
                       {{scalar(3), scalar(0), scalar(NAN)}, "StudentT: scale sigma is nan"},
                   });
}

TEST_CASE("StudentT: draws follow the distribution") {
  const auto& d = dist("StudentT");
  for (auto [nu, mu, sigma] : {std::tuple{4.5, 2.0, 3.0}, {1.0, 0.0, 1.0}, {0.7, -1.0, 0.5}, {60.0, 5.0, 0.1}}) {
    INFO("nu = ", nu, ", mu = ", mu, ", sigma = ", sigma);
    const bm::students_t reference(nu);
    check_draws_continuous(d, {scalar(nu), scalar(mu), scalar(sigma)},
                           [=](double p) { return mu + sigma * bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(4.5), scalar(2), scalar(3)});
}

TEST_CASE("StudentT: gradients match finite differences") {
  const auto& d = dist("StudentT");
  for (double x : {-5.0, 2.5, 4.4}) check_gradients(d, {scalar(4.5), scalar(2), scalar(3)}, scalar(x));
  check_gradients(d, {scalar(0.8), scalar(-1), scalar(0.5)}, scalar(20));
  check_gradients(d, {scalar(200), scalar(0), scalar(1)}, scalar(1.5));
}

}  // namespace test_student_t
