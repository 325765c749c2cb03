// Mean-field coordinate ascent for conjugate-exponential models (inference/cavi.hpp): the
// factors of q, the designs that average a pair's statistics over q exactly, and the
// sweeps and ELBO built on them.
#include "inference/cavi.hpp"
#include "inference/cavi_internal.hpp"

#include <fmt/core.h>

#include <bit>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "core/source_error.hpp"
#include "lang/evidence.hpp"
#include "model/instances.hpp"
#include "samplers/factories.hpp"
#include "samplers/gaussian_block.hpp"
#include "samplers/structure.hpp"

namespace ppl::inference {

cavi::cavi(model::graph& g) : graph_(g) {
  const auto& m = g.model();
  predictive_ = lang::predictive_statements(m);
  std::vector<char> predicted(m.variables.size(), 0);
  for (std::size_t s = 0; s < m.statements.size(); ++s)
    if (predictive_[s] && m.statements[s].target >= 0) predicted[static_cast<std::size_t>(m.statements[s].target)] = 1;
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (predicted[v] && m.variables[v].role == lang::ir::role::unknown) predicted_.push_back(static_cast<int>(v));
  q_.resize(m.variables.size());
  points_.resize(m.variables.size());
  free_.resize(m.variables.size());
  joint_.assign(m.variables.size(), nullptr);
  discrete_of_.assign(m.variables.size(), nullptr);
  grid_of_.assign(m.variables.size(), nullptr);
  simplex_of_.assign(m.variables.size(), nullptr);
  wishart_of_.assign(m.variables.size(), nullptr);
  element_read_.resize(m.statements.size());
  discrete_read_.assign(m.statements.size(), -1);
  in_q_.assign(m.variables.size(), 0);
  // The unknowns the planner draws together as one Gaussian block (Normal unknowns that
  // enter one term's argument together: a line's intercept and slope) are one factor, a
  // structured mean field that keeps their correlation.
  std::vector<int> together;
  try {
    for (const auto& a : samplers::plan(g, {}))
      if (a.chosen->kind() == "gaussian_block" && !predicted[static_cast<std::size_t>(a.variable)]) together.push_back(a.variable);
  } catch (const std::exception&) {
    together.clear();  // no plan: the refusals below say why
  }
  std::sort(together.begin(), together.end());
  if (!together.empty()) {
    try {
      add_block(together, nullptr);
    } catch (const std::invalid_argument&) {  // each then on its own
    }
  }
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].role == lang::ir::role::unknown && !predicted[v] && !in_q_[v]) add_unknown(static_cast<int>(v));
  // Discrete unknowns first in each sweep: their first update reads the start's continuous
  // values (distinct component means), where the continuous ones' first update would read
  // indicators all at one value, a fixed point that never separates the components.
  std::stable_partition(updates_.begin(), updates_.end(), [](const std::unique_ptr<update>& u) { return u->hidden != nullptr; });
  for (auto& u : updates_) {
    std::vector<char> reads(m.variables.size(), 0);
    for (int s : u->statements)
      for (int r : unknowns_of(m, m.statements[static_cast<std::size_t>(s)], in_q_)) reads[static_cast<std::size_t>(r)] = 1;
    for (int v : u->joint ? u->joint->variables : std::vector<int>{u->variable}) reads[static_cast<std::size_t>(v)] = 0;
    std::vector<int> others;
    for (std::size_t k = 0; k < reads.size(); ++k)
      if (reads[k]) others.push_back(static_cast<int>(k));
    u->over = make_design(others, u->statements, "the update of `" + m.variables[static_cast<std::size_t>(u->variable)].name + "`");
  }
  for (std::size_t s = 0; s < m.statements.size(); ++s) {
    const auto& st = m.statements[s];
    if (st.which == lang::ir::statement::kind::assign || predictive_[s]) continue;
    terms_.emplace_back(static_cast<int>(s), make_design(unknowns_of(m, st, in_q_), {static_cast<int>(s)},
                                                         fmt::format("the term on line {}", ppl::locate(m.source.text, st.pos).line)));
  }
}

cavi::~cavi() = default;

// q of one unknown: a factor per element from its conjugate pair, or else one multivariate
// normal over its elements where the Gaussian block's structure holds (Normal priors and
// terms affine in it: a regression's coefficients); a point at its start until updated.
void cavi::add_unknown(int v) {
  const auto& m = graph_.model();
  const auto& name = m.variables[static_cast<std::size_t>(v)].name;
  if (add_discrete(v)) return;
  std::vector<int> children;
  std::string why;
  const samplers::conjugate_pair* pair = samplers::match_conjugate(graph_, v, children, why);
  if (pair && (pair->name == "wishart_precision" || pair->name == "inverse_wishart_covariance")) return add_wishart(v, pair, std::move(children));
  if (pair && pair->prior_stats && !pair->posterior) return add_simplex(v, pair, std::move(children));
  // A multivariate normal's mean pair: its conditional is the Gaussian block's, one factor.
  if (pair && !pair->posterior && (pair->prior == "MultiNormal" || pair->prior == "MultiNormalPrec")) return add_block({v}, &why);
  if (pair && !pair->posterior)
    throw std::invalid_argument("--method vb: `" + name + "` has a " + pair->prior + " prior (" + pair->name +
                                "), whose mean-field update is not built; it takes Normal, Gamma, InverseGamma and Beta priors of scalars, "
                                "Dirichlet and Wishart priors, and multivariate normal blocks (use --method advi, or mcmc)");
  if (!pair) return add_block({v}, &why);
  auto u = pair_update(v, pair, std::move(children));
  hold(v);
  updates_.push_back(std::move(u));
}

// An update by a conjugate pair's statistics: its children (predictions left out) and its
// prior's statements, the pair's totals over them, and the elements q holds.
std::unique_ptr<cavi::update> cavi::pair_update(int v, const samplers::conjugate_pair* pair, std::vector<int> children) {
  auto u = std::make_unique<update>();
  u->variable = v;
  u->pair = pair;
  u->statements = std::move(children);
  std::erase_if(u->statements, [&](int s) { return predictive_[static_cast<std::size_t>(s)] != 0; });
  u->totals = samplers::make_conjugate_totals(graph_, v, *pair, u->statements);
  for (int s : graph_.model().variables[static_cast<std::size_t>(v)].statements) u->statements.push_back(s);
  hold_free(v);
  return u;
}

// One multivariate normal factor over the variables' elements (their coordinates in the
// Gaussian block); `why_not_conjugate`, for a single variable, says in the refusal why its
// conjugate update was not the one.
void cavi::add_block(const std::vector<int>& variables, const std::string* why_not_conjugate) {
  const auto& m = graph_.model();
  auto joint = std::make_unique<block>();
  try {
    joint->gaussian = samplers::make_gaussian_block(graph_, variables);
  } catch (const std::invalid_argument& e) {
    if (!why_not_conjugate) throw;
    if (variables.size() == 1 && add_grid(variables.front())) return;
    throw std::invalid_argument("--method vb updates each unknown by coordinate ascent where its prior is conjugate to its children, "
                                "or as one multivariate normal where its terms are Normal and affine in it, or on a grid where it is one "
                                "continuous scalar, and `" + m.variables[static_cast<std::size_t>(variables.front())].name +
                                "` has none of these updates: " + *why_not_conjugate + "; and as a block, " + e.what() +
                                " (use --method advi, or mcmc)");
  }
  joint->variables = variables;
  auto u = std::make_unique<update>();
  u->variable = variables.front();
  for (const auto* s : joint->gaussian->terms()) u->statements.push_back(static_cast<int>(s - m.statements.data()));
  const auto& coordinates = joint->gaussian->coordinates();
  joint->mean.resize(static_cast<Eigen::Index>(coordinates.size()));
  for (std::size_t k = 0; k < coordinates.size(); ++k) {
    const auto [v, e] = coordinates[k];
    free_[static_cast<std::size_t>(v)].push_back(static_cast<std::size_t>(e));
    joint->mean[static_cast<Eigen::Index>(k)] = graph_.value(v).data[static_cast<std::size_t>(e)];
  }
  joint->spread = Eigen::MatrixXd::Zero(joint->mean.size(), joint->mean.size());
  std::vector<double> q;
  Eigen::VectorXd c;
  joint->gaussian->natural_parameters(q, c);
  joint->diagonal = static_cast<Eigen::Index>(q.size()) == joint->mean.size();
  u->joint = joint.get();
  for (int v : variables) joint_[static_cast<std::size_t>(v)] = joint.get(), hold(v);
  blocks_.push_back(std::move(joint));
  updates_.push_back(std::move(u));
}

// The elements of v that q holds: all, or a partly observed unknown's imputed ones (its
// given elements stay points at the data).
void cavi::hold_free(int v) {
  auto& free = free_[static_cast<std::size_t>(v)];
  if (graph_.partly_observed(v))
    for (ppl::index_t e : graph_.imputed_elements(v)) free.push_back(static_cast<std::size_t>(e));
  else
    for (std::size_t e = 0; e < graph_.value(v).data.size(); ++e) free.push_back(e);
}

// v's factors as points at its start, and v among the unknowns q holds.
void cavi::hold(int v) {
  unknowns_.push_back(v);
  in_q_[static_cast<std::size_t>(v)] = 1;
  for (double x : graph_.value(v).data) q_[static_cast<std::size_t>(v)].push_back({nullptr, x, 0});
  for (const auto& f : q_[static_cast<std::size_t>(v)]) points_[static_cast<std::size_t>(v)].push_back(f.points());
}

// A design's unit is a variable of scalar factors or a whole block. One that no instance of
// the statements reads two elements of takes one bit (its elements share a sign), unless
// q holds it as a multivariate normal whose precision is not diagonal: its every element
// moves with every column of its spread.
cavi::design* cavi::make_design(const std::vector<int>& variables, const std::vector<int>& statements, const std::string& what) {
  const auto& m = graph_.model();
  auto d = std::make_unique<design>();
  std::vector<char> marked(m.variables.size(), 0);
  for (int v : variables) {
    if (marked[static_cast<std::size_t>(v)]) continue;  // a block's, placed with its first
    marked[static_cast<std::size_t>(v)] = 1;
    const discrete* z = discrete_of_[static_cast<std::size_t>(v)];
    const grid* scalar = grid_of_[static_cast<std::size_t>(v)];
    if (z || scalar) {
      if ((z && d->discrete >= 0) || (scalar && d->grid >= 0))
        throw std::invalid_argument("--method vb: " + what + " reads two " + (z ? "discrete unknowns" : "scalars held on grids") +
                                    "; their joint q is not built (use --method mcmc)");
      if (z) d->discrete = v, d->discrete_values = static_cast<long>(z->values.size());
      else d->grid = v, d->grid_points = static_cast<long>(scalar->x.size());
      d->values = d->discrete_values * d->grid_points;
      continue;
    }
    const block* joint = joint_[static_cast<std::size_t>(v)];
    const std::vector<int> unit = joint ? joint->variables : std::vector<int>{v};
    bool single = !joint || joint->diagonal;
    for (int s : statements) {
      int reads = 0;
      for (int w : unit) reads += elements_read(m, m.statements[static_cast<std::size_t>(s)], w);
      single = single && reads <= 1;
    }
    if (wishart_of_[static_cast<std::size_t>(v)]) single = true;  // one sign for the whole matrix
    d->variables.push_back(v);
    d->shift.push_back(d->bits);
    d->shared.push_back(single);
    // A Dirichlet's design is its one point: no bit.
    if (!simplex_of_[static_cast<std::size_t>(v)])
      d->bits += single ? 1 : bits_for(joint ? static_cast<std::size_t>(joint->mean.size()) : q_[static_cast<std::size_t>(v)].size());
    for (int w : unit) marked[static_cast<std::size_t>(w)] = 1;
  }
  if (d->bits > most_bits || d->rows() > (1L << most_bits))
    throw std::invalid_argument(fmt::format("--method vb: {} averages over 2^{} settings of the unknowns it reads (one bit for each, and "
                                            "about log2 of each's size), beyond the 2^{} it takes (use --method advi)", what, d->bits, most_bits));
  d->derived = samplers::reaching(m, std::move(marked));
  for (std::size_t k = 0; k < d->derived.size(); ++k) d->derived[k] = d->derived[k] && m.variables[k].role == lang::ir::role::derived;
  widest_ = std::max(widest_, d->rows());
  designs_.push_back(std::move(d));
  return designs_.back().get();
}

void cavi::set_row(const design& d, long row) {
  for (std::size_t k = 0; k < d.variables.size(); ++k) {
    const auto v = static_cast<std::size_t>(d.variables[k]);
    const auto slice = static_cast<std::uint64_t>(row >> d.shift[k]);
    auto sign = [&](std::size_t e) { return std::popcount(slice & static_cast<std::uint64_t>(d.shared[k] ? 1 : code(e))) % 2 != 0; };
    if (const block* joint = joint_[v]) {  // mean + S z, z of +-1 by column
      Eigen::VectorXd z(joint->mean.size());
      for (Eigen::Index c = 0; c < z.size(); ++c) z[c] = sign(static_cast<std::size_t>(c)) ? 1 : -1;
      write(*joint, joint->mean + joint->spread * z);
      continue;
    }
    auto& values = graph_.values()[v].data;
    for (std::size_t e = 0; e < values.size(); ++e) values[e] = sign(e) ? points_[v][e].second : points_[v][e].first;
  }
  if (d.grid >= 0) graph_.values()[static_cast<std::size_t>(d.grid)].data[0] = grid_of_[static_cast<std::size_t>(d.grid)]->x[static_cast<std::size_t>(grid_point(d, row))];
  if (d.discrete >= 0) {  // every free element at the row's value
    const double x = discrete_of_[static_cast<std::size_t>(d.discrete)]->values[static_cast<std::size_t>(discrete_value(d, row))];
    auto& values = graph_.values()[static_cast<std::size_t>(d.discrete)].data;
    for (std::size_t e : free_[static_cast<std::size_t>(d.discrete)]) values[e] = x;
  }
  graph_.update_derived(d.derived);
}

void cavi::write(const block& joint, const Eigen::VectorXd& x) {
  const auto& coordinates = joint.gaussian->coordinates();
  for (std::size_t k = 0; k < coordinates.size(); ++k)
    graph_.values()[static_cast<std::size_t>(coordinates[k].first)].data[static_cast<std::size_t>(coordinates[k].second)] = x[static_cast<Eigen::Index>(k)];
}

double cavi::sweep() {
  double largest = 0;
  for (auto& u : updates_) {
    largest = std::max(largest, u->scalar    ? update_grid(*u)
                                : u->matrix  ? update_wishart(*u)
                                : u->hidden  ? update_discrete(*u)
                                : u->weights ? update_simplex(*u)
                                : u->joint   ? update_block(*u)
                                             : update_factors(*u));
    set_means();
  }
  return largest;
}

// A conjugate update's statistics averaged over its design: over the sign rows, and over a
// discrete unknown's values with its children's instances weighted by q (the constant
// statistics and the prior's counted once).
void cavi::average_totals(update& u, std::vector<double>& sum) {
  const design& d = *u.over;
  std::vector<double> totals;
  sum.clear();
  for (long row = 0; row < d.rows(); ++row) {
    const double w = row_weight(d, row);
    if (w == 0) continue;
    set_row(d, row);
    const long k = discrete_value(d, row);
    if (d.discrete >= 0) u.totals->weigh([this, &d, k](int s, std::size_t i) { return instance_weight(d, k, s, i); });
    u.totals->totals(totals, d.discrete < 0 || k == 0);
    if (sum.empty()) sum.assign(totals.size(), 0.0);
    for (std::size_t j = 0; j < totals.size(); ++j) sum[j] += w * totals[j];
  }
  u.totals->weigh(nullptr);
  for (double& x : sum) x /= static_cast<double>(1L << d.bits);
}

// The pair's statistics averaged over the design; each free element's factor from them.
double cavi::update_factors(update& u) {
  std::vector<double> sum;
  average_totals(u, sum);
  const auto stride = static_cast<std::size_t>(u.totals->stride());
  const auto v = static_cast<std::size_t>(u.variable);
  double largest = 0;
  for (const std::size_t e : free_[v]) {
    double args[2];
    u.pair->posterior(sum.data() + e * stride, args);
    const q_factor next{u.pair->q, args[0], args[1]};
    if (!std::isfinite(next.mean()) || !(next.sd() > 0))
      throw std::runtime_error(fmt::format("--method vb: the update of {}'s element {} gave {}({}, {}), which lacks the finite mean and sd the updates work with",
                                           graph_.model().variables[v].name, e + 1, next.family, args[0], args[1]));
    largest = std::max(largest, std::abs(next.mean() - q_[v][e].mean()) / next.sd());
    q_[v][e] = next;
    points_[v][e] = next.points();
  }
  return largest;
}

// The conditional's Q and c averaged over the design: q = N(Q^-1 c, Q^-1), and its spread
// S (S S' = Q^-1) as a dense matrix for the designs.
double cavi::update_block(update& u) {
  const design& d = *u.over;
  if (d.discrete >= 0)
    throw std::invalid_argument("--method vb: a multivariate normal factor's terms read the discrete `" +
                                graph_.model().variables[static_cast<std::size_t>(d.discrete)].name + "`; that update is not built (use --method mcmc)");
  block& joint = *u.joint;
  std::vector<double> q_sum, q;
  Eigen::VectorXd c_sum, c;
  for (long row = 0; row < d.rows(); ++row) {
    const double w = row_weight(d, row);
    if (w == 0) continue;
    set_row(d, row);
    joint.gaussian->natural_parameters(q, c);
    if (q_sum.empty()) q_sum.assign(q.size(), 0.0), c_sum = Eigen::VectorXd::Zero(c.size());
    for (std::size_t k = 0; k < q.size(); ++k) q_sum[k] += w * q[k];
    c_sum += w * c;
  }
  const double rows = static_cast<double>(1L << d.bits);
  for (double& x : q_sum) x /= rows;
  if (!joint.gaussian->factorise(q_sum))
    throw std::runtime_error("--method vb: the update of " + graph_.model().variables[static_cast<std::size_t>(u.variable)].name +
                             " gave a precision that is not positive definite");
  const Eigen::VectorXd mean = joint.gaussian->solve(c_sum / rows);
  const auto n = mean.size();
  for (Eigen::Index k = 0; k < n; ++k) joint.spread.col(k) = joint.gaussian->spread(Eigen::VectorXd::Unit(n, k));
  joint.log_det = joint.gaussian->log_det();
  joint.fitted = true;
  double largest = 0;
  const auto& coordinates = joint.gaussian->coordinates();
  for (Eigen::Index k = 0; k < n; ++k) {
    const auto [w, e] = coordinates[static_cast<std::size_t>(k)];
    q_factor& f = q_[static_cast<std::size_t>(w)][static_cast<std::size_t>(e)];
    const q_factor next{"Normal", mean[k], joint.spread.row(k).norm()};
    largest = std::max(largest, std::abs(next.mean() - f.mean()) / next.sd());
    f = next;
  }
  joint.mean = mean;
  return largest;
}

double cavi::elbo() {
  double total = 0;
  for (const auto& [s, d] : terms_) {
    total += simplex_correction(s);
    if (d->discrete >= 0) {
      total += weighted_term(*d, s);
      continue;
    }
    double sum = 0;
    for (long row = 0; row < d->rows(); ++row) {
      const double w = row_weight(*d, row);
      if (w == 0) continue;
      set_row(*d, row);
      sum += w * model::instances(graph_).log_density(graph_.model().statements[static_cast<std::size_t>(s)]);
    }
    total += sum / static_cast<double>(1L << d->bits);
  }
  total += discrete_entropy() + grid_entropy() + wishart_entropy();
  for (const auto& joint : blocks_)  // log |2 pi e Q^-1| / 2, once updated
    if (joint->fitted)
      total += 0.5 * static_cast<double>(joint->mean.size()) * std::log(2 * std::numbers::pi * std::numbers::e) - 0.5 * joint->log_det;
  for (int v : unknowns_)
    if (!joint_[static_cast<std::size_t>(v)])
      for (const auto& f : q_[static_cast<std::size_t>(v)]) total += f.entropy();
  set_means();
  return total;
}

std::string cavi::describe(int variable, std::size_t most) const {
  const auto v = static_cast<std::size_t>(variable);
  const auto& free = free_[v];
  std::string line;
  for (std::size_t k = 0; k < free.size() && k < most; ++k) {
    const std::size_t e = free[k];
    std::string one;
    if (const discrete* z = discrete_of_[v]) {
      for (std::size_t j = 0; j < z->values.size(); ++j) one += fmt::format("{}{:.4g}", j ? ", " : "", z->r[e][j]);
      one = "Categorical(" + one + ")";
    } else if (const grid* g = grid_of_[v]) {
      one = g->fitted ? fmt::format("mean {:.6g}, sd {:.6g} ({} points)", q_[v][0].a, q_[v][0].b, g->x.size()) : "(not updated)";
    } else if (const simplex* pi = simplex_of_[v]) {
      one = pi->fitted ? fmt::format("alpha {:.6g}", pi->alpha[e]) : "(not updated)";
    } else if (const wishart* w = wishart_of_[v]) {
      if (k == 0) one = w->fitted ? fmt::format("nu {:.6g}, mean", w->nu) : std::string("(not updated)");
      if (w->fitted) one += fmt::format("{}{:.6g}", k == 0 ? " " : "", q_[v][e].a);
    } else {
      const q_factor& f = q_[v][e];
      one = f.family ? fmt::format("{}({:.6g}, {:.6g})", f.family, f.a, f.b) : std::string("(not updated)");
    }
    line += (k ? ", " : "") + one;
  }
  if (free.size() > most) line += fmt::format(", ... ({} more)", free.size() - most);
  const char* kind = joint_[v]      ? " (marginals)"
                     : discrete_of_[v] ? " (each element's probabilities of its values)"
                     : simplex_of_[v]  ? " (Dirichlet)"
                     : wishart_of_[v]  ? " (its mean by rows)"
                     : grid_of_[v]     ? " (on a grid of its unconstrained scale)"
                                       : "";
  return graph_.model().variables[v].name + kind + ": " + line;
}

std::string cavi::family(int variable) const {
  const auto v = static_cast<std::size_t>(variable);
  if (joint_[v]) return "MultiNormal";
  if (discrete_of_[v]) return "Categorical";
  if (simplex_of_[v]) return "Dirichlet";
  if (wishart_of_[v]) return wishart_of_[v]->inverse ? "InverseWishart" : "Wishart";
  if (grid_of_[v]) return "Grid";
  const char* f = q_[v][free_[v].front()].family;
  return f ? f : "(not updated)";
}

const std::vector<q_factor>& cavi::factors(int variable) const { return q_[static_cast<std::size_t>(variable)]; }

bool cavi::joint(int variable) const { return joint_[static_cast<std::size_t>(variable)] != nullptr; }

std::vector<std::vector<int>> cavi::blocks() const {
  std::vector<std::vector<int>> out;
  for (const auto& b : blocks_) out.push_back(b->variables);
  return out;
}

void cavi::set_means() {
  for (int v : unknowns_) {
    auto& values = graph_.values()[static_cast<std::size_t>(v)].data;
    for (std::size_t e = 0; e < values.size(); ++e) values[e] = q_[static_cast<std::size_t>(v)][e].mean();
  }
  graph_.update_derived();
}

double cavi::draw(ppl::rng& rng) {
  double log_q = 0;
  boost::random::normal_distribution<double> normal;
  for (const auto& joint : blocks_) {
    Eigen::VectorXd z(joint->mean.size());
    for (Eigen::Index k = 0; k < z.size(); ++k) z[k] = normal(rng);
    write(*joint, joint->mean + joint->spread * z);
    log_q += -0.5 * z.squaredNorm() - 0.5 * static_cast<double>(z.size()) * std::log(2 * std::numbers::pi) + 0.5 * joint->log_det;
  }
  log_q += discrete_draw(rng) + grid_draw(rng) + wishart_draw(rng);
  for (int v : unknowns_) {
    const auto w = static_cast<std::size_t>(v);
    if (joint_[w] || discrete_of_[w] || simplex_of_[w] || grid_of_[w] || wishart_of_[w]) continue;
    auto& values = graph_.values()[static_cast<std::size_t>(v)].data;
    for (std::size_t e : free_[static_cast<std::size_t>(v)]) {
      const q_factor& f = q_[static_cast<std::size_t>(v)][e];
      values[e] = f.draw(rng);
      log_q += f.log_density(values[e]);
    }
  }
  graph_.update_derived();
  return log_q;
}

}  // namespace ppl::inference
