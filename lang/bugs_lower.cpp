// The lowering of a BUGS program (bugs_lower.hpp): the order of its passes, names with
// dots, and the statements — relations, links on the left, loops, their left-hand sides.
// Its expressions, rounded indices and data declarations are in the other
// bugs_lower_*.cpp files (bugs_lower_internal.hpp).
#include "lang/bugs_lower.hpp"

#include <algorithm>
#include <fmt/core.h>
#include <optional>
#include <string_view>

#include "lang/bugs_lower_internal.hpp"
#include "lang/bugs_names.hpp"
#include "lang/bugs_nodes.hpp"
#include "lang/bugs_rewrites.hpp"
#include "lang/suggest.hpp"
#include "stdlib/registry.hpp"

namespace ppl::lang {

namespace bugs_lowering {

using namespace bugs_nodes;

ast::program lowering::run(const bugs::program& program) {
  const bugs::block* model = nullptr;
  std::vector<ast::statement> body;
  for (const auto& b : program.blocks) {
    if (b.which == "var") continue;
    if (b.which == "model") {
      if (model) fail_at(src_, b.pos, "a second `model` block; a BUGS file has one");
      model = &b;
    }
    for (const auto& s : b.body) lower(s, body, b.which == "data");
  }
  if (!model) fail_at(src_, src_.text.size(), "no `model { ... }` block: a BUGS file holds its model in one");
  bugs_rewrites::intervals(src_, body, [&](const operand& o) { return several(o); });
  bugs_rewrites::ordered_chains(body);
  bugs_rewrites::mixed_arrays(src_, body);
  bugs_rewrites::element_cycles(body);
  bugs_rewrites::cycle_helpers(body);
  bugs_rewrites::real_constants(body);
  bugs_rewrites::linear_predictors(body, links_);
  gather(body);
  whole_indices(body);
  ast::program out;
  declare_data(out.statements);
  for (auto& s : body) out.statements.push_back(std::move(s));
  return out;
}

// ---- names

std::string lowering::rename(const ast::identifier& id) {
  std::string name = id.name;
  std::replace(name.begin(), name.end(), '.', '_');
  auto [it, fresh] = spellings_.emplace(name, id.name);
  if (!fresh && it->second != id.name)
    fail_at(src_, id.pos, "`" + it->second + "` and `" + id.name + "` are one name in ppl, `" + name +
                              "` (dots become underscores, as in the data); rename one of them");
  return name;
}

ast::identifier lowering::renamed(ast::identifier id) {
  id.name = rename(id);
  return id;
}

// ---- statements

ast::target lowering::target(const ast::target& t, bool sampled, std::size_t value_rank) {
  ast::target out = t;
  out.name = renamed(t.name);
  // `error[2, 1:2] ~ ddirich(...)`: a range given in full as the last index of a vector's
  // node is a block, which ppl reads as it is (`1:K` on a row of K is the whole row).
  const bool block = sampled && value_rank == 1 && !out.indices.empty() && out.indices.back().tail &&
                     out.indices.back().tail->hi;
  if (block) out.indices.back() = lowered_index(out.indices.back());
  for (std::size_t d = 0; d + (block ? 1 : 0) < out.indices.size(); ++d) {
    auto& ix = out.indices[d];
    if (!ix.tail) {
      if (ix.lo) ix.lo = expression(*ix.lo);
      continue;
    }
    // `x[1:K]`, `x[i, ]`: the whole dimension, which is what BUGS's multivariate nodes
    // take; a range from elsewhere than 1 is no node of ppl's.
    const auto one = ix.lo ? literal_value(*ix.lo) : std::optional<double>(1);
    if (!one || *one != 1)
      fail_at(src_, ix.pos, std::string("a range on the left of `") + (sampled ? "~" : "<-") +
                                "` must start at 1 (the whole dimension); write the loop over its elements instead");
    ix.lo.reset();
    ix.tail->hi.reset();
  }
  // `beta[i, 1:2] ~ dmnorm(...)` is ppl's `beta[i] ~ MultiNormalPrec(...)`: the trailing
  // whole dimensions a value of the distribution fills (all of them for `<-`, whose
  // value's shape says how many), as ppl leaves them out.
  std::size_t drop = block ? 0 : sampled ? value_rank : out.indices.size();
  while (drop > 0 && !out.indices.empty() && whole_dimension(out.indices.back())) out.indices.pop_back(), --drop;
  return out;
}

void lowering::lower(const bugs::statement& s, std::vector<ast::statement>& out, bool data_block) {
  if (const auto* x = boost::get<bugs::stochastic>(&s)) {
    if (data_block)
      fail_at(src_, x->pos, "a `~` in a data block (JAGS's simulated data) is not supported; only `<-` computes data there");
    out.emplace_back(stochastic(*x));
  } else if (const auto* a = boost::get<bugs::logical>(&s)) {
    ast::assign_stmt y = *a;
    y.lhs = target(a->lhs, false);
    y.value = expression(a->value);
    out.emplace_back(std::move(y));
  } else if (const auto* l = boost::get<bugs::linked>(&s)) {
    static constexpr std::pair<std::string_view, std::string_view> inverses[] = {
        {"cloglog", "inv_cloglog"}, {"log", "exp"}, {"logit", "inv_logit"}, {"probit", "Phi"}};
    const auto* inv = std::find_if(std::begin(inverses), std::end(inverses), [&](const auto& p) { return p.first == l->link.name; });
    ast::assign_stmt y;
    y.pos = l->pos;
    y.end = l->end;
    y.lhs = target(l->lhs, false);
    y.value = make_call(std::string(inv->second), {expression(l->value)}, l->link.pos, l->end);
    out.emplace_back(std::move(y));
    links_.insert(l->pos);
  } else {
    const auto& f = boost::get<fwd<bugs::for_loop>>(s).get();
    ast::for_stmt loop;
    loop.pos = f.pos;
    loop.end = f.end;
    ast::loop_range r;
    r.pos = f.var.pos;
    r.end = f.end;
    r.var = renamed(f.var);
    r.lo = expression(f.lo);
    r.hi = expression(f.hi);
    loop.ranges.push_back(std::move(r));
    for (const auto& b : f.body) lower(b, loop.body, data_block);
    out.emplace_back(std::move(loop));
  }
}

ast::sample_stmt lowering::stochastic(const ast::sample_stmt& x) {
  ast::sample_stmt y = x;
  const std::string& name = x.dist.callee.name;
  const bugs_name* e = find_bugs_distribution(name);
  if (!e && name == "dinterval") {
    if (x.dist.args.size() != 2)
      fail_at(src_, x.dist.callee.pos, fmt::format("dinterval takes 2 arguments (dinterval(t, c)), not {}", x.dist.args.size()));
    if (x.restricted) fail_at(src_, x.restricted->pos, "dinterval takes no truncation or censoring");
    y.lhs = target(x.lhs, true);
    y.dist.args = arguments(x.dist);
    return y;  // joined to t's own `~` by intervals()
  }
  if (!e && name == "dsum") {  // dsum(a, b, ...): Sum([a, b, ...])
    if (x.dist.args.empty()) fail_at(src_, x.dist.callee.pos, "dsum takes 1 or more arguments, the summands");
    if (x.restricted) fail_at(src_, x.restricted->pos, "dsum takes no truncation or censoring");
    ast::vector_literal summands;
    summands.pos = x.dist.pos;
    summands.end = x.dist.end;
    summands.elements = arguments(x.dist);
    y.dist.callee.name = "Sum";
    y.dist.args.clear();
    y.dist.args.emplace_back(fwd<ast::vector_literal>(std::move(summands)));
    y.lhs = target(x.lhs, true);
    return y;
  }
  if (!e) {
    std::vector<std::string> names;
    for (const auto& d : bugs_distribution_table()) names.emplace_back(callee_of(d.bugs));
    fail_at(src_, x.dist.callee.pos, "unknown BUGS distribution `" + name + "`" + did_you_mean(near_names(name, names)));
  }
  y.dist = *as_call(from_table(*e, x.dist, "distribution"));
  const auto* d = stdlib::library().find_distribution(y.dist.callee.name);
  y.lhs = target(x.lhs, true, d ? static_cast<std::size_t>(d->value_rank()) : 0);
  if (y.restricted) {
    auto& r = *y.restricted;
    r.which = r.which == "T" ? "T" : "C";  // I(,) and C(,) are censoring
    if (r.lower) r.lower = expression(*r.lower);
    if (r.upper) r.upper = expression(*r.upper);
  }
  return y;
}

}  // namespace bugs_lowering

ast::program lower_bugs(const source_file& src, const bugs::program& program, const bugs_data_shapes* data,
                        std::map<std::string, std::string>* dotted) {
  bugs_lowering::lowering lowering(src, data);
  ast::program out = lowering.run(program);
  if (dotted) *dotted = lowering.dotted();
  return out;
}

}  // namespace ppl::lang
