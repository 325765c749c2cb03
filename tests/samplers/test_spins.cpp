// Reading a pairwise ±1 model off the factors: the column reading (spins_columns.cpp)
// gives the model the instance-by-instance reading gives, to the last bit, for every form
// it takes, and declines the others, which are then read instance by instance with the
// same answers and the same reasons.
#include <doctest/doctest.h>

#include "lang/checker.hpp"
#include "data/data.hpp"
#include "model/graph.hpp"
#include "samplers/spins_internal.hpp"
#include "stdlib/registry.hpp"

namespace test_spins {

using namespace ppl;
using samplers::spins::pairwise_model;

namespace {

struct readings {
  std::optional<pairwise_model> columns, instances;
  std::string columns_reason, instances_reason;
};

readings read_both(const char* text, const std::vector<std::string>& sets, const char* variable = "s") {
  const lang::ir::model m = lang::compile({"spins.ppl", text}, stdlib::library());
  data::data_table data;
  for (const auto& s : sets) data::apply_set(data, s);
  ppl::rng rng(7);
  model::graph g(m, data, rng);
  const auto before = g.value(m.find(variable)).data;
  readings r;
  r.columns = samplers::spins::detail::read_pairwise(g, m.find(variable), r.columns_reason, true);
  r.instances = samplers::spins::detail::read_pairwise(g, m.find(variable), r.instances_reason, false);
  CHECK(g.value(m.find(variable)).data == before);  // the spins are left as they were
  return r;
}

// What the column reading makes of each factor of the model (each read on its own).
std::vector<samplers::spins::detail::column_outcome> outcomes(const char* text, const std::vector<std::string>& sets, const char* variable) {
  using namespace samplers::spins::detail;
  const lang::ir::model m = lang::compile({"spins.ppl", text}, stdlib::library());
  data::data_table data;
  for (const auto& s : sets) data::apply_set(data, s);
  ppl::rng rng(7);
  model::graph g(m, data, rng);
  std::vector<column_outcome> out;
  for (const auto& s : m.statements) {
    if (s.which != lang::ir::statement::kind::factor) continue;
    term_sum sum;
    sum.field.assign(g.value(m.find(variable)).data.size(), 0.0);
    out.push_back(add_factor_columns(g, s, m.find(variable), sum));
  }
  return out;
}

void check_same(const readings& r) {
  REQUIRE(r.columns.has_value() == r.instances.has_value());
  CHECK(r.columns_reason == r.instances_reason);
  if (!r.columns) return;
  const pairwise_model &a = *r.columns, &b = *r.instances;
  CHECK(a.sites == b.sites);
  CHECK(a.field == b.field);
  CHECK(a.start == b.start);
  CHECK(a.neighbour == b.neighbour);
  CHECK(a.coupling == b.coupling);
  CHECK(a.equal_coupling == b.equal_coupling);
  CHECK(a.constant == b.constant);
  CHECK(a.statements == b.statements);
  CHECK(a.min_coupling == b.min_coupling);
  CHECK(a.min_coupling_between == b.min_coupling_between);
}

const char* ising = R"(
data L: int = 4
data beta: real = 0.4
data h: real = 0.1
for i in 1:L, j in 1:L { s[i, j] ~ Spin() }
for i in 1:L, j in 1:L {
  factor beta * s[i, j] * (s[i % L + 1, j] + s[i, j % L + 1]) + h * s[i, j]
}
)";

}  // namespace

TEST_CASE("spins: the Ising torus read as columns, as instance by instance") {
  for (const std::string L : {"L=2", "L=3", "L=40"}) {
    INFO(L);
    const readings r = read_both(ising, {L, "beta=0.7", "h=0.3"});
    check_same(r);
    REQUIRE(r.columns);
    // L = 2: a site's two neighbours along a dimension are one, coupled twice.
    CHECK(r.columns->neighbour.size() == r.columns->sites * (L == "L=2" ? 2 : 4));
    CHECK(r.columns->coupling.empty());  // all equal: one J, no array
    CHECK(r.columns->coupling_at(5) == doctest::Approx(L == "L=2" ? 1.4 : 0.7));
    CHECK(r.columns->min_coupling == doctest::Approx(L == "L=2" ? 1.4 : 0.7));
    CHECK(r.columns->field[0] == doctest::Approx(0.3));
  }
  using samplers::spins::detail::column_outcome;
  CHECK(outcomes(ising, {"L=5"}, "s") == std::vector<column_outcome>{column_outcome::done});
}

TEST_CASE("spins: couplings and fields from data, repeated spins, constant indices") {
  const char* mrf = R"(
data n: int
data W: real[n, n]
data b: real[n]
for i in 1:n { x[i] ~ Spin() }
for i in 1:n { factor b[i] * x[i] }
for i in 1:n, j in 1:n { factor 0.5 * W[i, j] * x[i] * x[j] }
for i in 2:n { factor -0.25 * x[1] * x[i] + log1p(exp(0.3 * x[i - 1] * x[i])) }
)";
  const std::vector<std::string> data{"n=4", "W=[[0.1,0.2,-0.3,0.4],[0.2,0.5,0.6,-0.7],[-0.3,0.6,0.8,0.9],[0.4,-0.7,0.9,1.0]]",
                                      "b=[0.5,-0.5,0.25,1]"};
  check_same(read_both(mrf, data, "x"));
  using samplers::spins::detail::column_outcome;
  CHECK(outcomes(mrf, data, "x") == std::vector<column_outcome>(3, column_outcome::done));
}

TEST_CASE("spins: factors the columns decline read instance by instance, with the same answers and reasons") {
  // A function over a block of spins (not elementwise), a three-spin term, an unknown
  // that is not a spin, a term that is not finite.
  const char* block = R"(
for i in 1:6 { s[i] ~ Spin() }
for i in 1:5 { factor 0.4 * sum(s[i:(i + 1)]) }
)";
  const char* triple = R"(
for i in 1:6 { s[i] ~ Spin() }
for i in 1:4 { factor 0.2 * s[i] * s[i + 1] * s[i + 2] }
)";
  const char* other = R"(
mu ~ Normal(0, 1)
for i in 1:6 { s[i] ~ Spin() }
for i in 1:5 { factor mu * s[i] * s[i + 1] }
)";
  const char* infinite = R"(
for i in 1:6 { s[i] ~ Spin() }
for i in 1:5 { factor log(s[i] + s[i + 1]) }
)";
  for (const char* text : {block, triple, other, infinite}) {
    INFO(text);
    check_same(read_both(text, {}));
  }
  const readings r = read_both(triple, {});
  CHECK_FALSE(r.columns);
  CHECK(r.columns_reason == "a factor couples three or more of its elements at once");
  using samplers::spins::detail::column_outcome;
  CHECK(outcomes(block, {}, "s") == std::vector<column_outcome>{column_outcome::declined});
  CHECK(outcomes(other, {}, "s") == std::vector<column_outcome>{column_outcome::declined});
  CHECK(outcomes(triple, {}, "s") == std::vector<column_outcome>{column_outcome::declined});  // at its first instance
  // A three-spin term at the last instance only: the instances before it are in, so every
  // factor is read again instance by instance.
  const char* last = R"(
for i in 1:6 { s[i] ~ Spin() }
for i in 1:5 { factor 0.3 * s[i] }
for i in 1:4 { factor 0.2 * s[i] * s[i + 1] * ifelse(i == 4, s[i + 2], 1) }
)";
  CHECK(outcomes(last, {}, "s") == std::vector<column_outcome>{column_outcome::done, column_outcome::abandoned});
  const readings again = read_both(last, {});
  check_same(again);
  CHECK(again.columns_reason == "a factor couples three or more of its elements at once");
}

}  // namespace test_spins
