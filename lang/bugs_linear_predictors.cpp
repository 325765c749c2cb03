// An observation of a linked node given the linear predictor (bugs_rewrites.hpp).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lang/bugs_nodes.hpp"
#include "lang/bugs_rewrites.hpp"

namespace ppl::lang::bugs_rewrites {

using namespace bugs_nodes;

namespace {

// `p[i, j] = inv_logit(e)`, from `logit(p[i, j]) <- e`.
struct bugs_link {
  std::string inverse;           // inv_logit, exp
  ast::operand predictor;        // e
  std::vector<std::string> vars; // the target's indices: loop variables
};

// The links on the left (`links`: the offsets of their `=`s) whose target is indexed by
// loop variables alone and whose predictor reads no other loop variable, by the name they
// define; and how many statements define each name.
void find_links(const std::vector<ast::statement>& body, const std::set<std::size_t>& links, std::vector<std::string>& scope,
                std::map<std::string, int>& definitions, std::map<std::string, bugs_link>& linked) {
  for (const auto& s : body) {
    if (const auto* f = boost::get<fwd<ast::for_stmt>>(&s)) {
      scope.push_back(f->get().ranges.front().var.name);
      find_links(f->get().body, links, scope, definitions, linked);
      scope.pop_back();
    } else if (const auto* x = boost::get<ast::sample_stmt>(&s)) {
      ++definitions[x->lhs.name.name];
    } else if (const auto* a = boost::get<ast::assign_stmt>(&s)) {
      ++definitions[a->lhs.name.name];
      const ast::call* c = as_call(a->value);
      if (!c || c->args.size() != 1 || (c->callee.name != "inv_logit" && c->callee.name != "exp") || !links.count(a->pos)) continue;
      std::vector<std::string> vars;
      for (const auto& ix : a->lhs.indices) {
        const auto* id = ix.lo && !ix.tail ? boost::get<ast::identifier>(&*ix.lo) : nullptr;
        if (!id || std::find(scope.begin(), scope.end(), id->name) == scope.end()) break;
        vars.push_back(id->name);
      }
      if (vars.size() != a->lhs.indices.size()) continue;
      // e may read the loop variables of its target's indices only.
      bool other = false;
      for_each_identifier(c->args[0], [&](const ast::identifier& id) {
        other |= std::find(scope.begin(), scope.end(), id.name) != scope.end() &&
                 std::find(vars.begin(), vars.end(), id.name) == vars.end();
      });
      if (other) continue;
      linked[a->lhs.name.name] = {c->callee.name, c->args[0], vars};
    }
  }
}

// Each observation's probability or rate that reads a linked node defined once, with the
// same loop variables, as the link's inverse of its predictor.
void replace_links(std::vector<ast::statement>& body, const std::map<std::string, int>& definitions,
                   const std::map<std::string, bugs_link>& linked) {
  static constexpr std::pair<std::string_view, std::string_view> readers[] = {
      {"Bernoulli", "inv_logit"}, {"Binomial", "inv_logit"}, {"Poisson", "exp"}};
  for (auto& s : body) {
    if (auto* f = boost::get<fwd<ast::for_stmt>>(&s)) {
      replace_links(f->get().body, definitions, linked);
      continue;
    }
    auto* x = boost::get<ast::sample_stmt>(&s);
    if (!x || x->dist.args.empty()) continue;
    for (const auto& [dist, inverse] : readers) {
      if (x->dist.callee.name != dist) continue;
      ast::operand& arg = x->dist.args.back();
      const auto* p = boost::get<fwd<ast::postfix>>(&arg);
      const auto* base = p ? boost::get<ast::identifier>(&p->get().base) : boost::get<ast::identifier>(&arg);
      if (!base) continue;
      auto it = linked.find(base->name);
      if (it == linked.end() || definitions.at(base->name) != 1 || it->second.inverse != inverse) continue;
      std::vector<std::string> vars;
      if (p) {
        if (p->get().suffixes.size() != 1) continue;
        for (const auto& ix : boost::get<ast::index_list>(p->get().suffixes[0]).items) {
          const auto* id = ix.lo && !ix.tail ? boost::get<ast::identifier>(&*ix.lo) : nullptr;
          if (!id) break;
          vars.push_back(id->name);
        }
      }
      if (vars != it->second.vars) continue;
      arg = operand(make_call(std::string(inverse), {it->second.predictor}, x->dist.pos, x->dist.end));
    }
  }
}

}  // namespace

// `logit(p[i]) <- e` then `r[i] ~ dbin(p[i], n[i])`: the observation's probability is
// written `inv_logit(e)`, which the checker takes as BinomialLogit(n[i], e), evaluated on
// the linear predictor's scale (inv_logit(40) is 1 in doubles, and Binomial(n, 1) of
// r < n is impossible: a start far out would fail, as LSAT's does). Likewise `log` with
// dpois. `p` is still defined, for the draws. Only where the reader indexes `p` with the
// same loop variables as its definition, and `e` reads no other loop variable.
void linear_predictors(std::vector<ast::statement>& body, const std::set<std::size_t>& links) {
  std::map<std::string, int> definitions;
  std::map<std::string, bugs_link> linked;
  std::vector<std::string> scope;
  find_links(body, links, scope, definitions, linked);
  replace_links(body, definitions, linked);
}

}  // namespace ppl::lang::bugs_rewrites
