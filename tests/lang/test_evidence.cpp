// lang/evidence: which unknowns the evidence informs, and which `~` statements only predict.
#include <doctest/doctest.h>

#include "lang/checker.hpp"
#include "lang/evidence.hpp"
#include "stdlib/registry.hpp"

namespace test_evidence {

namespace {

// The predictive flags of the model's `~` statements, by target name, in order.
std::string predictive_targets(const std::string& text) {
  const auto m = ppl::lang::compile({"m.ppl", text}, ppl::stdlib::library());
  const auto flags = ppl::lang::predictive_statements(m);
  std::string out;
  for (std::size_t i = 0; i < m.statements.size(); ++i)
    if (flags[i]) out += (out.empty() ? "" : " ") + m.variables[static_cast<std::size_t>(m.statements[i].target)].name;
  return out;
}

}  // namespace

TEST_CASE("predictions: uninformed unknowns downstream of informed ones, through definitions and other predictions") {
  CHECK(predictive_targets("data y: real[N]\na ~ Normal(0, 1)\nfor n in 1:N { mu[n] = 2 * a\n y[n] ~ Normal(mu[n], 1)\n"
                           " yrep[n] ~ Normal(mu[n], 1) }\nz ~ Normal(yrep[1], 1)\n") == "yrep z");
  // Nothing observed: the prior's own draws, not predictions (their terms stay in lp__).
  CHECK(predictive_targets("a ~ Normal(0, 1)\nb ~ Normal(a, 1)\n").empty());
  // An uninformed unknown that reads no informed one is not a prediction either.
  CHECK(predictive_targets("data y: real\na ~ Normal(0, 1)\ny ~ Normal(a, 1)\nc ~ Normal(0, 1)\nd ~ Normal(c, 1)\n").empty());
  // (A censored value's density is not normalised, so an imputed censored value is not a
  // prediction: tests/samplers/test_missing.cpp's censored times fail when it is.)
}

}  // namespace test_evidence
