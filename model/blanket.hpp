#pragma once
// The Markov blanket of every element of one variable, indexed once: which statement
// instances are terms involving the element (its own prior, every `~` and `factor` that
// reads it, directly or through derived variables), and which derived instances must be
// recomputed when it changes. Built by evaluating each instance once with read logging;
// reads whose indices depend on unknowns (phi[z[n]]) cannot be indexed, and their
// statements count whole. Evaluating a blanket then costs O(degree), not O(model).
// The `~` of predictions (graph::predictive) are not terms of any blanket.
// Derived variables that no density term reads (output only, like `energy`) are left to
// graph::update_derived once per iteration.
#include <map>
#include <vector>

#include "model/graph.hpp"

namespace ppl::model {

class blanket {
 public:
  blanket(graph& g, int variable);

  // Sum of the element's terms at the current values; without its own prior term when
  // `include_prior` is false (a collapsed sampler supplies that part itself).
  double log_density(index_t element, bool include_prior = true);
  // Recomputes the derived values that depend on the element (after changing it).
  void update(index_t element);

  int variable() const { return variable_; }
  // Number of indexed terms of an element (its degree in the factor graph, plus one).
  index_t degree(index_t element) const { return term_offsets_[element + 1] - term_offsets_[element]; }
  // Statements counted whole for every element (reads through unknown indices).
  const std::vector<int>& whole() const { return whole_; }
  // Calls fn(statement, loops) for each indexed term of the element, or each derived
  // instance it recomputes (in dependency order), with that instance's loop values.
  template <class Fn>
  void for_each_term_at(index_t element, Fn fn) {
    for (index_t k = term_offsets_[element]; k < term_offsets_[element + 1]; ++k)
      fn(terms_[static_cast<std::size_t>(k)].statement, loops_of(terms_[static_cast<std::size_t>(k)]));
  }
  template <class Fn>
  void for_each_derived_at(index_t element, Fn fn) {
    for (index_t k = derived_offsets_[element]; k < derived_offsets_[element + 1]; ++k)
      fn(derived_[static_cast<std::size_t>(k)].statement, loops_of(derived_[static_cast<std::size_t>(k)]));
  }
  // Calls fn(statement, instance) for each indexed term of the element, the instance
  // counted in instances::table's order (the statements in whole() not included).
  template <class Fn>
  void for_each_term(index_t element, Fn fn) const {
    for (index_t k = term_offsets_[element]; k < term_offsets_[element + 1]; ++k)
      fn(terms_[static_cast<std::size_t>(k)].statement, terms_[static_cast<std::size_t>(k)].instance);
  }

 private:
  struct instance_ref {
    int statement;
    int whole_run = 0;  // > 0: this and the next whole_run - 1 terms are every instance of the statement
    index_t instance;
    friend auto operator<=>(const instance_ref&, const instance_ref&) = default;
  };
  using lists = std::vector<std::vector<instance_ref>>;
  // Who reads each element of one variable.
  struct readers {
    lists terms;    // `~` and `factor` instances
    lists derived;  // `=` instances of derived variables that density terms depend on
    std::vector<int> whole;
  };
  struct statement_table {
    std::vector<index_t> loops;  // loop values per instance, flattened
    std::size_t depth = 0;
  };

  const statement_table& table(int statement);
  const index_t* loops_of(const instance_ref& r);
  const readers& readers_of(int variable);
  void mark_relevant_derived();
  static void compress(lists& in, std::vector<index_t>& offsets, std::vector<instance_ref>& out);
  // Marks each element's runs that hold every instance of their statement (whole_run).
  void mark_whole_runs(std::size_t elements, const std::vector<index_t>& offsets, std::vector<instance_ref>& refs);

  graph& graph_;
  int variable_;
  std::vector<statement_table> tables_;  // by statement, filled on demand
  std::vector<char> has_table_;
  std::vector<char> relevant_;           // derived variables some density term depends on
  std::map<int, readers> readers_;
  std::vector<index_t> term_offsets_, derived_offsets_;
  std::vector<instance_ref> terms_, derived_;
  std::vector<int> whole_;
};

}  // namespace ppl::model
