// Pairwise ±1 models: recognition, colouring, heat-bath and Swendsen–Wang sweeps (see
// spins.hpp).
#include "samplers/spins.hpp"

#include <algorithm>
#include <cmath>

#include "runtime/draws.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers::spins {

using lang::ir::role;
using lang::ir::statement;

namespace {

constexpr std::size_t max_spins_per_term = 12;  // 4,096 evaluations of one instance

// A uniform in [0, 1) from a counter: the splitmix64 finaliser of key + site.
double hashed_uniform(std::uint64_t key, std::uint64_t site) {
  std::uint64_t z = key + site * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return runtime::unit_uniform(z);
}


struct pair_term {
  std::uint32_t a, b;
  double j;
};

}  // namespace

namespace {

// The analysis itself, uncached.
std::optional<pairwise_model> read_pairwise(runtime::graph& g, int variable, std::string& reason) {
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
    out.constant += g.statement_log_density(s);  // log(1/2) per spin, whatever the values
    out.statements.push_back(si);
  }
  auto& x = g.values()[static_cast<std::size_t>(variable)].data;
  out.sites = x.size();
  out.field.assign(out.sites, 0.0);
  std::vector<pair_term> pairs;
  auto label = [&](std::uint32_t e) {
    return runtime::element_column(var.name, g.value(variable).shape, static_cast<runtime::index_t>(e));
  };
  for (int si : reading_statements(m, variable)) {
    const statement& s = m.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::factor) {
      reason = s.which == statement::kind::sample ? "a `~` statement reads it" : "a deterministic statement that feeds a density reads it";
      return std::nullopt;
    }
    out.statements.push_back(si);
    bool ok = true;
    std::vector<std::uint32_t> elements;
    std::vector<double> values;
    g.visit_instances(s, [&](const runtime::index_t* loops) {
      if (!ok) return;
      elements.clear();
      for (const auto& r : g.instance_reads(s, loops)) {
        if (r.variable == variable) {
          for (runtime::index_t e = r.offset; e < r.offset + r.size; ++e) elements.push_back(static_cast<std::uint32_t>(e));
        } else {
          const auto rr = m.variables[static_cast<std::size_t>(r.variable)].role;
          if (rr != role::data && rr != role::transformed_data) {
            reason = "a factor also reads `" + m.variables[static_cast<std::size_t>(r.variable)].name + "`, which is not data";
            ok = false;
            return;
          }
        }
      }
      std::sort(elements.begin(), elements.end());
      elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
      const std::size_t k = elements.size();
      if (k > max_spins_per_term) {
        reason = "a factor reads more than " + std::to_string(max_spins_per_term) + " of its elements";
        ok = false;
        return;
      }
      // The factor at every configuration of its spins (bit i set: element i is +1).
      std::vector<double> saved(k);
      for (std::size_t i = 0; i < k; ++i) saved[i] = x[elements[i]];
      values.assign(std::size_t{1} << k, 0.0);
      for (std::size_t c = 0; c < values.size(); ++c) {
        for (std::size_t i = 0; i < k; ++i) x[elements[i]] = (c >> i & 1) ? 1.0 : -1.0;
        values[c] = g.instance_log_density(s, loops);
      }
      for (std::size_t i = 0; i < k; ++i) x[elements[i]] = saved[i];
      double scale = 0;
      for (double v : values) {
        if (!std::isfinite(v)) {
          reason = "a factor is not finite at every configuration of its spins";
          ok = false;
          return;
        }
        scale = std::max(scale, std::fabs(v));
      }
      // Walsh–Hadamard transform: values[S] becomes 2^k times the coefficient of the
      // product of the spins in S.
      for (std::size_t bit = 1; bit < values.size(); bit <<= 1)
        for (std::size_t c = 0; c < values.size(); ++c)
          if (!(c & bit)) {
            const double minus = values[c], plus = values[c | bit];
            values[c] = plus + minus;
            values[c | bit] = plus - minus;
          }
      const double size = static_cast<double>(values.size());
      out.constant += values[0] / size;
      for (std::size_t c = 1; c < values.size(); ++c) {
        const double coefficient = values[c] / size;
        const int order = __builtin_popcountll(c);
        if (order >= 3) {
          if (std::fabs(coefficient) > 1e-9 * (1 + scale)) {
            reason = "a factor couples three or more of its elements at once";
            ok = false;
            return;
          }
        } else if (order == 1) {
          out.field[elements[static_cast<std::size_t>(__builtin_ctzll(c))]] += coefficient;
        } else if (coefficient != 0) {
          const auto i = static_cast<std::size_t>(__builtin_ctzll(c)), j = static_cast<std::size_t>(63 - __builtin_clzll(c));
          pairs.push_back({elements[i], elements[j], coefficient});
        }
      }
    });
    if (!ok) return std::nullopt;
  }
  // Sum the terms of each pair, then store each coupling in both directions.
  std::sort(pairs.begin(), pairs.end(), [](const pair_term& p, const pair_term& q) { return std::tie(p.a, p.b) < std::tie(q.a, q.b); });
  std::vector<pair_term> merged;
  for (const auto& p : pairs)
    if (!merged.empty() && merged.back().a == p.a && merged.back().b == p.b) merged.back().j += p.j;
    else merged.push_back(p);
  out.start.assign(out.sites + 1, 0);
  for (const auto& p : merged) ++out.start[p.a + 1], ++out.start[p.b + 1];
  for (std::size_t i = 0; i < out.sites; ++i) out.start[i + 1] += out.start[i];
  out.neighbour.resize(out.start.back());
  out.coupling.resize(out.start.back());
  std::vector<std::uint64_t> next(out.start.begin(), out.start.end() - 1);
  out.min_coupling = INFINITY;
  for (const auto& p : merged) {
    out.neighbour[next[p.a]] = p.b, out.coupling[next[p.a]++] = p.j;
    out.neighbour[next[p.b]] = p.a, out.coupling[next[p.b]++] = p.j;
    if (p.j < out.min_coupling) {
      out.min_coupling = p.j;
      out.min_coupling_between = label(p.a) + " and " + label(p.b);
    }
  }
  if (merged.empty()) out.min_coupling = 0;
  return out;
}

struct cached_analysis {
  std::optional<pairwise_model> model;
  std::string reason;
};

}  // namespace

std::optional<pairwise_model> find_pairwise(runtime::graph& g, int variable, std::string& reason) {
  const std::string key = "spins::pairwise " + std::to_string(variable);
  auto cached = std::static_pointer_cast<const cached_analysis>(g.analysis(key));
  if (!cached) {
    auto fresh = std::make_shared<cached_analysis>();
    fresh->model = read_pairwise(g, variable, fresh->reason);
    g.keep_analysis(key, fresh);
    cached = fresh;
  }
  if (!cached->model) reason = cached->reason;
  return cached->model;
}

double log_density(const pairwise_model& m, const double* x) {
  double lp = m.constant;
  for (std::size_t i = 0; i < m.sites; ++i) {
    double pairs = 0;
    for (std::uint64_t e = m.start[i]; e < m.start[i + 1]; ++e)
      if (m.neighbour[e] > i) pairs += m.coupling[e] * x[m.neighbour[e]];
    lp += x[i] * (m.field[i] + pairs);
  }
  return lp;
}

double marginal_log_density(const pairwise_model& m, const double* x, std::vector<char>& skip, std::size_t statements) {
  skip.resize(statements, 0);
  for (int s : m.statements) skip[static_cast<std::size_t>(s)] = 1;
  return log_density(m, x);
}

std::vector<std::vector<std::uint32_t>> colour_classes(const pairwise_model& m) {
  std::vector<std::uint32_t> colour(m.sites, 0);
  std::vector<char> taken;
  std::uint32_t colours = 0;
  for (std::size_t i = 0; i < m.sites; ++i) {
    taken.assign(colours + 1, 0);
    for (std::uint64_t e = m.start[i]; e < m.start[i + 1]; ++e)
      if (m.neighbour[e] < i) taken[colour[m.neighbour[e]]] = 1;
    std::uint32_t c = 0;
    while (taken[c]) ++c;
    colour[i] = c;
    colours = std::max(colours, c + 1);
  }
  std::vector<std::vector<std::uint32_t>> classes(colours);
  for (std::size_t i = 0; i < m.sites; ++i) classes[colour[i]].push_back(static_cast<std::uint32_t>(i));
  return classes;
}

heat_bath::heat_bath(pairwise_model m, double* spins) : m_(std::move(m)), x_(spins), classes_(colour_classes(m_)) {
  if (m_.sites == 0) return;
  degree_ = m_.start[1] - m_.start[0];
  uniform_ = true;
  for (std::size_t i = 0; uniform_ && i < m_.sites; ++i)
    uniform_ = m_.start[i + 1] - m_.start[i] == degree_ && m_.field[i] == m_.field[0];
  for (std::size_t e = 0; uniform_ && e < m_.coupling.size(); ++e) uniform_ = m_.coupling[e] == m_.coupling[0];
  if (!uniform_) return;
  const double j = m_.coupling.empty() ? 0 : m_.coupling[0];
  for (std::uint64_t up = 0; up <= degree_; ++up) {  // `up` neighbours at +1
    const double local = m_.field[0] + j * (2.0 * static_cast<double>(up) - static_cast<double>(degree_));
    table_.push_back(1 / (1 + std::exp(-2 * local)));
  }
}

// p(s_i = +1 | neighbours) = 1 / (1 + exp(-2 (h_i + sum_j J_ij s_j))).
void heat_bath::update(const std::vector<std::uint32_t>& sites, std::size_t first, std::size_t last, std::uint64_t key) {
  const std::uint32_t* nb = m_.neighbour.data();
  if (uniform_) {
    const double half = static_cast<double>(degree_);
    for (std::size_t n = first; n < last; ++n) {
      const std::uint32_t i = sites[n];
      const std::uint32_t* ni = nb + i * degree_;
      double sum = 0;
      for (std::uint64_t e = 0; e < degree_; ++e) sum += x_[ni[e]];
      const double p = table_[static_cast<std::size_t>((sum + half) * 0.5)];
      x_[i] = hashed_uniform(key, i) < p ? 1.0 : -1.0;
    }
    return;
  }
  for (std::size_t n = first; n < last; ++n) {
    const std::uint32_t i = sites[n];
    double local = m_.field[i];
    for (std::uint64_t e = m_.start[i]; e < m_.start[i + 1]; ++e) local += m_.coupling[e] * x_[nb[e]];
    x_[i] = hashed_uniform(key, i) * (1 + std::exp(-2 * local)) < 1 ? 1.0 : -1.0;
  }
}

void heat_bath::sweep(runtime::rng& rng, int threads) {
  const auto T = static_cast<std::size_t>(std::max(threads, 1));
  if (T > 1 && (!pool_ || pool_->size() != T)) pool_ = std::make_unique<runtime::thread_pool>(T);
  for (const auto& sites : classes_) {
    const std::uint64_t key = rng();
    if (T == 1 || sites.size() < 4096) {
      update(sites, 0, sites.size(), key);
      continue;
    }
    pool_->run([&](std::size_t b) { update(sites, sites.size() * b / T, sites.size() * (b + 1) / T, key); });
  }
}

swendsen_wang::swendsen_wang(pairwise_model m, double* spins) : m_(std::move(m)), x_(spins) {
  bond_probability_.resize(m_.coupling.size());
  for (std::size_t e = 0; e < m_.coupling.size(); ++e) bond_probability_[e] = -std::expm1(-2 * m_.coupling[e]);
  parent_.resize(m_.sites);
  cluster_field_.resize(m_.sites);
}

std::uint32_t swendsen_wang::root(std::uint32_t i) {
  while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];  // path halving
  return i;
}

void swendsen_wang::sweep(runtime::rng& rng) {
  const auto n = static_cast<std::uint32_t>(m_.sites);
  for (std::uint32_t i = 0; i < n; ++i) parent_[i] = i;
  // Bonds: each coupling once (from its smaller end), between equal spins.
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint64_t e = m_.start[i]; e < m_.start[i + 1]; ++e) {
      const std::uint32_t j = m_.neighbour[e];
      if (j <= i || x_[i] != x_[j] || runtime::unit_uniform(rng) >= bond_probability_[e]) continue;
      const std::uint32_t a = root(i), b = root(j);
      if (a != b) parent_[std::max(a, b)] = std::min(a, b);
    }
  // Each cluster's field, then its new spin, drawn at its root (the smallest site, met first).
  std::fill(cluster_field_.begin(), cluster_field_.end(), 0.0);
  std::uint32_t clusters = 0;
  for (std::uint32_t i = 0; i < n; ++i) cluster_field_[root(i)] += m_.field[i];
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t r = root(i);
    if (r == i) {
      ++clusters;
      x_[i] = runtime::unit_uniform(rng) * (1 + std::exp(-2 * cluster_field_[i])) < 1 ? 1.0 : -1.0;
    } else {
      x_[i] = x_[r];
    }
  }
  mean_size_ = clusters ? static_cast<double>(n) / clusters : 0;
}

}  // namespace ppl::samplers::spins
