// `gaussian_block`: unknowns with Normal priors whose every term is Normal with a mean (and
// value) affine in them jointly and a scale free of them, drawn together from their
// multivariate normal conditional, as JAGS's glm module and BUGS's block updates do. A
// regression's intercept and slope on an uncentred covariate are correlated almost -1 a
// posteriori; drawing each from its own conditional (conjugate Normal-Normal) then moves
// by steps of the conditional sd, far below the marginal one, and needs thousands of
// sweeps to cross the posterior; one joint draw crosses it at once.
//
// Every term, prior or observation, is y ~ Normal(m, s) with r = y - m = r0 + a'b affine
// in the block's elements b, so the conditional is N(Q^-1 c, Q^-1) with Q = sum a a' / s^2
// and c = -sum a r0 / s^2. r0 and the columns of A are read by evaluating the terms with
// b = 0 and with each b_k = 1 (p + 1 passes over the terms, each through the graph's
// batch path where a statement has one); a Cholesky factor of Q gives the draw. The cost
// grows with p^2 per term, so the planner forms such a block only for a few elements
// (samplers/plan_efficiency.cpp); affinity is checked once, when the sampler is made,
// by comparing the terms at a random point with r0 + A b.
#include <Eigen/Cholesky>
#include <Eigen/Dense>
#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <stdexcept>

#include "samplers/factories.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers {

using lang::ir::role;
using lang::ir::statement;

namespace {

// A Normal term's instances: its residuals y - m and scales, in instance order.
struct normal_term {
  const statement* s = nullptr;
  std::vector<runtime::index_t> loops;
  std::size_t count = 0;
  std::vector<runtime::index_t> value_offsets;
};

// What the block reads: its variables' elements, the terms, and the derived variables to
// recompute when they change.
struct block_structure {
  std::vector<int> variables;
  std::vector<std::pair<int, runtime::index_t>> elements;  // (variable, element) per coordinate
  std::vector<const statement*> terms;
  std::vector<char> derived;  // by variable: derived from the block and read by a term
};

// Why `variables` cannot form a block, or empty when their terms have the form above
// (structurally: Normal everywhere, scales and indices free of the block).
std::string structure_of(runtime::graph& g, const std::vector<int>& variables, block_structure& out) {
  const auto& m = g.model();
  const std::size_t n = m.variables.size();
  std::vector<char> marked(n, 0);
  for (int v : variables) marked[static_cast<std::size_t>(v)] = 1;
  const std::vector<char> reaches = reaching(m, marked);
  out.variables = variables;
  out.derived.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    if (!reaches[v] || marked[v]) continue;
    if (m.variables[v].role != role::derived) return "it reaches `" + m.variables[v].name + "`, which is not a derived variable";
    out.derived[v] = 1;
  }
  auto reads_block = [&](const lang::ir::expr* e) { return reads_marked(e, reaches); };
  for (const statement& s : m.statements) {
    if (s.which == statement::kind::assign || g.predictive(s)) continue;
    const bool own = s.target >= 0 && std::find(variables.begin(), variables.end(), s.target) != variables.end();
    const auto reads = lang::ir::statement_reads(s);
    const bool touches = own || std::any_of(reads.begin(), reads.end(), [&](int r) { return reaches[static_cast<std::size_t>(r)] != 0; });
    if (!touches) continue;
    const std::string where = " (line " + std::to_string(m.lines.locate(s.pos).line) + ")";
    if (s.which == statement::kind::factor) return "a factor reads it" + where;
    if (s.dist_name != "Normal" || s.args.size() != 2) return "a term is " + s.dist_name + ", not Normal" + where;
    if (reads_block(s.args[1].get())) return "the scale of a Normal term depends on it" + where;
    for (const auto& l : s.loops)
      if (reads_block(l.lo.get()) || reads_block(l.hi.get())) return "a loop bound depends on it" + where;
    for (const auto& ix : s.target_indices)
      if (reads_block(ix.get())) return "an index depends on it" + where;
    if (!own && reaches[static_cast<std::size_t>(s.target)]) return "a term's value is derived from it" + where;
    out.terms.push_back(&s);
  }
  for (int v : variables)
    for (runtime::index_t e = 0; e < g.value(v).size(); ++e) out.elements.emplace_back(v, e);
  return {};
}

class gaussian_block_sampler final : public sampler {
 public:
  gaussian_block_sampler(runtime::graph& g, const std::vector<int>& variables) : graph_(g) {
    if (std::string why = structure_of(g, variables, block_); !why.empty()) throw std::invalid_argument(why);
    for (const statement* s : block_.terms) {
      normal_term t;
      t.s = s;
      t.loops = g.instance_table(*s);
      t.count = s->loops.empty() ? 1 : t.loops.size() / s->loops.size();
      for (std::size_t i = 0; i < t.count; ++i) t.value_offsets.push_back(g.instance_target(*s, t.loops.data() + i * s->loops.size()).first);
      rows_ += t.count;
      terms_.push_back(std::move(t));
    }
    const auto p = static_cast<Eigen::Index>(block_.elements.size());
    residuals_.resize(static_cast<Eigen::Index>(rows_), p + 1);
    if (std::string why = check_affine(); !why.empty()) throw std::invalid_argument(why);
  }

  void step(runtime::rng& rng, bool) override {
    const Eigen::VectorXd b = current();
    read_linear_form();
    const auto p = static_cast<Eigen::Index>(block_.elements.size());
    // Residuals r = r0 + A b with rows scaled by 1 / s: Q = A'A, c = -A' r0.
    const auto a = residuals_.leftCols(p);
    const Eigen::MatrixXd q = a.transpose() * a;
    const Eigen::VectorXd c = -(a.transpose() * residuals_.col(p));
    Eigen::LLT<Eigen::MatrixXd> llt(q);
    if (llt.info() != Eigen::Success) {
      write(b);  // not positive definite at these scales: leave the block where it was
      return;
    }
    const Eigen::VectorXd mean = llt.solve(c);
    Eigen::VectorXd z(p);
    boost::random::normal_distribution<double> normal;
    for (Eigen::Index k = 0; k < p; ++k) z[k] = normal(rng);
    // x = mean + L^-T z has covariance (L L')^-1 = Q^-1.
    write(mean + llt.matrixU().solve(z));
  }

 private:
  Eigen::VectorXd current() const {
    Eigen::VectorXd b(static_cast<Eigen::Index>(block_.elements.size()));
    for (std::size_t k = 0; k < block_.elements.size(); ++k) {
      const auto [v, e] = block_.elements[k];
      b[static_cast<Eigen::Index>(k)] = graph_.value(v).data[static_cast<std::size_t>(e)];
    }
    return b;
  }

  void write(const Eigen::VectorXd& b) {
    auto& values = graph_.values();
    for (std::size_t k = 0; k < block_.elements.size(); ++k) {
      const auto [v, e] = block_.elements[k];
      values[static_cast<std::size_t>(v)].data[static_cast<std::size_t>(e)] = b[static_cast<Eigen::Index>(k)];
    }
    graph_.update_derived(block_.derived);
  }

  // The terms' residuals y - m divided by s at the block's current values, into `out`
  // (rows_ of them, terms in order); the scales into scales_.
  void residuals(Eigen::Ref<Eigen::VectorXd> out) {
    Eigen::Index row = 0;
    for (const auto& t : terms_) {
      const statement& s = *t.s;
      const auto& y = graph_.value(s.target).data;
      if (graph_.batch_values(s, *s.args[0], mean_) && graph_.batch_values(s, *s.args[1], scale_)) {
        for (std::size_t i = 0; i < t.count; ++i) out[row++] = (y[static_cast<std::size_t>(t.value_offsets[i])] - mean_[i]) / scale_[i];
        continue;
      }
      for (std::size_t i = 0; i < t.count; ++i) {
        const auto& args = graph_.args_at(s, t.loops.data() + i * s.loops.size());
        out[row++] = (y[static_cast<std::size_t>(t.value_offsets[i])] - args[0][0]) / args[1][0];
      }
    }
  }

  // Column p: r0 / s; column k: a_k / s. Leaves the block at 0 (the caller writes it).
  void read_linear_form() {
    const auto p = static_cast<Eigen::Index>(block_.elements.size());
    Eigen::VectorXd b = Eigen::VectorXd::Zero(p);
    write(b);
    residuals(residuals_.col(p));
    for (Eigen::Index k = 0; k < p; ++k) {
      b[k] = 1;
      write(b);
      residuals(residuals_.col(k));
      residuals_.col(k) -= residuals_.col(p);
      b[k] = 0;
    }
  }

  // The terms at the current point and at a random one against r0 + A b; the point is
  // restored after.
  std::string check_affine() {
    const Eigen::VectorXd start = current();
    const auto p = static_cast<Eigen::Index>(block_.elements.size());
    read_linear_form();
    const Eigen::VectorXd at_zero = residuals_.col(p);
    runtime::rng rng(20260717);
    boost::random::normal_distribution<double> normal;
    std::string why;
    for (int trial = 0; trial < 2 && why.empty(); ++trial) {
      Eigen::VectorXd b = start;
      if (trial == 1)
        for (Eigen::Index k = 0; k < p; ++k) b[k] += 1 + normal(rng);
      write(b);
      Eigen::VectorXd r(static_cast<Eigen::Index>(rows_));
      residuals(r);
      const Eigen::VectorXd predicted = at_zero + residuals_.leftCols(p) * b;
      for (Eigen::Index i = 0; i < r.size() && why.empty(); ++i)
        if (!(std::abs(r[i] - predicted[i]) <= 1e-7 * (1 + std::abs(r[i]) + std::abs(predicted[i]))))
          why = "the Normal terms' means are not affine in the block's unknowns jointly";
    }
    write(start);
    return why;
  }

  runtime::graph& graph_;
  block_structure block_;
  std::vector<normal_term> terms_;
  std::size_t rows_ = 0;
  Eigen::MatrixXd residuals_;  // rows_ x (p + 1): the columns of A, then r0, each row divided by s
  std::vector<double> mean_, scale_;
};

class gaussian_block_factory final : public factory {
 public:
  std::string_view kind() const override { return "gaussian_block"; }
  // Each variable on its own: real, with Normal priors and Normal terms. Whether a set of
  // them is jointly affine is known only for the set (gaussian_block_possible).
  claim can_sample(runtime::graph& g, int v) const override {
    if (g.model().variables[static_cast<std::size_t>(v)].type.kind != stdlib::scalar_kind::real) return {false, "not real"};
    block_structure b;
    if (std::string why = structure_of(g, {v}, b); !why.empty()) return {false, why};
    return {true, "Normal prior and Normal terms, affine in it: drawn jointly with the block's other unknowns from their multivariate normal conditional"};
  }
  bool joins_block() const override { return true; }
  std::unique_ptr<sampler> make(runtime::graph& g, int v) const override { return make_block(g, {v}); }
  std::unique_ptr<sampler> make_block(runtime::graph& g, const std::vector<int>& variables) const override {
    return std::make_unique<gaussian_block_sampler>(g, variables);
  }
};

}  // namespace

bool gaussian_block_possible(runtime::graph& g, const std::vector<int>& variables, std::string& why) {
  try {
    gaussian_block_sampler s(g, variables);
  } catch (const std::invalid_argument& e) {
    why = e.what();
    return false;
  }
  return true;
}

std::unique_ptr<factory> make_gaussian_block_factory() { return std::make_unique<gaussian_block_factory>(); }

}  // namespace ppl::samplers
