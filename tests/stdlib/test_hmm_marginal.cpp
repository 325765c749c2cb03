// hmm_marginal against the sum over every path of hidden states, written out: its value,
// and its gradient (eval_partials and backward) against the same sum's exact derivatives,
// which no forward-backward recursion enters; then the edges (scales far from 0, a state
// never reached, impossible observations, transition rows that are not probabilities).
#include <cmath>
#include <functional>

#include "tests/stdlib/function_cases.hpp"

namespace test_hmm_marginal {

using namespace ppl::testing;

namespace {

struct enumerated {
  double value = 0;
  std::vector<double> d_omega, d_gamma, d_rho;
};

// log sum over paths z of rho[z_1] w(1, z_1) prod_t Gamma[z_{t-1}, z_t] w(t, z_t), with
// w = exp(log_omega); each derivative as the weighted count of what the path uses,
// divided by the total: d/d log_omega[k, t] counts z_t = k, d/d Gamma[i, j] the moves
// i -> j over Gamma[i, j], d/d rho[k] starts in k over rho[k]. Gamma and rho positive.
enumerated enumerate(const tensor& log_omega, const tensor& gamma, const tensor& rho) {
  const index_t k = log_omega.shape[0], n = log_omega.shape[1];
  enumerated e;
  e.d_omega.assign(static_cast<std::size_t>(k * n), 0.0);
  e.d_gamma.assign(static_cast<std::size_t>(k * k), 0.0);
  e.d_rho.assign(static_cast<std::size_t>(k), 0.0);
  std::vector<index_t> z(static_cast<std::size_t>(n), 0);
  double total = 0;
  const auto visit = [&] {
    double log_w = std::log(rho.data[static_cast<std::size_t>(z[0])]);
    for (index_t t = 0; t < n; ++t) {
      const auto s = z[static_cast<std::size_t>(t)];
      log_w += log_omega.data[static_cast<std::size_t>(s * n + t)];
      if (t > 0) log_w += std::log(gamma.data[static_cast<std::size_t>(z[static_cast<std::size_t>(t - 1)] * k + s)]);
    }
    const double w = std::exp(log_w);
    total += w;
    e.d_rho[static_cast<std::size_t>(z[0])] += w / rho.data[static_cast<std::size_t>(z[0])];
    for (index_t t = 0; t < n; ++t) {
      const auto s = z[static_cast<std::size_t>(t)];
      e.d_omega[static_cast<std::size_t>(s * n + t)] += w;
      if (t > 0) {
        const auto at = static_cast<std::size_t>(z[static_cast<std::size_t>(t - 1)] * k + s);
        e.d_gamma[at] += w / gamma.data[at];
      }
    }
  };
  std::function<void(index_t)> walk = [&](index_t t) {
    if (t == n) return visit();
    for (index_t s = 0; s < k; ++s) {
      z[static_cast<std::size_t>(t)] = s;
      walk(t + 1);
    }
  };
  walk(0);
  e.value = std::log(total);
  for (auto* d : {&e.d_omega, &e.d_gamma, &e.d_rho})
    for (double& x : *d) x /= total;
  return e;
}

double call(const std::vector<tensor>& args) {
  double out = 0;
  fn("hmm_marginal").eval(views(args), &out);
  return out;
}

void check_against_enumeration(const std::vector<tensor>& args, double shift = 0) {
  const enumerated e = enumerate(args[0], args[1], args[2]);
  const auto& f = fn("hmm_marginal");
  CHECK(call(args) == doctest::Approx(e.value + shift).epsilon(1e-13));
  // eval_partials: log_omega's, then Gamma's, then rho's.
  std::vector<double> partials(e.d_omega.size() + e.d_gamma.size() + e.d_rho.size(), NAN);
  double value = 0;
  REQUIRE(f.eval_partials(views(args), &value, partials.data()));
  CHECK(value == call(args));
  std::size_t at = 0;
  for (const auto* d : {&e.d_omega, &e.d_gamma, &e.d_rho})
    for (double x : *d) {
      INFO("partial ", at);
      CHECK(partials[at++] == doctest::Approx(x).epsilon(1e-11));
    }
  // backward() adds d_out times the same into slots that start at 1.
  std::vector<std::vector<double>> slots;
  for (const auto& a : args) slots.emplace_back(a.data.size(), 1.0);
  const double d_out = 0.75;
  std::vector<double*> to = {slots[0].data(), slots[1].data(), slots[2].data()};
  f.backward(views(args), view{&value, ppl::shape::scalar()}, &d_out, to);
  at = 0;
  for (std::size_t i = 0; i < 3; ++i)
    for (double x : slots[i]) {
      INFO("backward, argument ", i, ", element ", &x - slots[i].data());
      CHECK(x - 1.0 == doctest::Approx(d_out * partials[at++]).epsilon(1e-13));
    }
}

}  // namespace

TEST_CASE("hmm_marginal equals the sum over every path of states, and so do its derivatives") {
  // Three states, five observations: 243 paths.
  const tensor log_omega = mat(3, 5, {-1.2, -0.3, -2.5, -0.9, -1.7,  //
                                      -0.4, -2.2, -0.8, -1.1, -0.2,  //
                                      -3.0, -1.0, -0.5, -2.8, -0.6});
  const tensor gamma = mat(3, 3, {0.7, 0.2, 0.1, 0.25, 0.5, 0.25, 0.05, 0.15, 0.8});
  const tensor rho = vec({0.5, 0.3, 0.2});
  check_against_enumeration({log_omega, gamma, rho});
  // One observation: the mixture log sum_k rho_k w_k.
  check_against_enumeration({mat(2, 1, {-0.5, -1.5}), mat(2, 2, {0.9, 0.1, 0.3, 0.7}), vec({0.4, 0.6})});
  // Log densities near -1000 (a whole column's scale): the value moves by exactly that much.
  tensor far = log_omega;
  for (index_t t = 0; t < 5; ++t)
    for (index_t s = 0; s < 3; ++s) far.data[static_cast<std::size_t>(s * 5 + t)] -= 1000.0 * static_cast<double>(t + 1);
  CHECK(call({far, gamma, rho}) == doctest::Approx(call({log_omega, gamma, rho}) - 15000.0).epsilon(1e-13));
}

TEST_CASE("hmm_marginal at its edges") {
  const tensor log_omega = mat(2, 3, {-1.0, -0.5, -2.0, -0.3, -1.5, -0.7});
  const tensor gamma = mat(2, 2, {0.6, 0.4, 0.2, 0.8});
  // A state never started in nor moved to: the other state's chain alone.
  const double alone = call({log_omega, mat(2, 2, {1.0, 0.0, 0.5, 0.5}), vec({1.0, 0.0})});
  CHECK(alone == doctest::Approx(-1.0 - 0.5 - 2.0));
  // Observations impossible in every state: -inf; a gradient taken there adds nothing.
  tensor impossible = log_omega;
  impossible.data[1] = impossible.data[4] = -INFINITY;
  CHECK(call({impossible, gamma, vec({0.5, 0.5})}) == -INFINITY);
  // Impossible in the one reachable state: -inf as well.
  tensor unreachable = log_omega;
  unreachable.data[0] = -INFINITY;
  CHECK(call({unreachable, mat(2, 2, {1.0, 0.0, 0.5, 0.5}), vec({1.0, 0.0})}) == -INFINITY);
  // Not probabilities: NaN, which a sampler rejects.
  CHECK(std::isnan(call({log_omega, mat(2, 2, {0.6, 0.5, 0.2, 0.8}), vec({0.5, 0.5})})));
  CHECK(std::isnan(call({log_omega, mat(2, 2, {1.2, -0.2, 0.2, 0.8}), vec({0.5, 0.5})})));
  CHECK(std::isnan(call({log_omega, gamma, vec({0.5, 0.6})})));
  tensor nan_omega = log_omega;
  nan_omega.data[2] = NAN;
  CHECK(std::isnan(call({nan_omega, gamma, vec({0.5, 0.5})})));
  // Shapes that do not fit say which.
  const auto shape_error = [](const std::vector<tensor>& args) {
    try {
      (void)fn("hmm_marginal").result_shape(views(args));
    } catch (const ppl::stdlib::argument_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(shape_error({log_omega, mat(3, 3, std::vector<double>(9, 1.0 / 3)), vec({0.5, 0.5})}).find("Gamma must be 2 x 2") !=
        std::string::npos);
  CHECK(shape_error({log_omega, gamma, vec({0.2, 0.3, 0.5})}).find("rho has 3 elements") != std::string::npos);
}

}  // namespace test_hmm_marginal
