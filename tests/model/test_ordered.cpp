// Ordered vectors (`param c: ordered[K]`, `positive_ordered[K]`; model/graph_ordered.cpp):
// one support for the whole vector, starts that are strictly increasing, --init values and
// prior draws held to the order, and the errors that name the variable.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/support/model_fixture.hpp"

namespace test_ordered {

using ppl::testing::error_of;
using ppl::testing::fixture;

namespace {

bool increasing(const std::vector<double>& x, double lower = -INFINITY) {
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!(x[i] > (i ? x[i - 1] : lower))) return false;
  return true;
}

}  // namespace

TEST_CASE("ordered: one support for the vector, the elements' terms as its density") {
  fixture f("param c: ordered[3]\nc ~ Normal(0, 5)\nparam d: positive_ordered[2]\nfactor -sum(d)\n");
  const int c = f.model->find("c"), d = f.model->find("d");
  int blocks = 0;
  ppl::model::supports(*f.graph).visit(c, [&](ppl::index_t offset, ppl::index_t size, const ppl::stdlib::support& s) {
    ++blocks;
    CHECK(offset == 0);
    CHECK(size == 3);
    CHECK(s.kind == ppl::stdlib::support_kind::ordered);
    CHECK(s.lower == -INFINITY);
  });
  CHECK(blocks == 1);
  CHECK(ppl::model::supports(*f.graph).ordered_support(d).lower == 0);
  f.mutable_value("c").data = {-1, 0.5, 2};
  f.mutable_value("d").data = {0.5, 1};
  const double normal = -1.5 * std::log(2 * M_PI) - 3 * std::log(5.0) - (1 + 0.25 + 4) / 50;
  CHECK(f.graph->log_density() == doctest::Approx(normal - 1.5));
}

TEST_CASE("ordered: starts are sorted typical values spread by unit steps, then jittered on the ordered scale") {
  fixture f("param c: ordered[3]\nc ~ Normal(0, 5)\nparam d: positive_ordered[3]\nfactor -sum(d)\n"
            "param e: ordered[2]\ne[1] ~ Normal(4, 1)\ne[2] ~ Normal(-4, 1)\n");
  f.graph->start(f.rng, {.radius = 0});
  CHECK(f.value("c").data == std::vector<double>{-1, 0, 1});
  CHECK(f.value("d").data == std::vector<double>{1, 2, 3});
  CHECK(f.value("e").data == std::vector<double>{-4.5, 4.5});  // sorted, then centred steps
  for (int k = 0; k < 100; ++k) {
    f.graph->start(f.rng, {.radius = 1});
    const auto& c = f.value("c").data;
    CHECK(increasing(c));
    CHECK(increasing(f.value("d").data, 0));
    CHECK(c[1] - c[0] > std::exp(-1.0));  // each step e^(y), y within +-1 of 0
    CHECK(c[1] - c[0] < std::exp(1.0));
  }
  fixture g("param c: ordered[3]\nc ~ Normal(0, 5)\n");
  for (int k = 0; k < 20; ++k) {
    g.graph->start(g.rng, {.from_prior = true});  // sorted draws
    CHECK(increasing(g.value("c").data));
  }
}

TEST_CASE("ordered: --init values out of order are an error naming the elements") {
  fixture f("param c: ordered[3]\nc ~ Normal(0, 5)\nparam d: positive_ordered[2]\nd ~ Exponential(1)\n");
  ppl::data::data_table init;
  ppl::data::apply_set(init, "c=[1, 0.5, 2]");
  CHECK_THROWS_WITH_AS(f.graph->start(f.rng, {.init = &init}),
                       "--init: c[2] = 0.5 is not above c[1] = 1 (`c` is ordered: strictly increasing)", std::invalid_argument);
  ppl::data::data_table ties;
  ppl::data::apply_set(ties, "c=[1, 1, 2]");
  CHECK_THROWS_AS(f.graph->start(f.rng, {.init = &ties}), std::invalid_argument);
  ppl::data::data_table below;
  ppl::data::apply_set(below, "d=[-1, 2]");
  CHECK_THROWS_WITH_AS(f.graph->start(f.rng, {.init = &below}), doctest::Contains("--init: d[1] = -1 is outside the support"),
                       std::invalid_argument);
  ppl::data::data_table fine;
  ppl::data::apply_set(fine, "c=[-2, 0.5, 2]");
  ppl::data::apply_set(fine, "d=[0.1, 0.2]");
  f.graph->start(f.rng, {.init = &fine});
  CHECK(f.value("c").data == std::vector<double>{-2, 0.5, 2});
}

TEST_CASE("ordered: a draw from the prior sorts the elements' draws when they share one prior, else refuses") {
  fixture f("param c: ordered[4]\nc ~ Normal(0, 1)\nparam p: positive_ordered[3]\np ~ Gamma(2, 1)\n");
  for (int k = 0; k < 20; ++k) {
    f.graph->draw_prior(f.rng);
    CHECK(increasing(f.value("c").data));
    CHECK(increasing(f.value("p").data, 0));
  }
  std::string why;
  CHECK(ppl::model::supports(*f.graph).ordered_draw_exact(f.model->find("c"), why));
  fixture g("param c: ordered[2]\nc[1] ~ Normal(0, 1)\nc[2] ~ Normal(3, 1)\nparam d: positive_ordered[2]\nd ~ Normal(0, 1)\n");
  CHECK_FALSE(ppl::model::supports(*g.graph).ordered_draw_exact(g.model->find("c"), why));
  CHECK(why == "its elements' priors are given by several statements");
  CHECK_FALSE(ppl::model::supports(*g.graph).ordered_draw_exact(g.model->find("d"), why));
  CHECK(why == "its elements' prior reaches below 0");
  CHECK_THROWS_WITH_AS(g.graph->draw_variable(g.model->find("d"), g.rng), doctest::Contains("`d` is positive_ordered and its elements' prior reaches below 0"),
                       ppl::source_error);
}

TEST_CASE("ordered: errors") {
  CHECK(error_of("param c: ordered[3, 2]\n") == "test.ppl:1:10: error: `c` is ordered: a vector, with one size (`ordered[K]`), not 2");
  CHECK(error_of("param c: ordered<lower=0>[3]\n") ==
        "test.ppl:1:18: error: `c` is ordered, which takes no bounds (positive_ordered is the one above 0)");
  CHECK(error_of("param c: ordered[3]\nc ~ Uniform(0, 1)\n") ==
        "test.ppl:1:7: error: `c` is ordered but its prior Uniform is bounded above (by 1); give its elements a prior on the reals "
        "or on a half-line (0, inf), or none");
  CHECK(error_of("param c: positive_ordered[2]\nc ~ Dirichlet([1.0, 1.0])\n") ==
        "test.ppl:1:7: error: `c` is positive_ordered but its prior Dirichlet is not on the reals; give its elements a prior on "
        "the reals or on a half-line (0, inf), or none");
}

}  // namespace test_ordered
