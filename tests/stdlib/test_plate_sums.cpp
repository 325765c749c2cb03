// log_density_sum, the one-call density of a plate of values sharing parameters, agrees
// with summing log_density value by value, for the overrides and the default alike.
#include "tests/stdlib/distribution_checks.hpp"

using namespace ppl::testing;

TEST_CASE("plate sums equal sums of single densities") {
  struct plate {
    const char* name;
    std::vector<double> params;
    std::vector<double> values;
  };
  for (const auto& c : std::vector<plate>{{"Bernoulli", {0.3}, {1, 0, 0, 1, 1}},
                                          {"Bernoulli", {1.0}, {1, 1}},
                                          {"Bernoulli", {0.3}, {1, 2}},
                                          {"Poisson", {2.5}, {0, 3, 7}},
                                          {"Normal", {1, 2}, {0.5, -1, 4}},
                                          {"Gamma", {2.5, 0.7}, {0.1, 3, 12.5, 1}},
                                          {"Gamma", {1.0, 2.0}, {0, 0.5}},
                                          {"Gamma", {0.5, 2.0}, {0.5, 0}},
                                          {"Gamma", {2.0, 1.0}, {0.5, -1}}}) {
    std::vector<tensor> params;
    for (double p : c.params) params.push_back(scalar(p));
    double one_by_one = 0;
    for (double v : c.values) one_by_one += log_density(dist(c.name), params, scalar(v));
    double sum = dist(c.name).log_density_sum(views(params), c.values.data(), static_cast<ppl::runtime::index_t>(c.values.size()));
    INFO(c.name);
    if (std::isinf(one_by_one)) CHECK(sum == one_by_one);
    else CHECK(sum == doctest::Approx(one_by_one));
  }
}
