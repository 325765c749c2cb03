// Undirected ±1 models against exact answers, for both kinds that sample them (`gibbs`'s
// chromatic heat-bath and `cluster`'s Swendsen–Wang): a 4 × 4 torus against enumeration
// of its 2^16 states, a 64 × 64 torus against Onsager's energy and Yang's magnetisation,
// and a random-coupling binary MRF against enumeration. Tolerances are 4 Monte Carlo
// standard errors (from the bulk ESS) with fixed seeds.
#include <cmath>
#include <map>

#include "samplers/spins.hpp"
#include "tests/samplers/inference_fixture.hpp"

namespace test_ising {

using namespace ppl::testing;

namespace {

const char* ising = R"(
data L: int = 4
data beta: real = 0.4
data h: real = 0.1
for i in 1:L, j in 1:L { s[i, j] ~ Spin() }
for i in 1:L, j in 1:L {
  factor beta * s[i, j] * (s[i % L + 1, j] + s[i, j % L + 1]) + h * s[i, j]
}
for i in 1:L, j in 1:L {
  site_energy[i, j] = -s[i, j] * (s[i % L + 1, j] + s[i, j % L + 1]) - h * s[i, j]
}
energy = mean(site_energy)
absmag = abs(mean(s))
)";

// The 4 x 4 torus at beta = 0.4, h = 0.1, enumerated: E[s], and the distribution of the
// energy per site (which takes a few dozen values).
struct exact_torus {
  double mean_spin = 0;
  std::map<double, double> energy;  // value -> probability
};

exact_torus enumerate_torus(double beta, double h) {
  const int L = 4, n = L * L;
  exact_torus out;
  double z = 0;
  std::map<double, double> weights;
  for (std::uint32_t state = 0; state < (1u << n); ++state) {
    auto s = [&](int i, int j) { return (state >> (((i % L) * L) + (j % L)) & 1) ? 1.0 : -1.0; };
    double bonds = 0, total = 0;
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j) {
        bonds += s(i, j) * (s(i + 1, j) + s(i, j + 1));
        total += s(i, j);
      }
    const double w = std::exp(beta * bonds + h * total);
    z += w;
    out.mean_spin += w * total / n;
    // Rounded so that equal energies computed in different orders share a key.
    weights[std::round(-(bonds + h * total) / n * 1e9) / 1e9] += w;
  }
  out.mean_spin /= z;
  for (const auto& [e, w] : weights) out.energy[e] = w / z;
  return out;
}

// The draws of the energy against its exact distribution: its mean, and its cumulative
// distribution at every value, each within 4 standard errors from the energy's ESS.
void check_energy_distribution(const posterior& p, const exact_torus& exact) {
  double mean = 0;
  for (const auto& [e, q] : exact.energy) mean += e * q;
  check_mean(p, "energy", mean);
  const auto s = p.summary("energy");
  std::vector<double> draws;
  for (const auto& chain : p.column("energy")) draws.insert(draws.end(), chain.begin(), chain.end());
  double cumulative = 0;
  for (const auto& [e, q] : exact.energy) {
    cumulative += q;
    if (cumulative > 1 - 1e-9) break;
    double below = 0;
    for (double d : draws) below += d <= e + 1e-9;
    below /= static_cast<double>(draws.size());
    INFO("P(energy <= ", e, ") = ", below, ", exact ", cumulative, ", ess ", s.ess_bulk);
    CHECK(std::fabs(below - cumulative) < 4 * std::sqrt(cumulative * (1 - cumulative) / s.ess_bulk) + 1e-3);
  }
}

ppl::inference::run_options options(std::uint64_t seed, long draws) { return two_chains(200, draws, seed); }

}  // namespace

TEST_CASE("ising: 4 x 4 torus against enumeration, heat-bath and Swendsen-Wang") {
  const exact_torus exact = enumerate_torus(0.4, 0.1);
  for (const char* kind : {"gibbs", "cluster"}) {
    INFO(kind);
    auto o = options(kind[0] == 'g' ? 21 : 22, 20000);
    o.monitors = {"s", "energy"};
    if (kind[0] == 'g') o.overrides["s"] = "gibbs";
    const auto p = infer(ising, {}, o);
    CHECK(p.kind("s") == kind);
    for (const char* site : {"s[1,1]", "s[2,3]", "s[4,4]"}) check_mean(p, site, exact.mean_spin);
    check_energy_distribution(p, exact);
  }
}

namespace {

// 64 x 64, h = 0: Onsager's energy per site and (below T_c) Yang's spontaneous
// magnetisation; finite-size corrections at these temperatures are far below the
// tolerance. The ordered phase is started from all +1: from a random start a heat-bath
// chain can stay in a striped state (two domains wrapping the torus) for very long.
void check_onsager(const char* kind, double temperature, double energy, double magnetisation, std::uint64_t seed) {
  INFO(kind, " at T = ", temperature);
  auto o = options(seed, 300);
  o.warmup = 100;
  o.monitors = {"energy", "absmag"};
  if (kind[0] == 'g') o.overrides["s"] = "gibbs";
  ppl::data::data_table init;
  if (magnetisation > 0) {
    ppl::data::apply_set(init, "s=" + [] {
      std::string rows = "[";
      for (int i = 0; i < 64; ++i) {
        rows += i ? ",[" : "[";
        for (int j = 0; j < 64; ++j) rows += j ? ",1" : "1";
        rows += "]";
      }
      return rows + "]";
    }());
    o.start.init = &init;
  }
  const auto p = infer(ising, {"L=64", "h=0", "beta=" + std::to_string(1 / temperature)}, o);
  CHECK(p.kind("s") == kind);
  check_mean(p, "energy", energy);
  if (magnetisation > 0) check_mean(p, "absmag", magnetisation);
}

}  // namespace

TEST_CASE("ising: 64 x 64 against Onsager and Yang") {
  for (const char* kind : {"gibbs", "cluster"}) {
    check_onsager(kind, 2.0, -1.745565, 0.911319, 31);
    check_onsager(kind, 3.0, -0.817310, 0, 32);
  }
}

namespace {

// P(x) ∝ exp(sum_{i<j} W_ij x_i x_j + sum_i b_i x_i) on x in {-1, +1}^8, with couplings of
// both signs (so `cluster` cannot take it).
const char* mrf = R"(
data n: int
data W: real[n, n]
data b: real[n]
for i in 1:n { x[i] ~ Spin() }
for i in 1:n { factor b[i] * x[i] }
for i in 1:n, j in 1:n { factor 0.5 * W[i, j] * x[i] * x[j] }
)";

}  // namespace

TEST_CASE("ising: a random-coupling binary MRF against enumeration") {
  const int n = 8;
  ppl::rng rng(5);
  std::normal_distribution<double> draw(0, 0.6);
  auto normal = [&](ppl::rng& r) { return std::round(draw(r) * 1e6) / 1e6; };  // exactly as written below
  std::vector<std::vector<double>> W(n, std::vector<double>(n, 0));
  std::vector<double> b(n);
  for (int i = 0; i < n; ++i) {
    b[static_cast<std::size_t>(i)] = normal(rng);
    for (int j = 0; j < i; ++j) W[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = W[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)] = normal(rng);
  }
  std::vector<double> mean(n, 0);
  double z = 0;
  for (std::uint32_t state = 0; state < (1u << n); ++state) {
    auto x = [&](int i) { return (state >> i & 1) ? 1.0 : -1.0; };
    double lp = 0;
    for (int i = 0; i < n; ++i) {
      lp += b[static_cast<std::size_t>(i)] * x(i);
      for (int j = 0; j < i; ++j) lp += W[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] * x(i) * x(j);
    }
    const double w = std::exp(lp);
    z += w;
    for (int i = 0; i < n; ++i) mean[static_cast<std::size_t>(i)] += w * x(i);
  }
  std::string w_json = "W=[", b_json = "b=[";
  for (int i = 0; i < n; ++i) {
    w_json += i ? ",[" : "[";
    for (int j = 0; j < n; ++j) w_json += (j ? "," : "") + std::to_string(W[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)]);
    w_json += "]";
    b_json += (i ? "," : "") + std::to_string(b[static_cast<std::size_t>(i)]);
  }
  auto o = options(41, 20000);
  const auto p = infer(mrf, {"n=8", w_json + "]", b_json + "]"}, o);
  CHECK(p.kind("x") == "gibbs");
  for (int i = 0; i < n; ++i) check_mean(p, "x[" + std::to_string(i + 1) + "]", mean[static_cast<std::size_t>(i)] / z);
}

TEST_CASE("ising: lp__ from the couplings equals the model's log density") {
  const auto m = ppl::lang::compile({"ising.ppl", ising}, ppl::stdlib::library());
  ppl::data::data_table data;
  for (const char* set : {"L=5", "h=0.3", "beta=0.7"}) ppl::data::apply_set(data, set);
  ppl::rng rng(3);
  ppl::model::graph g(m, data, rng);
  std::string reason;
  const int s = m.find("s");
  auto model = ppl::samplers::spins::find_pairwise(g, s, reason);
  REQUIRE(model);
  CHECK(model->min_coupling == doctest::Approx(0.7));
  ppl::samplers::spins::heat_bath sampler(*model, g.values()[static_cast<std::size_t>(s)].data.data());
  for (int sweep = 0; sweep < 3; ++sweep) {
    CHECK(ppl::samplers::spins::log_density(*model, g.value(s).data.data()) == doctest::Approx(g.log_density()).epsilon(1e-12));
    sampler.sweep(rng, 1);
  }
}

TEST_CASE("ising: the chromatic heat-bath gives the same draws on one thread and on two") {
  auto run = [](int threads) {
    auto o = options(51, 20);
    o.chains = 1;
    o.warmup = 5;
    o.threads = threads;
    o.monitors = {"energy", "absmag"};
    o.overrides["s"] = "gibbs";
    return infer(ising, {"L=128", "h=0.05"}, o);  // colour classes of 8,192 sites: split between threads
  };
  const auto one = run(1), two = run(2);
  CHECK(one.column("energy") == two.column("energy"));
  CHECK(one.column("absmag") == two.column("absmag"));
}

}  // namespace test_ising
