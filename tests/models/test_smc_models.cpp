// Tempered SMC's posterior means (inference/smc.cpp) on two hierarchical models against
// published references: eight schools (posteriordb's reference posterior, 10,000 draws)
// and pumps (the BUGS Examples manual). SMC's Monte Carlo error is measured from its 8
// independent runs (each run's particles are equally weighted, so the run means are
// independent estimates); each mean must lie within 6 combined standard errors
// sqrt(se_smc^2 + mcse_ref^2) of the reference: Student's t with 7 degrees of freedom
// exceeds 6 with probability 0.05%, about 1% over the 22 means checked.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <numeric>

#include "lang/checker.hpp"
#include "data/data.hpp"
#include "inference/monte_carlo.hpp"
#include "stdlib/registry.hpp"
#include "tests/support/example_text.hpp"
#include "tests/support/short_run.hpp"

namespace test_smc_models {

using namespace ppl;

namespace {

struct reference {
  double mean, mcse;
};

constexpr std::size_t runs = 8;

void check_means(const std::string& model, const std::string& data, const std::map<std::string, reference>& expected) {
  const lang::ir::model m = lang::compile({model, testing::example_text(model)}, stdlib::library());
  const data::data_table d = data::read_data_file(std::string(PPL_SOURCE_DIR) + "/" + data);
  inference::monte_carlo_options o;
  o.particles = testing::shortened(500, 4);
  o.runs = static_cast<int>(runs);
  o.threads = 2;
  o.seed = 3;
  const inference::weighted_result r = inference::smc_sample(m, d, o);
  const std::size_t width = r.columns.size(), per_run = static_cast<std::size_t>(o.particles);
  for (const auto& [name, ref] : expected) {
    const auto k = static_cast<std::size_t>(std::find(r.columns.begin(), r.columns.end(), name) - r.columns.begin());
    REQUIRE(k < width);
    std::vector<double> means(runs, 0.0);
    for (std::size_t i = 0; i < r.row_count; ++i) means[i / per_run] += r.rows[i * width + k] / static_cast<double>(per_run);
    const double mean = std::accumulate(means.begin(), means.end(), 0.0) / runs;
    double ss = 0;
    for (double x : means) ss += (x - mean) * (x - mean);
    const double se = std::sqrt(ss / (runs - 1) / runs);
    INFO(model, ": ", name, " = ", mean, " (se ", se, "), reference ", ref.mean, " (mcse ", ref.mcse, ")");
    CHECK(std::abs(mean - ref.mean) < 6 * std::hypot(se, ref.mcse));
  }
}

}  // namespace

TEST_CASE("SMC's posterior means on eight schools agree with posteriordb's reference") {
  // tests/suites/posteriordb/eight_schools-eight_schools_noncentered/reference.json
  check_means("examples/eight_schools/eight_schools.ppl", "examples/eight_schools/data.json",
              {{"mu", {4.4105, 0.0330}},      {"tau", {3.6021, 0.0319}},      {"theta[1]", {6.1505, 0.0557}}, {"theta[2]", {4.9396, 0.0462}},
               {"theta[3]", {3.9059, 0.0542}}, {"theta[4]", {4.7960, 0.0475}}, {"theta[5]", {3.6144, 0.0461}}, {"theta[6]", {4.0511, 0.0485}},
               {"theta[7]", {6.3172, 0.0499}}, {"theta[8]", {4.8840, 0.0543}}});
}

TEST_CASE("SMC's posterior means on pumps agree with the BUGS Examples manual") {
  // tests/suites/bugs/pumps/reference.json
  check_means("tests/suites/bugs/pumps/model.ppl", "tests/suites/bugs/pumps/data.json",
              {{"alpha", {0.6919, 0.003669}},     {"beta", {0.921, 0.007195}},       {"theta[1]", {0.05969, 0.0001867}},
               {"theta[2]", {0.1021, 0.000559}},  {"theta[3]", {0.08897, 0.0002725}}, {"theta[4]", {0.1157, 0.0002161}},
               {"theta[5]", {0.6, 0.002078}},     {"theta[6]", {0.6084, 0.001007}},  {"theta[7]", {0.8904, 0.005323}},
               {"theta[8]", {0.8946, 0.005269}},  {"theta[9]", {1.588, 0.006662}},   {"theta[10]", {1.995, 0.002895}}});
}

}  // namespace test_smc_models
