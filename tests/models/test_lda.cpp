// LDA's collapsed Gibbs engine (samplers/lda.*), kernel by kernel: log p(w, z) against the
// Dirichlet-multinomial formula, the stationary distribution of z against exact
// enumeration (dense and sparse kernels, which are exact), and the synthetic "bars" of
// Griffiths & Steyvers (2004) recovered by every kernel, the parallel sweep included, with
// its final log p(w, z) close to the serial sampler's; the parallel sweep's bookkeeping
// (every token swept once, counts in step with z) for several thread counts; and AD-LDA over
// the processes of a team (lda.hpp), here engines on threads summing through memory.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <thread>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <cmath>
#include <map>
#include <numeric>

#include "samplers/lda.hpp"
#include "samplers/lda_vb.hpp"
#include "tests/models/lda_corpus.hpp"
#include "tests/support/thread_team.hpp"

namespace test_lda {

namespace lda = ppl::samplers::lda;
using ppl::testing::make_corpus;
using ppl::testing::tiny;

namespace {

// log B(a + n) - log B(a) for counts n.
double log_dm(const std::vector<double>& n, const std::vector<double>& a) {
  double lp = 0, total = 0, asum = 0;
  for (std::size_t i = 0; i < n.size(); ++i) {
    lp += std::lgamma(a[i] + n[i]) - std::lgamma(a[i]);
    total += n[i];
    asum += a[i];
  }
  return lp + std::lgamma(asum) - std::lgamma(asum + total);
}

// log p(w, z) from the counts of an assignment (0-based topics), independently of the engine.
double exact_log_joint(const lda::corpus& c, const std::vector<double>& z) {
  double lp = 0;
  std::vector<std::vector<double>> kw(c.topics, std::vector<double>(c.words, 0));
  for (std::uint32_t d = 0; d < c.documents; ++d) {
    std::vector<double> dk(c.topics, 0);
    for (auto n = c.doc_start[d]; n < c.doc_start[d + 1]; ++n) {
      const auto k = static_cast<std::size_t>(z[n]) - 1;
      dk[k] += 1;
      kw[k][c.word[n]] += 1;
    }
    lp += log_dm(dk, c.alpha);
  }
  for (const auto& row : kw) lp += log_dm(row, c.eta);
  return lp;
}

}  // namespace

TEST_CASE("lda: log p(w, z) matches the Dirichlet-multinomial formula") {
  // Symmetric priors take the tabulated path, asymmetric ones the direct one.
  for (const auto& [alpha, eta] : {std::pair{std::vector<double>{0.1, 0.1, 0.1}, std::vector<double>{0.01, 0.01, 0.01}},
                                   std::pair{std::vector<double>{0.5, 1.5, 0.2}, std::vector<double>{0.3, 0.5, 2.0}}}) {
    lda::corpus c = make_corpus(tiny, alpha, eta);
    std::vector<double> z = {1, 3, 3, 2, 2, 1, 3, 2};
    lda::engine e(c, z.data());
    CHECK(e.log_joint() == doctest::Approx(exact_log_joint(c, z)).epsilon(1e-12));
    ppl::rng rng(3);
    e.sweep(rng, lda::kernel::sparse, 1);
    CHECK(e.log_joint() == doctest::Approx(exact_log_joint(c, z)).epsilon(1e-12));
  }
}

// Every assignment of 8 tokens to 2 topics (256 states): the frequency of each state over
// 100,000 sweeps against p(z | w). Successive sweeps are correlated, so the tolerance is
// 5 standard errors inflated by a factor 3 for the autocorrelation; a kernel that drew from
// the wrong conditional is off by far more (checked by swapping alpha's entries).
TEST_CASE("lda: the dense and sparse kernels leave p(z | w) invariant") {
  const lda::corpus c = make_corpus(tiny, {0.5, 1.5}, {0.3, 0.5, 2.0});
  const std::size_t n = c.word.size(), states = std::size_t{1} << n;
  std::vector<double> exact(states);
  for (std::size_t code = 0; code < states; ++code) {
    std::vector<double> z(n);
    for (std::size_t i = 0; i < n; ++i) z[i] = 1.0 + static_cast<double>((code >> i) & 1);
    exact[code] = std::exp(exact_log_joint(c, z));
  }
  const double total = std::accumulate(exact.begin(), exact.end(), 0.0);
  for (auto k : {lda::kernel::dense, lda::kernel::sparse}) {
    INFO(std::string(k == lda::kernel::dense ? "dense" : "sparse"));
    std::vector<double> z(n, 1.0);
    lda::engine e(c, z.data());
    ppl::rng rng(k == lda::kernel::dense ? 11 : 12);
    const int sweeps = 100000;
    std::vector<double> seen(states, 0);
    for (int s = 0; s < sweeps; ++s) {
      e.sweep(rng, k, 1);
      std::size_t code = 0;
      for (std::size_t i = 0; i < n; ++i) code |= static_cast<std::size_t>(z[i] - 1) << i;
      seen[code] += 1;
    }
    double worst = 0;
    for (std::size_t code = 0; code < states; ++code) {
      const double p = exact[code] / total, f = seen[code] / sweeps;
      const double se = std::sqrt(p * (1 - p) / sweeps);
      worst = std::max(worst, std::fabs(f - p) / (3 * se + 1e-12));
    }
    CHECK(worst < 5);
  }
}

namespace {

// The bars: 10 topics on a 5 × 5 grid of words, each uniform on a row or a column.
std::vector<std::vector<double>> bars() {
  std::vector<std::vector<double>> t(10, std::vector<double>(25, 0));
  for (std::size_t r = 0; r < 5; ++r)
    for (std::size_t c = 0; c < 5; ++c) {
      t[r][r * 5 + c] = 0.2;
      t[5 + c][r * 5 + c] = 0.2;
    }
  return t;
}

// Documents of 100 words with topic proportions drawn from Dirichlet(1), as in the paper.
std::vector<std::vector<std::uint32_t>> bars_documents(std::size_t count, std::uint64_t seed) {
  ppl::rng rng(seed);
  const auto topics = bars();
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<std::vector<std::uint32_t>> docs(count);
  for (auto& d : docs) {
    std::vector<double> theta(10);
    for (auto& x : theta) x = boost::random::gamma_distribution<double>(1.0)(rng);
    const double sum = std::accumulate(theta.begin(), theta.end(), 0.0);
    for (int i = 0; i < 100; ++i) {
      double u = unit(rng) * sum;
      std::size_t k = 0;
      while (k + 1 < 10 && (u -= theta[k]) >= 0) ++k;
      const auto w = static_cast<std::uint32_t>(std::uniform_int_distribution<int>(0, 4)(rng));
      d.push_back(k < 5 ? static_cast<std::uint32_t>(k * 5) + w : w * 5 + static_cast<std::uint32_t>(k - 5));
    }
  }
  return docs;
}

// The smallest total L1 distance over matchings of found topics to true ones (a dynamic
// programme over subsets), and the largest distance within that matching.
double worst_matched_l1(const std::vector<std::vector<double>>& truth, const std::vector<double>& phi) {
  const std::size_t k = truth.size(), v = truth[0].size();
  std::vector<std::vector<double>> dist(k, std::vector<double>(k, 0));
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j)
      for (std::size_t w = 0; w < v; ++w) dist[i][j] += std::fabs(truth[i][w] - phi[j * v + w]);
  const std::size_t full = std::size_t{1} << k;
  std::vector<double> best(full, INFINITY);
  std::vector<double> worst(full, 0);
  best[0] = 0;
  for (std::size_t mask = 0; mask < full; ++mask) {
    if (!std::isfinite(best[mask])) continue;
    const auto i = static_cast<std::size_t>(__builtin_popcountll(mask));  // next true topic
    if (i == k) continue;
    for (std::size_t j = 0; j < k; ++j)
      if (!(mask >> j & 1) && best[mask] + dist[i][j] < best[mask | std::size_t{1} << j]) {
        best[mask | std::size_t{1} << j] = best[mask] + dist[i][j];
        worst[mask | std::size_t{1} << j] = std::max(worst[mask], dist[i][j]);
      }
  }
  return worst[full - 1];
}

struct bars_run {
  double worst_l1, final_log_joint;
};

// 300 documents, K = 10, alpha = 1, eta = 0.1: 300 sweeps, phi averaged over the last 100.
bars_run run_bars(lda::kernel k, int threads, std::uint64_t seed, std::size_t docs, int sweeps, double eta) {
  const lda::corpus c = make_corpus(bars_documents(docs, 2004), std::vector<double>(10, 1.0), std::vector<double>(25, eta));
  ppl::rng rng(seed);
  std::vector<double> z(c.word.size());
  for (auto& x : z) x = 1.0 + static_cast<double>(rng() % 10);
  lda::engine e(c, z.data());
  std::vector<double> phi(250), mean(250, 0);
  for (int s = 0; s < sweeps; ++s) {
    e.sweep(rng, k, threads);
    if (s >= sweeps - 100) {
      e.phi_means(phi.data());
      for (std::size_t i = 0; i < 250; ++i) mean[i] += phi[i] / 100;
    }
  }
  return {worst_matched_l1(bars(), mean), e.log_joint()};
}

// A serial run of the bars on 1000 documents for 300 sweeps, made once per kernel and seed
// for the tests that compare with it.
const bars_run& serial_bars(lda::kernel k, std::uint64_t seed) {
  static std::map<std::pair<int, std::uint64_t>, bars_run> made;
  const auto key = std::make_pair(static_cast<int>(k), seed);
  if (!made.count(key)) made.emplace(key, run_bars(k, 1, seed, 1000, 300, 0.1));
  return made.at(key);
}

}  // namespace

// alpha = (1e12, 1e-12) makes topic 1 certain for every token a sweep visits, so after one
// sweep from all tokens in topic 2 a token still there was skipped. The counts the engine
// keeps must then agree with z: log p(w, z) from its counts against a recount.
TEST_CASE("lda: a parallel sweep visits every token once and keeps its counts in step with z") {
  const auto docs = bars_documents(97, 7);  // a prime number of documents: uneven blocks
  for (auto k : {lda::kernel::dense, lda::kernel::sparse})
    for (int threads : {2, 3, 5}) {
      INFO((k == lda::kernel::dense ? "dense" : "sparse"), " on ", threads, " threads");
      const lda::corpus certain = make_corpus(docs, {1e12, 1e-12}, std::vector<double>(25, 0.1));
      std::vector<double> z(certain.word.size(), 2.0);
      lda::engine e(certain, z.data());
      ppl::rng rng(5);
      e.sweep(rng, k, threads);
      CHECK(std::count(z.begin(), z.end(), 1.0) == static_cast<std::ptrdiff_t>(z.size()));

      const lda::corpus c = make_corpus(docs, std::vector<double>(10, 0.5), std::vector<double>(25, 0.1));
      for (auto& x : z) x = 1.0 + static_cast<double>(rng() % 10);
      lda::engine f(c, z.data());
      for (int s = 0; s < 5; ++s) f.sweep(rng, k, threads);
      CHECK(f.log_joint() == doctest::Approx(exact_log_joint(c, z)).epsilon(1e-12));
    }
}

// 1000 documents (half the paper's 2000, for time), alpha = 1 as in the paper, eta = 0.1;
// 300 sweeps from a uniformly random start, phi averaged over the last 100. Across seeds
// 1-6 the worst topic's distance was 0.06-0.10 for each of these kernels; a collapsed
// Gibbs chain does at times keep two bars merged for hundreds of sweeps (seen at 2000
// documents), which these seeds do not.
TEST_CASE("lda: every kernel recovers the bars within L1 distance 0.1") {
  const bars_run& dense = serial_bars(lda::kernel::dense, 1);
  const bars_run& sparse = serial_bars(lda::kernel::sparse, 3);
  const bars_run parallel_sparse = run_bars(lda::kernel::sparse, 2, 4, 1000, 300, 0.1);
  const bars_run parallel_dense = run_bars(lda::kernel::dense, 3, 5, 1000, 300, 0.1);
  CHECK(dense.worst_l1 < 0.1);
  CHECK(sparse.worst_l1 < 0.1);
  CHECK(parallel_sparse.worst_l1 < 0.1);
  CHECK(parallel_dense.worst_l1 < 0.1);
  // The parallel sweep's approximation: its final log p(w, z) is as good as the serial
  // sampler's. The spread between the two serial runs is the noise; 3 times it is allowed.
  INFO("serial ", dense.final_log_joint, " / ", sparse.final_log_joint, ", parallel ", parallel_sparse.final_log_joint,
       " / ", parallel_dense.final_log_joint);
  const double noise = std::fabs(dense.final_log_joint - sparse.final_log_joint);
  const double serial = (dense.final_log_joint + sparse.final_log_joint) / 2;
  CHECK(std::fabs(parallel_sparse.final_log_joint - serial) < 3 * noise);
  CHECK(std::fabs(parallel_dense.final_log_joint - serial) < 3 * noise);
}

// Variational Bayes (samplers/lda_vb.hpp) on the same bars: 1000 documents, alpha = 1,
// eta = 0.1, 60 batch passes from lambda's Gamma(100, 1/100) start. Coordinate ascent, like
// gensim's, can end in a local optimum where two topics share a bar and another is lost
// (L1 near 2); on bars of this kind about one start in three does (ppl 0.2.0). The ELBO
// tells them apart: of four starts, the one best by ELBO recovers every bar within 0.1
// (--starts). A local optimum is VB's,
// not this code's: the one-topic case below checks the updates against their closed form.
TEST_CASE("lda vb: of several starts, the best by ELBO recovers the bars within L1 distance 0.1") {
  const lda::corpus c = make_corpus(bars_documents(1000, 2004), std::vector<double>(10, 1.0), std::vector<double>(25, 0.1));
  std::vector<double> elbo;
  ppl::rng rng(1);
  const auto chosen = lda::best_start(c, lda::vb_options{}, rng, 4, 60, elbo);
  std::vector<double> phi(250);
  chosen->phi_means(phi.data());
  const double worst = worst_matched_l1(bars(), phi);
  MESSAGE("ELBO of each start: ", elbo[0], ", ", elbo[1], ", ", elbo[2], ", ", elbo[3], "; the best's worst L1 ", worst);
  CHECK(worst < 0.1);
  // The starts' optima differ: some are local (the ELBO is lower by hundreds).
  CHECK(*std::max_element(elbo.begin(), elbo.end()) - *std::min_element(elbo.begin(), elbo.end()) > 100);
}

TEST_CASE("lda vb: the closed-form fixed point of one topic, threads that agree, and digamma") {
  // With one topic every token's q(z) is that topic: one batch update gives lambda =
  // eta + the word counts and gamma_d = alpha + the document's length, exactly.
  const lda::corpus c = make_corpus(tiny, {0.5}, {0.1, 0.2, 0.3});
  lda::vb_options o;
  ppl::rng rng(3);
  lda::vb_engine e(c, o, rng);
  e.pass();
  std::vector<double> phi(3), theta(3);
  e.phi_means(phi.data());
  const double counts[3] = {2.1, 3.2, 3.3};  // eta + (2, 3, 3)
  for (int w = 0; w < 3; ++w) CHECK(phi[static_cast<std::size_t>(w)] == doctest::Approx(counts[w] / 8.6).epsilon(1e-12));
  e.theta_means(theta.data());
  for (double t : theta) CHECK(t == doctest::Approx(1.0).epsilon(1e-12));
  // Threads split the documents and sum their statistics: the same result up to rounding.
  const lda::corpus b = make_corpus(bars_documents(101, 5), std::vector<double>(10, 1.0), std::vector<double>(25, 0.1));
  std::vector<double> one(250), two(250);
  for (int threads : {1, 2}) {
    lda::vb_options t;
    t.threads = threads;
    t.batch_size = 30;
    ppl::rng r(9);
    lda::vb_engine vb(b, t, r);
    for (int pass = 0; pass < 3; ++pass) vb.pass();
    vb.phi_means(threads == 1 ? one.data() : two.data());
  }
  for (std::size_t i = 0; i < 250; ++i) CHECK(one[i] == doctest::Approx(two[i]).epsilon(1e-9));
  for (double x : {1e-3, 0.01, 0.1, 0.5, 1.0, 2.5, 5.99, 6.0, 17.0, 1e3, 1e6})
    CHECK(lda::digamma(x) == doctest::Approx(boost::math::digamma(x)).epsilon(1e-12));
}

namespace {

using ppl::testing::thread_hub;
using ppl::testing::thread_team;

struct team_run {
  bars_run result;
  double recount = 0;  // log p(w, z) recounted from every process's own documents' z
};

// run_bars with the sweep shared by `processes` engines; each process's documents are
// those whose first token is in its share of the tokens, as the engine takes them.
team_run run_bars_team(lda::kernel k, int processes, std::uint64_t seed, std::size_t docs, int sweeps, double eta) {
  const lda::corpus c = make_corpus(bars_documents(docs, 2004), std::vector<double>(10, 1.0), std::vector<double>(25, eta));
  thread_hub hub(processes);
  std::vector<std::vector<double>> z(static_cast<std::size_t>(processes));
  ppl::rng start(seed);
  z[0].resize(c.word.size());
  for (auto& x : z[0]) x = 1.0 + static_cast<double>(start() % 10);
  for (auto& own : z) own = z[0];
  std::vector<double> mean(250, 0);
  double final_lp = 0;
  std::vector<std::thread> threads;
  for (int r = 0; r < processes; ++r)
    threads.emplace_back([&, r] {
      thread_team team(hub, r);
      lda::engine e(c, z[static_cast<std::size_t>(r)].data());
      e.set_team(&team);
      ppl::rng rng(seed);  // the chain's stream, alike in every process
      std::vector<double> phi(250);
      for (int s = 0; s < sweeps; ++s) {
        e.sweep(rng, k, 1);
        if (r == 0 && s >= sweeps - 100) {
          e.phi_means(phi.data());
          for (std::size_t i = 0; i < 250; ++i) mean[i] += phi[i] / 100;
        }
      }
      if (r == 0) final_lp = e.log_joint();
    });
  for (auto& t : threads) t.join();
  std::vector<double> assembled(c.word.size());
  const std::uint64_t tokens = c.word.size(), R = static_cast<std::uint64_t>(processes);
  for (std::uint64_t r = 0; r < R; ++r) {
    auto first_of = [&](std::uint64_t q) { return std::lower_bound(c.doc_start.begin(), c.doc_start.end() - 1, tokens * q / R) - c.doc_start.begin(); };
    const auto first = first_of(r), last = r + 1 == R ? static_cast<std::ptrdiff_t>(c.documents) : first_of(r + 1);
    for (auto n = c.doc_start[static_cast<std::size_t>(first)]; n < c.doc_start[static_cast<std::size_t>(last)]; ++n) assembled[n] = z[r][n];
  }
  return {{worst_matched_l1(bars(), mean), final_lp}, exact_log_joint(c, assembled)};
}

}  // namespace

// AD-LDA over 2 and 3 processes (Newman et al. 2009): the counts every process holds after
// a sweep are those of the z its documents' owners hold (lp__ from them against a recount),
// the bars are recovered, and the final log p(w, z) is within the serial runs' spread. From
// a random start, 300 sweeps end in different local modes: over seeds 11-13 serial runs
// ended between -373676 and -372076 and teams of 2 and 3 between -374968 and -372693, the
// threads' scheme between -374072 and -372487. So the spread of three serial runs (dense,
// sparse, dense with seeds 1, 3, 11) is the noise, and a team's result must lie within it
// widened by that spread on each side.
TEST_CASE("lda: a sweep shared by a team of processes keeps exact counts and samples as well as the serial sweep") {
  std::vector<double> serial;
  serial.push_back(serial_bars(lda::kernel::dense, 1).final_log_joint);
  serial.push_back(serial_bars(lda::kernel::sparse, 3).final_log_joint);
  serial.push_back(serial_bars(lda::kernel::dense, 11).final_log_joint);
  const team_run two = run_bars_team(lda::kernel::dense, 2, 6, 1000, 300, 0.1);
  const team_run three = run_bars_team(lda::kernel::sparse, 3, 7, 1000, 300, 0.1);
  CHECK(two.result.final_log_joint == doctest::Approx(two.recount).epsilon(1e-12));
  CHECK(three.result.final_log_joint == doctest::Approx(three.recount).epsilon(1e-12));
  CHECK(two.result.worst_l1 < 0.1);
  CHECK(three.result.worst_l1 < 0.1);
  const auto [low, high] = std::minmax_element(serial.begin(), serial.end());
  const double spread = *high - *low;
  INFO("serial ", serial[0], " / ", serial[1], " / ", serial[2], ", team of 2 ", two.result.final_log_joint, ", of 3 ",
       three.result.final_log_joint);
  for (double team : {two.result.final_log_joint, three.result.final_log_joint}) {
    CHECK(team > *low - spread);
    CHECK(team < *high + spread);
  }
}

}  // namespace test_lda
