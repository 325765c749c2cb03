// Helper arrays on a cycle between variables that is none between elements (bugs_rewrites.hpp):
//   for (t in 3:T) { m[t] <- 2 * x[t - 1] - x[t - 2]      for t in 3:T { m[t] = 2 * x[t - 1] - x[t - 2]
//                    x[t] ~ dnorm(m[t], tau) }        →                x[t] ~ Normal(2 * x[t - 1] - x[t - 2], ...) }
// x reads m and m reads x, so ppl's variables form a cycle, while each element reads only
// earlier ones (JAGS runs it). A helper defined by one `<-` whose indices are its loops'
// variables is written into the statements on the cycle that read it, its loop variables
// replaced by the read's indices; the helper itself stays, computed from the values, for
// the draws. x then reads its own earlier elements, a recursion ppl takes.
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lang/ast_rewrite.hpp"
#include "lang/bugs_nodes.hpp"
#include "lang/bugs_rewrites.hpp"

namespace ppl::lang::bugs_rewrites {

using namespace bugs_nodes;

namespace {

struct helper {
  const ast::assign_stmt* definition = nullptr;
  std::vector<std::string> indices;  // its loop variables, in the order its target is indexed
  int definitions = 0;
};

// The operands a statement computes from (not its target's indices).
std::vector<ast::operand*> computed_operands(ast::statement& s) {
  std::vector<ast::operand*> out;
  if (auto* a = boost::get<ast::assign_stmt>(&s)) out.push_back(&a->value);
  if (auto* d = boost::get<ast::sample_stmt>(&s)) {
    for (auto& arg : d->dist.args) out.push_back(&arg);
    if (d->restricted && d->restricted->lower) out.push_back(&*d->restricted->lower);
    if (d->restricted && d->restricted->upper) out.push_back(&*d->restricted->upper);
  }
  return out;
}

// Every `~` and `<-` with its target's name, the loops around it in `loops`.
void each_relation(std::vector<ast::statement>& body, std::vector<std::string>& loops,
                   const std::function<void(ast::statement&, const std::string&, const std::vector<std::string>&)>& f) {
  for (auto& s : body) {
    if (auto* l = boost::get<fwd<ast::for_stmt>>(&s)) {
      for (const auto& r : l->get().ranges) loops.push_back(r.var.name);
      each_relation(l->get().body, loops, f);
      loops.resize(loops.size() - l->get().ranges.size());
    } else if (auto* i = boost::get<fwd<ast::if_stmt>>(&s)) {
      each_relation(i->get().then_body, loops, f);
      if (i->get().else_body) each_relation(*i->get().else_body, loops, f);
    } else if (const auto* a = boost::get<ast::assign_stmt>(&s)) {
      f(s, a->lhs.name.name, loops);
    } else if (const auto* d = boost::get<ast::sample_stmt>(&s)) {
      f(s, d->lhs.name.name, loops);
    }
  }
}

// The helper's target indices, when each is one of its loops' variables, all different.
std::vector<std::string> loop_indices(const ast::target& lhs, const std::vector<std::string>& loops) {
  std::vector<std::string> out;
  for (const auto& ix : lhs.indices) {
    const auto* id = ix.lo && !ix.tail ? boost::get<ast::identifier>(&*ix.lo) : nullptr;
    if (!id || std::find(loops.begin(), loops.end(), id->name) == loops.end() ||
        std::find(out.begin(), out.end(), id->name) != out.end())
      return {};
    out.push_back(id->name);
  }
  return out;
}

// The helper's definition with its loop variables replaced by `at`.
ast::operand substituted(const helper& h, const std::vector<ast::operand>& at) {
  ast::operand copy = h.definition->value;
  rewrite(copy, [&](ast::operand& o) {
    const auto* id = boost::get<ast::identifier>(&o);
    if (!id) return false;
    for (std::size_t k = 0; k < h.indices.size(); ++k)
      if (id->name == h.indices[k]) {
        o = at[k];
        return true;
      }
    return false;
  });
  return copy;
}

}  // namespace

void cycle_helpers(std::vector<ast::statement>& body) {
  std::map<std::string, helper> helpers;
  std::map<std::string, std::set<std::string>> reads;  // by variable defined: the names it reads
  std::vector<std::string> loops;
  each_relation(body, loops, [&](ast::statement& s, const std::string& target, const std::vector<std::string>& around) {
    for (ast::operand* o : computed_operands(s)) for_each_identifier(*o, [&](const ast::identifier& id) { reads[target].insert(id.name); });
    helper& h = helpers[target];
    ++h.definitions;
    if (const auto* a = boost::get<ast::assign_stmt>(&s)) {
      h.definition = a;
      h.indices = loop_indices(a->lhs, around);
      if (h.indices.empty()) h.definition = nullptr;
    } else {
      h.definition = nullptr;
    }
  });
  // Whether `from` reaches `to` through what definitions read.
  auto reaches = [&](const std::string& from, const std::string& to) {
    std::set<std::string> seen{from};
    std::vector<std::string> next{from};
    while (!next.empty()) {
      const std::string v = next.back();
      next.pop_back();
      for (const auto& r : reads[v]) {
        if (r == to) return true;
        if (seen.insert(r).second) next.push_back(r);
      }
    }
    return false;
  };
  std::set<std::string> cyclic;
  for (const auto& [name, h] : helpers)
    if (h.definitions == 1 && h.definition && reaches(name, name)) cyclic.insert(name);
  if (cyclic.empty()) return;
  each_relation(body, loops, [&](ast::statement& s, const std::string& target, const std::vector<std::string>&) {
    for (ast::operand* o : computed_operands(s))
      rewrite(*o, [&](ast::operand& x) {
        auto* p = boost::get<fwd<ast::postfix>>(&x);
        const auto* base = p ? boost::get<ast::identifier>(&p->get().base) : nullptr;
        if (!base || !cyclic.count(base->name) || base->name == target || p->get().suffixes.size() != 1) return false;
        const helper& h = helpers[base->name];
        if (boost::get<ast::assign_stmt>(&s) == h.definition || !reaches(base->name, target)) return false;
        const auto* list = boost::get<ast::index_list>(&p->get().suffixes[0]);
        if (!list || list->items.size() != h.indices.size()) return false;
        std::vector<ast::operand> at;
        for (const auto& ix : list->items) {
          if (!ix.lo || ix.tail) return false;
          at.push_back(*ix.lo);
        }
        x = substituted(h, at);
        return true;
      });
  });
}

}  // namespace ppl::lang::bugs_rewrites
