// An array whose elements are partly `~` and partly `<-`, each `~` given a variable of its
// own that the array's elements copy (bugs_rewrites.hpp).
#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lang/bugs_nodes.hpp"
#include "lang/bugs_rewrites.hpp"
#include "lang/printer.hpp"

namespace ppl::lang::bugs_rewrites {

using namespace bugs_nodes;

namespace {

// A `~` of an array, and a `<-`'s indices, each with the loops around it, outermost first.
struct placed_sample {
  ast::sample_stmt* stmt;
  std::vector<const ast::loop_range*> scope;
};
struct placed_assign {
  std::vector<std::string> indices;  // as printed
  std::vector<const ast::loop_range*> scope;
};

// A target's indices as printed, `:` for a range or a whole dimension.
std::vector<std::string> printed_indices(const ast::target& t) {
  std::vector<std::string> out;
  for (const auto& ix : t.indices) out.push_back(ix.lo && !ix.tail ? print_expression(*ix.lo) : ":");
  return out;
}

// The `~` and `<-` statements of each array, with the loops around them.
void find_definitions(std::vector<ast::statement>& body, std::vector<const ast::loop_range*>& scope,
                      std::map<std::string, std::vector<placed_sample>>& samples,
                      std::map<std::string, std::vector<placed_assign>>& assigns) {
  for (auto& s : body) {
    if (auto* f = boost::get<fwd<ast::for_stmt>>(&s)) {
      for (const auto& r : f->get().ranges) scope.push_back(&r);
      find_definitions(f->get().body, scope, samples, assigns);
      scope.resize(scope.size() - f->get().ranges.size());
    } else if (auto* x = boost::get<ast::sample_stmt>(&s)) {
      samples[x->lhs.name.name].push_back({x, scope});
    } else if (auto* a = boost::get<ast::assign_stmt>(&s)) {
      assigns[a->lhs.name.name].push_back({printed_indices(a->lhs), scope});
    }
  }
}

// The `~` as a `~` of its own variable, and the copy of that variable into the array's
// elements (wrapped in the loops its indices use).
ast::statement split_sample(const source_file& src, ast::sample_stmt& x, const std::vector<const ast::loop_range*>& scope,
                            std::set<std::string>& taken) {
  const std::string array = x.lhs.name.name;
  auto refuse = [&](std::size_t pos, const std::string& why) {
    fail_at(src, pos, "`" + array + "` has elements defined by `<-` and others by `~`; ppl gives each `~` a variable of its own, " +
                           "which needs " + why);
  };
  if (x.lhs.indices.empty()) refuse(x.pos, "the `~` to define elements of an array, not the whole of it");
  std::vector<ast::index_item> rebased;
  std::vector<const ast::loop_range*> used;
  std::string constants;
  for (const auto& ix : x.lhs.indices) {
    if (!ix.lo || ix.tail) refuse(ix.pos, "each index on its left to be a single index (a multivariate `~` is not split)");
    if (const auto* n = boost::get<ast::int_literal>(&*ix.lo)) {
      constants += "_" + std::to_string(n->value);
      continue;
    }
    const auto* id = boost::get<ast::identifier>(&*ix.lo);
    auto loop = id ? std::find_if(scope.rbegin(), scope.rend(), [&](const ast::loop_range* r) { return r->var.name == id->name; })
                   : scope.rend();
    if (loop == scope.rend() || std::find(used.begin(), used.end(), *loop) != used.end())
      refuse(ix.pos, "each index on its left to be a number or a loop variable, each loop variable once");
    const ast::loop_range& r = **loop;
    bool nested = false;
    for (const auto* outer : scope)
      for (const ast::operand* end : {&r.lo, &r.hi})
        for_each_identifier(*end, [&](const ast::identifier& e) { nested |= e.name == outer->var.name; });
    if (nested) refuse(ix.pos, "the bounds of the loop of `" + id->name + "` not to depend on other loops (a rectangular block)");
    used.push_back(&r);
    ast::index_item item = ix;
    if (literal_value(r.lo) != std::optional<double>(1)) {
      item.lo = chain_of(operand(*id), {{"-", r.lo}, {"+", int_number(1, ix.pos, ix.end)}}, ix.pos, ix.end);  // v - lo + 1
    }
    rebased.push_back(std::move(item));
  }
  std::string fresh = array + (used.empty() ? constants : "_free");
  for (int k = 2; taken.count(fresh); ++k) fresh = array + (used.empty() ? constants : "_free") + "_" + std::to_string(k);
  taken.insert(fresh);
  ast::target own = x.lhs;
  own.name.name = fresh;
  own.indices = rebased;
  ast::assign_stmt copy;
  copy.pos = x.pos;
  copy.end = x.end;
  copy.lhs = x.lhs;
  copy.value = target_operand(own);
  x.lhs = own;
  ast::statement out(std::move(copy));
  // The loops the indices use, innermost last, each with its own range.
  for (auto it = scope.rbegin(); it != scope.rend(); ++it) {
    if (std::find(used.begin(), used.end(), *it) == used.end()) continue;
    ast::for_stmt loop;
    loop.pos = (*it)->pos;
    loop.end = (*it)->end;
    loop.ranges.push_back(**it);
    loop.body.push_back(std::move(out));
    out = ast::statement(std::move(loop));
  }
  return out;
}

}  // namespace

// BUGS lets one array hold logical and stochastic elements; ppl defines each variable
// by one kind of relation. Each `~` of such an array gets a variable of its own, its
// indices rebased to start at 1, and the array's elements copy it:
//   alpha[1] <- 0; for (k in 2:K) { alpha[k] ~ dnorm(0, 1.0E-6) }
// becomes
//   for k in 2:K { alpha[k] = alpha_free[k - 2 + 1] }   (first in the program)
//   alpha[1] = 0; for k in 2:K { alpha_free[k - 2 + 1] ~ Normal(0, 1000) }
// The copies go first so that the array's other elements may read them (Eyes'
// `lambda[2] <- lambda[1] + theta` before `lambda[1] ~ ...`). A `~` beside a `<-` of the
// same element is no mixture but BUGS's data transformation (`y[i] <- 1 - Y[i]` then
// `y[i] ~ dbern(p[i])`), which ppl reads as it is.
void mixed_arrays(const source_file& src, std::vector<ast::statement>& body) {
  std::map<std::string, std::vector<placed_sample>> samples;
  std::map<std::string, std::vector<placed_assign>> assigns;
  std::vector<const ast::loop_range*> scope;
  find_definitions(body, scope, samples, assigns);
  std::set<std::string> taken;
  names_in(body, taken);
  std::vector<ast::statement> copies;
  for (auto& [name, placed] : samples) {
    auto a = assigns.find(name);
    if (a == assigns.end()) continue;
    // The `~` observes what a `<-` computed: the same element, or the row a
    // multivariate `~` takes (`Y[i, 1:J] ~ dmulti(...)` over `Y[i, 1] <- 1`).
    const bool transformation = std::all_of(placed.begin(), placed.end(), [&](const placed_sample& p) {
      auto t = printed_indices(p.stmt->lhs);
      while (!t.empty() && t.back() == ":") t.pop_back();  // the row's block, `1:J`, is the row
      return std::any_of(a->second.begin(), a->second.end(), [&](const placed_assign& d) {
        return d.indices.size() >= t.size() && std::equal(t.begin(), t.end(), d.indices.begin());
      });
    });
    if (transformation) continue;
    for (auto& p : placed) copies.push_back(split_sample(src, *p.stmt, p.scope, taken));
  }
  body.insert(body.begin(), std::make_move_iterator(copies.begin()), std::make_move_iterator(copies.end()));
}

}  // namespace ppl::lang::bugs_rewrites
