#pragma once
// The structure the `collapsed` kind recognises (Griffiths & Steyvers 2004; the derivation
// is in the MCMC notes, §6.3): categorical unknowns z[n] ~ Categorical(theta[r(n)]) where
// theta is a Dirichlet unknown read by nothing else, so theta can be integrated out and
// z[n] drawn from counts: p(z[n] = k | rest) ∝ (c[r(n), k] + alpha[r(n), k]) × likelihood.
// When z's only child is observed w[n] ~ Categorical(phi[z[n]]) with phi a Dirichlet read
// by nothing else, phi is integrated out too (LDA), and the likelihood is
// (c[k, w] + eta[k, w]) / (c[k] + sum eta[k]); otherwise it is z[n]'s Markov blanket.
#include <optional>

#include "model/graph.hpp"
#include "samplers/lda.hpp"
#include "samplers/sampler.hpp"

namespace ppl::samplers {

struct collapsed_structure {
  int z = -1, theta = -1, phi = -1;  // phi is -1 when only theta is collapsed
  int z_statement = -1, child_statement = -1;
};

// The structure that `variable` (z, theta or phi) belongs to, if any; `reason` says why
// not otherwise.
std::optional<collapsed_structure> find_collapsed(const lang::ir::model& m, int variable, std::string& reason);

// LDA's structure read whole, for engines that take the corpus at once (the variational
// Bayes of samplers/lda_vb.hpp): the structure and the corpus, when z, theta and phi are
// LDA's with concentrations shared by every row; `reason` says why not otherwise.
struct lda_model {
  collapsed_structure s;
  lda::corpus corpus;
};
std::optional<lda_model> find_lda(model::graph& g, std::string& reason);

// A model's corpus, tokens grouped by document (samplers/collapsed_lda.cpp).
lda::corpus lda_corpus(model::graph& g, const collapsed_structure& s, std::vector<double> alpha, std::vector<double> eta);

// Held-out documents read from a table with the model's document and word columns
// (--heldout), checked against the model's `words`.
lda::held_out lda_heldout(const model::graph& g, const collapsed_structure& s, std::uint32_t words, const data::data_table& table);

// What a monitored theta or phi called `name` records at each kept iteration, said in its
// plan line: draws from its conditional given z, or (--collapsed means) E[name | z].
std::string collapsed_recording(const std::string& name, collapsed_record record);

}  // namespace ppl::samplers
