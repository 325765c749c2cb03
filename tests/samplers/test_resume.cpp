// Resuming a run (issue 8): a chain interrupted and continued from its saved state gives
// exactly the draws, lp__ and sampler reports of a chain never interrupted, for every
// sampler kind — which fails when a sampler's persist() misses a field it keeps between
// steps. Interruptions come during warmup (adaptation half done) and after it.
#include <doctest/doctest.h>

#include <fstream>
#include <mutex>
#include <sstream>

#include "core/interrupt.hpp"
#include "tests/samplers/inference_fixture.hpp"

namespace test_resume {

using namespace ppl;
using ppl::testing::logistic;
using ppl::testing::logistic_data;

namespace {

struct case_t {
  std::string name, text;
  std::vector<std::string> sets;
  std::map<std::string, std::string> overrides;
  int threads = 1;
  long thin = 1;
  samplers::collapsed_record collapsed = samplers::collapsed_record::draws;
  std::vector<std::string> monitors = {};
};

std::string example(const std::string& path) {
  std::ifstream in(std::string(PPL_SOURCE_DIR) + "/examples/" + path);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// theta (one row per group) integrated out, z drawn from counts and mu's likelihood.
const char* const collapsed_mixture = R"(
data g: int[N]
data y: real[N]
for d in 1:2 { theta[d] ~ Dirichlet(rep(1.0, 2)) }
for k in 1:2 { mu[k] ~ Normal(0, 5) }
for n in 1:N {
  z[n] ~ Categorical(theta[g[n]])
  y[n] ~ Normal(mu[z[n]], 1)
}
)";

std::vector<case_t> cases() {
  return {
      {"conjugate and ancestral", R"(
data y: int[N]
p ~ Beta(1, 1)
for n in 1:N { y[n] ~ Bernoulli(p) }
q ~ Normal(0, 1)
)", {"y=[1,0,1,1,0,1,1,1]"}, {}},
      {"nuts", logistic, logistic_data, {}},
      {"hmc", logistic, logistic_data, {{"a", "hmc"}, {"b", "hmc"}}},
      {"slice", logistic, logistic_data, {{"a", "slice"}, {"b", "slice"}}},
      {"rwmh", logistic, logistic_data, {{"a", "rwmh"}, {"b", "rwmh"}}},
      {"gibbs and conjugate", R"(
data y: real[N]
mu ~ Normal(0, 5)
for n in 1:N {
  z[n] ~ Bernoulli(0.5)
  y[n] ~ Normal(mu * z[n], 1)
}
)", {"y=[0.1,3.2,2.9,-0.4,3.5,0.2]"}, {}},
      {"collapsed (generic)", collapsed_mixture, {"g=[1,1,1,2,2,2]", "y=[0.1,3.2,2.9,-0.4,3.5,0.2]"}, {}},
      {"collapsed (LDA)", example("lda/lda.ppl"), {"K=3", "doc=[1,1,1,2,2,2,3,3,4,4,4]", "word=[1,2,2,3,4,4,1,5,5,3,2]"}, {}},
      {"collapsed (LDA, two threads)", example("lda/lda.ppl"), {"K=3", "doc=[1,1,1,2,2,2,3,3,4,4,4]", "word=[1,2,2,3,4,4,1,5,5,3,2]"}, {}, 2},
      // theta and phi (monitored: they are small) are drawn at kept iterations from streams
      // seeded by the iteration, thinned so that the kept ones are not every one; and
      // recorded as means, which draw nothing.
      {"collapsed (LDA), theta and phi drawn, thinned", example("lda/lda.ppl"), {"K=3", "doc=[1,1,1,2,2,2,3,3,4,4,4]", "word=[1,2,2,3,4,4,1,5,5,3,2]"},
       {}, 1, 3},
      {"collapsed (generic), means", collapsed_mixture, {"g=[1,1,1,2,2,2]", "y=[0.1,3.2,2.9,-0.4,3.5,0.2]"}, {}, 1, 1,
       samplers::collapsed_record::means},
      // theta and phi are left out of the saved state (they are drawn when recorded): a
      // quantity of theta monitored alone, and z, show a resumed run draws them as before.
      {"collapsed (LDA), a quantity of theta monitored", example("lda/lda.ppl") + "share = theta[1, 2] + phi[2, 3]\n",
       {"K=3", "doc=[1,1,1,2,2,2,3,3,4,4,4]", "word=[1,2,2,3,4,4,1,5,5,3,2]"}, {}, 1, 2, samplers::collapsed_record::draws,
       {"share", "z"}},
      {"gibbs (heat-bath)", example("ising/ising.ppl"), {"L=4"}, {{"s", "gibbs"}}},
      {"cluster", example("ising/ising.ppl"), {"L=4"}, {}},
  };
}

inference::run_options options(const case_t& c) {
  inference::run_options o;
  o.chains = 2;
  o.warmup = 60;
  o.draws = 60;
  o.seed = 11;
  o.threads = c.threads;
  o.thin = c.thin;
  o.collapsed = c.collapsed;
  o.overrides = c.overrides;
  o.monitors = c.monitors;
  return o;
}

// A run that keeps each chain's last saved state.
struct saved {
  inference::run_result result;
  std::vector<std::string> states;
};

saved run(const lang::ir::model& m, const data::data_table& data, inference::run_options o) {
  saved s;
  s.states.resize(static_cast<std::size_t>(o.chains));
  std::mutex mutex;
  o.checkpoint_seconds = 1e9;  // only when a chain stops
  o.checkpoint = [&](int c, long, const std::string& state) {
    std::lock_guard<std::mutex> lock(mutex);
    s.states[static_cast<std::size_t>(c)] = state;
  };
  s.result = inference::run(m, data, o, nullptr);
  return s;
}

}  // namespace

TEST_CASE("resume: an interrupted and resumed run gives the draws of an uninterrupted one, for every sampler kind") {
  for (const case_t& c : cases()) {
    const lang::ir::model m = lang::compile({"test.ppl", c.text}, stdlib::library());
    data::data_table data;
    for (const auto& s : c.sets) data::apply_set(data, s);
    const saved whole = run(m, data, options(c));
    for (long stop_at : {20L, 90L}) {  // in warmup, in sampling
      INFO(c.name, ", interrupted at iteration ", stop_at);
      inference::run_options o = options(c);
      o.progress = [&](int, long done, long, double) {
        if (done >= stop_at) ppl::set_interrupted(true);
      };
      const saved first = run(m, data, o);
      ppl::set_interrupted(false);
      REQUIRE(first.result.interrupted);
      CHECK(first.result.completed[0] < o.warmup + o.draws);
      inference::run_options rest = options(c);
      rest.resume = &first.states;
      rest.resumed_draws = &first.result.draws;
      const saved second = run(m, data, rest);
      REQUIRE(second.result.draws.chains.size() == whole.result.draws.chains.size());
      for (std::size_t k = 0; k < whole.result.draws.chains.size(); ++k) CHECK(second.result.draws.chains[k] == whole.result.draws.chains[k]);
      CHECK(second.result.reports == whole.result.reports);
      CHECK(second.states == whole.states);
    }
  }
}

TEST_CASE("resume: a run interrupted during its trial of the plan gives the uninterrupted run's draws and verdicts") {
  // A hierarchy whose scale move the chains try in warmup iterations 51-150 (four windows
  // of 25 after the first quarter): interrupted in a window with it, in one without, and
  // after the choice.
  const case_t c{"scale move on trial", R"(
data y: real[J]
mu ~ Normal(0, 5)
tau ~ Gamma(2, 1)
for j in 1:J { theta[j] ~ Normal(mu, 1 / sqrt(tau)) }
for j in 1:J { y[j] ~ Normal(theta[j], 1) }
)", {"y=[2.1,-1.3,0.4,3.3,-2.2,1.7,0.2,-0.8,2.9,-1.9]"}, {}};
  const lang::ir::model m = lang::compile({"test.ppl", c.text}, stdlib::library());
  data::data_table data;
  for (const auto& s : c.sets) data::apply_set(data, s);
  auto opts = [&] {
    inference::run_options o = options(c);
    o.warmup = 200;
    o.draws = 40;
    return o;
  };
  const saved whole = run(m, data, opts());
  REQUIRE(!whole.result.reports[0].empty());
  CHECK(whole.result.reports[0].back().find("plan: the optional samplers (tau with theta (scale move))") == 0);
  for (long stop_at : {60L, 90L, 220L}) {
    INFO("interrupted at iteration ", stop_at);
    inference::run_options o = opts();
    o.progress = [&](int, long done, long, double) {
      if (done >= stop_at) ppl::set_interrupted(true);
    };
    const saved first = run(m, data, o);
    ppl::set_interrupted(false);
    REQUIRE(first.result.interrupted);
    inference::run_options rest = opts();
    rest.resume = &first.states;
    rest.resumed_draws = &first.result.draws;
    const saved second = run(m, data, rest);
    for (std::size_t k = 0; k < whole.result.draws.chains.size(); ++k) CHECK(second.result.draws.chains[k] == whole.result.draws.chains[k]);
    CHECK(second.result.reports == whole.result.reports);
    CHECK(second.states == whole.states);
  }
}

TEST_CASE("resume: a saved state that does not fit is refused") {
  const case_t c = cases()[0];
  const lang::ir::model m = lang::compile({"test.ppl", c.text}, stdlib::library());
  data::data_table data;
  for (const auto& s : c.sets) data::apply_set(data, s);
  const saved whole = run(m, data, options(c));
  std::vector<std::string> states = whole.states;
  states[1].resize(states[1].size() / 2);  // truncated
  inference::run_options o = options(c);
  o.resume = &states;
  CHECK_THROWS_WITH(run(m, data, o), doctest::Contains("truncated or corrupt"));
  // z has one element per observation: more data, and the saved z no longer fits.
  const case_t g = cases()[5];
  const lang::ir::model mixture = lang::compile({"test.ppl", g.text}, stdlib::library());
  data::data_table small, bigger;
  data::apply_set(small, g.sets[0]);
  data::apply_set(bigger, "y=[0.1,3.2,2.9,-0.4,3.5,0.2,1.0]");
  const saved before = run(mixture, small, options(g));
  o = options(g);
  o.resume = &before.states;
  CHECK_THROWS_WITH(run(mixture, bigger, o), doctest::Contains("does not fit the model: `z` has 6 values"));
}

}  // namespace test_resume
