#pragma once
// What the files of coordinate ascent share (inference/cavi.cpp, cavi_discrete.cpp): the
// updates, designs and factors' records, and the reading of which elements a term holds.
#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <vector>

#include "draws/psis.hpp"
#include "inference/cavi.hpp"
#include "inference/particles.hpp"
#include "samplers/gaussian_block.hpp"
#include "samplers/structure.hpp"

namespace ppl::inference {

// Codes with an odd number of bits, in increasing order: any one, two or three distinct
// ones have a nonzero XOR, so the product of their parities averages to zero over all
// settings of the bits.
inline ppl::index_t code(std::size_t element) {
  static std::vector<ppl::index_t> codes;
  while (codes.size() <= element) {
    ppl::index_t next = codes.empty() ? 1 : codes.back() + 1;
    while (std::popcount(static_cast<std::uint64_t>(next)) % 2 == 0) ++next;
    codes.push_back(next);
  }
  return codes[element];
}

inline int bits_for(std::size_t elements) { return std::bit_width(static_cast<std::uint64_t>(code(elements - 1))); }

inline constexpr int most_bits = 22;  // 4 million rows: an update or a term beyond it is refused

// The unknowns a design varies, each with its slice of a row's bits, and the derived
// variables to recompute after setting them.
struct cavi::design {
  std::vector<int> variables;
  std::vector<int> shift;
  std::vector<char> shared;  // one sign for all of the variable's elements
  int bits = 0;
  std::vector<char> derived;
  // A discrete unknown it reads, and its number of values: the rows are 2^bits for each;
  // and a scalar held on a grid (cavi::grid): the same for each point, each row weighted by
  // its point's probability. With both, the rows run over every pair (value, point).
  int discrete = -1;
  int grid = -1;
  long discrete_values = 1, grid_points = 1;
  long values = 1;  // discrete_values * grid_points
  long rows() const { return (1L << bits) * values; }
};

// One unknown's update: by its conjugate pair's statistics, or as a Gaussian block; the
// statements it reads (children and priors) and the design over the other unknowns they read.
struct cavi::update {
  int variable = -1;
  const samplers::conjugate_pair* pair = nullptr;
  std::unique_ptr<samplers::conjugate_totals> totals;
  block* joint = nullptr;
  discrete* hidden = nullptr;
  grid* scalar = nullptr;
  simplex* weights = nullptr;  // a Dirichlet unknown's update
  wishart* matrix = nullptr;   // a Wishart unknown's
  std::vector<int> statements;
  design* over = nullptr;
};

// q of a Gaussian block: N(mean, S S'), with log |Q| of its precision Q = (S S')^-1.
struct cavi::block {
  std::vector<int> variables;
  std::unique_ptr<samplers::gaussian_block_base> gaussian;
  Eigen::VectorXd mean;
  Eigen::MatrixXd spread;
  double log_det = 0;
  bool diagonal = false;  // no term holds two of its coordinates: Q, and S, are diagonal
  bool fitted = false;    // updated once: no longer a point
};


// The unknowns (by index, marked in `q`) that statement s reads, directly or through
// derived variables, and its target when that is one.
inline std::vector<int> unknowns_of(const lang::ir::model& m, const lang::ir::statement& s, const std::vector<char>& q) {
  std::vector<char> marked(m.variables.size(), 0);
  for (int v : lang::ir::statement_reads(s)) marked[static_cast<std::size_t>(v)] = 1;
  if (s.target >= 0) marked[static_cast<std::size_t>(s.target)] = 1;
  marked = samplers::with_inputs(m, std::move(marked));
  std::vector<int> out;
  for (std::size_t v = 0; v < marked.size(); ++v)
    if (marked[v] && q[v]) out.push_back(static_cast<int>(v));
  return out;
}

// How many elements of variable v one instance of an expression reads: 0, 1, or 2 for
// more (or for any it may read whole), following derived variables into their definitions.
inline int elements_read(const lang::ir::model& m, const lang::ir::expr* e, int v) {
  using lang::ir::expr;
  if (!e || e->shape_only) return 0;
  auto through = [&](int w, auto&& one) {  // a derived w: the most one instance of any of its definitions reads
    int most = 0;
    for (int s : m.variables[static_cast<std::size_t>(w)].statements) most = std::max(most, one(m.statements[static_cast<std::size_t>(s)]));
    return most;
  };
  auto read_whole = [&](int w) {
    if (w == v) return m.variables[static_cast<std::size_t>(v)].type.rank == 0 ? 1 : 2;
    if (m.variables[static_cast<std::size_t>(w)].role != lang::ir::role::derived) return 0;
    return through(w, [&](const lang::ir::statement& s) { return elements_read(m, s.value.get(), v) > 0 ? 2 : 0; });
  };
  int count = 0;
  if (e->which == expr::kind::variable) return read_whole(e->slot);
  if (e->which == expr::kind::index && e->args[0]->which == expr::kind::variable) {
    const int w = e->args[0]->slot;
    bool single = static_cast<int>(e->indices.size()) == m.variables[static_cast<std::size_t>(w)].type.rank;
    for (const auto& ix : e->indices) {
      single = single && ix.which == lang::ir::index_item::kind::single;
      count += elements_read(m, ix.lo.get(), v) + elements_read(m, ix.hi.get(), v);
    }
    if (!single) count += read_whole(w);
    else if (w == v) count += 1;
    else if (m.variables[static_cast<std::size_t>(w)].role == lang::ir::role::derived)
      count += through(w, [&](const lang::ir::statement& s) { return elements_read(m, s.value.get(), v); });
    return std::min(count, 2);
  }
  for (const auto& a : e->args) count += elements_read(m, a.get(), v);
  for (const auto& ix : e->indices) count += elements_read(m, ix.lo.get(), v) + elements_read(m, ix.hi.get(), v);
  return std::min(count, 2);
}

// The same for one instance of a statement: its arguments, and its target when that is v.
inline int elements_read(const lang::ir::model& m, const lang::ir::statement& s, int v) {
  int count = 0;
  for (const auto& a : s.args) count += elements_read(m, a.get(), v);
  for (const auto& ix : s.target_indices) count += elements_read(m, ix.get(), v);
  if (s.target == v) {
    const bool scalar = s.dist && s.dist->value_rank() == 0 && !s.target_from &&
                        static_cast<int>(s.target_indices.size()) == m.variables[static_cast<std::size_t>(v)].type.rank;
    count += scalar ? 1 : 2;
  }
  return std::min(count, 2);
}

// A discrete unknown's q: r[e][k] the probability of values[k] at element e.
struct cavi::discrete {
  int variable = -1;
  std::vector<double> values;
  std::vector<std::vector<double>> r;
  std::vector<char> derived;  // the derived variables it reaches, recomputed as it is set
};

// A Dirichlet unknown's q: Dirichlet(alpha) over each block (offset, size) of its prior, and
// each block's log sum_j exp(E log pi_j).
struct cavi::simplex {
  int variable = -1;
  std::vector<std::pair<ppl::index_t, ppl::index_t>> blocks;
  std::vector<double> alpha, log_normaliser;
  bool fitted = false;
};

// A Wishart unknown's q: Wishart(nu, S) on its one K x K precision matrix W (at `offset`),
// or InverseWishart(nu, S) on a covariance matrix C = W^-1. Its two points of equal weight,
// lo E[W] and hi E[W] (lo + hi = 2; for C their inverses), have its expected sufficient
// statistics E[W] and E log |W|: a multivariate normal's log density is linear in both, so
// the designs average the terms that read the matrix exactly with one sign for the whole
// matrix (inference/cavi_wishart.cpp).
struct cavi::wishart {
  int variable = -1;
  bool inverse = false;  // InverseWishart on a covariance
  ppl::index_t offset = 0, k = 0;
  double nu = 0;
  Eigen::MatrixXd scale;  // q's own scale: S of the Wishart, or of the InverseWishart
  double expected_log_det = 0;  // E log |W|, W the precision
  bool fitted = false;
};

// A scalar without a conjugate update, held on a grid of its unconstrained scale u (x = f(u)
// as a sampler's transform): q(x) in cell k of width h about u_k has probability r[k], its
// density on u r[k] / h; `log_slope` log |dx/du| at each point.
struct cavi::grid {
  int variable = -1;
  double lower = -INFINITY, upper = INFINITY;  // x's support
  std::vector<double> u, x, log_slope, r;
  double h = 0;
  bool fitted = false;
  // Points spread evenly over [centre - half_width, centre + half_width].
  void place(double centre, double half_width);
  double value(double at) const;        // f(u)
  double log_jacobian(double at) const; // log |f'(u)|
  double unconstrain(double value) const;
};

inline constexpr int grid_points = 64;

}  // namespace ppl::inference
