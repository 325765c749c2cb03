// HalfStudentT(nu, sigma): twice Boost.Math's students_t(nu) density at x / sigma, over
// sigma; quantiles sigma t_nu^-1((1 + p) / 2).
#include <boost/math/distributions/students_t.hpp>
#include <numbers>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_half_student_t {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Dropping constants removes log 2 - log(pi) / 2.
density_case at(double nu, double sigma, double x) {
  return {{scalar(nu), scalar(sigma)}, scalar(x), std::log(2 * bm::pdf(bm::students_t(nu), x / sigma) / sigma),
          std::numbers::ln2 - 0.5 * std::log(std::numbers::pi)};
}

}  // namespace

TEST_CASE("HalfStudentT: log densities, with and without constants") {
  check_log_densities(dist("HalfStudentT"), {
                                                at(3, 1, 0), at(3, 1, 0.5), at(3, 1, 12), at(1, 2.5, 4),
                                                at(0.5, 1, 1e4), at(1e5, 0.3, 0.6), at(7, 10, 3),
                                                {{scalar(3), scalar(1)}, scalar(-0.1), -INFINITY},
                                                {{scalar(3), scalar(1)}, scalar(INFINITY), -INFINITY},
                                                {{scalar(3), scalar(1)}, scalar(NAN), -INFINITY},
                                            });
}

TEST_CASE("HalfStudentT: signature, support and invalid parameters") {
  const auto& d = dist("HalfStudentT");
  check_real_signature(d, {{"nu", 0}, {"sigma", 0}}, 0);
  check_interval_support(d, {scalar(3), scalar(1)}, 0, INFINITY);
  check_invalid(d, {
                       {{scalar(0), scalar(1)}, "HalfStudentT: degrees of freedom nu is 0; it must be positive and finite"},
                       {{scalar(NAN), scalar(1)}, "HalfStudentT: degrees of freedom nu is nan"},
                       {{scalar(3), scalar(-1)}, "HalfStudentT: scale sigma is -1; it must be positive and finite"},
                   });
}

TEST_CASE("HalfStudentT: draws follow the distribution") {
  const auto& d = dist("HalfStudentT");
  for (auto [nu, sigma] : {std::pair{3.0, 1.0}, {1.0, 2.5}, {0.6, 0.1}, {50.0, 4.0}}) {
    INFO("nu = ", nu, ", sigma = ", sigma);
    const bm::students_t reference(nu);
    check_draws_continuous(d, {scalar(nu), scalar(sigma)},
                           [=](double p) { return sigma * bm::quantile(reference, (1 + p) / 2); });
  }
  check_draws_reproducible(d, {scalar(3), scalar(1)});
}

TEST_CASE("HalfStudentT: gradients match finite differences") {
  const auto& d = dist("HalfStudentT");
  for (double x : {0.1, 1.5, 8.0}) check_gradients(d, {scalar(3.5), scalar(1.2)}, scalar(x));
  check_gradients(d, {scalar(0.7), scalar(0.3)}, scalar(20));
  check_gradients(d, {scalar(300), scalar(2)}, scalar(1.1));
}

}  // namespace test_half_student_t
