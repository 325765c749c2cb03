// Continuous scalar distributions against Boost.Math: log densities, parameter errors,
// draws (chi-square) and gradients (finite differences).
#include <boost/math/distributions.hpp>

#include "tests/stdlib/distribution_checks.hpp"

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

struct reference {
  const char* name;
  std::vector<double> params;
  std::function<double(double)> pdf;
  std::function<double(double)> quantile;
  std::vector<double> points;
};

std::vector<reference> references() {
  bm::normal n(1.5, 2.0);
  bm::cauchy c(-1.0, 0.5);
  bm::students_t t(4.5);
  bm::lognormal ln(0.3, 0.8);
  bm::exponential e(2.5);
  bm::gamma_distribution<> g(3.0, 1 / 2.0);
  bm::inverse_gamma_distribution<> ig(3.5, 2.0);
  bm::beta_distribution<> b(2.5, 1.5);
  bm::uniform_distribution<> u(-1.0, 3.0);
  bm::normal std_normal(0, 1);
  return {
      {"Normal", {1.5, 2.0}, [=](double x) { return bm::pdf(n, x); }, [=](double p) { return bm::quantile(n, p); }, {-3, 0.2, 1.5, 7}},
      {"Cauchy", {-1.0, 0.5}, [=](double x) { return bm::pdf(c, x); }, [=](double p) { return bm::quantile(c, p); }, {-10, -1, 0.3}},
      {"StudentT", {4.5, 2.0, 3.0}, [=](double x) { return bm::pdf(t, (x - 2) / 3) / 3; },
       [=](double p) { return 2 + 3 * bm::quantile(t, p); }, {-5, 2, 4.4}},
      {"LogNormal", {0.3, 0.8}, [=](double x) { return bm::pdf(ln, x); }, [=](double p) { return bm::quantile(ln, p); }, {0.1, 1.3, 6}},
      {"Exponential", {2.5}, [=](double x) { return bm::pdf(e, x); }, [=](double p) { return bm::quantile(e, p); }, {0.01, 0.5, 3}},
      {"Gamma", {3.0, 2.0}, [=](double x) { return bm::pdf(g, x); }, [=](double p) { return bm::quantile(g, p); }, {0.2, 1.5, 4}},
      {"InverseGamma", {3.5, 2.0}, [=](double x) { return bm::pdf(ig, x); }, [=](double p) { return bm::quantile(ig, p); }, {0.2, 0.8, 3}},
      {"Beta", {2.5, 1.5}, [=](double x) { return bm::pdf(b, x); }, [=](double p) { return bm::quantile(b, p); }, {0.05, 0.5, 0.93}},
      {"Uniform", {-1.0, 3.0}, [=](double x) { return bm::pdf(u, x); }, [=](double p) { return bm::quantile(u, p); }, {-0.5, 2.9}},
      {"HalfNormal", {1.7}, [=](double x) { return 2 * bm::pdf(std_normal, x / 1.7) / 1.7; },
       [=](double p) { return 1.7 * bm::quantile(std_normal, (1 + p) / 2); }, {0.1, 1, 4}},
  };
}

std::vector<tensor> scalars(const std::vector<double>& v) {
  std::vector<tensor> out;
  for (double x : v) out.push_back(scalar(x));
  return out;
}

}  // namespace

TEST_CASE("log densities match Boost.Math") {
  for (const auto& r : references()) {
    const auto& d = dist(r.name);
    auto params = scalars(r.params);
    for (double x : r.points) {
      INFO(r.name, " at ", x);
      CHECK(log_density(d, params, scalar(x)) == doctest::Approx(std::log(r.pdf(x))).epsilon(1e-10));
    }
  }
}

TEST_CASE("dropping constants removes only terms that depend on nothing") {
  for (const auto& r : references()) {
    const auto& d = dist(r.name);
    auto params = scalars(r.params);
    double gap = log_density(d, params, scalar(r.points[0])) - log_density(d, params, scalar(r.points[0]), false);
    for (double x : r.points) {
      INFO(r.name, " at ", x);
      CHECK(log_density(d, params, scalar(x)) - log_density(d, params, scalar(x), false) == doctest::Approx(gap));
    }
    auto shifted = params;
    for (auto& p : shifted) p.data[0] *= 1.1;
    if (d.name() != "Uniform")  // its only term depends on the bounds
      CHECK(log_density(d, shifted, scalar(r.points[0])) - log_density(d, shifted, scalar(r.points[0]), false) == doctest::Approx(gap));
  }
}

TEST_CASE("values outside the support have log density -inf") {
  CHECK(log_density(dist("Exponential"), scalars({1}), scalar(-0.1)) == -INFINITY);
  CHECK(log_density(dist("Beta"), scalars({2, 2}), scalar(1.2)) == -INFINITY);
  CHECK(log_density(dist("Uniform"), scalars({0, 1}), scalar(1.5)) == -INFINITY);
  CHECK(log_density(dist("Gamma"), scalars({2, 1}), scalar(0)) == -INFINITY);
  CHECK(log_density(dist("HalfNormal"), scalars({1}), scalar(-1)) == -INFINITY);
}

TEST_CASE("invalid parameters name the distribution and the argument") {
  struct bad {
    const char* name;
    std::vector<double> params;
    const char* message;
  };
  for (const auto& b : std::vector<bad>{
           {"Normal", {0, -1}, "Normal: scale sigma is -1; it must be positive and finite"},
           {"Normal", {NAN, 1}, "Normal: location mu is nan; it must be finite"},
           {"HalfNormal", {0}, "HalfNormal: scale sigma is 0"},
           {"StudentT", {-2, 0, 1}, "StudentT: degrees of freedom nu is -2"},
           {"Cauchy", {0, 0}, "Cauchy: scale sigma is 0"},
           {"LogNormal", {INFINITY, 1}, "LogNormal: location mu is inf"},
           {"Exponential", {-3}, "Exponential: rate lambda is -3"},
           {"Gamma", {0, 1}, "Gamma: shape alpha is 0"},
           {"Gamma", {1, -1}, "Gamma: rate beta is -1"},
           {"InverseGamma", {2, 0}, "InverseGamma: scale beta is 0"},
           {"Beta", {-1, 1}, "Beta: shape a is -1"},
           {"Uniform", {2, 1}, "Uniform: lower bound 2 is not below upper bound 1"},
       }) {
    INFO(b.message);
    auto values = scalars(b.params);
    auto params = views(values);
    CHECK_THROWS_WITH_AS(dist(b.name).check(params), doctest::Contains(b.message), ppl::stdlib::parameter_error);
  }
}

TEST_CASE("draws follow the distribution (chi-square against Boost.Math quantiles)") {
  unsigned seed = 100;
  for (const auto& r : references()) check_draws_continuous(dist(r.name), scalars(r.params), r.quantile, 0, 20000, 20, seed++);
}

TEST_CASE("gradients match finite differences") {
  for (const auto& r : references()) {
    double x = r.points[r.points.size() / 2];
    check_gradients(dist(r.name), scalars(r.params), scalar(x));
  }
}
