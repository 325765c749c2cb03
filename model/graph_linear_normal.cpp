// Normal observations whose mean is affine in the unknowns, with coefficients the data fix,
// and whose scale is one for all of them — a linear regression's likelihood,
// `y[n] ~ Normal(a + X[n] * b, sigma)`, written with `~` over rows or through a derived
// mean as BUGS writes it (`mu[i] <- alpha + beta * x[i]`) — summed in a gradient through
// their sufficient statistics. With theta the p unknowns the means read and the means
// m = c + A theta (A and c fixed by the data):
//
//   sum_n log Normal(y[n] | m[n], s) = -N log s - N/2 log(2 pi) - Q(theta) / (2 s^2),
//   Q(theta) = |y - c - A theta|^2 = e'e - 2 d'A'e + d'A'A d,   d = theta - theta0,
//
// e = y - c - A theta0 the residual at theta0, the least-squares point (so that e'e, the
// smallest part, is read at the point itself and is no difference of large numbers). The
// statistics are read once, from the term's own gradient (the ordinary paths): the term is
// quadratic in theta, so its gradient is affine, and the difference of the gradients at
// theta and at theta + e_j is column j of A'A / s^2. A gradient then costs the nonzeros of
// A'A (p^2 for a regression, a few per effect for a hierarchical model's group means),
// not the N rows twice: diamonds' 5,000 x 24 falls from ~47 µs to under one. It is what a
// hand-written sampler of a Gaussian linear model does with its normal equations; Stan's
// normal_id_glm still passes over the rows twice a gradient.
//
// Which terms qualify is structural (model/affine.hpp: the mean is built from unknowns and
// data by sums, products and quotients with one side free of unknowns, dot products,
// sums, transposes and indices the data fix, through derived variables defined the same
// way), and the statistics are checked against the ordinary path at a random point before
// they are used. The points the statistics are read at depend on the data alone, so a
// resumed chain reads the same ones, bit for bit.
#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <boost/random/normal_distribution.hpp>
#include <stdexcept>

#include "model/affine.hpp"
#include "model/graph.hpp"
#include "stdlib/distribution.hpp"
#include "stdlib/function.hpp"

namespace ppl::model {

using lang::ir::expr;
using lang::ir::role;
using lang::ir::statement;

struct graph::linear_normal {
  const expr* scale = nullptr;  // the one scale; null for data scales by row (held in the statistics)
  bool factor = false;         // a factor of normal_lpdf, whose invalid scale is NaN (a ~'s is -inf)
  std::vector<int> variables;  // theta: these unknowns' elements, whole, in this order
  Eigen::Index p = 0;
  double count = 0;            // N, the term's instances
  double s0 = 1;               // the scale the statistics were read at
  Eigen::VectorXd theta0;      // the least-squares point
  Eigen::VectorXd g0;          // A'e / s0^2, the term's gradient at theta0 (zero but for rounding)
  double q0 = 0;               // e'e / (2 s0^2)
  bool sparse = false;
  Eigen::MatrixXd h;           // A'A / s0^2, dense
  Eigen::SparseMatrix<double> sparse_h;  // or sparse
  Eigen::VectorXd d, hd, theta, dtheta;  // scratch

  // theta0, the term's maximum, from A'A / s0^2 (`a`) and the gradient at theta = 0, by the
  // pseudo-inverse where A'A is singular (a coefficient no row reads, collinear columns);
  // A'A kept dense or sparse. False where the statistics would cost more than the rows: a
  // gradient reads every nonzero of A'A once, the rows cost N evaluations at least.
  bool fit(const Eigen::MatrixXd& a, const Eigen::VectorXd& g_origin) {
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(a);
    if (eig.info() != Eigen::Success) return false;
    const Eigen::VectorXd& lambda = eig.eigenvalues();
    const double floor = 1e-12 * std::max(std::abs(lambda.maxCoeff()), std::abs(lambda.minCoeff()));
    Eigen::VectorXd coeff = eig.eigenvectors().transpose() * g_origin;
    for (Eigen::Index k = 0; k < p; ++k) coeff[k] = lambda[k] > floor ? coeff[k] / lambda[k] : 0;
    theta0 = eig.eigenvectors() * coeff;
    const auto nonzeros = static_cast<Eigen::Index>((a.array() != 0).count());
    sparse = 4 * nonzeros < p * p;
    if (sparse)
      sparse_h = a.sparseView(0, 0);
    else
      h = a;
    return static_cast<double>(nonzeros) <= 4 * count;
  }
  // Whether the statistics give the ordinary path's value and gradient at `point`.
  bool agrees(const Eigen::VectorXd& point, double actual, const Eigen::VectorXd& g_actual) {
    Eigen::VectorXd g_formula;
    double ds = 0;
    const double formula = at(point, s0, g_formula, ds);
    return std::isfinite(actual) && std::abs(actual - formula) <= 1e-9 * (1 + std::abs(actual)) &&
           (g_actual - g_formula).lpNorm<Eigen::Infinity>() <= 1e-8 * (1 + g_actual.lpNorm<Eigen::Infinity>());
  }
  // The term at (theta, s) from the statistics, and its gradient in theta (into `dtheta`)
  // and in s.
  double at(const Eigen::VectorXd& theta, double s, Eigen::VectorXd& dtheta, double& ds) {
    d = theta - theta0;
    if (sparse)
      hd.noalias() = sparse_h * d;
    else
      hd.noalias() = h.selfadjointView<Eigen::Lower>() * d;
    const double ratio = (s0 / s) * (s0 / s);  // s0^2 / s^2
    const double q = q0 - d.dot(g0) + 0.5 * d.dot(hd);  // Q / (2 s0^2)
    dtheta = ratio * (g0 - hd);
    ds = (2 * ratio * q - count) / s;
    return -count * (std::log(s) + 0.5 * std::log(2 * std::numbers::pi)) - ratio * q;
  }
};

namespace {

// Affinity is not asked of sums so large their statistics would cost more to read than
// they save: at most this many unknowns, and this many of the term's instances times
// (unknowns + 2), the gradients reading them.
constexpr Eigen::Index max_unknowns = 400;
constexpr double max_reading_rows = 5e7;

// theta (sized already): the values of `variables`, whole, one after another.
void gather(const std::vector<tensor>& values, const std::vector<int>& variables, Eigen::VectorXd& theta) {
  Eigen::Index k = 0;
  for (int v : variables)
    for (double x : values[static_cast<std::size_t>(v)].data) theta[k++] = x;
}

}  // namespace

graph::linear_normal* graph::linear_normal_of(const statement& s) {
  const auto index = static_cast<std::size_t>(&s - model_.statements.data());
  if (linear_normals_.size() < model_.statements.size()) {
    linear_normals_.resize(model_.statements.size());
    linear_normal_tried_.resize(model_.statements.size(), 0);
  }
  if (reading_statistics_) return nullptr;
  if (linear_normal_tried_[index]) return linear_normals_[index].get();
  linear_normal_tried_[index] = 1;
  std::shared_ptr<linear_normal> t = linear_normal_form(s);
  if (!t || !read_linear_normal(s, *t)) return nullptr;
  for (auto* scratch : {&t->d, &t->hd, &t->theta, &t->dtheta}) scratch->resize(t->p);
  linear_normals_[index] = t;
  return t.get();
}

std::shared_ptr<graph::linear_normal> graph::linear_normal_form(const statement& s) {
  if (!options_.sufficient_statistics || !instances_fixed(s)) return nullptr;
  // The observed value, the mean and the scale: a `~ Normal` of data, or a factor of
  // normal_lpdf(y | mu, s) with y free of unknowns (rows, or vectors in one call).
  const expr *observed = nullptr, *mean = nullptr, *scale = nullptr;
  if (s.which == statement::kind::sample) {
    if (s.dist_name != "Normal" || s.args.size() != 2 || predictive(s) || s.target_from) return nullptr;
    const auto& target = model_.variables[static_cast<std::size_t>(s.target)];
    if (target.role != role::data && target.role != role::transformed_data) return nullptr;
    mean = s.args[0].get();
    scale = s.args[1].get();
    if (mean->type.rank != 0) return nullptr;
  } else if (s.which == statement::kind::factor && s.value->which == expr::kind::call && s.value->args.size() == 3) {
    const stdlib::distribution* d = s.value->fn->rows_density();
    if (!d || d->name() != "Normal") return nullptr;
    observed = s.value->args[0].get();
    mean = s.value->args[1].get();
    scale = s.value->args[2].get();
    if (observed->depends_on_unknown || observed->type.rank > 1 || mean->type.rank > 1) return nullptr;
  } else {
    return nullptr;
  }
  // The scale: one for all the rows (it may read unknowns), or data that vary by row (a
  // measurement's known sd), whose weights 1 / s[n]^2 the statistics then hold.
  const bool weighted = !scale->depends_on_unknown && (lang::ir::uses_loop_variable(*scale) || scale->type.rank > 0);
  if (!mean->depends_on_unknown || scale->type.rank > 1 || (!weighted && (scale->type.rank != 0 || lang::ir::uses_loop_variable(*scale))))
    return nullptr;
  affinity affine(model_, true);
  if (!affine(*mean)) return nullptr;
  auto t = std::make_shared<linear_normal>();
  t->variables = affine.reached();
  // The scale may read unknowns, but nothing theta moves: it stays put while theta does.
  if (reads_any(model_, *scale, t->variables)) return nullptr;
  for (int v : t->variables) t->p += static_cast<Eigen::Index>(values_[static_cast<std::size_t>(v)].size());
  // N, the Normal densities summed: one an instance, or a factor's vectors' length.
  t->count = static_cast<double>(instance_count(s));
  if (observed && (observed->type.rank > 0 || mean->type.rank > 0)) {
    t->count = 0;
    try {
      for_each_instance(s, [&] {
        t->count += static_cast<double>(std::max(eval_.eval(*observed, frame_).size(), eval_.eval(*mean, frame_).size()));
      });
    } catch (const eval_error&) {
      return nullptr;
    }
  }
  if (t->p == 0 || t->p > max_unknowns || t->count * static_cast<double>(t->p + 2) > max_reading_rows) return nullptr;
  t->scale = weighted ? nullptr : scale;
  t->factor = observed != nullptr;
  return t;
}

bool graph::read_linear_normal(const statement& s, linear_normal& t) {
  const Eigen::Index p = t.p;
  std::vector<char> wrt(model_.variables.size(), 0);
  for (int v : t.variables) wrt[static_cast<std::size_t>(v)] = 1;
  // theta written to the graph's values.
  auto write = [&](const Eigen::VectorXd& theta) {
    Eigen::Index k = 0;
    for (int v : t.variables)
      for (double& x : values_[static_cast<std::size_t>(v)].data) x = theta[k++];
  };
  Eigen::VectorXd saved(p);
  gather(values_, t.variables, saved);
  const auto saved_work = work_;
  const auto saved_plan = gradient_plan_;
  reading_statistics_ = true;
  only_term_ = &s;
  gradient_plan_ = nullptr;  // a plan of this term alone
  std::vector<std::vector<double>> gradient;
  // The term and its gradient at theta, by the ordinary paths.
  auto term_at = [&](const Eigen::VectorXd& theta, Eigen::VectorXd& g) {
    write(theta);
    const double value = log_density_gradient_of(wrt, gradient, -1);
    g.resize(p);
    Eigen::Index k = 0;
    for (int v : t.variables)
      for (double x : gradient[static_cast<std::size_t>(v)]) g[k++] = x;
    return value;
  };
  bool ok = false;
  try {
    t.s0 = t.scale ? eval_.eval(*t.scale, frame_).scalar() : 1.0;
    // Columns of A'A / s^2 from differences at unit steps off theta = 0.
    Eigen::VectorXd origin = Eigen::VectorXd::Zero(p), g_origin, g_step;
    const double v_origin = std::isfinite(t.s0) && t.s0 > 0 ? term_at(origin, g_origin) : NAN;
    Eigen::MatrixXd h(p, p);
    for (Eigen::Index j = 0; j < p && std::isfinite(v_origin); ++j) {
      Eigen::VectorXd step = origin;
      step[j] = 1;
      term_at(step, g_step);
      h.col(j) = g_origin - g_step;
    }
    if (std::isfinite(v_origin) && h.allFinite() && t.fit(0.5 * (h + h.transpose()), g_origin)) {
      const double v0 = term_at(t.theta0, t.g0);
      t.q0 = -(v0 + t.count * (std::log(t.s0) + 0.5 * std::log(2 * std::numbers::pi)));
      // Checked at a random point against the ordinary path (a fixed stream: the same
      // point in every chain and run).
      ppl::rng check(20261130);
      boost::random::normal_distribution<double> normal;
      Eigen::VectorXd point(p), g_actual;
      for (Eigen::Index k = 0; k < p; ++k) point[k] = t.theta0[k] + (1 + std::abs(t.theta0[k])) * normal(check);
      ok = t.agrees(point, term_at(point, g_actual), g_actual);
    }
  } catch (const std::exception&) {
    ok = false;  // a definition that cannot be evaluated at these points: the ordinary path
  }
  reading_statistics_ = false;
  only_term_ = nullptr;
  gradient_plan_ = saved_plan;
  write(saved);
  update_derived();
  work_ = saved_work;
  return ok;
}

std::size_t graph::statistics_terms() const {
  return static_cast<std::size_t>(std::count_if(linear_normals_.begin(), linear_normals_.end(), [](const auto& t) { return t != nullptr; }));
}

double graph::linear_normal_term(linear_normal& t, std::span<double* const> slots) {
  // Data scales by row are in the statistics (s0 = 1 stands for them); else the one scale now.
  const double sv = t.scale ? eval_.eval(*t.scale, frame_).scalar() : 1.0;
  if (std::isnan(sv) || ((!(sv > 0) || sv == INFINITY) && t.factor)) return NAN;
  if (!(sv > 0) || sv == INFINITY) return -INFINITY;
  gather(values_, t.variables, t.theta);
  Eigen::VectorXd& dtheta = t.dtheta;
  double ds = 0;
  const double value = t.at(t.theta, sv, dtheta, ds);
  Eigen::Index k = 0;
  for (int v : t.variables) {
    const auto size = static_cast<Eigen::Index>(values_[static_cast<std::size_t>(v)].size());
    if (double* to = slots[static_cast<std::size_t>(v)])
      for (Eigen::Index i = 0; i < size; ++i) to[i] += dtheta[k + i];
    k += size;
  }
  if (t.scale && t.scale->depends_on_unknown) eval_.backward(*t.scale, frame_, &ds, slots);
  return value;
}

}  // namespace ppl::model
