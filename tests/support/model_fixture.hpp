#pragma once
// Builds a graph from model text and data given inline, for tests.
#include <memory>
#include <string>

#include "lang/checker.hpp"
#include "model/graph.hpp"
#include "stdlib/registry.hpp"

namespace ppl::testing {

struct fixture {
  std::unique_ptr<lang::ir::model> model;
  data::data_table data;
  ppl::rng rng{7};
  std::unique_ptr<model::graph> graph;

  explicit fixture(const std::string& text, const std::vector<std::string>& sets = {}, bool allow_missing = false)
      : fixture(text, sets, options_with(allow_missing)) {}
  fixture(const std::string& text, const std::vector<std::string>& sets, const model::graph_options& options) {
    model = std::make_unique<lang::ir::model>(lang::compile({"test.ppl", text}, stdlib::library()));
    for (const auto& s : sets) data::apply_set(data, s);
    graph = std::make_unique<model::graph>(*model, data, rng, options);
  }
  static model::graph_options options_with(bool allow_missing) {
    model::graph_options options;
    options.allow_missing_observations = allow_missing;
    return options;
  }
  const ppl::tensor& value(const std::string& name) const { return graph->value(model->find(name)); }
  ppl::tensor& mutable_value(const std::string& name) { return graph->values()[static_cast<std::size_t>(model->find(name))]; }
};

// The first line of the error a model (and data) produces, or "" if none.
inline std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  try {
    fixture f(text, sets);
  } catch (const ppl::source_error& e) {
    std::string s = e.what();
    return s.substr(0, s.find('\n'));
  }
  return "";
}

}  // namespace ppl::testing
