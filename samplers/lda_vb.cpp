// LDA by variational Bayes, batch and online (lda_vb.hpp). The local step is the one of
// Hoffman et al.'s and gensim's implementations, written over a document's distinct words:
// with e_k = exp(E[log theta_k]) and b_wk = exp(E[log phi_kw]), phi_dwk = e_k b_wk / s_w,
// s_w = sum_k e_k b_wk, so gamma_k = alpha_k + e_k sum_w n_w b_wk / s_w, and the
// document adds e_k n_w / s_w to the sufficient statistics, which the global step
// multiplies by b_wk. Documents are split among --threads threads, each with its own
// statistics, summed before the global step: the result depends on the threads only by
// the order of that sum's rounding.
#include "samplers/lda_vb.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "samplers/dirichlet_draw.hpp"
#include "stdlib/gamma_draw.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::samplers::lda {

double digamma(double x) {
  double shift = 0;
  while (x < 10) shift -= 1 / x, x += 1;
  const double f = 1 / (x * x);
  return shift + std::log(x) - 0.5 / x - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

namespace {

// exp(E[log x_k]) for x ~ Dirichlet(a): exp(digamma(a_k) - digamma(sum a)).
void exp_dirichlet_expectation(const double* a, std::size_t n, double* out) {
  const double total = digamma(std::accumulate(a, a + n, 0.0));
  for (std::size_t k = 0; k < n; ++k) out[k] = std::exp(digamma(a[k]) - total);
}

}  // namespace

vb_engine::vb_engine(corpus c, const vb_options& o, ppl::rng& rng) : c_(std::move(c)), o_(o) {
  const std::size_t K = c_.topics, V = c_.words;
  lambda_.resize(V * K);
  // Gamma(100, 1/100): mean 1, sd 0.1; drawn topic by topic so that the start does not
  // depend on the layout.
  for (std::size_t k = 0; k < K; ++k)
    for (std::size_t w = 0; w < V; ++w) lambda_[w * K + k] = std::exp(stdlib::log_gamma_draw(100, rng)) / 100;
  gamma_.resize(static_cast<std::size_t>(c_.documents) * K);
  for (std::size_t i = 0; i < gamma_.size(); ++i) gamma_[i] = c_.alpha[i % K];  // a document without tokens keeps its prior
  const auto threads = static_cast<std::size_t>(std::max(1, o_.threads));
  sstats_.assign(threads, std::vector<double>(V * K, 0.0));
  if (threads > 1) pool_ = std::make_unique<ppl::thread_pool>(threads);
  refresh_beta();
}

void vb_engine::refresh_beta() {
  const std::size_t K = c_.topics, V = c_.words;
  exp_beta_.resize(V * K);
  std::vector<double> totals = topic_totals();
  for (auto& t : totals) t = digamma(t);
  for (std::size_t w = 0; w < V; ++w)
    for (std::size_t k = 0; k < K; ++k) exp_beta_[w * K + k] = std::exp(digamma(lambda_[w * K + k]) - totals[k]);
}

void vb_engine::gather(const std::uint32_t* words, std::uint64_t first, std::uint64_t last, std::uint64_t stride, local& l,
                       std::vector<std::uint32_t>& seen) {
  l.words.clear();
  l.counts.clear();
  for (std::uint64_t n = first; n < last; n += stride) {
    const std::uint32_t w = words[n];
    if (seen[w] == 0) {
      l.words.push_back(w);
      l.counts.push_back(0);
      seen[w] = static_cast<std::uint32_t>(l.words.size());
    }
    l.counts[seen[w] - 1] += 1;
  }
  for (std::uint32_t w : l.words) seen[w] = 0;
}

std::vector<double> vb_engine::topic_totals() const {
  const std::size_t K = c_.topics, V = c_.words;
  std::vector<double> totals(K, 0.0);
  for (std::size_t w = 0; w < V; ++w)
    for (std::size_t k = 0; k < K; ++k) totals[k] += lambda_[w * K + k];
  return totals;
}

void vb_engine::local_step(local& l, const std::vector<double>& exp_beta) const {
  const std::size_t K = c_.topics, J = l.words.size();
  const double tokens = std::accumulate(l.counts.begin(), l.counts.end(), 0.0);
  l.gamma.resize(K);
  l.last.resize(K);
  l.exp_theta.resize(K);
  l.norm.resize(J);
  for (std::size_t k = 0; k < K; ++k) l.gamma[k] = c_.alpha[k] + tokens / static_cast<double>(K);
  auto normalisers = [&] {
    exp_dirichlet_expectation(l.gamma.data(), K, l.exp_theta.data());
    for (std::size_t j = 0; j < J; ++j) {
      const double* b = exp_beta.data() + static_cast<std::size_t>(l.words[j]) * K;
      double s = 1e-100;
      for (std::size_t k = 0; k < K; ++k) s += l.exp_theta[k] * b[k];
      l.norm[j] = l.counts[j] / s;
    }
  };
  normalisers();
  for (int round = 0; round < o_.local_rounds; ++round) {
    std::swap(l.gamma, l.last);
    std::fill(l.gamma.begin(), l.gamma.end(), 0.0);
    for (std::size_t j = 0; j < J; ++j) {
      const double* b = exp_beta.data() + static_cast<std::size_t>(l.words[j]) * K;
      const double r = l.norm[j];
      for (std::size_t k = 0; k < K; ++k) l.gamma[k] += r * b[k];
    }
    double change = 0;
    for (std::size_t k = 0; k < K; ++k) {
      l.gamma[k] = c_.alpha[k] + l.exp_theta[k] * l.gamma[k];
      change += std::abs(l.gamma[k] - l.last[k]);
    }
    normalisers();
    if (change / static_cast<double>(K) < o_.gamma_threshold) break;
  }
}

void vb_engine::pass() {
  const std::size_t K = c_.topics, V = c_.words;
  const std::uint32_t D = c_.documents;
  const std::uint32_t batch = o_.batch_size == 0 ? D : std::min(o_.batch_size, D);
  const std::size_t threads = sstats_.size();
  for (std::uint32_t begin = 0; begin < D; begin += batch) {
    const std::uint32_t end = std::min(D, begin + batch);
    for (auto& s : sstats_) std::fill(s.begin(), s.end(), 0.0);
    auto part = [&](std::size_t t) {
      local l;
      std::vector<std::uint32_t> seen(V, 0);
      auto& sstats = sstats_[t];
      for (std::uint32_t d = begin + static_cast<std::uint32_t>((end - begin) * t / threads);
           d < begin + static_cast<std::uint32_t>((end - begin) * (t + 1) / threads); ++d) {
        gather(c_.word.data(), c_.doc_start[d], c_.doc_start[d + 1], 1, l, seen);
        if (l.words.empty()) continue;
        local_step(l, exp_beta_);
        std::copy(l.gamma.begin(), l.gamma.end(), gamma_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(d) * K));
        for (std::size_t j = 0; j < l.words.size(); ++j) {
          double* s = sstats.data() + static_cast<std::size_t>(l.words[j]) * K;
          for (std::size_t k = 0; k < K; ++k) s[k] += l.exp_theta[k] * l.norm[j];
        }
      }
    };
    if (pool_) pool_->run(part);
    else part(0);
    for (std::size_t t = 1; t < threads; ++t)
      for (std::size_t i = 0; i < V * K; ++i) sstats_[0][i] += sstats_[t][i];
    // The global step: lambda's value were this batch the whole corpus, blended in.
    const double scale = static_cast<double>(D) / static_cast<double>(end - begin);
    const double rho = batch == D ? 1.0 : std::pow(o_.offset + updates_, -o_.decay);
    for (std::size_t w = 0; w < V; ++w)
      for (std::size_t k = 0; k < K; ++k) {
        const std::size_t i = w * K + k;
        const double target = c_.eta[w] + scale * sstats_[0][i] * exp_beta_[i];
        lambda_[i] = (1 - rho) * lambda_[i] + rho * target;
      }
    ++updates_;
    refresh_beta();
  }
}

namespace {

// E[log p(x | a)] - E[log q(x | b)] for x ~ Dirichlet(b), given log_e = E[log x] under q.
double dirichlet_terms(const double* a, const double* b, const double* log_e, std::size_t n) {
  double out = 0, sum_a = 0, sum_b = 0;
  for (std::size_t k = 0; k < n; ++k) {
    out += (a[k] - b[k]) * log_e[k] + stdlib::log_gamma(b[k]) - stdlib::log_gamma(a[k]);
    sum_a += a[k];
    sum_b += b[k];
  }
  return out + stdlib::log_gamma(sum_a) - stdlib::log_gamma(sum_b);
}

}  // namespace

double vb_engine::elbo() {
  const std::size_t K = c_.topics, V = c_.words;
  const std::size_t threads = sstats_.size();
  std::vector<double> parts(threads, 0.0);
  auto part = [&](std::size_t t) {
    local l;
    std::vector<std::uint32_t> seen(V, 0);
    std::vector<double> log_e(K);
    double sum = 0;
    for (std::uint32_t d = static_cast<std::uint32_t>(c_.documents * t / threads); d < c_.documents * (t + 1) / threads; ++d) {
      gather(c_.word.data(), c_.doc_start[d], c_.doc_start[d + 1], 1, l, seen);
      if (l.words.empty()) continue;
      local_step(l, exp_beta_);
      for (std::size_t j = 0; j < l.words.size(); ++j) sum += l.counts[j] * (std::log(l.counts[j]) - std::log(l.norm[j]));
      for (std::size_t k = 0; k < K; ++k) log_e[k] = std::log(l.exp_theta[k]);
      sum += dirichlet_terms(c_.alpha.data(), l.gamma.data(), log_e.data(), K);
    }
    parts[t] = sum;
  };
  if (pool_) pool_->run(part);
  else part(0);
  double out = std::accumulate(parts.begin(), parts.end(), 0.0);
  std::vector<double> row(V), log_e(V);
  for (std::size_t k = 0; k < K; ++k) {
    for (std::size_t w = 0; w < V; ++w) row[w] = lambda_[w * K + k], log_e[w] = std::log(exp_beta_[w * K + k]);
    out += dirichlet_terms(c_.eta.data(), row.data(), log_e.data(), V);
  }
  return out;
}

std::unique_ptr<vb_engine> best_start(const corpus& c, const vb_options& o, ppl::rng& rng, int starts, int passes,
                                      std::vector<double>& elbos) {
  std::unique_ptr<vb_engine> best;
  double best_elbo = -INFINITY;
  elbos.clear();
  for (int s = 0; s < starts; ++s) {
    ppl::rng stream(rng());
    auto e = std::make_unique<vb_engine>(c, o, stream);
    for (int p = 0; p < passes; ++p) e->pass();
    elbos.push_back(e->elbo());
    if (!best || elbos.back() > best_elbo) best = std::move(e), best_elbo = elbos.back();
  }
  return best;
}

completion vb_engine::complete(const held_out& heldout) const {
  const std::size_t K = c_.topics, V = c_.words;
  // E_q[phi], word-major, and the same layout as exp_beta for the local step.
  const std::vector<double> totals = topic_totals();
  std::vector<double> phi(V * K);
  for (std::size_t w = 0; w < V; ++w)
    for (std::size_t k = 0; k < K; ++k) phi[w * K + k] = lambda_[w * K + k] / totals[k];
  completion out;
  local l;
  std::vector<std::uint32_t> seen(V, 0);
  for (std::size_t d = 0; d + 1 < heldout.doc_start.size(); ++d) {
    const std::uint64_t first = heldout.doc_start[d], last = heldout.doc_start[d + 1];
    if (last - first < 2) continue;
    gather(heldout.word.data(), first, last, 2, l, seen);
    local_step(l, phi);
    const double total = std::accumulate(l.gamma.begin(), l.gamma.end(), 0.0);
    for (std::uint64_t n = first + 1; n < last; n += 2) {
      const double* p = phi.data() + static_cast<std::size_t>(heldout.word[n]) * K;
      double like = 0;
      for (std::size_t k = 0; k < K; ++k) like += l.gamma[k] / total * p[k];
      out.log_likelihood += std::log(like);
      ++out.tokens;
    }
  }
  return out;
}

void vb_engine::phi_means(double* out) const {
  const std::size_t K = c_.topics, V = c_.words;
  const std::vector<double> totals = topic_totals();
  for (std::size_t k = 0; k < K; ++k)
    for (std::size_t w = 0; w < V; ++w) out[k * V + w] = lambda_[w * K + k] / totals[k];
}

void vb_engine::theta_means(double* out) const {
  const std::size_t K = c_.topics;
  for (std::size_t d = 0; d < c_.documents; ++d) {
    const double* g = gamma_.data() + d * K;
    const double total = std::accumulate(g, g + K, 0.0);
    for (std::size_t k = 0; k < K; ++k) out[d * K + k] = total > 0 ? g[k] / total : 1.0 / static_cast<double>(K);
  }
}

void vb_engine::phi_draws(double* out, ppl::rng& rng) const {
  const std::size_t K = c_.topics, V = c_.words;
  std::vector<double> row(V);
  for (std::size_t k = 0; k < K; ++k) {
    for (std::size_t w = 0; w < V; ++w) row[w] = lambda_[w * K + k];
    dirichlet_draw(row.data(), V, rng, out + k * V);
  }
}

void vb_engine::theta_draws(double* out, ppl::rng& rng) const {
  const std::size_t K = c_.topics;
  for (std::size_t d = 0; d < c_.documents; ++d) dirichlet_draw(gamma_.data() + d * K, K, rng, out + d * K);
}

void vb_engine::z_draws(double* out, ppl::rng& rng) const {
  const std::size_t K = c_.topics;
  std::vector<double> e(K), p(K);
  for (std::size_t d = 0; d < c_.documents; ++d) {
    exp_dirichlet_expectation(gamma_.data() + d * K, K, e.data());
    for (std::uint64_t n = c_.doc_start[d]; n < c_.doc_start[d + 1]; ++n) {
      const double* b = exp_beta_.data() + static_cast<std::size_t>(c_.word[n]) * K;
      double total = 0;
      for (std::size_t k = 0; k < K; ++k) p[k] = total += e[k] * b[k];
      const double u = ppl::unit_uniform(rng) * total;
      std::size_t k = 0;
      while (k + 1 < K && p[k] <= u) ++k;
      out[c_.z_index.empty() ? n : c_.z_index[n]] = static_cast<double>(k + 1);
    }
  }
}

}  // namespace ppl::samplers::lda
