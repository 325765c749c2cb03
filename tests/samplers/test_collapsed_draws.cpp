// What a monitored collapsed theta or phi records (issue 18, item 8). By default a draw from
// its conditional given z at each kept iteration, so the recorded mean AND spread are the
// posterior's; with --collapsed means, E[theta | z], whose mean is the posterior mean but
// whose spread is narrower. Each model is small enough to enumerate every z: given z each
// row of theta (and phi) is Dirichlet(counts + prior), so the exact posterior moments of an
// element are those Beta moments averaged over p(z | data).
//
// Tolerances, with a fixed seed: the mean within 4 Monte Carlo standard errors of the run
// (mcse from its ESS), and the variance likewise, as the mean of the squared deviations
// (x - exact mean)^2 within 4 of that series' own mcse — which accounts for both the
// autocorrelation and the kurtosis of the draws. 4 standard errors leave a chance of about
// 6e-5 per check of failing a correct sampler. The Rao-Blackwellised means, which the
// default recorded before, miss the exact variance by 80 to 1000 of those errors here: each
// case checks that they fail, as a control that the variance check has power.
#include <algorithm>
#include <array>
#include <functional>
#include <map>

#include "tests/samplers/inference_fixture.hpp"

namespace test_collapsed_draws {

using namespace ppl::testing;
using ppl::samplers::collapsed_record;

namespace {

// Weighted raw moments E[x^m], m = 1..4, of each element, accumulated over z.
struct exact_moments {
  double total = 0;
  std::map<std::string, std::array<double, 5>> raw;

  // Element `name` is Beta(a, sum - a) given this z, which has weight w.
  void add(const std::string& name, double a, double sum, double w) {
    auto& r = raw[name];
    double m = 1;
    for (int k = 1; k <= 4; ++k) r[static_cast<std::size_t>(k)] += w * (m *= (a + k - 1) / (sum + k - 1));
  }
  double mean(const std::string& name) const { return raw.at(name)[1] / total; }
  double variance(const std::string& name) const { return raw.at(name)[2] / total - mean(name) * mean(name); }
};

// log of the Dirichlet-multinomial probability of counts c under concentrations a (the
// sequence, not the multiset): log B(a + c) - log B(a).
double log_dm(const std::vector<double>& c, const std::vector<double>& a) {
  double lp = 0, n = 0, s = 0;
  for (std::size_t k = 0; k < c.size(); ++k) {
    lp += std::lgamma(a[k] + c[k]) - std::lgamma(a[k]);
    n += c[k];
    s += a[k];
  }
  return lp + std::lgamma(s) - std::lgamma(s + n);
}

// Every z in {1..K}^N, as 0-based topics, with `visit(z)`.
void each_assignment(int K, int N, const std::function<void(const std::vector<int>&)>& visit) {
  std::vector<int> z(static_cast<std::size_t>(N), 0);
  while (true) {
    visit(z);
    int i = 0;
    while (i < N && ++z[static_cast<std::size_t>(i)] == K) z[static_cast<std::size_t>(i++)] = 0;
    if (i == N) return;
  }
}

// theta[r, k] given z: Dirichlet(counts + alpha) per row r, added to `m` with weight w.
void add_rows(exact_moments& m, const std::string& name, const std::vector<std::vector<double>>& counts,
              const std::vector<std::vector<double>>& alpha, double w, bool vector = false) {
  for (std::size_t r = 0; r < counts.size(); ++r) {
    double sum = 0;
    for (std::size_t k = 0; k < counts[r].size(); ++k) sum += counts[r][k] + alpha[r][k];
    for (std::size_t k = 0; k < counts[r].size(); ++k) {
      const std::string column = vector ? name + "[" + std::to_string(k + 1) + "]"
                                        : name + "[" + std::to_string(r + 1) + "," + std::to_string(k + 1) + "]";
      m.add(column, counts[r][k] + alpha[r][k], sum, w);
    }
  }
}

// The recorded mean and variance of an element against the exact ones, as z-scores.
struct agreement {
  double mean_z, variance_z;
  std::string said;
};

agreement compare(const posterior& p, const exact_moments& m, const std::string& name) {
  const auto draws = p.column(name);
  const auto s = ppl::draws::summarize(draws);
  auto squares = draws;
  for (auto& chain : squares)
    for (double& x : chain) x = (x - m.mean(name)) * (x - m.mean(name));
  const auto v = ppl::draws::summarize(squares);
  return {std::fabs(s.mean - m.mean(name)) / s.mcse_mean, std::fabs(v.mean - m.variance(name)) / v.mcse_mean,
          name + ": mean " + std::to_string(s.mean) + " exact " + std::to_string(m.mean(name)) + " mcse " + std::to_string(s.mcse_mean) +
              "; variance " + std::to_string(v.mean) + " exact " + std::to_string(m.variance(name)) + " mcse " + std::to_string(v.mcse_mean)};
}

// Draws (the default): mean and variance match. Means: the mean matches, the variance is
// rejected.
void check_recorded(const posterior& draws, const posterior& means, const exact_moments& m) {
  for (const auto& [name, raw] : m.raw) {
    const agreement d = compare(draws, m, name), rb = compare(means, m, name);
    INFO("draws: ", d.said);
    INFO("means: ", rb.said);
    CHECK(d.mean_z < 4);
    CHECK(d.variance_z < 4);
    CHECK(rb.mean_z < 4);
    CHECK(rb.variance_z > 4);
  }
}

std::pair<posterior, posterior> both_ways(const char* model, const std::vector<std::string>& data, ppl::inference::run_options o) {
  auto draws = infer(model, data, o);
  o.collapsed = collapsed_record::means;
  return {draws, infer(model, data, o)};
}

}  // namespace

TEST_CASE("collapsed draws: a Dirichlet-Categorical mixture with known emissions") {
  // theta ~ Dirichlet(1, 0.5, 2); z[n] ~ Categorical(theta); y[n] ~ Categorical(B[z[n]]).
  const std::vector<std::vector<double>> B = {{0.7, 0.1, 0.1, 0.1}, {0.1, 0.6, 0.2, 0.1}, {0.1, 0.1, 0.2, 0.6}};
  const std::vector<int> y = {1, 2, 4, 4, 1, 3, 2};
  const std::vector<double> alpha = {1.0, 0.5, 2.0};
  exact_moments m;
  each_assignment(3, static_cast<int>(y.size()), [&](const std::vector<int>& z) {
    std::vector<double> c(3, 0);
    double lp = 0;
    for (std::size_t n = 0; n < z.size(); ++n) {
      c[static_cast<std::size_t>(z[n])] += 1;
      lp += std::log(B[static_cast<std::size_t>(z[n])][static_cast<std::size_t>(y[n] - 1)]);
    }
    const double w = std::exp(lp + log_dm(c, alpha));
    m.total += w;
    add_rows(m, "theta", {c}, {alpha}, w, true);
  });
  const char* model = "data B: real[3, 4]\ndata y: int[N]\ntheta ~ Dirichlet([1.0, 0.5, 2.0])\n"
                      "for n in 1:N {\n  z[n] ~ Categorical(theta)\n  y[n] ~ Categorical(B[z[n]])\n}\n";
  const std::vector<std::string> data = {"B=[[0.7,0.1,0.1,0.1],[0.1,0.6,0.2,0.1],[0.1,0.1,0.2,0.6]]", "y=[1,2,4,4,1,3,2]"};
  const auto [draws, means] = both_ways(model, data, two_chains(200, 20000, 21));
  CHECK(draws.kind("theta") == "collapsed");
  check_recorded(draws, means, m);
}

TEST_CASE("collapsed draws: the weight of a two-component mixture with known components") {
  // pi ~ Dirichlet(1, 1); z[n] ~ Categorical(pi); y[n] ~ Normal(mus[z[n]], 1), mus = (-2, 2).
  const std::vector<double> y = {-2.3, 1.7, 2.4, -1.1, 0.2, 2.9, -2.6, 1.1, 0.6, 3.1}, mus = {-2, 2};
  exact_moments m;
  each_assignment(2, static_cast<int>(y.size()), [&](const std::vector<int>& z) {
    std::vector<double> c(2, 0);
    double lp = 0;
    for (std::size_t n = 0; n < z.size(); ++n) {
      const double d = y[n] - mus[static_cast<std::size_t>(z[n])];
      c[static_cast<std::size_t>(z[n])] += 1;
      lp -= d * d / 2;
    }
    const double w = std::exp(lp + log_dm(c, {1, 1}));
    m.total += w;
    add_rows(m, "pi", {c}, {{1, 1}}, w, true);
  });
  const char* model = "data mus: real[2]\ndata y: real[N]\npi ~ Dirichlet([1, 1])\n"
                      "for n in 1:N {\n  z[n] ~ Categorical(pi)\n  y[n] ~ Normal(mus[z[n]], 1)\n}\n";
  const std::vector<std::string> data = {"mus=[-2, 2]", "y=[-2.3, 1.7, 2.4, -1.1, 0.2, 2.9, -2.6, 1.1, 0.6, 3.1]"};
  const auto [draws, means] = both_ways(model, data, two_chains(200, 20000, 22));
  CHECK(draws.kind("pi") == "collapsed");
  check_recorded(draws, means, m);
}

namespace {

// A tiny LDA: 2 topics, 3 words, 2 documents; document d's theta has prior alpha[d].
exact_moments lda_moments(const std::vector<std::vector<double>>& alpha, double eta) {
  const std::vector<int> doc = {1, 1, 2, 2, 2}, word = {1, 2, 2, 3, 3};
  const std::vector<std::vector<double>> eta_rows(2, std::vector<double>(3, eta));
  exact_moments m;
  each_assignment(2, 5, [&](const std::vector<int>& z) {
    std::vector<std::vector<double>> dk(2, std::vector<double>(2, 0)), kw(2, std::vector<double>(3, 0));
    for (std::size_t n = 0; n < z.size(); ++n) {
      dk[static_cast<std::size_t>(doc[n] - 1)][static_cast<std::size_t>(z[n])] += 1;
      kw[static_cast<std::size_t>(z[n])][static_cast<std::size_t>(word[n] - 1)] += 1;
    }
    const double w = std::exp(log_dm(dk[0], alpha[0]) + log_dm(dk[1], alpha[1]) + log_dm(kw[0], eta_rows[0]) + log_dm(kw[1], eta_rows[1]));
    m.total += w;
    add_rows(m, "theta", dk, alpha, w);
    add_rows(m, "phi", kw, eta_rows, w);
  });
  return m;
}

const std::vector<std::string> lda_data = {"doc=[1,1,2,2,2]", "word=[1,2,2,3,3]"};

}  // namespace

TEST_CASE("collapsed draws: LDA's theta and phi, on LDA's engine") {
  const char* model = "data doc: int[N]\ndata word: int[N]\n"
                      "for k in 1:2 { phi[k] ~ Dirichlet(rep(0.5, 3)) }\nfor d in 1:2 { theta[d] ~ Dirichlet(rep(0.8, 2)) }\n"
                      "for n in 1:N {\n  z[n] ~ Categorical(theta[doc[n]])\n  word[n] ~ Categorical(phi[z[n]])\n}\n";
  const auto [draws, means] = both_ways(model, lda_data, two_chains(200, 20000, 23));
  REQUIRE(!draws.result.reports[0].empty());
  CHECK(draws.result.reports[0][0] == "z: dense kernel");  // the engine, not the generic sampler
  check_recorded(draws, means, lda_moments({{0.8, 0.8}, {0.8, 0.8}}, 0.5));
}

TEST_CASE("collapsed draws: theta and phi of an LDA whose documents' priors differ (the generic sampler)") {
  const char* model = "data doc: int[N]\ndata word: int[N]\n"
                      "for k in 1:2 { phi[k] ~ Dirichlet(rep(0.5, 3)) }\nfor d in 1:2 { theta[d] ~ Dirichlet([0.5 * d, 0.8]) }\n"
                      "for n in 1:N {\n  z[n] ~ Categorical(theta[doc[n]])\n  word[n] ~ Categorical(phi[z[n]])\n}\n";
  const auto [draws, means] = both_ways(model, lda_data, two_chains(200, 20000, 24));
  CHECK(draws.kind("phi") == "collapsed");
  CHECK(draws.result.reports[0].empty());  // no engine report: the generic sampler
  check_recorded(draws, means, lda_moments({{0.5, 0.8}, {1.0, 0.8}}, 0.5));
}

TEST_CASE("collapsed draws come from a stream of their own: z's draws do not depend on what is recorded") {
  const char* model = "data doc: int[N]\ndata word: int[N]\n"
                      "for k in 1:2 { phi[k] ~ Dirichlet(rep(0.5, 3)) }\nfor d in 1:2 { theta[d] ~ Dirichlet(rep(0.8, 2)) }\n"
                      "for n in 1:N {\n  z[n] ~ Categorical(theta[doc[n]])\n  word[n] ~ Categorical(phi[z[n]])\n}\n";
  auto o = two_chains(20, 200, 25);
  o.thin = 3;
  o.monitors = {"z"};
  const auto alone = infer(model, lda_data, o);
  o.monitors = {"z", "theta", "phi"};
  const auto drawn = infer(model, lda_data, o);
  o.collapsed = collapsed_record::means;
  const auto averaged = infer(model, lda_data, o);
  for (int n = 1; n <= 5; ++n) {
    const std::string z = "z[" + std::to_string(n) + "]";
    CHECK(drawn.column(z) == alone.column(z));
    CHECK(averaged.column(z) == alone.column(z));
  }
  CHECK(drawn.column("lp__") == alone.column("lp__"));
  CHECK(drawn.column("theta[1,1]") != averaged.column("theta[1,1]"));
}

TEST_CASE("collapsed draws: a derived quantity of theta, monitored without theta, reads theta's draws") {
  // theta is then written at each kept iteration although it is not recorded itself (it
  // used to keep its starting value, and so did the quantity).
  const char* model = "data doc: int[N]\ndata word: int[N]\n"
                      "for k in 1:2 { phi[k] ~ Dirichlet(rep(0.5, 3)) }\nfor d in 1:2 { theta[d] ~ Dirichlet(rep(0.8, 2)) }\n"
                      "for n in 1:N {\n  z[n] ~ Categorical(theta[doc[n]])\n  word[n] ~ Categorical(phi[z[n]])\n}\n"
                      "share = theta[1, 1]\n";
  auto o = two_chains(20, 50, 26);
  o.monitors = {"share"};
  const auto derived = infer(model, lda_data, o);
  o.monitors = {"share", "theta"};
  const auto with_theta = infer(model, lda_data, o);
  CHECK(derived.column("share") == with_theta.column("share"));
  CHECK(derived.column("share") == with_theta.column("theta[1,1]"));
  const auto first = derived.column("share")[0];
  CHECK(std::any_of(first.begin(), first.end(), [&](double x) { return x != first[0]; }));
}

}  // namespace test_collapsed_draws
