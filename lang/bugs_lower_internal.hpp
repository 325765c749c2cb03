#pragma once
// The lowering of a BUGS program into ppl's syntax tree (bugs_lower.hpp): one class, its
// state shared by its parts — bugs_lower.cpp (the order of the passes, names, statements),
// bugs_lower_expressions.cpp (expressions and calls), bugs_lower_indices.cpp (indices
// computed in real arithmetic, rounded) and bugs_lower_data.cpp (what the model does with
// each name, and the `data` declarations written from it). Seen by nothing else.
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lang/ast.hpp"
#include "lang/bugs_ast.hpp"
#include "lang/bugs_lower.hpp"
#include "lang/bugs_names.hpp"
#include "stdlib/types.hpp"

namespace ppl::lang::bugs_lowering {

// What the model does with one of its names, gathered over the lowered program.
struct name_use {
  std::size_t first = 0;  // where it first appears
  bool defined = false;   // the target of a `~` or `=`
  std::string sampled_by; // the ppl distribution of a `~` on it
  bool as_index = false;  // read inside an index or a loop bound
  std::size_t rank = 0;   // the most indices it is read with
  // Per dimension, the upper ends of the loops `for (i in 1:E)` whose variable indexes it
  // there, as written (a name or an integer).
  std::vector<std::vector<std::string>> loop_ends;
};

class lowering {
 public:
  lowering(const source_file& src, const bugs_data_shapes* data) : src_(src), data_(data) {}

  ast::program run(const bugs::program& program);
  // The names the lowering spelt with underscores for dots: ppl name -> BUGS spelling.
  std::map<std::string, std::string> dotted() const {
    std::map<std::string, std::string> out;
    for (const auto& [name, spelling] : spellings_)
      if (name != spelling) out.emplace(name, spelling);
    return out;
  }

 private:
  // ---- names and statements (bugs_lower.cpp)
  std::string rename(const ast::identifier& id);
  ast::identifier renamed(ast::identifier id);
  void lower(const bugs::statement& s, std::vector<ast::statement>& out, bool data_block);
  ast::target target(const ast::target& t, bool sampled, std::size_t value_rank = 0);
  ast::sample_stmt stochastic(const ast::sample_stmt& x);

  // ---- expressions and calls (bugs_lower_expressions.cpp)
  ast::operand expression(const ast::operand& o);
  bool several(const ast::operand& o) const;
  ast::index_item lowered_index(const ast::index_item& ix);
  std::vector<ast::operand> arguments(const ast::call& c);
  ast::operand function_call(const ast::call& c);
  ast::operand from_table(const bugs_name& e, const ast::call& c, std::string_view what);

  // ---- indices computed in real arithmetic, rounded (bugs_lower_indices.cpp)
  void whole_indices(std::vector<ast::statement>& body);
  bool integral(const ast::operand& o) const;
  void rounded(ast::operand& o) const;
  void round_items(std::vector<ast::index_item>& items) const;
  void round_in(ast::operand& o) const;
  void round_indices(std::vector<ast::statement>& body) const;

  // ---- what the model does with each name, and the data declarations (bugs_lower_data.cpp)
  void gather(const std::vector<ast::statement>& body);
  void gather(const ast::statement& s);
  name_use& use(const std::string& name, std::size_t pos);
  name_use& defines(const ast::target& t);
  void indexed(name_use& u, const std::vector<ast::index_item>& items);
  void read(const ast::operand& o, bool as_index);
  void declare_data(std::vector<ast::statement>& out);
  stdlib::scalar_kind kind(const name_use& u, const bugs_data_shape* given) const;
  ast::operand size(const std::string& name, const name_use& u, std::size_t k, const bugs_data_shape* given) const;

  const source_file& src_;
  const bugs_data_shapes* data_;
  std::map<std::string, std::string> spellings_;  // ppl name -> the BUGS spelling first met
  std::map<std::string, name_use> uses_;
  std::set<std::size_t> links_;  // where the `=`s of links on the left are (`logit(p) <- e`)
  std::map<std::string, std::size_t> whole_ranks_;  // `x[, ]` read whole: the rank it shows
  std::set<std::string> loop_vars_;
  std::set<std::string> integers_;  // the names whose values are integers, for whole_indices()
  std::vector<std::pair<std::string, std::string>> scope_;  // loop variable, its upper end when from 1
};

}  // namespace ppl::lang::bugs_lowering
