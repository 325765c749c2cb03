// Which elements each statement defines, where that is known without data: loops with
// literal bounds, and target indices that are literals or a loop variable plus or minus a
// literal. An element defined twice (by two statements, or by two instances of one) or an
// element of an unknown that no statement defines is then an error before any data is read.
// The graph finds the same with data for the statements whose bounds come from it.
#include <algorithm>
#include <map>
#include <optional>

#include "lang/checker_impl.hpp"

namespace ppl::lang::detail {

namespace {

using ir::expr;

// Loops and arrays this large are left to the graph, which checks them with its own limits.
constexpr long long max_magnitude = 1LL << 31;
constexpr long long max_elements = 1LL << 20;

// An integer computed from literals alone: `3`, `2 * 5`, `-1`.
std::optional<long long> constant(const expr& e) {
  if (e.which == expr::kind::int_const)
    return e.constant <= static_cast<double>(max_magnitude) ? std::optional(static_cast<long long>(e.constant)) : std::nullopt;
  if (e.which != expr::kind::call || e.args.empty() || e.args.size() > 2) return std::nullopt;
  std::vector<long long> a;
  for (const auto& arg : e.args) {
    auto c = constant(*arg);
    if (!c) return std::nullopt;
    a.push_back(*c);
  }
  const std::string_view f = e.fn->name();
  std::optional<long long> out;
  if (a.size() == 1 && f == "neg") out = -a[0];
  if (a.size() == 2 && f == "+") out = a[0] + a[1];
  if (a.size() == 2 && f == "-") out = a[0] - a[1];
  if (a.size() == 2 && f == "*") out = a[0] * a[1];  // each factor is below 2^31: no overflow
  return out && *out >= -max_magnitude && *out <= max_magnitude ? out : std::nullopt;
}

// A target index: loop variable `slot` plus `offset`, or the constant `offset` (slot -1).
struct affine {
  int slot = -1;
  long long offset = 0;
};

std::optional<affine> affine_index(const expr& e) {
  if (auto c = constant(e)) return affine{-1, *c};
  if (e.which == expr::kind::loop_var) return affine{e.slot, 0};
  if (e.which != expr::kind::call || e.args.size() != 2) return std::nullopt;
  const std::string_view f = e.fn->name();
  auto left = affine_index(*e.args[0]);
  auto right = constant(*e.args[1]);
  if (left && right && (f == "+" || f == "-")) return affine{left->slot, left->offset + (f == "+" ? *right : -*right)};
  auto first = constant(*e.args[0]);
  auto second = affine_index(*e.args[1]);
  if (first && second && f == "+") return affine{second->slot, second->offset + *first};
  return std::nullopt;
}

// A statement whose instances and the elements they define are known.
struct known_statement {
  const ir::statement* s = nullptr;
  std::vector<std::pair<long long, long long>> ranges;  // per loop, outermost first
  std::vector<affine> indices;
  long long instances = 1;

  // The loop values of instance k (row-major over the loops).
  std::vector<long long> loop_values(long long k) const {
    std::vector<long long> values(ranges.size());
    for (std::size_t l = ranges.size(); l-- > 0;) {
      const long long extent = ranges[l].second - ranges[l].first + 1;
      values[l] = ranges[l].first + k % extent;
      k /= extent;
    }
    return values;
  }

  std::vector<long long> element(const std::vector<long long>& loops) const {
    std::vector<long long> out;
    for (const auto& ix : indices) {
      long long value = ix.offset;
      for (std::size_t l = 0; l < s->loops.size(); ++l)
        if (s->loops[l].slot == ix.slot) value += loops[l];
      out.push_back(value);
    }
    return out;
  }
};

std::optional<known_statement> read_known(const ir::statement& s) {
  if (s.target_from) return std::nullopt;  // a block of a dimension: the graph checks it
  known_statement k;
  k.s = &s;
  for (const auto& l : s.loops) {
    auto lo = constant(*l.lo), hi = constant(*l.hi);
    if (!lo || !hi) return std::nullopt;
    k.ranges.emplace_back(*lo, *hi);
    k.instances *= std::max(0LL, *hi - *lo + 1);
    if (k.instances > max_elements) return std::nullopt;
  }
  for (const auto& ix : s.target_indices) {
    auto a = affine_index(*ix);
    if (!a) return std::nullopt;
    k.indices.push_back(*a);
  }
  return k;
}

std::string element_text(const std::string& name, const std::vector<long long>& index) {
  if (index.empty()) return name;
  std::string out = name + "[";
  for (std::size_t d = 0; d < index.size(); ++d) out += (d ? ", " : "") + std::to_string(index[d]);
  return out + "]";
}

// "when i = 1, j = 2"; empty outside loops.
std::string loop_text(const ir::statement& s, const std::vector<long long>& values) {
  std::string out;
  for (std::size_t l = 0; l < s.loops.size(); ++l)
    if (!s.loops[l].hidden) out += (out.empty() ? "" : ", ") + s.loops[l].name + " = " + std::to_string(values[l]);
  return out.empty() ? "" : "when " + out;
}

void check_defined_once(const checker& c, const line_index& lines, const ir::variable& var,
                        const std::vector<known_statement>& known) {
  for (const auto& k : known)
    if (k.indices.size() != known.front().indices.size()) return;  // blocks of different ranks: the graph decides
  std::map<std::vector<long long>, std::pair<const known_statement*, long long>> defined;  // by whom, which instance
  for (const auto& k : known) {
    for (long long i = 0; i < k.instances; ++i) {
      const auto loops = k.loop_values(i);
      auto [it, fresh] = defined.try_emplace(k.element(loops), &k, i);
      if (fresh) continue;
      const auto& [other, j] = it->second;
      const std::string element = element_text(var.name, it->first);
      const std::string here = loop_text(*k.s, loops), there = loop_text(*other->s, other->loop_values(j));
      if (other == &k) c.fail(k.s->pos, element + " is defined twice by this statement: " + there + " and " + here);
      c.fail(k.s->pos, element + " is defined twice: on line " + std::to_string(lines.locate(other->s->pos).line) +
                           (there.empty() ? "" : " (" + there + ")") + " and here" + (here.empty() ? "" : " (" + here + ")"));
    }
  }
}

// Every element of the array up to the largest index defined is defined.
void check_all_defined(const checker& c, const ir::variable& var, const std::vector<known_statement>& known) {
  const std::size_t rank = known.front().indices.size();
  std::vector<long long> extent(rank, 0);
  std::map<std::vector<long long>, char> defined;
  for (const auto& k : known) {
    if (k.indices.size() != rank) return;
    for (long long i = 0; i < k.instances; ++i) {
      auto element = k.element(k.loop_values(i));
      for (std::size_t d = 0; d < rank; ++d) {
        if (element[d] < 1) return;  // the graph says where an index is below 1
        extent[d] = std::max(extent[d], element[d]);
      }
      defined.emplace(std::move(element), 1);
    }
  }
  long long size = 1;
  for (long long e : extent) size = std::min(size * e, max_elements + 1);
  if (size > max_elements || static_cast<long long>(defined.size()) == size) return;
  std::vector<long long> element(rank, 1);
  for (long long i = 0; i < size; ++i) {
    if (!defined.count(element)) c.fail(var.pos, element_text(var.name, element) + " is never defined");
    for (std::size_t d = rank; d-- > 0 && ++element[d] > extent[d];) element[d] = 1;
  }
}

}  // namespace

// The statements that define a variable's elements: `~` for an unknown, `=` for a variable
// computed by it. (`~` on data or on a variable computed from data observes it.)
std::vector<const ir::statement*> checker::definitions(const ir::variable& var) const {
  std::vector<const ir::statement*> out;
  for (int si : var.statements) {
    const auto& s = model_.statements[static_cast<std::size_t>(si)];
    const bool defines = var.role == ir::role::unknown ? s.which == ir::statement::kind::sample
                                                        : var.role != ir::role::data && s.which == ir::statement::kind::assign;
    if (defines) out.push_back(&s);
  }
  std::sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->pos < b->pos; });
  return out;
}

void checker::check_elements() {
  for (const auto& var : model_.variables) {
    if (var.filled_from >= 0) continue;  // defined where the data are missing: known with the data
    std::vector<known_statement> known;
    bool all_known = true;
    long long total = 0;
    for (const auto* s : definitions(var)) {
      auto k = read_known(*s);
      if (k && (total += k->instances) <= max_elements) known.push_back(std::move(*k));
      else all_known = false;
    }
    check_defined_once(*this, model_.lines, var, known);
    // A computed variable may leave elements undefined (BUGS's ragged arrays): the graph
    // refuses a read of one (model/graph_holes.cpp). An unknown's every element needs a prior.
    if (all_known && !known.empty() && var.role == ir::role::unknown) check_all_defined(*this, var, known);
  }
}

}  // namespace ppl::lang::detail
