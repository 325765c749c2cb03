// Arrays whose elements, each defined on its own, read each other: one scalar per element
// (bugs_rewrites.hpp). Only arrays whose every definition is a `<-` outside loops with
// numbers for indices are taken, and only where they form a cycle between variables:
//   tau_sqrd[1] = 1 / inv_tau_sqrd[1]     tau_sqrd_1 = 1 / inv_tau_sqrd_1
//   inv_tau_sqrd[1] = inv_tau_sqrd_1   →  tau_sqrd[1] = tau_sqrd_1
//   inv_tau_sqrd[2] = 1 / tau_sqrd[2]     inv_tau_sqrd_2 = 1 / tau_sqrd_2 ...
// An element defined as a copy of a name (a split `~`, bugs_mixed_arrays.cpp) is read as
// that name.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lang/bugs_nodes.hpp"
#include "lang/bugs_rewrites.hpp"

namespace ppl::lang::bugs_rewrites {

using namespace bugs_nodes;

namespace {

// Per array, per element (its suffix, `_1_2` for [1, 2]), the name the element is read as.
using element_names = std::map<std::string, std::map<std::string, std::string>>;

// `_1_2` for the indices [1, 2]; nothing unless every index is a number.
std::optional<std::string> literal_suffix(const std::vector<ast::index_item>& items) {
  std::string out;
  for (const auto& ix : items) {
    const auto* n = ix.lo && !ix.tail ? boost::get<ast::int_literal>(&*ix.lo) : nullptr;
    if (!n) return std::nullopt;
    out += "_" + std::to_string(n->value);
  }
  return items.empty() ? std::nullopt : std::optional(out);
}

// Per variable defined, the names its definitions read.
void reads_of(const std::vector<ast::statement>& body, std::map<std::string, std::set<std::string>>& reads) {
  auto add = [&](const std::string& target, const operand& o) {
    for_each_identifier(o, [&](const ast::identifier& id) { reads[target].insert(id.name); });
  };
  for (const auto& s : body) {
    if (const auto* f = boost::get<fwd<ast::for_stmt>>(&s)) {
      reads_of(f->get().body, reads);
    } else if (const auto* i = boost::get<fwd<ast::if_stmt>>(&s)) {
      reads_of(i->get().then_body, reads);
      if (i->get().else_body) reads_of(*i->get().else_body, reads);
    } else if (const auto* x = boost::get<ast::sample_stmt>(&s)) {
      for (const auto& a : x->dist.args) add(x->lhs.name.name, a);
      if (x->restricted && x->restricted->lower) add(x->lhs.name.name, *x->restricted->lower);
      if (x->restricted && x->restricted->upper) add(x->lhs.name.name, *x->restricted->upper);
    } else if (const auto* a = boost::get<ast::assign_stmt>(&s)) {
      add(a->lhs.name.name, a->value);
    }
  }
}

// The names on a cycle of `reads` (Tarjan's strongly connected components, of more than one name).
std::set<std::string> on_cycles(const std::map<std::string, std::set<std::string>>& reads) {
  std::map<std::string, int> index, low;
  std::vector<std::string> stack;
  std::set<std::string> stacked, out;
  int next = 0;
  std::function<void(const std::string&)> visit = [&](const std::string& v) {
    index[v] = low[v] = next++;
    stack.push_back(v);
    stacked.insert(v);
    if (auto it = reads.find(v); it != reads.end())
      for (const auto& w : it->second) {
        if (!reads.count(w)) continue;
        if (!index.count(w)) {
          visit(w);
          low[v] = std::min(low[v], low[w]);
        } else if (stacked.count(w)) {
          low[v] = std::min(low[v], index[w]);
        }
      }
    if (low[v] != index[v]) return;
    std::vector<std::string> component;
    do {
      component.push_back(stack.back());
      stacked.erase(stack.back());
      stack.pop_back();
    } while (component.back() != v);
    if (component.size() > 1) out.insert(component.begin(), component.end());
  };
  for (const auto& [v, _] : reads)
    if (!index.count(v)) visit(v);
  return out;
}

// The names defined otherwise than element by element at the top level with numbers for
// indices: by `~`, inside a loop or an `if`, or with other indices.
void defined_otherwise(const std::vector<ast::statement>& body, bool top, std::set<std::string>& elsewhere) {
  for (const auto& s : body) {
    if (const auto* f = boost::get<fwd<ast::for_stmt>>(&s)) defined_otherwise(f->get().body, false, elsewhere);
    else if (const auto* i = boost::get<fwd<ast::if_stmt>>(&s)) {
      defined_otherwise(i->get().then_body, false, elsewhere);
      if (i->get().else_body) defined_otherwise(*i->get().else_body, false, elsewhere);
    } else if (const auto* x = boost::get<ast::sample_stmt>(&s)) elsewhere.insert(x->lhs.name.name);
    else if (const auto* a = boost::get<ast::assign_stmt>(&s); a && (!top || !literal_suffix(a->lhs.indices)))
      elsewhere.insert(a->lhs.name.name);
  }
}

// Each element's name, for the arrays on a cycle defined only element by element: the name
// it copies, or a new scalar, none of `taken`.
element_names name_elements(const std::map<std::string, std::vector<ast::assign_stmt*>>& elementwise,
                            const std::set<std::string>& cyclic, const std::set<std::string>& elsewhere,
                            std::set<std::string>& taken) {
  element_names scalar;
  for (auto& [array, defs] : elementwise) {
    if (!cyclic.count(array) || elsewhere.count(array)) continue;
    for (auto* a : defs) {
      const std::string suffix = *literal_suffix(a->lhs.indices);
      if (const auto* id = boost::get<ast::identifier>(&a->value)) {
        scalar[array][suffix] = id->name;
        continue;
      }
      std::string fresh = array + suffix;
      for (int k = 2; taken.count(fresh); ++k) fresh = array + suffix + "_" + std::to_string(k);
      taken.insert(fresh);
      scalar[array][suffix] = fresh;
    }
  }
  return scalar;
}

// array[c] read with numbers, where array is taken: its element's name.
void redirect(operand& o, const element_names& scalar) {
  if (auto* p = boost::get<fwd<ast::postfix>>(&o)) {
    auto& px = p->get();
    const auto* base = boost::get<ast::identifier>(&px.base);
    if (base && px.suffixes.size() == 1 && scalar.count(base->name))
      if (const auto* l = boost::get<ast::index_list>(&px.suffixes[0]))
        if (auto suffix = literal_suffix(l->items)) {
          const auto& names = scalar.at(base->name);
          if (auto it = names.find(*suffix); it != names.end()) {
            ast::identifier id = *base;
            id.name = it->second;
            o = operand(std::move(id));
            return;
          }
        }
    redirect(px.base, scalar);
    for (auto& sfx : px.suffixes)
      if (auto* l = boost::get<ast::index_list>(&sfx))
        for (auto& ix : l->items) {
          if (ix.lo) redirect(*ix.lo, scalar);
          if (ix.tail && ix.tail->hi) redirect(*ix.tail->hi, scalar);
        }
  } else if (auto* c = boost::get<fwd<ast::call>>(&o)) {
    for (auto& a : c->get().args) redirect(a, scalar);
  } else if (auto* u = boost::get<fwd<ast::unary>>(&o)) {
    redirect(u->get().rhs, scalar);
  } else if (auto* ch = boost::get<fwd<ast::chain>>(&o)) {
    redirect(ch->get().first, scalar);
    for (auto& op : ch->get().rest) redirect(op.rhs, scalar);
  }
}

}  // namespace

void element_cycles(std::vector<ast::statement>& body) {
  std::map<std::string, std::set<std::string>> reads;
  reads_of(body, reads);
  const std::set<std::string> cyclic = on_cycles(reads);
  if (cyclic.empty()) return;
  // The arrays defined element by element at the top level, with numbers for indices.
  std::map<std::string, std::vector<ast::assign_stmt*>> elementwise;
  for (auto& s : body)
    if (auto* a = boost::get<ast::assign_stmt>(&s); a && literal_suffix(a->lhs.indices)) elementwise[a->lhs.name.name].push_back(a);
  std::set<std::string> elsewhere;
  defined_otherwise(body, true, elsewhere);
  std::set<std::string> taken;
  names_in(body, taken);
  const element_names scalar = name_elements(elementwise, cyclic, elsewhere, taken);
  if (scalar.empty()) return;
  // Each element's definition as its scalar's, which the array's element copies.
  std::vector<ast::statement> out;
  for (auto& s : body) {
    auto* a = boost::get<ast::assign_stmt>(&s);
    auto it = a ? scalar.find(a->lhs.name.name) : scalar.end();
    if (it == scalar.end() || boost::get<ast::identifier>(&a->value)) {
      if (a) redirect(a->value, scalar);
      out.push_back(std::move(s));
      continue;
    }
    ast::assign_stmt own = *a;
    own.lhs.name.name = it->second.at(*literal_suffix(a->lhs.indices));
    own.lhs.indices.clear();
    redirect(own.value, scalar);
    a->value = operand(own.lhs.name);
    out.emplace_back(std::move(own));
    out.push_back(std::move(s));
  }
  body = std::move(out);
}

}  // namespace ppl::lang::bugs_rewrites
