// Ordered vectors (`param c: ordered[K]`, `positive_ordered[K]`): the constraint is the
// variable's, not its elements' priors', so the graph reports one support for the whole
// vector (support_kind::ordered, above the type's bound and the priors' common lower
// bound), checks given values against it, and keeps prior draws on it. The density is
// the sum of the elements' terms, unnormalised on the ordered set, as Stan's.
#include <algorithm>
#include <cmath>

#include "model/graph.hpp"
#include "model/supports.hpp"
#include "stdlib/checks.hpp"

namespace ppl::model {

using lang::ir::statement;
using lang::ir::vector_constraint;

namespace {

const char* type_name(vector_constraint c) { return c == vector_constraint::ordered ? "ordered" : "positive_ordered"; }

}  // namespace

bool supports::ordered(int variable) const {
  return g_.model_.variables[static_cast<std::size_t>(variable)].constraint != vector_constraint::none;
}

stdlib::support supports::ordered_support(int variable) {
  const auto& var = g_.model_.variables[static_cast<std::size_t>(variable)];
  double lower = var.constraint == vector_constraint::positive_ordered ? 0 : -INFINITY, prior_lower = -INFINITY;
  bool first = true;
  std::string problem;
  if (moves(variable)) problem = "its prior's bounds follow other unknowns";
  for (int si : var.statements) {
    const statement& s = g_.model_.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample || !problem.empty()) continue;
    g_.for_each_instance(s, [&] {
      stdlib::support e = s.dist->value_support(g_.eval_args(s));
      if (e.kind == stdlib::support_kind::real_vector) e = {};
      if (!problem.empty()) return;
      if (e.kind != stdlib::support_kind::real_interval) problem = "its prior " + s.dist_name + " is not on the reals";
      else if (std::isfinite(e.upper)) problem = "its prior " + s.dist_name + " is bounded above (by " + stdlib::format_number(e.upper) + ")";
      else if (!first && e.lower != prior_lower) problem = "its elements' priors have different lower bounds";
      prior_lower = e.lower;
      first = false;
    });
  }
  if (!problem.empty())
    ppl::fail_at(g_.model_.source, var.pos, "`" + var.name + "` is " + type_name(var.constraint) + " but " + problem +
                                              "; give its elements a prior on the reals or on a half-line (0, inf), or none");
  return {stdlib::support_kind::ordered, std::max(lower, prior_lower), INFINITY};
}

std::string supports::first_unordered(int variable) {
  const auto& var = g_.model_.variables[static_cast<std::size_t>(variable)];
  const tensor& t = g_.values_[static_cast<std::size_t>(variable)];
  const double lower = supports(*this).ordered_support(variable).lower;
  auto label = [&](index_t i) { return element_name(var.name, t.shape, i) + " = " + stdlib::format_number(t.data[static_cast<std::size_t>(i)]); };
  const std::string why = " (`" + var.name + "` is " + type_name(var.constraint) + ": strictly increasing" +
                          (std::isfinite(lower) ? ", above " + stdlib::format_number(lower) + ")" : ")");
  for (index_t i = 0; i < t.size(); ++i) {
    const double x = t.data[static_cast<std::size_t>(i)];
    if (i == 0 && !(x > lower)) return label(0) + " is not above " + stdlib::format_number(lower) + why;
    if (i > 0 && !(x > t.data[static_cast<std::size_t>(i - 1)])) return label(i) + " is not above " + label(i - 1) + why;
  }
  return {};
}

// Sorting independent draws gives a draw of the prior restricted to the ordered set (the
// order statistics) only when every element has the same prior, on that set's range.
bool supports::ordered_draw_exact(int variable, std::string& why) {
  const auto& var = g_.model_.variables[static_cast<std::size_t>(variable)];
  if (var.statements.size() != 1) {
    why = "its elements' priors are given by several statements";
    return false;
  }
  const statement& s = g_.model_.statements[static_cast<std::size_t>(var.statements.front())];
  std::vector<double> first;
  bool same = true, started = false;
  g_.for_each_instance(s, [&] {
    std::vector<double> args;
    for (const view& a : g_.eval_args(s)) args.insert(args.end(), a.begin(), a.end());
    same = same && (!started || args == first);
    if (!started) first = std::move(args);
    started = true;
  });
  const stdlib::support own = s.dist->value_support(g_.eval_args(s));
  if (!same) why = "its elements' priors differ";
  else if (own.lower < supports(*this).ordered_support(variable).lower) why = "its elements' prior reaches below " + stdlib::format_number(supports(*this).ordered_support(variable).lower);
  else return true;
  return false;
}

void graph::sort_ordered_draw(int variable) {
  std::string why;
  if (!supports(*this).ordered_draw_exact(variable, why)) {
    const auto& var = model_.variables[static_cast<std::size_t>(variable)];
    ppl::fail_at(model_.source, var.pos, "`" + var.name + "` is " + type_name(var.constraint) + " and " + why +
                                              ", so it has no draw from its prior: ppl draws an ordered vector by sorting "
                                              "draws of its elements, which is exact only when they share one prior");
  }
  auto& x = values_[static_cast<std::size_t>(variable)].data;
  std::sort(x.begin(), x.end());
}

}  // namespace ppl::model
