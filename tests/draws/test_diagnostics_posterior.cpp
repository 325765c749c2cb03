// The diagnostics against the R package posterior 1.4.0, whose summarise_draws Stan users
// compare ppl's summary with: tests/data/posterior_draws.csv holds 4 chains x 200 draws of
// a few quantities (well mixing, antithetic, stuck, one chain wider, counts with ties, 0/1,
// Cauchy), tests/data/posterior_summary.csv what posterior computed for them, written with
// 17 digits by tests/support/posterior_reference.R. The same arithmetic in another order
// (sums, R's long-double mean, FFT against direct lags) differs in the last bits only, so
// 1e-9 relative is far above rounding (on x86-64 every figure agrees within 1e-13) yet far
// below a printed digit.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "draws/diagnostics.hpp"
#include "tests/support/reference_csv.hpp"

namespace test_diagnostics_posterior {

using chains_t = std::vector<std::vector<double>>;

namespace {

constexpr double tolerance = 1e-9;

using ppl::testing::data_fixture;
using ppl::testing::read_reference_csv;
double number(const std::string& cell) { return ppl::testing::reference_number(cell); }

// Column `name` of the draws, the first `length` draws of each chain.
chains_t chains_of(const std::vector<std::map<std::string, std::string>>& draws, const std::string& name, std::size_t length) {
  chains_t out;
  for (const auto& row : draws) {
    const auto chain = static_cast<std::size_t>(std::stoul(row.at("chain")));
    if (out.size() < chain) out.resize(chain);
    if (std::stoul(row.at("iteration")) <= length) out[chain - 1].push_back(number(row.at(name)));
  }
  return out;
}

// Equal within `tolerance` of the larger magnitude of `expected` and `scale`: a mean near 0
// is compared on the scale of the draws' sd, not its own.
void check_close(const std::string& what, double actual, double expected, double scale = 0) {
  CAPTURE(what);
  CAPTURE(actual);
  CAPTURE(expected);
  REQUIRE(!std::isnan(expected));
  CHECK(std::fabs(actual - expected) <= tolerance * std::max(std::fabs(expected), scale));
}

}  // namespace

TEST_CASE("diagnostics: the figures of R's posterior 1.4.0 on the fixture's draws") {
  const auto draws = read_reference_csv(data_fixture("posterior_draws.csv"));
  const auto expected = read_reference_csv(data_fixture("posterior_summary.csv"));
  REQUIRE(expected.size() == 14);  // 7 quantities, 200 and 199 draws a chain
  ppl::draws::summariser summarise;
  for (const auto& row : expected) {
    const std::string name = row.at("column");
    const auto length = static_cast<std::size_t>(std::stoul(row.at("draws")));
    CAPTURE(name);
    CAPTURE(length);
    const chains_t d = chains_of(draws, name, length);
    REQUIRE(d.size() == 4);
    REQUIRE(d[3].size() == length);
    auto want = [&](const char* statistic) { return number(row.at(statistic)); };
    const auto s = summarise(d);
    check_close("mean", s.mean, want("mean"), want("sd"));
    check_close("sd", s.sd, want("sd"));
    check_close("q5", s.q5, want("q5"), want("sd"));
    check_close("q50", s.q50, want("q50"), want("sd"));
    check_close("q95", s.q95, want("q95"), want("sd"));
    check_close("mcse_mean", s.mcse_mean, want("mcse_mean"));
    check_close("ess_bulk", s.ess_bulk, want("ess_bulk"));
    check_close("rhat", s.rhat, want("rhat"));
    // posterior's tail-ESS is NA when one of its indicators never varies (the 0/1 draws:
    // all lie at or below q95 = 1); ppl's is then the other one's, as diagnostics.hpp says.
    if (std::isnan(want("ess_tail"))) {
      CHECK(std::isnan(want("ess_q95")));
      check_close("ess_tail (ess_q5)", s.ess_tail, want("ess_q5"));
    } else {
      check_close("ess_tail", s.ess_tail, want("ess_tail"));
    }
    // Chains as given, and the integrated autocorrelation time of one chain.
    check_close("ess_basic(split = FALSE)", ppl::draws::effective_sample_size(d), want("ess_unsplit"));
    check_close("rhat_basic(split = FALSE)", ppl::draws::split_rhat(d), want("rhat_unsplit"));
    check_close("n / ess of chain 1", ppl::draws::autocorrelation_time(d[0]), static_cast<double>(length) / want("ess_chain1"));
  }
}

}  // namespace test_diagnostics_posterior
