#pragma once
// What the files of the `collapsed` kind share: collapsed.cpp (the structure, the factory),
// collapsed_lda.cpp (LDA on the engine of lda.hpp) and collapsed_generic.cpp (other shapes:
// theta alone, priors that differ by row). Nothing outside them includes this.
#include <cstdint>
#include <memory>
#include <vector>

#include "samplers/collapsed.hpp"
#include "samplers/lda.hpp"
#include "samplers/sampler.hpp"

namespace ppl::samplers {

// The sparse kernel keeps topic numbers in 16 bits (lda.cpp refuses more), so a model
// with more topics than that runs the dense kernel, which has no such limit.
constexpr std::uint32_t sparse_up_to_topics = 65535;
inline bool sparse_kernel(std::uint32_t topics) { return topics >= lda::sparse_from_topics && topics <= sparse_up_to_topics; }

// For every element n of z (in the order of z's statement): its element of z (`element`
// stays empty while that is n itself, as when z is declared in a loop over its own
// elements), its row of theta and (with phi) its word. Built from the statements'
// instances one at a time, so that a corpus costs no more than these arrays.
struct token_index {
  std::vector<std::uint32_t> element, row, word;
  std::uint32_t element_of(std::size_t n) const { return element.empty() ? static_cast<std::uint32_t>(n) : element[n]; }
};

token_index index_tokens(model::graph& g, const collapsed_structure& s, ppl::index_t theta_width);

// lp__ replaces the terms of theta, z (and phi, w) with the collapsed marginal.
void mark_collapsed(const lang::ir::model& m, const collapsed_structure& s, std::vector<char>& skip);

// What z's sampler writes of theta and phi at a kept iteration (sampler::record): those
// monitored, as draws from their conditional given z (from a stream of the iteration's
// own, so that z's draws are the same whether they are monitored or not) or as means.
struct recording {
  bool theta = false, phi = false;
  collapsed_record what = collapsed_record::draws;
  std::uint64_t seed = 1;
  int chain = 0;

  recording() = default;
  recording(const sampler_settings& settings, const collapsed_structure& s)
      : theta(settings.monitored(s.theta)), phi(settings.monitored(s.phi)), what(settings.collapsed), seed(settings.seed),
        chain(settings.chain) {}
  bool draws() const { return what == collapsed_record::draws; }
  ppl::rng stream(long iteration) const { return side_stream(seed, chain, iteration, 0x64726177u); }
};

// LDA with the same prior on every document and every topic (alpha, eta: that prior).
std::unique_ptr<sampler> make_lda_sampler(model::graph& g, const collapsed_structure& s, std::vector<double> alpha,
                                          std::vector<double> eta);
// Any other shape, z's likelihood from its Markov blanket when phi is not collapsed.
std::unique_ptr<sampler> make_generic_sampler(model::graph& g, const collapsed_structure& s);

}  // namespace ppl::samplers
