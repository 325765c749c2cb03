// The collapsed Gibbs sampler against exact enumeration of p(z | w) on a tiny corpus.
#include <boost/math/special_functions/gamma.hpp>
#include <map>

#include "tests/samplers/inference_fixture.hpp"

namespace test_collapsed {

using namespace ppl::testing;

namespace {

const char* lda = R"(
data K: int = 2
data doc: int[N]
data word: int[N]
data V: int = 3
for k in 1:K { phi[k] ~ Dirichlet(rep(0.5, V)) }
for d in 1:2 { theta[d] ~ Dirichlet(rep(0.8, K)) }
for n in 1:N {
  z[n] ~ Categorical(theta[doc[n]])
  word[n] ~ Categorical(phi[z[n]])
}
)";

// log of the Dirichlet-multinomial normaliser ratio: log B(alpha + c) - log B(alpha).
double log_dm(const std::vector<double>& counts, double alpha) {
  double total = 0, lp = 0;
  for (double c : counts) {
    lp += std::lgamma(alpha + c) - std::lgamma(alpha);
    total += c;
  }
  return lp + std::lgamma(alpha * static_cast<double>(counts.size())) - std::lgamma(alpha * static_cast<double>(counts.size()) + total);
}

}  // namespace

TEST_CASE("collapsed: LDA's z against exact enumeration") {
  const int doc[] = {1, 1, 2, 2, 2}, word[] = {1, 2, 2, 3, 3}, n = 5;
  // Exact posterior of every assignment z in {1, 2}^5.
  std::map<int, double> exact;
  double total = 0;
  for (int code = 0; code < (1 << n); ++code) {
    std::vector<std::vector<double>> dk(2, std::vector<double>(2, 0)), kw(2, std::vector<double>(3, 0));
    for (int i = 0; i < n; ++i) {
      int k = (code >> i) & 1;
      dk[static_cast<std::size_t>(doc[i] - 1)][static_cast<std::size_t>(k)] += 1;
      kw[static_cast<std::size_t>(k)][static_cast<std::size_t>(word[i] - 1)] += 1;
    }
    double lp = log_dm(dk[0], 0.8) + log_dm(dk[1], 0.8) + log_dm(kw[0], 0.5) + log_dm(kw[1], 0.5);
    total += exact[code] = std::exp(lp);
  }
  ppl::inference::run_options o;
  o.chains = 2;
  o.warmup = 200;
  o.draws = 20000;
  o.seed = 8;
  auto p = infer(lda, {"doc=[1,1,2,2,2]", "word=[1,2,2,3,3]"}, o);
  CHECK(p.kind("z") == "collapsed");
  CHECK(p.kind("theta") == "collapsed");
  CHECK(p.kind("phi") == "collapsed");
  std::vector<std::vector<std::vector<double>>> z;
  for (int i = 1; i <= n; ++i) z.push_back(p.column("z[" + std::to_string(i) + "]"));
  for (const auto& [code, weight] : exact) {
    auto hits = z[0];
    for (std::size_t c = 0; c < hits.size(); ++c)
      for (std::size_t t = 0; t < hits[c].size(); ++t) {
        bool match = true;
        for (int i = 0; i < n; ++i) match = match && z[static_cast<std::size_t>(i)][c][t] == 1 + ((code >> i) & 1);
        hits[c][t] = match;
      }
    auto s = ppl::draws::summarize(hits);
    INFO("z = ", code, ": ", s.mean, " exact ", weight / total, " mcse ", s.mcse_mean);
    CHECK(std::fabs(s.mean - weight / total) < 4 * s.mcse_mean + 1e-9);
  }
}

TEST_CASE("collapsed: lp__ is log p(w, z) with theta and phi integrated out") {
  const int doc[] = {1, 1, 2, 2, 2}, word[] = {1, 2, 2, 3, 3}, n = 5;
  ppl::inference::run_options o;
  o.chains = 1;
  o.warmup = 5;
  o.draws = 20;
  auto p = infer(lda, {"doc=[1,1,2,2,2]", "word=[1,2,2,3,3]"}, o);
  auto lp = p.column("lp__")[0];
  std::vector<std::vector<double>> z;
  for (int i = 1; i <= n; ++i) z.push_back(p.column("z[" + std::to_string(i) + "]")[0]);
  for (std::size_t t = 0; t < lp.size(); ++t) {
    std::vector<std::vector<double>> dk(2, std::vector<double>(2, 0)), kw(2, std::vector<double>(3, 0));
    for (int i = 0; i < n; ++i) {
      auto k = static_cast<std::size_t>(z[static_cast<std::size_t>(i)][t]) - 1;
      dk[static_cast<std::size_t>(doc[i] - 1)][k] += 1;
      kw[k][static_cast<std::size_t>(word[i] - 1)] += 1;
    }
    CHECK(lp[t] == doctest::Approx(log_dm(dk[0], 0.8) + log_dm(dk[1], 0.8) + log_dm(kw[0], 0.5) + log_dm(kw[1], 0.5)));
  }
}

TEST_CASE("collapsed: with --collapsed means, theta holds the Rao-Blackwellised posterior mean") {
  ppl::inference::run_options o;
  o.chains = 1;
  o.warmup = 10;
  o.draws = 5;
  o.collapsed = ppl::samplers::collapsed_record::means;
  auto p = infer(lda, {"doc=[1,1,2,2,2]", "word=[1,2,2,3,3]"}, o);
  // Each row of theta is (counts + 0.8) / (tokens + 1.6): a mean, not a draw.
  auto t11 = p.column("theta[1,1]"), t12 = p.column("theta[1,2]");
  for (std::size_t i = 0; i < t11[0].size(); ++i) {
    double scaled = t11[0][i] * 3.6 - 0.8;  // doc 1 has 2 tokens
    CHECK(std::fabs(scaled - std::round(scaled)) < 1e-9);
    CHECK(t11[0][i] + t12[0][i] == doctest::Approx(1));
  }
}

TEST_CASE("collapsed holds only for z, theta and phi together: --sampler on one moves the others off it") {
  // pi ~ Dirichlet(1, 1), z[n] ~ Categorical(pi), y[n] ~ Normal(mus[z[n]], 1): exact
  // posterior by enumerating the 32 paths of z with pi integrated out (Beta functions).
  const double y[5] = {-0.8, 1.9, 1.1, -1.5, 0.3}, mus[2] = {-1.0, 1.5};
  double total = 0, z2 = 0, pi1 = 0, pi1_sq = 0;
  for (int path = 0; path < 32; ++path) {
    int ones = 0;
    double w = 1;
    for (int n = 0; n < 5; ++n) {
      const int k = (path >> n) & 1;
      ones += k == 0;
      w *= std::exp(-(y[n] - mus[k]) * (y[n] - mus[k]) / 2);
    }
    // p(z) = B(1 + ones, 1 + twos) / B(1, 1); E[pi1 | z] = (1 + ones) / 7, E[pi1^2 | z] = that * (2 + ones) / 8
    w *= std::exp(std::lgamma(1.0 + ones) + std::lgamma(6.0 - ones) - std::lgamma(7.0));
    total += w;
    z2 += w * (1 + ((path >> 1) & 1));
    pi1 += w * (1.0 + ones) / 7;
    pi1_sq += w * (1.0 + ones) / 7 * (2.0 + ones) / 8;
  }
  const double pi_mean = pi1 / total, pi_sd = std::sqrt(pi1_sq / total - pi_mean * pi_mean);
  const char* mixture = "data mus: real[2]\ndata y: real[N]\npi ~ Dirichlet([1, 1])\n"
                        "for n in 1:N {\n  z[n] ~ Categorical(pi)\n  y[n] ~ Normal(mus[z[n]], 1)\n}\n";
  const std::vector<std::string> data = {"mus=[-1.0, 1.5]", "y=[-0.8, 1.9, 1.1, -1.5, 0.3]"};
  auto o = two_chains(500, 6000, 51);
  o.overrides = {{"z", "gibbs"}};
  auto p = infer(mixture, data, o);
  CHECK(p.kind("pi") == "conjugate");  // not collapsed: nothing would update it
  check_mean(p, "z[2]", z2 / total);
  check_mean(p, "pi[1]", pi_mean);
  check_sd(p, "pi[1]", pi_sd);
  o.overrides = {{"pi", "nuts"}};
  auto q = infer(mixture, data, o);
  CHECK(q.kind("z") == "gibbs");  // not collapsed: pi is sampled, not integrated out
  check_mean(q, "pi[1]", pi_mean);
  check_sd(q, "pi[1]", pi_sd);  // draws of pi, not Rao-Blackwellised means
  o.overrides = {{"pi", "collapsed"}, {"z", "gibbs"}};
  CHECK_THROWS_WITH_AS(infer(mixture, data, o), doctest::Contains("collapsed takes z, theta and phi together"), std::invalid_argument);
}

}  // namespace test_collapsed
