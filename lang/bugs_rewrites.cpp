#include "lang/bugs_rewrites.hpp"

#include <algorithm>
#include <list>
#include <map>
#include <string>
#include <string_view>

#include "lang/bugs_nodes.hpp"
#include "lang/printer.hpp"

namespace ppl::lang::bugs_rewrites {

namespace {

using namespace bugs_nodes;

class rewriter {
 public:
  rewriter(const source_file& src, const std::set<std::size_t>& links) : src_(src), links_(links) {}

  // JAGS's censoring: `is.censored[i] ~ dinterval(t[i], c[i])` beside `t[i] ~ D(...)`,
  // with t[i] missing where it is censored, is 1 when t[i] > c[i] and 0 when t[i] <= c[i].
  // That is censoring as ppl writes it, the bound taken by the indicator:
  //   if (is_censored[i] == 1) { t[i] ~ D(...) C[c[i], ] } else { t[i] ~ D(...) C[, c[i]] }
  // The two must be in the same loop, the first argument the other's node as written; one
  // cut point (a scalar c).
  void intervals(std::vector<ast::statement>& body) {
    for (auto& s : body)
      if (auto* f = boost::get<fwd<ast::for_stmt>>(&s)) intervals(f->get().body);
    for (std::size_t k = 0; k < body.size(); ++k) {
      auto* ind = boost::get<ast::sample_stmt>(&body[k]);
      if (!ind || ind->dist.callee.name != "dinterval") continue;
      const std::string node = print_expression(ind->dist.args[0]);
      auto it = std::find_if(body.begin(), body.end(), [&](const ast::statement& t) {
        const auto* x = boost::get<ast::sample_stmt>(&t);
        return x && x->dist.callee.name != "dinterval" && print_expression(target_operand(x->lhs)) == node;
      });
      if (it == body.end())
        fail_at(src_, ind->dist.callee.pos, "dinterval(" + node + ", ...) needs the `~` of `" + node +
                                                "` in the same loop, where ppl puts the censoring; write `" + node +
                                                " ~ D(...)` beside it");
      auto& x = boost::get<ast::sample_stmt>(*it);
      if (x.restricted) fail_at(src_, x.restricted->pos, "`" + node + "` is censored by dinterval and may not be restricted again");
      ast::if_stmt branch;
      branch.pos = ind->pos;
      branch.end = ind->end;
      ast::chain test{operand(target_operand(ind->lhs)), {}};
      ast::operation eq;
      eq.op = "==";
      eq.pos = ind->pos;
      eq.end = ind->end;
      eq.rhs = operand(tagged_at(ast::int_literal{}, ind->pos, ind->end));
      boost::get<ast::int_literal>(eq.rhs).value = 1;
      test.rest.push_back(std::move(eq));
      branch.cond = operand(std::move(test));
      ast::restriction above, below;
      above.which = below.which = "C";
      above.pos = below.pos = ind->dist.pos;
      above.end = below.end = ind->dist.end;
      above.lower = ind->dist.args[1];
      below.upper = ind->dist.args[1];
      ast::sample_stmt censored = x, observed = x;
      censored.restricted = above;
      observed.restricted = below;
      branch.then_body.emplace_back(std::move(censored));
      branch.else_body.emplace();
      branch.else_body->emplace_back(std::move(observed));
      *it = ast::statement(std::move(branch));
      body.erase(body.begin() + static_cast<std::ptrdiff_t>(k));
      --k;
    }
  }

  // BUGS has no integers: `p[i, 1] <- 0` beside `log(p[i, j]) <- ...` fills one real array.
  // ppl types a variable by its definitions, so where some definitions of a variable are
  // whole numbers and others are not, the numbers are written as reals.
  void real_constants(std::vector<ast::statement>& body) {
    std::map<std::string, std::vector<ast::assign_stmt*>> defs;
    collect_assignments(body, defs);
    for (auto& [name, list] : defs) {
      auto whole = [](const ast::assign_stmt* a) { return boost::get<ast::int_literal>(&a->value) != nullptr; };
      if (list.size() < 2 || std::all_of(list.begin(), list.end(), whole) || std::none_of(list.begin(), list.end(), whole)) continue;
      for (auto* a : list)
        if (const auto* n = boost::get<ast::int_literal>(&a->value)) a->value = real_number(static_cast<double>(n->value), n->pos, n->end);
    }
  }

  // `logit(p[i]) <- e` then `r[i] ~ dbin(p[i], n[i])`: the observation's probability is
  // written `inv_logit(e)`, which the checker takes as BinomialLogit(n[i], e), evaluated on
  // the linear predictor's scale (inv_logit(40) is 1 in doubles, and Binomial(n, 1) of
  // r < n is impossible: a start far out would fail, as LSAT's does). Likewise `log` with
  // dpois. `p` is still defined, for the draws. Only where the reader indexes `p` with the
  // same loop variables as its definition, and `e` reads no other loop variable.
  void linear_predictors(std::vector<ast::statement>& body) {
    std::map<std::string, int> definitions;
    std::map<std::string, std::pair<const bugs_link*, std::vector<std::string>>> linked;
    std::vector<std::string> scope;
    find_links(body, scope, definitions, linked);
    replace_links(body, definitions, linked);
  }

  struct bugs_link {
    std::string inverse;           // inv_logit, exp
    ast::operand predictor;        // e
    std::vector<std::string> vars; // the target's indices: loop variables
  };

  void find_links(const std::vector<ast::statement>& body, std::vector<std::string>& scope, std::map<std::string, int>& definitions,
                  std::map<std::string, std::pair<const bugs_link*, std::vector<std::string>>>& linked) {
    for (const auto& s : body) {
      if (const auto* f = boost::get<fwd<ast::for_stmt>>(&s)) {
        scope.push_back(f->get().ranges.front().var.name);
        find_links(f->get().body, scope, definitions, linked);
        scope.pop_back();
      } else if (const auto* x = boost::get<ast::sample_stmt>(&s)) {
        ++definitions[x->lhs.name.name];
      } else if (const auto* a = boost::get<ast::assign_stmt>(&s)) {
        ++definitions[a->lhs.name.name];
        const ast::call* c = as_call(a->value);
        if (!c || c->args.size() != 1 || (c->callee.name != "inv_logit" && c->callee.name != "exp") || !links_.count(a->pos)) continue;
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
        links_store_.push_back({c->callee.name, c->args[0], vars});
        linked[a->lhs.name.name] = {&links_store_.back(), vars};
      }
    }
  }

  void replace_links(std::vector<ast::statement>& body, const std::map<std::string, int>& definitions,
                     const std::map<std::string, std::pair<const bugs_link*, std::vector<std::string>>>& linked) {
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
        if (it == linked.end() || definitions.at(base->name) != 1 || it->second.first->inverse != inverse) continue;
        std::vector<std::string> vars;
        if (p) {
          if (p->get().suffixes.size() != 1) continue;
          for (const auto& ix : boost::get<ast::index_list>(p->get().suffixes[0]).items) {
            const auto* id = ix.lo && !ix.tail ? boost::get<ast::identifier>(&*ix.lo) : nullptr;
            if (!id) break;
            vars.push_back(id->name);
          }
        }
        if (vars != it->second.second) continue;
        arg = operand(make_call(std::string(inverse), {it->second.first->predictor}, x->dist.pos, x->dist.end));
      }
    }
  }

 private:
  const source_file& src_;
  const std::set<std::size_t>& links_;
  std::list<bugs_link> links_store_;
};

}  // namespace

void intervals(const source_file& src, std::vector<ast::statement>& body) { rewriter(src, {}).intervals(body); }

void real_constants(std::vector<ast::statement>& body) {
  static const source_file none;
  rewriter(none, {}).real_constants(body);
}

void linear_predictors(std::vector<ast::statement>& body, const std::set<std::size_t>& links) {
  static const source_file none;
  rewriter(none, links).linear_predictors(body);
}

}  // namespace ppl::lang::bugs_rewrites
