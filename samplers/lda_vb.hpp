#pragma once
// LDA by variational Bayes (Blei, Ng & Jordan 2003, section 5; the seeds' "structured mean
// field" of the original LDA paper), in batch and online form (Hoffman, Blei & Bach 2010,
// "Online learning for latent Dirichlet allocation"; Hoffman, Blei, Wang & Paisley 2013,
// "Stochastic variational inference"). The variational family is
//   q(phi_k) = Dirichlet(lambda_k),  q(theta_d) = Dirichlet(gamma_d),  q(z_n) = Categorical(phi_n),
// and each document's local step alternates
//   phi_dwk ∝ exp(E[log theta_dk] + E[log phi_kw]),  gamma_dk = alpha_k + sum_w n_dw phi_dwk
// until gamma's mean change falls below 0.001 or 100 rounds pass (gensim's `iterations` and
// `gamma_threshold`); the global step sets lambda_kw = eta_w + (D / |B|) sum_(d in B) n_dw
// phi_dwk for a batch B of documents, all of them (batch VB: one update a pass) or
// --batch-size of them, blended into lambda with weight rho_t = (offset + t)^(-decay)
// (online VB; gensim's offset and decay, Hoffman's tau_0 and kappa). Tokens of a word
// in a document are taken together (n_dw), as every implementation does.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/random.hpp"
#include "core/thread_pool.hpp"
#include "samplers/lda.hpp"

namespace ppl::samplers::lda {

struct vb_options {
  std::uint32_t batch_size = 0;  // documents per update; 0: all (batch VB)
  double offset = 1, decay = 0.5;
  int local_rounds = 100;        // the most rounds of a document's local step
  double gamma_threshold = 1e-3;
  int threads = 1;
};

class vb_engine {
 public:
  // lambda starts at Gamma(100, 1/100) draws from `rng` (Hoffman's and gensim's start).
  vb_engine(corpus c, const vb_options& o, ppl::rng& rng);
  const corpus& data() const { return c_; }
  // One pass over the documents, in order, in batches; each batch's global step follows
  // its local steps.
  void pass();
  int updates() const { return updates_; }
  // The evidence lower bound at the current lambda, each document's gamma and q(z) set
  // by its local step (Blei, Ng & Jordan 2003, appendix A.3): a pass's local steps without
  // the global step, so it costs about a pass. Its document terms are sum_w n_dw log
  // sum_k exp(E[log theta_dk] + E[log phi_kw]) and the Dirichlets' E[log p] - E[log q].
  double elbo();
  // Document completion (Wallach et al. 2009), the estimator of bench/lda_vb.py and of
  // gensim's and scikit-learn's models there: each held-out document's even-numbered
  // tokens give gamma by the local step under E_q[phi] = lambda / sum(lambda), and its odd-
  // numbered ones are scored by log sum_k theta_k phi_kw with theta = gamma / sum(gamma).
  completion complete(const held_out& heldout) const;
  // E_q[phi] (K x V, topic-major, as phi[k, w]) and E_q[theta] (D x K).
  void phi_means(double* out) const;
  void theta_means(double* out) const;
  // Draws from q(phi) and q(theta).
  void phi_draws(double* out, ppl::rng& rng) const;
  void theta_draws(double* out, ppl::rng& rng) const;
  // Draws from q(z): token n's topic k with probability proportional to
  // exp(E[log theta_dk] + E[log phi_kw]), written at its element of z (corpus::z_index).
  void z_draws(double* out, ppl::rng& rng) const;

 private:
  struct local {  // one thread's working storage
    std::vector<double> gamma, last, exp_theta, norm, sstats;
    std::vector<std::uint32_t> words;
    std::vector<double> counts;
  };
  // The distinct words of tokens first, first + stride, ... before last of `words` and
  // their counts, into `l` (`seen`: V zeros, left so): a training document (stride 1) or a
  // held-out document's observed half (stride 2).
  static void gather(const std::uint32_t* words, std::uint64_t first, std::uint64_t last, std::uint64_t stride, local& l,
                     std::vector<std::uint32_t>& seen);
  // sum_w lambda_kw, for each topic k.
  std::vector<double> topic_totals() const;
  // The local step for the words in `l` under exp_beta (word-major, V x K); leaves gamma,
  // exp_theta and the normalisers in `l`.
  void local_step(local& l, const std::vector<double>& exp_beta) const;
  void refresh_beta();

  corpus c_;
  vb_options o_;
  std::vector<double> lambda_;     // word-major: lambda[w * K + k]
  std::vector<double> exp_beta_;   // exp(E[log phi_kw]), word-major
  std::vector<double> gamma_;      // D x K, the last local step of each document
  std::vector<std::vector<double>> sstats_;  // per thread, word-major
  std::unique_ptr<ppl::thread_pool> pool_;
  int updates_ = 0;
};

// Coordinate ascent ends in a local optimum that depends on lambda's start (on the bars of
// tests/models/test_lda.cpp, about one start in three leaves two topics on one bar; the
// ELBO at the end tells them apart, after a few passes it does not). The best of `starts`
// starts, each from its own stream of `rng` and given `passes` passes, by the ELBO after
// them (each start's in `elbos`).
std::unique_ptr<vb_engine> best_start(const corpus& c, const vb_options& o, ppl::rng& rng, int starts, int passes,
                                      std::vector<double>& elbos);

// The digamma function, to about 1e-13 relative for x > 0 away from its root (the recurrence up to 10, then the
// asymptotic series): the local steps call it K times a round.
double digamma(double x);

}  // namespace ppl::samplers::lda
