#include "lang/bugs_rewrites.hpp"

#include <algorithm>
#include <functional>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "lang/bugs_nodes.hpp"
#include "lang/printer.hpp"

namespace ppl::lang::bugs_rewrites {

namespace {

using namespace bugs_nodes;

class rewriter {
 public:
  rewriter(const source_file& src, const std::set<std::size_t>& links, std::function<bool(const operand&)> several = {})
      : src_(src), links_(links), several_(std::move(several)) {}

  // JAGS's censoring: `is.censored[i] ~ dinterval(t[i], c[i])` beside `t[i] ~ D(...)`,
  // with t[i] missing where it is censored, is 1 when t[i] > c[i] and 0 when t[i] <= c[i].
  // That is censoring as ppl writes it, the bound taken by the indicator:
  //   if (is_censored[i] == 1) { t[i] ~ D(...) C[c[i], ] } else { t[i] ~ D(...) C[, c[i]] }
  // With K cut points (a vector c, increasing), the indicator y is the interval t lies in:
  // 0 for t <= c[1], k for c[k] < t <= c[k + 1], K for t > c[K]:
  //   if (y == 0) { ... C[, c[1]] } else if (y == length(c)) { ... C[c[length(c)], ] }
  //   else { ... C[c[y], c[y + 1]] }
  // The two must be in the same loop, the first argument the other's node as written.
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
      const std::size_t pos = ind->pos, end = ind->end;
      const operand cuts = ind->dist.args[1];
      auto number = [&](unsigned long long v) { return int_number(v, pos, end); };
      auto binary = [&](operand a, const char* op, operand b) { return chain_of(std::move(a), {{op, std::move(b)}}, pos, end); };
      const operand indicator = target_operand(ind->lhs);
      // `D(...) C[lower, upper]`, a bound left out where it is none.
      auto censored = [&](boost::optional<operand> lower, boost::optional<operand> upper) {
        ast::restriction r;
        r.which = "C";
        r.pos = ind->dist.pos;
        r.end = ind->dist.end;
        r.lower = std::move(lower);
        r.upper = std::move(upper);
        ast::sample_stmt y = x;
        y.restricted = r;
        return ast::statement(std::move(y));
      };
      auto branch = [&](operand cond, ast::statement then, ast::statement otherwise) {
        ast::if_stmt b;
        b.pos = pos;
        b.end = end;
        b.cond = std::move(cond);
        b.then_body.push_back(std::move(then));
        b.else_body.emplace();
        b.else_body->push_back(std::move(otherwise));
        return ast::statement(std::move(b));
      };
      auto element = [&](operand index) {
        ast::index_item ix;
        ix.pos = pos;
        ix.end = end;
        ix.lo = std::move(index);
        ast::index_list l;
        l.pos = pos;
        l.end = end;
        l.items.push_back(std::move(ix));
        ast::postfix p{cuts, {}};
        p.suffixes.emplace_back(std::move(l));
        return operand(std::move(p));
      };
      if (!several_(cuts)) {
        *it = branch(binary(indicator, "==", number(1)), censored(cuts, boost::none), censored(boost::none, cuts));
      } else {
        const operand count = operand(make_call("length", {cuts}, pos, end));
        *it = branch(binary(indicator, "==", number(0)), censored(boost::none, element(number(1))),
                     branch(binary(indicator, "==", count), censored(element(count), boost::none),
                            censored(element(indicator), element(binary(indicator, "+", number(1))))));
      }
      body.erase(body.begin() + static_cast<std::ptrdiff_t>(k));
      --k;
    }
  }

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
  struct placed_sample {
    ast::sample_stmt* stmt;
    std::vector<const ast::loop_range*> scope;
  };
  struct placed_assign {
    std::vector<std::string> indices;  // as printed
    std::vector<const ast::loop_range*> scope;
  };
  static std::vector<std::string> printed_indices(const ast::target& t) {
    std::vector<std::string> out;
    for (const auto& ix : t.indices) out.push_back(ix.lo && !ix.tail ? print_expression(*ix.lo) : ":");
    return out;
  }

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

  static void names_in(const std::vector<ast::statement>& body, std::set<std::string>& names) {
    for (const auto& s : body) {
      if (const auto* f = boost::get<fwd<ast::for_stmt>>(&s)) {
        for (const auto& r : f->get().ranges) names.insert(r.var.name);
        names_in(f->get().body, names);
      } else if (const auto* x = boost::get<ast::sample_stmt>(&s)) {
        names.insert(x->lhs.name.name);
        for (const auto& a : x->dist.args) for_each_identifier(a, [&](const ast::identifier& id) { names.insert(id.name); });
      } else if (const auto* a = boost::get<ast::assign_stmt>(&s)) {
        names.insert(a->lhs.name.name);
        for_each_identifier(a->value, [&](const ast::identifier& id) { names.insert(id.name); });
      }
    }
  }

  void mixed_arrays(std::vector<ast::statement>& body) {
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
      for (auto& p : placed) copies.push_back(split(*p.stmt, p.scope, taken));
    }
    body.insert(body.begin(), std::make_move_iterator(copies.begin()), std::make_move_iterator(copies.end()));
  }

  // The `~` as a `~` of its own variable, and the copy of that variable into the array's
  // elements (wrapped in the loops its indices use).
  ast::statement split(ast::sample_stmt& x, const std::vector<const ast::loop_range*>& scope, std::set<std::string>& taken) {
    const std::string array = x.lhs.name.name;
    auto refuse = [&](std::size_t pos, const std::string& why) {
      fail_at(src_, pos, "`" + array + "` has elements defined by `<-` and others by `~`; ppl gives each `~` a variable of its own, " +
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

  // Element cycles. Only arrays whose every definition is a `<-` outside loops with
  // numbers for indices are taken, and only where they form a cycle between variables:
  //   tau_sqrd[1] = 1 / inv_tau_sqrd[1]     tau_sqrd_1 = 1 / inv_tau_sqrd_1
  //   inv_tau_sqrd[1] = inv_tau_sqrd_1   →  tau_sqrd[1] = tau_sqrd_1
  //   inv_tau_sqrd[2] = 1 / tau_sqrd[2]     inv_tau_sqrd_2 = 1 / tau_sqrd_2 ...
  // An element defined as a copy of a name (a split `~`, above) is read as that name.
  static std::optional<std::string> literal_suffix(const std::vector<ast::index_item>& items) {
    std::string out;
    for (const auto& ix : items) {
      const auto* n = ix.lo && !ix.tail ? boost::get<ast::int_literal>(&*ix.lo) : nullptr;
      if (!n) return std::nullopt;
      out += "_" + std::to_string(n->value);
    }
    return items.empty() ? std::nullopt : std::optional(out);
  }

  static void reads_of(const std::vector<ast::statement>& body, std::map<std::string, std::set<std::string>>& reads) {
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
  static std::set<std::string> on_cycles(const std::map<std::string, std::set<std::string>>& reads) {
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

  void element_cycles(std::vector<ast::statement>& body) {
    std::map<std::string, std::set<std::string>> reads;
    reads_of(body, reads);
    const std::set<std::string> cyclic = on_cycles(reads);
    if (cyclic.empty()) return;
    // The arrays defined element by element at the top level, with numbers for indices.
    std::map<std::string, std::vector<ast::assign_stmt*>> elementwise;
    std::set<std::string> elsewhere;
    for (auto& s : body)
      if (auto* a = boost::get<ast::assign_stmt>(&s); a && literal_suffix(a->lhs.indices)) elementwise[a->lhs.name.name].push_back(a);
    std::function<void(const std::vector<ast::statement>&, bool)> other = [&](const std::vector<ast::statement>& b, bool top) {
      for (const auto& s : b) {
        if (const auto* f = boost::get<fwd<ast::for_stmt>>(&s)) other(f->get().body, false);
        else if (const auto* i = boost::get<fwd<ast::if_stmt>>(&s)) {
          other(i->get().then_body, false);
          if (i->get().else_body) other(*i->get().else_body, false);
        } else if (const auto* x = boost::get<ast::sample_stmt>(&s)) elsewhere.insert(x->lhs.name.name);
        else if (const auto* a = boost::get<ast::assign_stmt>(&s); a && (!top || !literal_suffix(a->lhs.indices)))
          elsewhere.insert(a->lhs.name.name);
      }
    };
    other(body, true);
    std::set<std::string> taken;
    names_in(body, taken);
    // Each element's name: the name it copies, or a new scalar.
    std::map<std::string, std::map<std::string, std::string>> scalar;  // array -> suffix -> name
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
    if (scalar.empty()) return;
    // array[c] read with numbers, where array is taken: its element's name.
    std::function<void(operand&)> redirect = [&](operand& o) {
      if (auto* p = boost::get<fwd<ast::postfix>>(&o)) {
        auto& px = p->get();
        const auto* base = boost::get<ast::identifier>(&px.base);
        if (base && px.suffixes.size() == 1 && scalar.count(base->name))
          if (const auto* l = boost::get<ast::index_list>(&px.suffixes[0]))
            if (auto suffix = literal_suffix(l->items)) {
              auto& names = scalar[base->name];
              if (auto it = names.find(*suffix); it != names.end()) {
                ast::identifier id = *base;
                id.name = it->second;
                o = operand(std::move(id));
                return;
              }
            }
        redirect(px.base);
        for (auto& sfx : px.suffixes)
          if (auto* l = boost::get<ast::index_list>(&sfx))
            for (auto& ix : l->items) {
              if (ix.lo) redirect(*ix.lo);
              if (ix.tail && ix.tail->hi) redirect(*ix.tail->hi);
            }
      } else if (auto* c = boost::get<fwd<ast::call>>(&o)) {
        for (auto& a : c->get().args) redirect(a);
      } else if (auto* u = boost::get<fwd<ast::unary>>(&o)) {
        redirect(u->get().rhs);
      } else if (auto* ch = boost::get<fwd<ast::chain>>(&o)) {
        redirect(ch->get().first);
        for (auto& op : ch->get().rest) redirect(op.rhs);
      }
    };
    std::vector<ast::statement> out;
    for (auto& s : body) {
      auto* a = boost::get<ast::assign_stmt>(&s);
      auto it = a ? scalar.find(a->lhs.name.name) : scalar.end();
      if (it == scalar.end() || boost::get<ast::identifier>(&a->value)) {
        if (a) redirect(a->value);
        out.push_back(std::move(s));
        continue;
      }
      ast::assign_stmt own = *a;
      own.lhs.name.name = it->second.at(*literal_suffix(a->lhs.indices));
      own.lhs.indices.clear();
      redirect(own.value);
      a->value = operand(own.lhs.name);
      out.emplace_back(std::move(own));
      out.push_back(std::move(s));
    }
    body = std::move(out);
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
  std::function<bool(const operand&)> several_;  // whether dinterval's cut points are a vector
  std::list<bugs_link> links_store_;
};

}  // namespace

void intervals(const source_file& src, std::vector<ast::statement>& body, const std::function<bool(const ast::operand&)>& several) {
  rewriter(src, {}, several).intervals(body);
}

void mixed_arrays(const source_file& src, std::vector<ast::statement>& body) { rewriter(src, {}).mixed_arrays(body); }

void element_cycles(std::vector<ast::statement>& body) {
  static const source_file none;
  rewriter(none, {}).element_cycles(body);
}

void real_constants(std::vector<ast::statement>& body) {
  static const source_file none;
  rewriter(none, {}).real_constants(body);
}

void linear_predictors(std::vector<ast::statement>& body, const std::set<std::size_t>& links) {
  static const source_file none;
  rewriter(none, links).linear_predictors(body);
}

}  // namespace ppl::lang::bugs_rewrites
