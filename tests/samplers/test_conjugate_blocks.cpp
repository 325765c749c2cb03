// A conjugate update block by block (samplers/conjugate_blocks.hpp), shared by the processes of a team,
// the processes played by threads (tests/support/thread_team.hpp): matrix factorisation's
// users and items split between them. Every copy of the chain holds the same state after
// each sweep, and the posterior is the single process's within Monte Carlo error.
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "data/data.hpp"
#include "samplers/conjugate_blocks.hpp"
#include "tests/samplers/inference_fixture.hpp"
#include "tests/support/thread_team.hpp"

namespace test_conjugate_blocks {

using namespace ppl::testing;

namespace {

// Matrix factorisation with rank 2, its hyperpriors' precisions fixed, and one prediction
// (the identified quantity: U and V themselves may rotate).
const char* const model_text = R"(
data N: int
data M: int
data user: int[R]
data item: int[R]
data rating: real[R]
for i in 1:N { U[i] ~ MultiNormalPrec([0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]]) }
for j in 1:M { V[j] ~ MultiNormalPrec([0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]]) }
for r in 1:R { rating[r] ~ Normal(dot(U[user[r]], V[item[r]]), 0.5) }
pred = dot(U[1], V[2])
)";

// `users` users and `items` items, each pair rated with probability `rated`, from features
// of rank 2.
std::vector<std::string> ratings(int users = 14, int items = 9, double rated = 0.6) {
  std::mt19937_64 g(2024);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unit;
  std::vector<double> u(2 * users), v(2 * items);
  for (double& x : u) x = normal(g);
  for (double& x : v) x = normal(g);
  std::string user = "user=[", item = "item=[", rating = "rating=[";
  for (int i = 0; i < users; ++i)
    for (int j = 0; j < items; ++j) {
      if (unit(g) > rated && !(i == 0 && j == 1)) continue;  // pred's pair is rated
      const double y = u[2 * i] * v[2 * j] + u[2 * i + 1] * v[2 * j + 1] + 0.5 * normal(g);
      const bool first = user.back() == '[';
      user += (first ? "" : ",") + std::to_string(i + 1);
      item += (first ? "" : ",") + std::to_string(j + 1);
      rating += (first ? "" : ",") + std::to_string(y);
    }
  return {user + "]", item + "]", rating + "]", "N=" + std::to_string(users), "M=" + std::to_string(items)};
}

ppl::inference::run_options one_chain(std::uint64_t seed, long draws = 6000) {
  ppl::inference::run_options o;
  o.chains = 1;
  o.warmup = 200;
  o.draws = draws;
  o.seed = seed;
  return o;
}

// One chain run by `processes` threads, each its own copy with the team set for its thread.
std::vector<ppl::inference::run_result> run_team(const ppl::lang::ir::model& m, const ppl::data::data_table& data, int processes, std::uint64_t seed) {
  thread_hub hub(processes);
  std::vector<ppl::inference::run_result> results(static_cast<std::size_t>(processes));
  std::vector<std::thread> threads;
  for (int r = 0; r < processes; ++r)
    threads.emplace_back([&, r] {
      thread_team team(hub, r);
      ppl::samplers::set_thread_team(&team);
      results[static_cast<std::size_t>(r)] = ppl::inference::run(m, data, one_chain(seed), nullptr);
      ppl::samplers::set_thread_team(nullptr);
    });
  for (auto& t : threads) t.join();
  return results;
}

}  // namespace

TEST_CASE("conjugate blocks shared by a team: the same state in every copy, and the single process's posterior") {
  const ppl::lang::ir::model m = ppl::lang::compile({"test.ppl", model_text}, ppl::stdlib::library());
  ppl::data::data_table data;
  for (const auto& s : ratings()) ppl::data::apply_set(data, s);
  const std::vector<ppl::inference::run_result> team = run_team(m, data, 2, 7);
  // Both copies drew every block the same, their own and the other's, and lp__ alike.
  REQUIRE(team[0].draws.columns == team[1].draws.columns);
  CHECK(team[0].draws.chains == team[1].draws.chains);
  bool said = false;
  for (const auto& r : team[0].reports[0]) said = said || r.find("blocks shared by 2 processes") != std::string::npos;
  CHECK(said);
  const posterior shared{team[0]};
  const posterior serial = infer(model_text, ratings(), one_chain(8));
  // Means within 4 combined MCSEs: the prediction, and lp__ (whose sum over the processes'
  // changes would drift from the serial chain's if a change were lost or counted twice).
  for (const char* name : {"pred", "lp__"}) {
    const auto a = shared.summary(name), b = serial.summary(name);
    INFO(std::string(name), ": shared ", a.mean, " (mcse ", a.mcse_mean, "), serial ", b.mean, " (mcse ", b.mcse_mean, ")");
    CHECK(std::fabs(a.mean - b.mean) < 4 * std::hypot(a.mcse_mean, b.mcse_mean));
    CHECK(a.ess_bulk > 500);
  }
  // A team of three splits the 14 users and 9 items too.
  const std::vector<ppl::inference::run_result> three = run_team(m, data, 3, 9);
  CHECK(three[0].draws.chains == three[2].draws.chains);
  const auto c = posterior{three[1]}.summary("pred"), b = serial.summary("pred");
  CHECK(std::fabs(c.mean - b.mean) < 4 * std::hypot(c.mcse_mean, b.mcse_mean));
}

// --threads: the users (at least 256 a thread) split between two threads, each drawing its
// part from a stream of its own: the same draws for the same seed and number of threads,
// and the single thread's posterior within Monte Carlo error (the prediction and lp__).
TEST_CASE("conjugate blocks shared by threads: reproducible, and the single thread's posterior") {
  const std::vector<std::string> data = ratings(600, 6, 0.5);
  auto threaded = one_chain(11, 3000);
  threaded.threads = 2;
  const posterior a = infer(model_text, data, threaded), again = infer(model_text, data, threaded);
  CHECK(a.result.draws.chains == again.result.draws.chains);
  bool said = false;
  for (const auto& r : a.result.reports[0]) said = said || r.find("U: blocks shared by 2 threads") != std::string::npos;
  CHECK(said);
  const posterior serial = infer(model_text, data, one_chain(12, 3000));
  for (const char* name : {"pred", "lp__"}) {
    const auto x = a.summary(name), y = serial.summary(name);
    INFO(std::string(name), ": threads ", x.mean, " (mcse ", x.mcse_mean, "), serial ", y.mean, " (mcse ", y.mcse_mean, ")");
    CHECK(std::fabs(x.mean - y.mean) < 4 * std::hypot(x.mcse_mean, y.mcse_mean));
  }
}

}  // namespace test_conjugate_blocks
