// Coordinate ascent's scalars without a conjugate update (inference/cavi.hpp): a regression's
// half-Cauchy scale, an offset with a Uniform prior. The optimal factor is
// q(x) proportional to exp(E log p(x, its blanket)), the expectation over the other
// factors; with one dimension it is computed on a grid. The grid covers the unconstrained
// scale u (x = f(u), f the transform a sampler would use), grid_points points spaced h,
// each a cell of probability r[k] proportional to exp(E log p(x_k, ...)) |f'(u_k)| h.
// After each update the grid is placed again about q's mean on u, over 10 of its sd
// either side, until q's mass sits inside it and spans a few points (where q is cut off at
// an edge, the grid is first widened about q's mean): the grid follows q wherever it goes.
//
// In a design the scalar takes one row per point, weighted by r[k]; since it is one element,
// every instance that reads it reads it at the row's point, and the row's weight serves
// every statistic and term alike (those that do not read it sum r to 1).
#include <fmt/core.h>

#include <boost/random/uniform_01.hpp>
#include <cmath>
#include <stdexcept>

#include "inference/cavi_internal.hpp"
#include "model/instances.hpp"
#include "model/supports.hpp"

namespace ppl::inference {

double cavi::grid::value(double at) const {
  if (std::isfinite(lower) && std::isfinite(upper)) return lower + (upper - lower) / (1 + std::exp(-at));
  if (std::isfinite(lower)) return lower + std::exp(at);
  if (std::isfinite(upper)) return upper - std::exp(at);
  return at;
}

double cavi::grid::log_jacobian(double at) const {
  if (std::isfinite(lower) && std::isfinite(upper)) return std::log(upper - lower) - std::log1p(std::exp(-at)) - std::log1p(std::exp(at));
  if (std::isfinite(lower) || std::isfinite(upper)) return at;
  return 0;
}

double cavi::grid::unconstrain(double x) const {
  if (std::isfinite(lower) && std::isfinite(upper)) return std::log((x - lower) / (upper - x));
  if (std::isfinite(lower)) return std::log(x - lower);
  if (std::isfinite(upper)) return std::log(upper - x);
  return x;
}

void cavi::grid::place(double centre, double half_width) {
  h = 2 * half_width / (grid_points - 1);
  u.resize(grid_points), x.resize(grid_points), log_slope.resize(grid_points);
  for (int k = 0; k < grid_points; ++k) {
    u[k] = centre - half_width + k * h;
    x[k] = value(u[k]);
    log_slope[k] = log_jacobian(u[k]);
  }
}

// A continuous scalar, its support an interval fixed for the run.
bool cavi::add_grid(int v) {
  const auto& m = graph_.model();
  if (graph_.value(v).data.size() != 1 || model::supports(graph_).moves(v)) return false;
  const stdlib::support s = model::supports(graph_).of_element(v, 0);
  if (s.kind != stdlib::support_kind::real_interval) return false;
  auto g = std::make_unique<grid>();
  g->variable = v;
  g->lower = s.lower, g->upper = s.upper;
  const double start = g->unconstrain(graph_.value(v).data[0]);
  g->place(std::isfinite(start) ? start : 0.0, 5.0);
  g->r.assign(grid_points, 1.0 / grid_points);
  auto u = std::make_unique<update>();
  u->variable = v;
  u->scalar = g.get();
  std::vector<char> only(m.variables.size(), 0);
  only[static_cast<std::size_t>(v)] = 1;
  for (std::size_t si = 0; si < m.statements.size(); ++si) {
    const auto& st = m.statements[si];
    if (st.which != lang::ir::statement::kind::assign && !predictive_[si] && !unknowns_of(m, st, only).empty())
      u->statements.push_back(static_cast<int>(si));
  }
  hold_free(v);
  grid_of_[static_cast<std::size_t>(v)] = g.get();
  grids_.push_back(std::move(g));
  hold(v);
  updates_.push_back(std::move(u));
  return true;
}

double cavi::row_weight(const design& d, long row) const {
  return d.grid < 0 ? 1.0 : grid_of_[static_cast<std::size_t>(d.grid)]->r[static_cast<std::size_t>(grid_point(d, row))];
}

// log r[k] = E log p(x_k, the terms that read it) + log |f'(u_k)|, up to a constant, then
// the grid placed again about q until q's mass is inside it (at most four times).
double cavi::update_grid(update& u) {
  grid& g = *u.scalar;
  const design& d = *u.over;
  if (d.grid >= 0)
    throw std::invalid_argument("--method vb: a term reads two scalars held on grids; their joint q is not built (use --method mcmc)");
  const auto& m = graph_.model();
  const auto v = static_cast<std::size_t>(g.variable);
  const double before_mean = q_[v][0].a;
  double mean = 0, sd = 0;
  for (int placement = 0; placement < 16; ++placement) {
    std::vector<double> log_r(g.x.size(), 0.0);
    const double rows = static_cast<double>(1L << d.bits);
    for (long row = 0; row < d.rows(); ++row) {
      set_row(d, row);
      const long value = discrete_value(d, row);
      for (std::size_t k = 0; k < g.x.size(); ++k) {
        graph_.values()[v].data[0] = g.x[k];
        graph_.update_derived();
        for (int si : u.statements) log_r[k] += expected_terms(d, value, si) / rows;
      }
    }
    for (std::size_t k = 0; k < log_r.size(); ++k) log_r[k] += g.log_slope[k];
    if (!particles::normalise_logs(log_r)) throw std::runtime_error("--method vb: no point of " + m.variables[v].name + "'s grid has a finite expected log density");
    double mu = 0, second = 0;
    for (std::size_t k = 0; k < log_r.size(); ++k) {
      g.r[k] = log_r[k];
      mu += g.r[k] * g.u[k], second += g.r[k] * g.u[k] * g.u[k];
    }
    const double spread = std::sqrt(std::max(second - mu * mu, 0.0)), half = 0.5 * (g.u.back() - g.u.front());
    if (g.r.front() + g.r.back() > 1e-6) {  // cut off at an edge: about the mean, twice as wide
      g.place(mu, 2 * half);
      continue;
    }
    if (spread > 2 * g.h && half < 12 * spread) break;  // inside, and resolved: the grid serves as it is
    g.place(mu, 10 * std::max(spread, 1e-3));
  }
  for (std::size_t k = 0; k < g.x.size(); ++k) mean += g.r[k] * g.x[k];
  for (std::size_t k = 0; k < g.x.size(); ++k) sd += g.r[k] * (g.x[k] - mean) * (g.x[k] - mean);
  sd = std::sqrt(sd);
  q_[v][0] = {nullptr, mean, sd};  // a point at the mean between updates; b holds the sd for the report
  g.fitted = true;
  return sd > 0 ? std::abs(mean - before_mean) / sd : 0.0;
}

// A statement's terms at the current values, each instance that reads the design's
// discrete unknown weighted by q's probability of `value` there (the others counted at the
// first value alone): their sum over the values is their expectation over that unknown.
double cavi::expected_terms(const design& d, long value, int statement) {
  const auto& s = graph_.model().statements[static_cast<std::size_t>(statement)];
  if (d.discrete < 0 || discrete_read_[static_cast<std::size_t>(statement)] != d.discrete)
    return value == 0 ? model::instances(graph_).log_density(s) : 0.0;
  double sum = 0;
  std::size_t i = 0;
  model::instances(graph_).visit(s, [&](const ppl::index_t* loops) {
    if (const double w = instance_weight(d, value, statement, i++); w > 0) sum += w * model::instances(graph_).log_density(s, loops);
  });
  return sum;
}

// On u, -sum r log(r / h); on x, plus E log |f'(u)|.
double cavi::grid_entropy() const {
  double total = 0;
  for (const auto& g : grids_) {
    if (!g->fitted) continue;
    for (std::size_t k = 0; k < g->r.size(); ++k)
      if (g->r[k] > 0) total += -g->r[k] * std::log(g->r[k] / g->h) + g->r[k] * g->log_slope[k];
  }
  return total;
}

// A cell by r, then a point uniform in it on u: density r[k] / h there, on x divided by |f'(u)|.
double cavi::grid_draw(ppl::rng& rng) {
  double log_q = 0;
  boost::random::uniform_01<double> uniform;
  for (const auto& g : grids_) {
    const std::size_t k = particles::pick(g->r, uniform(rng));
    const double at = g->u[k] + g->h * (uniform(rng) - 0.5);
    graph_.values()[static_cast<std::size_t>(g->variable)].data[0] = g->value(at);
    log_q += std::log(g->r[k] / g->h) - g->log_jacobian(at);
  }
  return log_q;
}

}  // namespace ppl::inference
