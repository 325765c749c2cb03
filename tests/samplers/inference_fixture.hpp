#pragma once
// Runs inference in-process on a model given as text, for the validation suite.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lang/checker.hpp"
#include "draws/diagnostics.hpp"
#include "model/graph.hpp"
#include "inference/chain.hpp"
#include "stdlib/registry.hpp"

namespace ppl::testing {

// A logistic regression on ten points, for samplers of smooth unknowns.
inline const char* const logistic = R"(
data x: real[N]
data y: int[N]
a ~ Normal(0, 2)
b ~ Normal(0, 2)
for n in 1:N { y[n] ~ Bernoulli(inv_logit(a + b * x[n])) }
)";
inline const std::vector<std::string> logistic_data = {"x=[-2,-1.5,-1,-0.5,0,0.5,1,1.5,2,2.5]", "y=[0,0,1,0,0,1,1,0,1,1]"};

// The centred eight schools (Rubin 1981): tau's funnel, for the scale move and its trial.
inline const char* const centred_eight_schools = R"(
data y: real[J]
data sigma: real[J]
mu ~ Normal(0, 5)
tau ~ HalfCauchy(5)
for j in 1:J { theta[j] ~ Normal(mu, tau) }
for j in 1:J { y[j] ~ Normal(theta[j], sigma[j]) }
)";
inline const std::vector<std::string> eight_schools_data = {"y=[28,8,-3,7,-1,1,18,12]", "sigma=[15,10,16,11,9,11,10,18]"};

struct posterior {
  inference::run_result result;

  std::vector<std::vector<double>> column(const std::string& name) const {
    const auto& cols = result.draws.columns;
    auto it = std::find(cols.begin(), cols.end(), name);
    REQUIRE(it != cols.end());
    return result.draws.column(static_cast<std::size_t>(it - cols.begin()));
  }
  draws::scalar_summary summary(const std::string& name) const { return draws::summarize(column(name)); }
  std::string kind(const std::string& variable) const {
    for (const auto& p : result.plan)
      if (p.variable.substr(0, p.variable.find('[')) == variable) return p.kind;
    return "";
  }
};

// Two chains of `draws` after `warmup`, from `seed`.
inline inference::run_options two_chains(long warmup, long draws, std::uint64_t seed) {
  inference::run_options o;
  o.chains = 2;
  o.warmup = warmup;
  o.draws = draws;
  o.seed = seed;
  return o;
}

inline posterior infer(const std::string& text, const std::vector<std::string>& sets, inference::run_options o) {
  static std::vector<std::unique_ptr<lang::ir::model>> keep;  // the results refer to nothing, but keep models alive
  auto m = std::make_unique<lang::ir::model>(lang::compile({"test.ppl", text}, stdlib::library()));
  data::data_table data;
  for (const auto& s : sets) data::apply_set(data, s);
  // Missing values in observed data are imputed, as the command line does.
  if (auto missing = model::missing_values(*m, data); !missing.partly_observed.empty())
    m = std::make_unique<lang::ir::model>(lang::compile({"test.ppl", text}, stdlib::library(), std::move(missing)));
  posterior p{inference::run(*m, data, o, nullptr)};
  keep.push_back(std::move(m));
  return p;
}

// |estimate - exact| within 4 Monte Carlo standard errors.
inline void check_mean(const posterior& p, const std::string& name, double exact) {
  auto s = p.summary(name);
  INFO(name, ": mean ", s.mean, " exact ", exact, " mcse ", s.mcse_mean, " ess ", s.ess_bulk);
  CHECK(std::fabs(s.mean - exact) < 4 * s.mcse_mean);
}

// The posterior sd within 4 standard errors of the sd estimate (about sd / sqrt(2 ESS)).
inline void check_sd(const posterior& p, const std::string& name, double exact) {
  auto s = p.summary(name);
  INFO(name, ": sd ", s.sd, " exact ", exact, " ess ", s.ess_bulk);
  CHECK(std::fabs(s.sd - exact) < 4 * exact / std::sqrt(2 * s.ess_bulk));
}

}  // namespace ppl::testing
