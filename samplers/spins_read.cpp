// Reading a pairwise ±1 model off the factors (see spins.hpp): each factor instance's
// values at the configurations of the spins it reads, Walsh–Hadamard transformed into its
// constant, field and coupling terms, summed into fields and neighbour lists. Factors of
// the usual forms are read as columns (spins_columns.cpp); any other, instance by
// instance here.
#include <algorithm>
#include <cmath>

#include "draws/draws.hpp"
#include "samplers/spins_internal.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers::spins {

using lang::ir::role;
using lang::ir::statement;

namespace detail {

bool term_sum::add(const std::uint32_t* elements, std::size_t k, double* values, std::string& reason) {
  const std::size_t size = std::size_t{1} << k;
  double scale = 0;
  for (std::size_t c = 0; c < size; ++c) {
    if (!std::isfinite(values[c])) {
      reason = "a factor is not finite at every configuration of its spins";
      return false;
    }
    scale = std::max(scale, std::fabs(values[c]));
  }
  // Walsh–Hadamard transform: values[S] becomes 2^k times the coefficient of the product
  // of the spins in S.
  for (std::size_t bit = 1; bit < size; bit <<= 1)
    for (std::size_t c = 0; c < size; ++c)
      if (!(c & bit)) {
        const double minus = values[c], plus = values[c | bit];
        values[c] = plus + minus;
        values[c | bit] = plus - minus;
      }
  const double total = static_cast<double>(size);
  constant += values[0] / total;
  for (std::size_t c = 1; c < size; ++c) {
    const double coefficient = values[c] / total;
    const int order = __builtin_popcountll(c);
    if (order >= 3) {
      if (std::fabs(coefficient) > 1e-9 * (1 + scale)) {
        reason = "a factor couples three or more of its elements at once";
        return false;
      }
    } else if (order == 1) {
      field[elements[static_cast<std::size_t>(__builtin_ctzll(c))]] += coefficient;
    } else if (coefficient != 0) {
      const auto i = static_cast<std::size_t>(__builtin_ctzll(c)), j = static_cast<std::size_t>(63 - __builtin_clzll(c));
      pairs.push_back({elements[i], elements[j], coefficient});
    }
  }
  return true;
}

}  // namespace detail

namespace {

using detail::pair_term;

// Every instance of factor `s` through the evaluator: the spins it reads (it must read
// nothing else but data), then its value at each of their configurations.
bool read_instances(model::graph& g, const statement& s, int variable, detail::term_sum& sum, std::string& reason) {
  const auto& m = g.model();
  auto& x = g.values()[static_cast<std::size_t>(variable)].data;
  bool ok = true;
  std::vector<std::uint32_t> elements;
  std::vector<double> values, saved;
  model::instances(g).visit(s, [&](const ppl::index_t* loops) {
    if (!ok) return;
    elements.clear();
    for (const auto& r : model::instances(g).reads(s, loops)) {
      if (r.variable == variable) {
        for (ppl::index_t e = r.offset; e < r.offset + r.size; ++e) elements.push_back(static_cast<std::uint32_t>(e));
        continue;
      }
      const auto rr = m.variables[static_cast<std::size_t>(r.variable)].role;
      if (rr != role::data && rr != role::transformed_data) {
        reason = "a factor also reads `" + m.variables[static_cast<std::size_t>(r.variable)].name + "`, which is not data";
        ok = false;
        return;
      }
    }
    std::sort(elements.begin(), elements.end());
    elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
    const std::size_t k = elements.size();
    if (k > detail::max_spins_per_term) {
      reason = "a factor reads more than " + std::to_string(detail::max_spins_per_term) + " of its elements";
      ok = false;
      return;
    }
    // The factor at every configuration of its spins (bit i set: element i is +1).
    saved.resize(k);
    for (std::size_t i = 0; i < k; ++i) saved[i] = x[elements[i]];
    values.assign(std::size_t{1} << k, 0.0);
    for (std::size_t c = 0; c < values.size(); ++c) {
      for (std::size_t i = 0; i < k; ++i) x[elements[i]] = (c >> i & 1) ? 1.0 : -1.0;
      values[c] = model::instances(g).log_density(s, loops);
    }
    for (std::size_t i = 0; i < k; ++i) x[elements[i]] = saved[i];
    ok = sum.add(elements.data(), k, values.data(), reason);
  });
  return ok;
}

// The pairs site by site: a counting sort on their first site (stable), then each site's
// few pairs by their second, so that no sorted copy of them is made.
class pairs_by_site {
 public:
  pairs_by_site(const std::vector<pair_term>& pairs, std::size_t sites) : pairs_(pairs), end_(sites + 1, 0), order_(pairs.size()) {
    for (const auto& p : pairs) ++end_[p.a + 1];
    for (std::size_t i = 0; i < sites; ++i) end_[i + 1] += end_[i];
    // end_[a] is advanced past site a's pairs as they are placed: site a's are then
    // [end_[a - 1], end_[a]). Fewer than 2^32 pairs (read_pairwise).
    for (std::size_t n = 0; n < pairs.size(); ++n) order_[end_[pairs[n].a]++] = static_cast<std::uint32_t>(n);
    end_.pop_back();
  }

  // Calls fn(a, b, j) for each pair with its terms summed (in the order they were found),
  // in the order of (a, b).
  template <typename F>
  void for_each(F&& fn) {
    for (std::size_t a = 0; a < end_.size(); ++a) {
      const auto from = order_.begin() + static_cast<std::ptrdiff_t>(a ? end_[a - 1] : 0), to = order_.begin() + static_cast<std::ptrdiff_t>(end_[a]);
      for (auto p = from + (from != to); p < to; ++p)  // a stable insertion sort by b: a site has few pairs
        for (auto q = p; q != from && pairs_[*(q - 1)].b > pairs_[*q].b; --q) std::iter_swap(q - 1, q);
      for (auto p = from; p != to;) {
        double j = pairs_[*p].j;
        const std::uint32_t b = pairs_[*p].b;
        while (++p != to && pairs_[*p].b == b) j += pairs_[*p].j;
        fn(static_cast<std::uint32_t>(a), b, j);
      }
    }
  }

 private:
  const std::vector<pair_term>& pairs_;
  std::vector<std::uint32_t> end_, order_;
};

// Stores each coupling in both directions, every site's neighbours in increasing order; one
// J when all are equal. Two passes: one counts each site's neighbours, one stores them.
void store_couplings(pairwise_model& out, const std::vector<pair_term>& pairs, const std::string& name, const ppl::shape& shape) {
  pairs_by_site merged(pairs, out.sites);
  out.start.assign(out.sites + 1, 0);
  bool equal = true, any = false;
  merged.for_each([&](std::uint32_t a, std::uint32_t b, double j) {
    ++out.start[a + 1], ++out.start[b + 1];
    equal = equal && (!any || j == out.equal_coupling);
    any = true;
    out.equal_coupling = j;
  });
  for (std::size_t i = 0; i < out.sites; ++i) out.start[i + 1] += out.start[i];
  out.neighbour.resize(out.start.back());
  if (!equal) out.coupling.resize(out.start.back()), out.equal_coupling = 0;
  out.min_coupling = any ? INFINITY : 0;
  std::uint32_t low = 0, high = 0;
  // start[i] is advanced past site i's entries as they are stored, then moved back.
  merged.for_each([&](std::uint32_t a, std::uint32_t b, double j) {
    if (!equal) out.coupling[out.start[a]] = j, out.coupling[out.start[b]] = j;
    out.neighbour[out.start[a]++] = b;
    out.neighbour[out.start[b]++] = a;
    if (j < out.min_coupling) out.min_coupling = j, low = a, high = b;
  });
  for (std::size_t i = out.sites; i > 0; --i) out.start[i] = out.start[i - 1];
  out.start[0] = 0;
  auto label = [&](std::uint32_t e) { return draws::element_column(name, shape, static_cast<ppl::index_t>(e)); };
  if (any) out.min_coupling_between = label(low) + " and " + label(high);
}

}  // namespace

namespace detail {

std::optional<pairwise_model> read_pairwise(model::graph& g, int variable, std::string& reason, bool columns) {
  const auto& m = g.model();
  const auto& var = m.variables[static_cast<std::size_t>(variable)];
  if (var.role != role::unknown) return std::nullopt;
  pairwise_model out;
  for (int si : var.statements) {
    const statement& s = m.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample || s.dist_name != "Spin") {
      reason = "its elements are not all Spin() unknowns";
      return std::nullopt;
    }
    out.constant += model::instances(g).log_density(s);  // log(1/2) per spin, whatever the values
    out.statements.push_back(si);
  }
  out.sites = g.value(variable).data.size();
  term_sum sum;
  sum.constant = out.constant;
  sum.field.assign(out.sites, 0.0);
  for (int si : reading_statements(m, variable)) {
    const statement& s = m.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::factor) {
      reason = s.which == statement::kind::sample ? "a `~` statement reads it" : "a deterministic statement that feeds a density reads it";
      return std::nullopt;
    }
    out.statements.push_back(si);
    const column_outcome read = columns ? add_factor_columns(g, s, variable, sum) : column_outcome::declined;
    // A check failed part-way through the columns: every statement again, one instance at a time.
    if (read == column_outcome::abandoned) return read_pairwise(g, variable, reason, false);
    if (read == column_outcome::declined && !read_instances(g, s, variable, sum, reason)) return std::nullopt;
  }
  if (sum.pairs.size() > 0xffffffffu) {
    reason = "its factors have more than 2^32 - 1 pair terms";
    return std::nullopt;
  }
  out.constant = sum.constant;
  out.field = std::move(sum.field);
  store_couplings(out, sum.pairs, var.name, g.value(variable).shape);
  return out;
}

}  // namespace detail

namespace {

struct cached_analysis {
  std::shared_ptr<const pairwise_model> model;
  std::string reason;
};

}  // namespace

std::shared_ptr<const pairwise_model> find_pairwise(model::graph& g, int variable, std::string& reason) {
  const std::string key = "spins::pairwise " + std::to_string(variable);
  auto cached = std::static_pointer_cast<const cached_analysis>(g.analysis(key));
  if (!cached) {
    auto fresh = std::make_shared<cached_analysis>();
    if (auto model = detail::read_pairwise(g, variable, fresh->reason)) fresh->model = std::make_shared<const pairwise_model>(std::move(*model));
    g.keep_analysis(key, fresh);
    cached = fresh;
  }
  if (!cached->model) reason = cached->reason;
  return cached->model;
}

}  // namespace ppl::samplers::spins
