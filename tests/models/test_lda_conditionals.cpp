// LDA's engine records theta and phi (issue 18, item 8): theta_draws and phi_draws give
// rows of Dirichlet(counts + prior) given z, checked element by element against the exact
// moments of those Dirichlets; the means against the same counts.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <utility>

#include "samplers/lda.hpp"
#include "tests/models/lda_corpus.hpp"

namespace test_lda_conditionals {

namespace lda = ppl::samplers::lda;
using ppl::testing::make_corpus;
using ppl::testing::tiny;

namespace {

// The Beta(a, sum - a) marginal of one element of a Dirichlet row: its mean, variance and
// fourth central moment, from the raw moments E[x^m] = prod_{j < m} (a + j) / (sum + j).
struct beta_moments {
  double mean, variance, fourth;
  beta_moments(double a, double sum) {
    double m[5] = {1, 0, 0, 0, 0};
    for (int j = 1; j <= 4; ++j) m[j] = m[j - 1] * (a + j - 1) / (sum + j - 1);
    mean = m[1];
    variance = m[2] - m[1] * m[1];
    fourth = m[4] - 4 * m[3] * m[1] + 6 * m[2] * m[1] * m[1] - 3 * m[1] * m[1] * m[1] * m[1];
  }
};

// The shapes of theta's rows (documents x topics) and phi's (topics x words) given z.
std::pair<std::vector<double>, std::vector<double>> conditional_shapes(const lda::corpus& c, const std::vector<double>& z) {
  std::vector<double> theta(static_cast<std::size_t>(c.documents) * c.topics), phi(static_cast<std::size_t>(c.topics) * c.words);
  for (std::uint32_t d = 0; d < c.documents; ++d)
    for (std::uint32_t k = 0; k < c.topics; ++k) theta[d * c.topics + k] = c.alpha[k];
  for (std::uint32_t k = 0; k < c.topics; ++k)
    for (std::uint32_t w = 0; w < c.words; ++w) phi[k * c.words + w] = c.eta[w];
  for (std::uint32_t d = 0; d < c.documents; ++d)
    for (auto n = c.doc_start[d]; n < c.doc_start[d + 1]; ++n) {
      const auto k = static_cast<std::size_t>(z[n]) - 1;
      theta[d * c.topics + k] += 1;
      phi[k * c.words + c.word[n]] += 1;
    }
  return {theta, phi};
}

// Draws of rows of `width` elements (made by `draw`) against Dirichlet(shape) row by row:
// every row a simplex, and each element's mean and mean squared deviation from the exact
// mean over `n` independent draws within 4 standard errors of the exact mean and variance
// (sqrt(variance / n) and sqrt((fourth - variance^2) / n)).
void check_dirichlet_rows(const std::vector<double>& shape, std::size_t width, int n, const std::function<void(double*)>& draw) {
  std::vector<beta_moments> exact;
  for (std::size_t j = 0; j < shape.size(); ++j) {
    double total = 0;
    for (std::size_t i = j / width * width; i < (j / width + 1) * width; ++i) total += shape[i];
    exact.emplace_back(shape[j], total);
  }
  std::vector<double> x(shape.size()), sum(shape.size(), 0), squares(shape.size(), 0);
  bool simplexes = true;
  for (int i = 0; i < n; ++i) {
    draw(x.data());
    for (std::size_t r = 0; r < shape.size() / width; ++r) {
      double row = 0;
      for (std::size_t j = r * width; j < (r + 1) * width; ++j) {
        simplexes = simplexes && x[j] >= 0;
        row += x[j];
      }
      simplexes = simplexes && std::fabs(row - 1) < 1e-12;
    }
    for (std::size_t j = 0; j < x.size(); ++j) {
      sum[j] += x[j];
      squares[j] += (x[j] - exact[j].mean) * (x[j] - exact[j].mean);
    }
  }
  CHECK(simplexes);
  for (std::size_t j = 0; j < x.size(); ++j) {
    const beta_moments& b = exact[j];
    INFO("element ", j, ": mean ", sum[j] / n, " exact ", b.mean, "; variance ", squares[j] / n, " exact ", b.variance);
    CHECK(std::fabs(sum[j] / n - b.mean) < 4 * std::sqrt(b.variance / n));
    CHECK(std::fabs(squares[j] / n - b.variance) < 4 * std::sqrt((b.fourth - b.variance * b.variance) / n));
  }
}

}  // namespace

// theta_draws and phi_draws at a fixed z (no sweep between draws, so the draws are
// independent): rows of Dirichlet(counts + prior), also with the small priors of topic
// models (0.01), whose gamma variates can fall below the smallest double before they are
// normalised.
TEST_CASE("lda: theta and phi are drawn from their conditionals given z") {
  for (const auto& [alpha, eta] : {std::pair{std::vector<double>{0.5, 1.5}, std::vector<double>{0.3, 0.5, 2.0}},
                                   std::pair{std::vector<double>{0.01, 0.01}, std::vector<double>{0.01, 0.01, 0.01}}}) {
    const lda::corpus c = make_corpus(tiny, alpha, eta);
    std::vector<double> z = {1, 2, 2, 2, 1, 1, 2, 2};
    lda::engine e(c, z.data());
    const auto [theta, phi] = conditional_shapes(c, z);
    ppl::rng rng(5);
    INFO("alpha[1] ", alpha[0], ", eta[1] ", eta[0]);
    check_dirichlet_rows(theta, c.topics, 20000, [&](double* out) { e.theta_draws(out, rng); });
    check_dirichlet_rows(phi, c.words, 20000, [&](double* out) { e.phi_draws(out, rng); });
  }
}

TEST_CASE("lda: the means are the Rao-Blackwellised posterior means") {
  lda::corpus c = make_corpus(tiny, {0.5, 1.5}, {0.3, 0.5, 2.0});
  std::vector<double> z = {1, 2, 2, 2, 1, 1, 2, 2};
  lda::engine e(c, z.data());
  std::vector<double> theta(3 * 2), phi(2 * 3);
  e.theta_means(theta.data());
  e.phi_means(phi.data());
  CHECK(theta[0] == doctest::Approx((1 + 0.5) / (3 + 2.0)));  // document 1 has one token in topic 1
  CHECK(theta[3] == doctest::Approx((1 + 1.5) / (3 + 2.0)));  // document 2 has one in topic 2
  std::vector<double> n(6, 0), nk(2, 0);
  for (std::size_t i = 0; i < z.size(); ++i) {
    const auto k = static_cast<std::size_t>(z[i]) - 1;
    n[k * 3 + c.word[i]] += 1;
    nk[k] += 1;
  }
  for (std::size_t k = 0; k < 2; ++k)
    for (std::size_t w = 0; w < 3; ++w) CHECK(phi[k * 3 + w] == doctest::Approx((n[k * 3 + w] + c.eta[w]) / (nk[k] + 2.8)));
}

}  // namespace test_lda_conditionals
