// Typical values, where a chain starts before its jitter (model/graph_start.cpp): each
// continuous distribution gives one inside its support with a finite log density, at the
// value its contract promises (the mean where finite, else the median); discrete ones
// give none and are drawn.
#include <numbers>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_typical {

using namespace ppl::testing;

namespace {

struct typical_case {
  const char* name;
  std::vector<tensor> params;
  std::vector<double> expected;
};

}  // namespace

TEST_CASE("typical values: in the support, with a finite density, where promised") {
  const std::vector<typical_case> cases = {
      {"Normal", {scalar(3), scalar(2)}, {3}},
      {"StudentT", {scalar(3), scalar(-1), scalar(2)}, {-1}},
      {"Cauchy", {scalar(5), scalar(2)}, {5}},
      {"LogNormal", {scalar(1), scalar(0.5)}, {std::exp(1.0)}},
      {"HalfNormal", {scalar(2)}, {2 * 0.6744897501960817}},
      {"HalfCauchy", {scalar(2.5)}, {2.5}},
      {"Exponential", {scalar(4)}, {0.25}},
      {"Gamma", {scalar(0.001), scalar(0.001)}, {1}},  // the vague prior whose draws underflow to 0
      {"InverseGamma", {scalar(3), scalar(4)}, {2}},
      {"InverseGamma", {scalar(0.5), scalar(3)}, {2}},  // no mean: the mode
      {"Beta", {scalar(2), scalar(6)}, {0.25}},
      {"Uniform", {scalar(-1), scalar(5)}, {2}},
      {"Dirichlet", {vec({1, 3})}, {0.25, 0.75}},
      {"MultiNormal", {vec({1, -2}), mat(2, 2, {1, 0, 0, 1})}, {1, -2}},
      {"MultiNormalPrec", {vec({1, -2}), mat(2, 2, {2, 0.5, 0.5, 1})}, {1, -2}},
      {"MultiNormalCholesky", {vec({1, -2}), mat(2, 2, {1, 0, 0.5, 1})}, {1, -2}},
      {"Wishart", {scalar(5), mat(2, 2, {2, 0.5, 0.5, 1})}, {10, 2.5, 2.5, 5}},  // the mean nu S
      {"InverseWishart", {scalar(6), mat(2, 2, {2, 0.5, 0.5, 1})}, {2.0 / 3, 0.5 / 3, 0.5 / 3, 1.0 / 3}},  // S / (nu - K - 1)
      {"InverseWishart", {scalar(2.5), mat(2, 2, {2, 0.5, 0.5, 1})}, {2 / 5.5, 0.5 / 5.5, 0.5 / 5.5, 1 / 5.5}},  // no mean: the mode
      {"LKJCorr", {scalar(3), scalar(0.5)}, {1, 0, 0, 0, 1, 0, 0, 0, 1}},  // the mean, the identity
      {"LKJCorrCholesky", {scalar(2), scalar(2)}, {1, 0, 0, 1}},           // the mean's factor
      {"Logistic", {scalar(-2), scalar(3)}, {-2}},
      {"DoubleExponential", {scalar(4), scalar(0.5)}, {4}},
      {"Gumbel", {scalar(1), scalar(2)}, {1 + 2 * 0.5772156649015329}},
      {"Weibull", {scalar(2), scalar(3)}, {3 * std::sqrt(std::numbers::pi) / 2}},  // 3 Gamma(3/2)
      {"Pareto", {scalar(2), scalar(3)}, {3}},
      {"Pareto", {scalar(2), scalar(0.5)}, {8}},  // no mean: the median 2 * 2^(1 / 0.5)
      {"ChiSquare", {scalar(3.5)}, {3.5}},
      {"InverseChiSquare", {scalar(6)}, {0.25}},
      {"InverseChiSquare", {scalar(1)}, {1.0 / 3}},  // no mean: the mode
      {"ScaledInverseChiSquare", {scalar(6), scalar(2)}, {6.0}},
      {"ScaledInverseChiSquare", {scalar(2), scalar(2)}, {2.0}},  // no mean: the mode
      {"HalfStudentT", {scalar(3), scalar(2)}, {4 * std::sqrt(3.0) / std::numbers::pi}},
      {"HalfStudentT", {scalar(1), scalar(2)}, {2}},  // the half-Cauchy's median
      {"SkewNormal", {scalar(1), scalar(2), scalar(0)}, {1}},
      {"SkewNormal", {scalar(1), scalar(2), scalar(-1)}, {1 - 2 * std::sqrt(1 / std::numbers::pi)}},
      {"VonMises", {scalar(1), scalar(2)}, {1}},
      {"VonMises", {scalar(7), scalar(2)}, {7 - 2 * std::numbers::pi}},  // wrapped into [-pi, pi]
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const auto& d = dist(c.name);
    std::vector<double> out(c.expected.size());
    REQUIRE(d.typical(views(c.params), out.data()));
    for (std::size_t i = 0; i < out.size(); ++i) CHECK(out[i] == doctest::Approx(c.expected[i]).epsilon(1e-12));
    tensor x(ppl::shape::vector(static_cast<index_t>(out.size())), 0.0);
    x.data = out;
    if (d.value_rank() == 0) x = scalar(out[0]);
    if (d.value_rank() == 2) x = mat(d.value_shape_at(views(c.params))[0], d.value_shape_at(views(c.params))[1], out);
    CHECK(std::isfinite(log_density(d, c.params, x, true)));
  }
  for (const char* discrete : {"Bernoulli", "Poisson", "Categorical", "Spin", "BernoulliLogit", "DiscreteUniform",
                               "Geometric", "BetaBinomial", "Hypergeometric", "NegativeBinomial2", "OrderedLogistic",
                               "DirichletMultinomial"}) {
    INFO(discrete);
    double out[8];
    const auto& d = dist(discrete);
    std::vector<tensor> params;
    for (const auto& p : d.params()) params.push_back(p.rank == 0 ? scalar(0.5) : vec({0.5, 0.5}));
    CHECK_FALSE(d.typical(views(params), out));
  }
}

}  // namespace test_typical
