// Pairwise ±1 models: their log density, colouring, heat-bath and Swendsen–Wang sweeps
// (see spins.hpp; the reading of a model off the factors is spins_read.cpp).
#include "samplers/spins.hpp"

#include <algorithm>
#include <cmath>

namespace ppl::samplers::spins {

namespace {

// A uniform in [0, 1) from a counter: the splitmix64 finaliser of key + site.
double hashed_uniform(std::uint64_t key, std::uint64_t site) {
  std::uint64_t z = key + site * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return ppl::unit_uniform(z);
}

}  // namespace

double log_density(const pairwise_model& m, const double* x) {
  double lp = m.constant;
  for (std::size_t i = 0; i < m.sites; ++i) {
    double pairs = 0;
    for (std::uint64_t e = m.start[i]; e < m.start[i + 1]; ++e)
      if (m.neighbour[e] > i) pairs += m.coupling_at(e) * x[m.neighbour[e]];
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

heat_bath::heat_bath(std::shared_ptr<const pairwise_model> model, double* spins)
    : m_(std::move(model)), x_(spins), classes_(colour_classes(*m_)) {
  const pairwise_model& m = *m_;
  if (m.sites == 0) return;
  degree_ = m.start[1] - m.start[0];
  uniform_ = true;
  for (std::size_t i = 0; uniform_ && i < m.sites; ++i)
    uniform_ = m.start[i + 1] - m.start[i] == degree_ && m.field[i] == m.field[0];
  uniform_ = uniform_ && m.coupling.empty();
  if (!uniform_) return;
  const double j = m.neighbour.empty() ? 0 : m.equal_coupling;
  for (std::uint64_t up = 0; up <= degree_; ++up) {  // `up` neighbours at +1
    const double local = m.field[0] + j * (2.0 * static_cast<double>(up) - static_cast<double>(degree_));
    table_.push_back(1 / (1 + std::exp(-2 * local)));
  }
}

// p(s_i = +1 | neighbours) = 1 / (1 + exp(-2 (h_i + sum_j J_ij s_j))).
void heat_bath::update(const std::vector<std::uint32_t>& sites, std::size_t first, std::size_t last, std::uint64_t key) {
  const pairwise_model& m = *m_;
  const std::uint32_t* nb = m.neighbour.data();
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
    double local = m.field[i];
    for (std::uint64_t e = m.start[i]; e < m.start[i + 1]; ++e) local += m.coupling_at(e) * x_[nb[e]];
    x_[i] = hashed_uniform(key, i) * (1 + std::exp(-2 * local)) < 1 ? 1.0 : -1.0;
  }
}

void heat_bath::sweep(ppl::rng& rng, int threads) {
  const auto T = static_cast<std::size_t>(std::max(threads, 1));
  if (T > 1 && (!pool_ || pool_->size() != T)) pool_ = std::make_unique<ppl::thread_pool>(T);
  for (const auto& sites : classes_) {
    const std::uint64_t key = rng();
    if (T == 1 || sites.size() < 4096) {
      update(sites, 0, sites.size(), key);
      continue;
    }
    pool_->run([&](std::size_t b) { update(sites, sites.size() * b / T, sites.size() * (b + 1) / T, key); });
  }
}

swendsen_wang::swendsen_wang(std::shared_ptr<const pairwise_model> model, double* spins) : m_(std::move(model)), x_(spins) {
  const pairwise_model& m = *m_;
  // One probability for a model whose couplings are all equal (a torus): no array of them.
  bond_uniform_ = -std::expm1(-2 * m.equal_coupling);
  bond_probability_.resize(m.coupling.size());
  for (std::size_t e = 0; e < bond_probability_.size(); ++e) bond_probability_[e] = -std::expm1(-2 * m.coupling[e]);
  parent_.resize(m.sites);
  cluster_field_.resize(m.sites);
}

std::uint32_t swendsen_wang::root(std::uint32_t i) {
  while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];  // path halving
  return i;
}

void swendsen_wang::sweep(ppl::rng& rng) {
  const pairwise_model& m = *m_;
  const auto n = static_cast<std::uint32_t>(m.sites);
  const bool uniform = bond_probability_.empty();
  for (std::uint32_t i = 0; i < n; ++i) parent_[i] = i;
  // Bonds: each coupling once (from its smaller end), between equal spins.
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint64_t e = m.start[i]; e < m.start[i + 1]; ++e) {
      const std::uint32_t j = m.neighbour[e];
      if (j <= i || x_[i] != x_[j] || ppl::unit_uniform(rng) >= (uniform ? bond_uniform_ : bond_probability_[e])) continue;
      const std::uint32_t a = root(i), b = root(j);
      if (a != b) parent_[std::max(a, b)] = std::min(a, b);
    }
  // Each cluster's field, then its new spin, drawn at its root (the smallest site, met first).
  std::fill(cluster_field_.begin(), cluster_field_.end(), 0.0);
  std::uint32_t clusters = 0;
  for (std::uint32_t i = 0; i < n; ++i) cluster_field_[root(i)] += m.field[i];
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t r = root(i);
    if (r == i) {
      ++clusters;
      x_[i] = ppl::unit_uniform(rng) * (1 + std::exp(-2 * cluster_field_[i])) < 1 ? 1.0 : -1.0;
    } else {
      x_[i] = x_[r];
    }
  }
  mean_size_ = clusters ? static_cast<double>(n) / clusters : 0;
}

}  // namespace ppl::samplers::spins
