#include "samplers/structure.hpp"

#include <algorithm>

#include "lang/evidence.hpp"

namespace ppl::samplers {

using lang::ir::expr;
using lang::ir::role;
using lang::ir::statement;

std::vector<char> reaching(const lang::ir::model& m, std::vector<char> marked) {
  for (const statement& s : m.statements) {
    if (s.which != statement::kind::assign || marked[static_cast<std::size_t>(s.target)]) continue;
    for (int r : lang::ir::statement_reads(s))
      if (marked[static_cast<std::size_t>(r)]) marked[static_cast<std::size_t>(s.target)] = 1;
  }
  return marked;
}

namespace {

bool reads_marked(const lang::ir::expr* e, const std::vector<char>& marked) {
  std::vector<int> reads;
  lang::ir::collect_reads(e, reads);
  return std::any_of(reads.begin(), reads.end(), [&](int r) { return marked[static_cast<std::size_t>(r)] != 0; });
}

// A product or quotient in e whose two factors both read a marked variable; with `dot`, a
// dot product too.
bool scaled_product(const lang::ir::expr* e, const std::vector<char>& marked, bool dot = false) {
  if (!e) return false;
  if (e->which == lang::ir::expr::kind::call && e->fn && e->args.size() == 2 &&
      (e->fn->name() == "*" || e->fn->name() == "/" || (dot && e->fn->name() == "dot")) && reads_marked(e->args[0].get(), marked) &&
      reads_marked(e->args[1].get(), marked))
    return true;
  return std::any_of(e->args.begin(), e->args.end(), [&](const auto& a) { return scaled_product(a.get(), marked, dot); });
}

}  // namespace

bool multiplies_them(const lang::ir::model& m, const std::vector<int>& variables) {
  using lang::ir::statement;
  // Predictions and what only they or the output read are no part of a block's terms.
  const std::vector<char> predictive = lang::predictive_statements(m), feeds = feeding_density(m);
  std::vector<char> reached(m.variables.size(), 0);
  for (int v : variables) reached[static_cast<std::size_t>(v)] = 1;
  for (std::size_t i = 0; i < m.statements.size(); ++i) {
    const statement& s = m.statements[i];
    if (predictive[i]) continue;
    if (s.which == statement::kind::assign) {
      if (!feeds[static_cast<std::size_t>(s.target)]) continue;
      if (scaled_product(s.value.get(), reached, true)) return true;
      const auto reads = lang::ir::statement_reads(s);
      if (std::any_of(reads.begin(), reads.end(), [&](int r) { return reached[static_cast<std::size_t>(r)] != 0; }))
        reached[static_cast<std::size_t>(s.target)] = 1;
      continue;
    }
    if (s.which == statement::kind::factor && scaled_product(s.value.get(), reached, true)) return true;
    if (s.which == statement::kind::sample)
      for (const auto& a : s.args)
        if (scaled_product(a.get(), reached, true)) return true;
  }
  return false;
}

bool funnel_shaped(const lang::ir::model& m, const std::vector<int>& variables) {
  using lang::ir::statement;
  std::vector<char> scales(m.variables.size(), 0), reached(m.variables.size(), 0);
  for (int v : variables) reached[static_cast<std::size_t>(v)] = 1;
  for (const auto& s : m.statements) {
    if (s.which == statement::kind::assign && m.variables[static_cast<std::size_t>(s.target)].role == lang::ir::role::derived) {
      if (scaled_product(s.value.get(), reached)) return true;
      const auto reads = lang::ir::statement_reads(s);
      if (std::any_of(reads.begin(), reads.end(), [&](int r) { return reached[static_cast<std::size_t>(r)] != 0; }))
        reached[static_cast<std::size_t>(s.target)] = 1;
      continue;
    }
    if (s.which == statement::kind::factor && scaled_product(s.value.get(), reached)) return true;
    if (s.which != statement::kind::sample) continue;
    for (const auto& a : s.args)
      if (scaled_product(a.get(), reached)) return true;
    if (std::find(variables.begin(), variables.end(), s.target) == variables.end()) continue;
    std::vector<int> reads;
    for (std::size_t a = 1; a < s.args.size(); ++a) lang::ir::collect_reads(s.args[a].get(), reads);
    for (int r : reads) scales[static_cast<std::size_t>(r)] = 1;
  }
  scales = with_inputs(m, std::move(scales));
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (scales[v] && m.variables[v].role == lang::ir::role::unknown) return true;
  return false;
}

std::vector<char> with_inputs(const lang::ir::model& m, std::vector<char> marked) {
  for (auto it = m.statements.rbegin(); it != m.statements.rend(); ++it)
    if (it->which == statement::kind::assign && marked[static_cast<std::size_t>(it->target)])
      for (int r : lang::ir::statement_reads(*it)) marked[static_cast<std::size_t>(r)] = 1;
  return marked;
}

int direct_variable(const expr& e) {
  if (e.which == expr::kind::variable) return e.slot;
  if (e.which != expr::kind::index || e.args[0]->which != expr::kind::variable) return -1;
  for (const auto& ix : e.indices)
    if (ix.which != lang::ir::index_item::kind::single || !ix.lo || ix.lo->depends_on_unknown) return -1;
  return e.args[0]->slot;
}

bool reads_marked(const expr* e, const std::vector<char>& marked) {
  std::vector<int> r;
  lang::ir::collect_reads(e, r);
  return std::any_of(r.begin(), r.end(), [&](int v) { return marked[static_cast<std::size_t>(v)] != 0; });
}

namespace {

// A per-variable analysis of the model, computed once per graph and kept with its analyses.
const std::vector<char>& kept_per_graph(model::graph& g, const std::string& key, std::vector<char> (*compute)(const lang::ir::model&)) {
  auto kept = g.analysis(key);
  if (!kept) {
    kept = std::make_shared<const std::vector<char>>(compute(g.model()));
    g.keep_analysis(key, kept);
  }
  return *static_cast<const std::vector<char>*>(kept.get());
}

}  // namespace

bool informed(model::graph& g, int variable) {
  return kept_per_graph(g, "informed", lang::informed_variables)[static_cast<std::size_t>(variable)] != 0;
}

std::vector<char> feeding_density(const lang::ir::model& m) {
  // Statements come parents first: from the last back, every reader of a variable is seen
  // before the statements that define it.
  const std::vector<char> predictive = lang::predictive_statements(m);
  std::vector<char> feeds(m.variables.size(), 0);
  for (std::size_t i = m.statements.size(); i-- > 0;) {
    const auto& s = m.statements[i];
    if (predictive[i] || (s.which == statement::kind::assign && !feeds[static_cast<std::size_t>(s.target)])) continue;
    for (int r : lang::ir::statement_reads(s)) feeds[static_cast<std::size_t>(r)] = 1;
  }
  for (std::size_t v = 0; v < feeds.size(); ++v) feeds[v] = feeds[v] && m.variables[v].role == role::derived;
  return feeds;
}

const std::vector<char>& feeding_density(model::graph& g) {
  return kept_per_graph(g, "feeding_density", static_cast<std::vector<char> (*)(const lang::ir::model&)>(feeding_density));
}

std::vector<int> reading_statements(const lang::ir::model& m, int variable) {
  const std::vector<char> predictive = lang::predictive_statements(m), feeds = feeding_density(m);
  std::vector<int> out;
  for (std::size_t i = 0; i < m.statements.size(); ++i) {
    const auto& s = m.statements[i];
    if (predictive[i] || (s.which == statement::kind::sample && s.target == variable)) continue;
    if (s.which == statement::kind::assign && !feeds[static_cast<std::size_t>(s.target)]) continue;
    auto r = lang::ir::statement_reads(s);
    if (std::find(r.begin(), r.end(), variable) != r.end()) out.push_back(static_cast<int>(i));
  }
  return out;
}

namespace {

// The source text of an expression, for messages: from its leftmost node's position (an
// operator's own is its symbol's) to the end of its argument (a comma or closing bracket
// at its own depth, or the line's end).
std::size_t leftmost(const expr& e) {
  std::size_t pos = e.pos;
  for (const auto& a : e.args)
    if (a) pos = std::min(pos, leftmost(*a));
  return pos;
}

std::string source_of(const lang::ir::model& m, const expr& e) {
  const std::string& text = m.source.text;
  int depth = 0;
  const std::size_t start = leftmost(e);
  std::size_t end = start;
  for (; end < text.size(); ++end) {
    const char c = text[end];
    if (c == '\n' || (depth == 0 && (c == ',' || c == ')' || c == ']' || c == '|'))) break;
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
  }
  std::string out = text.substr(start, end - start);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool mentions(const expr* e, int variable) {
  if (!e) return false;
  std::vector<int> r;
  lang::ir::collect_reads(e, r);
  return std::find(r.begin(), r.end(), variable) != r.end();
}

// `v`, or `v[i, ...]` with single indices that do not mention v. The indices may depend
// on other unknowns (phi[z[n]] in LDA): given them, the child still reads one block of v.
bool is_direct_reference(const expr& e, int variable) {
  if (e.which == expr::kind::variable) return e.slot == variable;
  if (e.which != expr::kind::index || e.args[0]->which != expr::kind::variable || e.args[0]->slot != variable) return false;
  for (const auto& ix : e.indices)
    if (ix.which != lang::ir::index_item::kind::single || mentions(ix.lo.get(), variable)) return false;
  return true;
}

}  // namespace

namespace {

// Whether a scalar expression is linear in `variable` (built from +, -, negation, and
// multiplication or division by terms free of it), and the references to it it holds.
bool linear_in(const expr& e, int variable, std::vector<const expr*>& refs) {
  if (is_direct_reference(e, variable)) {
    refs.push_back(&e);
    return true;
  }
  if (!mentions(&e, variable)) return true;
  if (e.which != expr::kind::call || e.type.rank != 0) return false;
  std::string_view f = e.fn->name();
  if (f == "+" || f == "-") return linear_in(*e.args[0], variable, refs) && linear_in(*e.args[1], variable, refs);
  if (f == "neg") return linear_in(*e.args[0], variable, refs);
  if (f == "*") {
    bool left = mentions(e.args[0].get(), variable), right = mentions(e.args[1].get(), variable);
    if (left && right) return false;
    return linear_in(*e.args[left ? 0 : 1], variable, refs) && e.args[0]->type.rank == 0 && e.args[1]->type.rank == 0;
  }
  if (f == "/" && !mentions(e.args[1].get(), variable)) return linear_in(*e.args[0], variable, refs);
  if (f == "dot") {  // dot(v, c) or dot(c, v), v a vector block
    bool left = mentions(e.args[0].get(), variable), right = mentions(e.args[1].get(), variable);
    if (left == right) return false;
    const expr& block = *e.args[left ? 0 : 1];
    if (!is_direct_reference(block, variable)) return false;
    refs.push_back(&block);
    return true;
  }
  return false;
}

}  // namespace

namespace {

bool is_call(const expr& e, std::string_view name) { return e.which == expr::kind::call && e.fn->name() == name; }

bool is_constant(const expr& e, double value) {
  return (e.which == expr::kind::int_const || e.which == expr::kind::real_const) && e.constant == value;
}

// What a scale's form wraps: X in sqrt(X) for sqrt_of and sqrt_scaled, in 1 / sqrt(X) or
// X ^ -0.5 for inverse_sqrt_of and inverse_sqrt_scaled; the argument itself for direct and
// scaled; null when the argument has another shape.
const expr* wrapped(const expr& arg, link form) {
  switch (form) {
    case link::direct:
    case link::scaled:
      return &arg;
    case link::sqrt_of:
    case link::sqrt_scaled:
      return is_call(arg, "sqrt") ? arg.args[0].get() : nullptr;
    case link::inverse_sqrt_of:
    case link::inverse_sqrt_scaled:
      if (is_call(arg, "/") && is_constant(*arg.args[0], 1) && is_call(*arg.args[1], "sqrt")) return arg.args[1]->args[0].get();
      if ((is_call(arg, "^") || is_call(arg, "pow")) && is_constant(*arg.args[1], -0.5)) return arg.args[0].get();
      return nullptr;
    default:
      return nullptr;
  }
}

}  // namespace

const expr* reference_in(const expr& arg, link form, int variable) {
  if (form == link::linear) {
    std::vector<const expr*> refs;
    return linear_in(arg, variable, refs) && refs.size() == 1 ? refs[0] : nullptr;
  }
  const expr* inner = nullptr;
  if (form == link::odds) {
    if (is_call(arg, "/") && is_call(*arg.args[1], "-") && is_constant(*arg.args[1]->args[0], 1) &&
        is_direct_reference(*arg.args[1]->args[1], variable) && is_direct_reference(*arg.args[0], variable))
      inner = arg.args[0].get();
  } else if (!is_scaled(form)) {
    inner = wrapped(arg, form);
  } else if (const expr* product = wrapped(arg, form); product && is_call(*product, "*")) {
    // c * v or v * c with c a scalar that does not read v (v may be a matrix: beta0 * W).
    // c may read other unknowns (exp(beta * z[i]) in a proportional hazard's intensity):
    // given them the child is still conjugate, as in JAGS, and the update reads c at the
    // current state. A derived variable inside c that reads v makes its definition a
    // reader of v that no form takes, which direct_children refuses.
    const bool left = mentions(product->args[0].get(), variable);
    const expr& factor = *product->args[left ? 1 : 0];
    if (!mentions(&factor, variable) && factor.type.rank == 0) inner = product->args[left ? 0 : 1].get();
  }
  return inner && is_direct_reference(*inner, variable) ? inner : nullptr;
}

const expr& scale_in(const expr& arg, link form, int variable) {
  const expr& product = *wrapped(arg, form);
  return *product.args[mentions(product.args[0].get(), variable) ? 1 : 0];
}

std::string describe_link(link form, const std::string& name) {
  switch (form) {
    case link::direct: return name;
    case link::sqrt_of: return "sqrt(" + name + ")";
    case link::inverse_sqrt_of: return "1 / sqrt(" + name + ")";
    case link::linear: return "an expression linear in " + name + " (a + b * " + name + ")";
    case link::odds: return name + " / (1 - " + name + ")";
    case link::scaled: return name + " * c";
    case link::inverse_sqrt_scaled: return "1 / sqrt(" + name + " * c)";
    case link::sqrt_scaled: return "sqrt(" + name + " * c)";
  }
  return name;
}

bool alias_form(const lang::ir::model& m, int d, int variable, link& form) {
  const auto& dv = m.variables[static_cast<std::size_t>(d)];
  if (dv.role != role::derived || dv.statements.empty()) return false;
  const auto fixed = [](const expr* e) { return !e || !e->depends_on_unknown; };
  for (link f : {link::direct, link::scaled, link::inverse_sqrt_of, link::inverse_sqrt_scaled, link::sqrt_of, link::sqrt_scaled}) {
    const bool all = std::all_of(dv.statements.begin(), dv.statements.end(), [&](int si) {
      const statement& s = m.statements[static_cast<std::size_t>(si)];
      if (s.which != statement::kind::assign || s.target_from || s.value->type.rank != 0) return false;
      const expr* ref = reference_in(*s.value, f, variable);
      if (!ref || ref->type.rank != 0) return false;
      bool ok = true;
      for (const auto& ix : ref->indices) ok = ok && fixed(ix.lo.get());
      for (const auto& ix : s.target_indices) ok = ok && fixed(ix.get());
      for (const auto& l : s.loops) ok = ok && fixed(l.lo.get()) && fixed(l.hi.get());
      return ok;
    });
    if (all) {
      form = f;
      return true;
    }
  }
  return false;
}

namespace {

// The children of `variable` through the alias `d` (alias_form): each `~` reading d takes
// d[...] (indices free of unknowns, a scalar) as the argument a listed likelihood of that
// form takes, and its other arguments are scalars free of unknowns. "" or why not.
std::string alias_children(const lang::ir::model& m, int d, int variable, link form, const std::vector<likelihood>& allowed,
                           std::vector<int>& children) {
  const std::string& name = m.variables[static_cast<std::size_t>(d)].name;
  for (int si : reading_statements(m, d)) {
    const auto& s = m.statements[static_cast<std::size_t>(si)];
    const std::string where = "line " + std::to_string(ppl::locate(m.source.text, s.pos).line);
    if (s.which != statement::kind::sample) return "read through `" + name + "` by a statement that is not a `~` (" + where + ")";
    const auto takes = [&](const likelihood& l) {
      if (l.dist != s.dist_name || l.form != form || l.arg >= s.args.size()) return false;
      const expr& a = *s.args[l.arg];
      if (direct_variable(a) != d || a.type.rank != 0) return false;
      for (std::size_t k = 0; k < s.args.size(); ++k)
        if (k != l.arg && (s.args[k]->depends_on_unknown || s.args[k]->type.rank != 0)) return false;
      return true;
    };
    if (std::none_of(allowed.begin(), allowed.end(), takes))
      return "child `" + m.variables[static_cast<std::size_t>(s.target)].name + "` (" + where + ") reads it through `" + name +
             "` (" + describe_link(form, m.variables[static_cast<std::size_t>(variable)].name) + ") where " + s.dist_name +
             " takes no such argument, or with other arguments that are not data";
    for (const auto& ix : s.target_indices)
      if (mentions(ix.get(), d) || mentions(ix.get(), variable)) return "used in an index (" + where + ")";
    for (const auto& l : s.loops)
      if (mentions(l.lo.get(), d) || mentions(l.hi.get(), d)) return "used in a loop bound (" + where + ")";
    children.push_back(si);
  }
  return "";
}

}  // namespace

std::string direct_children(const lang::ir::model& m, int variable, const std::vector<likelihood>& allowed,
                            std::vector<int>& children, bool* unlisted) {
  children.clear();
  if (unlisted) *unlisted = false;
  std::vector<int> aliases;
  const auto& own = m.variables[static_cast<std::size_t>(variable)].statements;
  const statement* prior = own.empty() ? nullptr : &m.statements[static_cast<std::size_t>(own[0])];
  for (int si : reading_statements(m, variable)) {
    const auto& s = m.statements[static_cast<std::size_t>(si)];
    std::string where = "line " + std::to_string(ppl::locate(m.source.text, s.pos).line);
    if (link form; s.which == statement::kind::assign && prior && prior->dist && prior->dist->value_rank() == 0 &&
                   alias_form(m, s.target, variable, form)) {
      if (std::find(aliases.begin(), aliases.end(), s.target) != aliases.end()) continue;  // another of its definitions
      aliases.push_back(s.target);
      if (std::string why = alias_children(m, s.target, variable, form, allowed, children); !why.empty()) return why;
      continue;
    }
    if (s.which == statement::kind::assign) {
      // A derived variable linear in a scalar (mu[n] = a + b * x[n]): its children count
      // as children of the scalar, if they take the derived variable linearly.
      std::vector<likelihood> linear;
      for (const auto& l : allowed)
        if (l.form == link::linear) linear.push_back(l);
      bool scalar = m.variables[static_cast<std::size_t>(variable)].type.rank == 0;
      if (linear.empty() || !scalar || !reference_in(*s.value, link::linear, variable))
        return "read by a deterministic statement that is not linear in it (" + where + ")";
      std::vector<int> through;
      std::string why = direct_children(m, s.target, linear, through);
      if (!why.empty()) return why;
      children.insert(children.end(), through.begin(), through.end());
      continue;
    }
    if (s.which != statement::kind::sample) return "read by a non-sampling statement (" + where + ")";
    // The first of the forms listed for the distribution that the argument takes.
    const expr* ref = nullptr;
    std::size_t arg = 0;
    bool listed = false;
    for (const auto& l : allowed) {
      if (l.dist != s.dist_name) continue;
      listed = true;
      arg = l.arg;
      ref = arg < s.args.size() ? reference_in(*s.args[arg], l.form, variable) : nullptr;
      if (ref) break;
    }
    const std::string& name = m.variables[static_cast<std::size_t>(variable)].name;
    const std::string child = "child `" + m.variables[static_cast<std::size_t>(s.target)].name + "` (" + where + ")";
    if (!listed) {
      if (unlisted) *unlisted = true;
      return child + " is " + s.dist_name;
    }
    if (!ref) {
      std::string forms;
      for (const auto& l : allowed)
        if (l.dist == s.dist_name) forms += (forms.empty() ? "`" : " or `") + describe_link(l.form, name) + "`";
      const expr* where_read = nullptr;
      for (const auto& a : s.args)
        if (!where_read && mentions(a.get(), variable)) where_read = a.get();
      return child + " reads it in `" + (where_read ? source_of(m, *where_read) : std::string("an index or bound")) + "`, where " +
             s.dist_name + "'s argument " + std::to_string(arg + 1) + " must be " + forms + " (c not reading it)";
    }
    // A child must read one whole value of the prior: an element of a scalar prior, a row
    // of a vector one (w2 inside dot(w2, h) is not one element of a Normal prior).
    if (prior && prior->dist && ref->type.rank != prior->dist->value_rank())
      return "a child reads several of its values at once (" + where + ")";
    for (std::size_t k = 0; k < s.args.size(); ++k)
      if (k != arg && mentions(s.args[k].get(), variable)) return "also used in another argument (" + where + ")";
    for (const auto& ix : s.target_indices)
      if (mentions(ix.get(), variable)) return "used in an index (" + where + ")";
    for (const auto& l : s.loops)
      if (mentions(l.lo.get(), variable) || mentions(l.hi.get(), variable)) return "used in a loop bound (" + where + ")";
    children.push_back(si);
  }
  if (children.empty()) return "it has no observed children";
  return "";
}

std::string prior_name(const lang::ir::model& m, int variable) {
  std::string name;
  for (int si : m.variables[static_cast<std::size_t>(variable)].statements) {
    const auto& s = m.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample) return "";
    if (!name.empty() && name != s.dist_name) return "";
    name = s.dist_name;
  }
  return name;
}

bool finite_support(model::graph& g, int variable, std::string& reason) {
  constexpr double max_values = 1000;
  double lo = INFINITY, hi = -INFINITY;
  bool spin = false, ok = true;
  model::supports(g).visit(variable, [&](ppl::index_t, ppl::index_t, const stdlib::support& s) {
    if (s.kind == stdlib::support_kind::spin) {
      spin = true;
    } else if (s.kind != stdlib::support_kind::integer_interval || !std::isfinite(s.upper) || s.upper - s.lower + 1 > max_values) {
      ok = false;
    } else {
      lo = std::min(lo, s.lower);
      hi = std::max(hi, s.upper);
    }
  });
  if (!ok) {
    reason = "its support is not a small finite set";
    return false;
  }
  reason = spin ? "finite support {-1, +1}" : "finite support " + std::to_string(static_cast<long long>(lo)) + ".." +
                                                    std::to_string(static_cast<long long>(hi));
  return true;
}

}  // namespace ppl::samplers
