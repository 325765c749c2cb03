// The planner's second thoughts (samplers/plan_efficiency.cpp): Normal unknowns tied in
// one argument form a gaussian_block; a lone scalar leaves NUTS for slice; a conjugate
// unknown combined with the NUTS block in one argument joins it; --sampler always wins.
#include <doctest/doctest.h>

#include "lang/checker.hpp"
#include "data/data.hpp"
#include "inference/chain.hpp"
#include "stdlib/registry.hpp"
#include "tests/support/example_text.hpp"

namespace test_plan_efficiency {

namespace {

std::map<std::string, std::string> kinds(const std::string& text, const std::vector<std::string>& sets,
                                         const std::map<std::string, std::string>& overrides = {}) {
  const auto m = ppl::lang::compile({"plan.ppl", text}, ppl::stdlib::library());
  ppl::data::data_table data;
  for (const auto& s : sets) ppl::data::apply_set(data, s);
  std::map<std::string, std::string> out;
  for (const auto& line : ppl::inference::describe_plan(m, data, overrides)) out[line.name] = line.kind;
  return out;
}

const std::string pumps = ppl::testing::example_text("bench/models/pumps.ppl");
const std::vector<std::string> pumps_data = {"t=[94.3, 15.7, 62.9, 126, 5.24]", "x=[5, 1, 5, 14, 3]"};

const std::string eight = ppl::testing::example_text("examples/eight_schools/eight_schools.ppl");
const std::vector<std::string> eight_data = {"y=[28, 8, -3, 7]", "sigma=[15, 10, 16, 11]"};

}  // namespace

TEST_CASE("plan: a lone scalar that NUTS would take goes to slice") {
  auto k = kinds(pumps, pumps_data);
  CHECK(k["alpha"] == "slice");
  CHECK(k["beta"] == "conjugate");
  CHECK(k["theta"] == "conjugate");
  // --sampler keeps NUTS.
  CHECK(kinds(pumps, pumps_data, {{"alpha", "nuts"}})["alpha"] == "nuts");
  // A vector is not a lone scalar.
  auto v = kinds("for k in 1:2 { a[k] ~ Normal(0, 1) }\ndata y: real[N]\nfor n in 1:N { y[n] ~ Logistic(a[1], exp(a[2])) }\n", {"y=[0.5, 1, 2]"});
  CHECK(v["a"] == "nuts");
}

TEST_CASE("plan: Normal unknowns combined in one argument, or a value with its mean, form a gaussian_block first") {
  // Eight schools: given tau, mu and eta are linear-Gaussian; tau, left alone, goes to slice.
  auto k = kinds(eight, eight_data);
  CHECK(k["mu"] == "gaussian_block");
  CHECK(k["eta"] == "gaussian_block");
  CHECK(k["tau"] == "slice");
  // Random effects with their mean; their scale keeps its conjugate draw.
  auto re = kinds("data g: int[N]\ndata y: real[N]\nmu ~ Normal(0, 10)\ntau ~ Gamma(2, 2)\n"
                  "for j in 1:3 { b[j] ~ Normal(mu, 1 / sqrt(tau)) }\nfor n in 1:N { y[n] ~ Normal(b[g[n]], 1) }\n",
                  {"g=[1, 2, 3, 3]", "y=[0.5, 1, 2, 1.5]"});
  CHECK(re["mu"] == "gaussian_block");
  CHECK(re["b"] == "gaussian_block");
  CHECK(re["tau"] == "conjugate");
  // A term that is not Normal (Student-t effects) leaves the block unformed.
  auto t = kinds("data g: int[N]\ndata y: real[N]\nmu ~ Normal(0, 10)\nfor j in 1:3 { b[j] ~ StudentT(4, mu, 1) }\n"
                 "for n in 1:N { y[n] ~ Normal(b[g[n]], 1) }\n",
                 {"g=[1, 2, 3, 3]", "y=[0.5, 1, 2, 1.5]"});
  CHECK(t["b"] != "gaussian_block");
  CHECK(t["mu"] != "gaussian_block");
}

TEST_CASE("plan: a conjugate unknown combined with the NUTS block in one argument joins it") {
  // Student-t effects: no gaussian_block takes eta, and mu joins eta and tau in NUTS.
  std::string student = eight;
  const std::string normal = "eta[j] ~ Normal(0, 1)";
  REQUIRE(student.find(normal) != std::string::npos);
  student.replace(student.find(normal), normal.size(), "eta[j] ~ StudentT(4, 0, 1)");
  auto k = kinds(student, eight_data);
  CHECK(k["mu"] == "nuts");
  CHECK(k["tau"] == "nuts");
  CHECK(k["eta"] == "nuts");
  CHECK(kinds(student, eight_data, {{"mu", "conjugate"}})["mu"] == "conjugate");
  // Beside the block in another argument only: the conjugate draw stays.
  auto apart = kinds(
      "data y: real[N]\nmu ~ Normal(0, 10)\nfor k in 1:2 { ls[k] ~ Normal(0, 1) }\n"
      "for n in 1:N { y[n] ~ Normal(mu, exp(ls[1]) + exp(ls[2])) }\n",
      {"y=[0.5, 1, 2]"});
  CHECK(apart["ls"] == "nuts");
  CHECK(apart["mu"] == "conjugate");
}

}  // namespace test_plan_efficiency
