// JAGS's dinterval beside its node's `~`, as ppl's censoring (bugs_rewrites.hpp).
#include <algorithm>
#include <functional>
#include <string>

#include "lang/bugs_nodes.hpp"
#include "lang/bugs_rewrites.hpp"
#include "lang/printer.hpp"

namespace ppl::lang::bugs_rewrites {

using namespace bugs_nodes;

// JAGS's censoring: `is.censored[i] ~ dinterval(t[i], c[i])` beside `t[i] ~ D(...)`,
// with t[i] missing where it is censored, is 1 when t[i] > c[i] and 0 when t[i] <= c[i].
// That is censoring as ppl writes it, the bound taken by the indicator:
//   if (is_censored[i] == 1) { t[i] ~ D(...) C[c[i], ] } else { t[i] ~ D(...) C[, c[i]] }
// With K cut points (a vector c, increasing), the indicator y is the interval t lies in:
// 0 for t <= c[1], k for c[k] < t <= c[k + 1], K for t > c[K]:
//   if (y == 0) { ... C[, c[1]] } else if (y == length(c)) { ... C[c[length(c)], ] }
//   else { ... C[c[y], c[y + 1]] }
// The two must be in the same loop, the first argument the other's node as written; any
// other dinterval is a factor constraining its first argument (below).
void intervals(const source_file& src, std::vector<ast::statement>& body, const std::function<bool(const ast::operand&)>& several) {
  for (auto& s : body)
    if (auto* f = boost::get<fwd<ast::for_stmt>>(&s)) intervals(src, f->get().body, several);
  for (std::size_t k = 0; k < body.size(); ++k) {
    auto* ind = boost::get<ast::sample_stmt>(&body[k]);
    if (!ind || ind->dist.callee.name != "dinterval") continue;
    const std::string node = print_expression(ind->dist.args[0]);
    auto it = std::find_if(body.begin(), body.end(), [&](const ast::statement& t) {
      const auto* x = boost::get<ast::sample_stmt>(&t);
      return x && x->dist.callee.name != "dinterval" && print_expression(target_operand(x->lhs)) == node;
    });
    const std::size_t pos = ind->pos, end = ind->end;
    const operand cuts = ind->dist.args[1];
    auto number = [&](unsigned long long v) { return int_number(v, pos, end); };
    auto binary = [&](operand a, const char* op, operand b) { return chain_of(std::move(a), {{op, std::move(b)}}, pos, end); };
    const operand indicator = target_operand(ind->lhs);
    if (it == body.end()) {
      // No `~` of the node beside it (a node computed with `<-`, or drawn in another loop):
      // the indicator's likelihood as JAGS defines it, 1 when the node lies in the interval
      // the indicator names and 0 elsewhere, a constraint on what the node reads:
      //   factor log(y == (t > c))        or, with K cut points,   factor log(y == sum(t > c))
      operand above = binary(ind->dist.args[0], ">", cuts);
      if (several(cuts)) above = operand(make_call("sum", {std::move(above)}, pos, end));
      ast::factor_stmt f;
      f = tagged_at(f, pos, end);
      f.value = operand(make_call("log", {binary(indicator, "==", std::move(above))}, pos, end));
      body[k] = ast::statement(std::move(f));
      continue;
    }
    auto& x = boost::get<ast::sample_stmt>(*it);
    if (x.restricted) fail_at(src, x.restricted->pos, "`" + node + "` is censored by dinterval and may not be restricted again");
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
    if (!several(cuts)) {
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

}  // namespace ppl::lang::bugs_rewrites
