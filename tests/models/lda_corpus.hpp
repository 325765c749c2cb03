#pragma once
// Small corpora for the tests of LDA's engine, built directly as lda::corpus.
#include <cstdint>
#include <utility>
#include <vector>

#include "samplers/lda.hpp"

namespace ppl::testing {

// Documents given as lists of 0-based words.
inline samplers::lda::corpus make_corpus(const std::vector<std::vector<std::uint32_t>>& docs, std::vector<double> alpha,
                                         std::vector<double> eta) {
  samplers::lda::corpus c;
  c.topics = static_cast<std::uint32_t>(alpha.size());
  c.documents = static_cast<std::uint32_t>(docs.size());
  c.words = static_cast<std::uint32_t>(eta.size());
  c.alpha = std::move(alpha);
  c.eta = std::move(eta);
  c.doc_start.push_back(0);
  for (const auto& d : docs) {
    c.word.insert(c.word.end(), d.begin(), d.end());
    c.doc_start.push_back(c.word.size());
  }
  return c;
}

// Three documents over three words.
inline const std::vector<std::vector<std::uint32_t>> tiny = {{0, 1, 1}, {1, 2, 2}, {0, 2}};

}  // namespace ppl::testing
