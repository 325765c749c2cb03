// A long build's progress (model/build_progress.hpp): a statement's instance loop reports
// its line and how far its outer loop is, on the thread that opened a phase, and nowhere
// else.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "model/build_progress.hpp"
#include "tests/support/model_fixture.hpp"

namespace test_build_progress {

using ppl::model::build_phase;
using ppl::model::build_step;
using ppl::testing::fixture;

struct seen {
  std::string phase;
  std::size_t line;
  double fraction;
};

const char* const model_text = "data N: int = 300000\n\nfor n in 1:N {\n  x[n] ~ Normal(0, 1)\n}\n";

TEST_CASE("a build's steps: the phase, the statement's line and how far its outer loop is") {
  std::vector<seen> calls;
  ppl::model::set_build_progress([&](const build_step& s) { calls.push_back({s.phase, s.line, s.fraction}); });
  {
    const build_phase phase("the graph", true);
    fixture f(model_text);
    // The phase's opening, then every 65,536 instances of x's 300,000 in each pass.
    REQUIRE(calls.size() >= 5);
    CHECK(calls.front().phase == "the graph");
    CHECK(calls.front().line == 0);
    for (std::size_t k = 1; k < calls.size(); ++k) {
      INFO("call ", k);
      CHECK(calls[k].phase == "the graph");
      CHECK(calls[k].line == 4);
      // The build may pass over a plate more than once; each pass reports after 65,536,
      // 131,072, ... of its instances.
      const double passed = calls[k].fraction * 300000 / 65536;
      CHECK(passed == doctest::Approx(std::round(passed)));
      CHECK(passed >= 1);
      CHECK(passed <= 4);
    }
    calls.clear();
    {
      const build_phase inner("the start's log density", true);
      f.graph->log_density();
    }
    // The plate is read as a batch or instance by instance: either way only the inner phase's name.
    for (const seen& s : calls) CHECK(s.phase == std::string("the start's log density"));
    calls.clear();
    // Closed phases report nothing; nor does a thread that is not the reporting one.
    const build_phase silent("the samplers", false);
    fixture g(model_text);
    for (const seen& s : calls) CHECK(s.phase == std::string("the graph"));
  }
  calls.clear();
  fixture h(model_text);
  h.graph->log_density();
  CHECK(calls.empty());
  ppl::model::set_build_progress(nullptr);
}

}  // namespace test_build_progress
