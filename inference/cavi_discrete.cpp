// Coordinate ascent's discrete unknowns and Dirichlet ones (inference/cavi.hpp): a mixture's
// indicators z and weights pi, the mean field of Bishop 2006, section 10.2.
//
// q(z_e = v_k) = r[e][k]. A design that reads z has one row per value v_k as well as its
// sign rows: the row sets every element of z to v_k, and each instance of a statement
// that reads z (one element of it: mu[z[n]]) counts r[e][k] times, e being the element it
// reads; an instance that does not read z counts once, in the first value's rows. So a
// conjugate update's statistics (samplers::conjugate_totals::weigh) and a term's expected
// log density are averaged over q(z) exactly. z's own update sets
// r[e][k] proportional to exp(E log p(z_e = v_k, its blanket)), the expectation over the
// other unknowns by z's design.
//
// A Dirichlet pi is q(pi) = Dirichlet(alpha + E[counts]), its conjugate pair's update with
// the counts weighted so. It is read only by Categorical terms (the pair's children),
// whose expected log density E log pi_k = digamma(alpha_k) - digamma(alpha_0) a design of
// one row gives: pi set to the simplex proportional to exp(E log pi), whose log density
// at k is that less log sum_j exp(E log pi_j), the same for every k (z's update needs no
// more) and added back for the ELBO.
#include <fmt/core.h>

#include <boost/math/special_functions/digamma.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cmath>
#include <stdexcept>

#include "inference/cavi_internal.hpp"
#include "model/instances.hpp"
#include "model/supports.hpp"
#include "stdlib/registry.hpp"

namespace ppl::inference {

using boost::math::digamma;

namespace {

// The first `z[...]` in an expression, its indices all single.
const lang::ir::expr* reference_to(const lang::ir::expr* e, int z) {
  using lang::ir::expr;
  if (!e) return nullptr;
  if (e->which == expr::kind::index && e->args[0]->which == expr::kind::variable && e->args[0]->slot == z) return e;
  for (const auto& a : e->args)
    if (const expr* found = reference_to(a.get(), z)) return found;
  for (const auto& ix : e->indices) {
    if (const expr* found = reference_to(ix.lo.get(), z)) return found;
    if (const expr* found = reference_to(ix.hi.get(), z)) return found;
  }
  return nullptr;
}

}  // namespace

bool cavi::add_discrete(int v) {
  double lo = INFINITY, hi = -INFINITY;
  bool finite = true, spin = false;
  model::supports(graph_).visit(v, [&](ppl::index_t, ppl::index_t, const stdlib::support& s) {
    if (s.kind == stdlib::support_kind::spin) spin = true, lo = std::min(lo, -1.0), hi = std::max(hi, 1.0);
    else if (s.kind == stdlib::support_kind::integer_interval && std::isfinite(s.upper)) lo = std::min(lo, s.lower), hi = std::max(hi, s.upper);
    else finite = false;
  });
  if (!finite || !std::isfinite(lo)) return false;
  const auto& name = graph_.model().variables[static_cast<std::size_t>(v)].name;
  if (hi - lo + 1 > 1000) throw std::invalid_argument("--method vb: `" + name + "` has more than 1000 values; its q would be too wide (use --method mcmc)");
  if (model::supports(graph_).moves(v))
    throw std::invalid_argument("--method vb: the support of `" + name + "` follows other unknowns, which its q cannot (use --method mcmc)");
  auto z = std::make_unique<discrete>();
  z->variable = v;
  for (double x = lo; x <= hi; ++x)
    if (!spin || x != 0) z->values.push_back(x);
  hold_free(v);
  z->r.assign(graph_.value(v).data.size(), std::vector<double>(z->values.size(), 0.0));
  for (std::size_t e = 0; e < z->r.size(); ++e)  // a point at the start
    for (std::size_t k = 0; k < z->values.size(); ++k) z->r[e][k] = z->values[k] == graph_.value(v).data[e];
  std::vector<char> marked(graph_.model().variables.size(), 0);
  marked[static_cast<std::size_t>(v)] = 1;
  z->derived = samplers::reaching(graph_.model(), std::move(marked));
  for (std::size_t k = 0; k < z->derived.size(); ++k) z->derived[k] = z->derived[k] && graph_.model().variables[k].role == lang::ir::role::derived;
  read_discrete_elements(*z);
  auto u = std::make_unique<update>();
  u->variable = v;
  u->hidden = z.get();
  for (std::size_t s = 0; s < element_read_.size(); ++s)
    if (discrete_read_[s] == v) u->statements.push_back(static_cast<int>(s));
  discrete_of_[static_cast<std::size_t>(v)] = z.get();
  discretes_.push_back(std::move(z));
  hold(v);
  updates_.push_back(std::move(u));
  return true;
}

// For every statement that reads z or defines it, the element each instance holds; refused
// where an instance reads two, or reads z through a derived variable.
void cavi::read_discrete_elements(const discrete& z) {
  const auto& m = graph_.model();
  const int v = z.variable;
  const double* base = graph_.value(v).data.data();
  for (std::size_t si = 0; si < m.statements.size(); ++si) {
    const auto& s = m.statements[si];
    if (s.which == lang::ir::statement::kind::assign || predictive_[si]) {
      for (int r : lang::ir::statement_reads(s))
        if (r == v && s.which == lang::ir::statement::kind::assign)
          throw std::invalid_argument(fmt::format("--method vb: `{}` is read by a definition (line {}); its q is built for terms that read "
                                                  "it directly, as an index (mu[z[n]]) or a value (use --method mcmc)",
                                                  m.variables[static_cast<std::size_t>(v)].name, ppl::locate(m.source.text, s.pos).line));
      continue;
    }
    std::vector<char> only(m.variables.size(), 0);
    only[static_cast<std::size_t>(v)] = 1;
    const auto reads = unknowns_of(m, s, only);
    const bool target = s.target == v;
    const lang::ir::expr* ref = nullptr;
    for (const auto& a : s.args)
      if (!ref) ref = reference_to(a.get(), v);
    const auto direct = lang::ir::statement_reads(s);
    const bool reads_z = std::find(direct.begin(), direct.end(), v) != direct.end();
    if (!target && !reads_z) {
      if (std::find(reads.begin(), reads.end(), v) != reads.end())
        throw std::invalid_argument(fmt::format("--method vb: the term on line {} reads `{}` through a derived variable; its q is built for "
                                                "terms that read it directly (use --method mcmc)",
                                                ppl::locate(m.source.text, s.pos).line, m.variables[static_cast<std::size_t>(v)].name));
      continue;
    }
    if (elements_read(m, s, v) > 1 || (!target && !ref))
      throw std::invalid_argument(fmt::format("--method vb: the term on line {} reads more than one element of `{}` at once (use --method mcmc)",
                                              ppl::locate(m.source.text, s.pos).line, m.variables[static_cast<std::size_t>(v)].name));
    if (discrete_read_[si] >= 0)
      throw std::invalid_argument(fmt::format("--method vb: the term on line {} reads two discrete unknowns; their joint q is not built (use "
                                              "--method mcmc)", ppl::locate(m.source.text, s.pos).line));
    discrete_read_[si] = v;
    model::instances(graph_).visit(s, [&](const ppl::index_t* loops) {
      element_read_[si].push_back(target ? model::instances(graph_).target(s, loops).first
                                         : model::instances(graph_).eval_at(s, loops, *ref).data - base);
    });
  }
}

void cavi::add_simplex(int v, const samplers::conjugate_pair* pair, std::vector<int> children) {
  const auto& m = graph_.model();
  for (int s : children)
    if (const auto& d = m.statements[static_cast<std::size_t>(s)].dist_name; d != "Categorical" && d != "Multinomial")
      throw std::invalid_argument("--method vb: `" + m.variables[static_cast<std::size_t>(v)].name + "` has a " + d +
                                  " child; a Dirichlet's q is built for Categorical and Multinomial children (use --method mcmc)");
  for (int si : m.variables[static_cast<std::size_t>(v)].statements)
    for (const auto& a : m.statements[static_cast<std::size_t>(si)].args)
      if (a->depends_on_unknown)
        throw std::invalid_argument("--method vb: the Dirichlet prior of `" + m.variables[static_cast<std::size_t>(v)].name +
                                    "` has unknown concentrations; its q is built for known ones (use --method mcmc)");
  auto pi = std::make_unique<simplex>();
  pi->variable = v;
  for (int si : m.variables[static_cast<std::size_t>(v)].statements) {
    const auto& s = m.statements[static_cast<std::size_t>(si)];
    model::instances(graph_).visit(s, [&](const ppl::index_t* loops) { pi->blocks.push_back(model::instances(graph_).target(s, loops)); });
  }
  pi->alpha.assign(graph_.value(v).data.size(), 0.0);
  pi->log_normaliser.assign(pi->blocks.size(), 0.0);
  auto u = pair_update(v, pair, std::move(children));
  u->weights = pi.get();
  simplex_of_[static_cast<std::size_t>(v)] = pi.get();
  simplexes_.push_back(std::move(pi));
  hold(v);
  updates_.push_back(std::move(u));
}

// A row is (point * discrete_values + value) << bits | signs.
long cavi::discrete_value(const design& d, long row) const { return d.discrete < 0 ? 0 : (row >> d.bits) % d.discrete_values; }
long cavi::grid_point(const design& d, long row) const { return d.grid < 0 ? 0 : (row >> d.bits) / d.discrete_values; }

double cavi::instance_weight(const design& d, long k, int statement, std::size_t instance) const {
  if (discrete_read_[static_cast<std::size_t>(statement)] != d.discrete) return k == 0 ? 1.0 : 0.0;
  const auto e = static_cast<std::size_t>(element_read_[static_cast<std::size_t>(statement)][instance]);
  return discrete_of_[static_cast<std::size_t>(d.discrete)]->r[e][static_cast<std::size_t>(k)];
}

// r[e][k] proportional to exp(E log p) of z's terms at z_e = v_k, the expectation over the
// design of the other unknowns they read.
double cavi::update_discrete(update& u) {
  discrete& z = *u.hidden;
  const design& d = *u.over;
  if (d.discrete >= 0) throw std::invalid_argument("--method vb: two discrete unknowns in one term: their joint q is not built (use --method mcmc)");
  const auto& m = graph_.model();
  auto& values = graph_.values()[static_cast<std::size_t>(z.variable)].data;
  std::vector<std::vector<double>> log_r(z.r.size(), std::vector<double>(z.values.size(), 0.0));
  std::vector<std::vector<ppl::index_t>> tables;  // each statement's instances, read once
  for (int si : u.statements) tables.push_back(model::instances(graph_).table(m.statements[static_cast<std::size_t>(si)]));
  const double rows = static_cast<double>(1L << d.bits);
  for (long row = 0; row < d.rows(); ++row) {
    const double w = row_weight(d, row) / rows;
    if (w == 0) continue;
    set_row(d, row);
    for (std::size_t k = 0; k < z.values.size(); ++k) {
      for (std::size_t e : free_[static_cast<std::size_t>(z.variable)]) values[e] = z.values[k];
      graph_.update_derived(z.derived);
      for (std::size_t j = 0; j < u.statements.size(); ++j) {
        const auto si = static_cast<std::size_t>(u.statements[j]);
        const auto& s = m.statements[si];
        const auto& elements = element_read_[si];
        for (std::size_t i = 0; i < elements.size(); ++i)
          log_r[static_cast<std::size_t>(elements[i])][k] += w * model::instances(graph_).log_density(s, tables[j].data() + i * s.loops.size());
      }
    }
  }
  double largest = 0;
  for (std::size_t e : free_[static_cast<std::size_t>(z.variable)]) {
    if (!particles::normalise_logs(log_r[e]))
      throw std::runtime_error(fmt::format("--method vb: no value of {}[{}] has a finite expected log density", m.variables[static_cast<std::size_t>(z.variable)].name, e + 1));
    std::size_t best = 0;
    for (std::size_t k = 0; k < z.values.size(); ++k) {
      const double next = log_r[e][k];
      largest = std::max(largest, std::abs(next - z.r[e][k]));
      z.r[e][k] = next;
      if (next > z.r[e][best]) best = k;
    }
    q_[static_cast<std::size_t>(z.variable)][e] = {nullptr, z.values[best], 0};  // between updates, the most probable value
  }
  return largest;
}

// Dirichlet(alpha + E[counts]) block by block, and its design's point.
double cavi::update_simplex(update& u) {
  simplex& pi = *u.weights;
  std::vector<double> sum;
  average_totals(u, sum);
  double largest = 0;
  for (std::size_t e = 0; e < pi.alpha.size(); ++e) {
    const double next = sum[e];
    if (!(next > 0)) throw std::runtime_error(fmt::format("--method vb: the update of {} gave a concentration {}", graph_.model().variables[static_cast<std::size_t>(pi.variable)].name, next));
    largest = std::max(largest, pi.fitted ? std::abs(next - pi.alpha[e]) / next : INFINITY);
    pi.alpha[e] = next;
  }
  pi.fitted = true;
  // The design's point: proportional to exp(E log pi), with log sum_j exp(E log pi_j).
  auto& points = points_[static_cast<std::size_t>(pi.variable)];
  for (std::size_t b = 0; b < pi.blocks.size(); ++b) {
    const auto [offset, size] = pi.blocks[b];
    double total = 0;
    for (ppl::index_t j = offset; j < offset + size; ++j) total += pi.alpha[static_cast<std::size_t>(j)];
    double normaliser = 0;
    for (ppl::index_t j = offset; j < offset + size; ++j) normaliser += std::exp(digamma(pi.alpha[static_cast<std::size_t>(j)]) - digamma(total));
    pi.log_normaliser[b] = std::log(normaliser);
    for (ppl::index_t j = offset; j < offset + size; ++j) {
      const double p = std::exp(digamma(pi.alpha[static_cast<std::size_t>(j)]) - digamma(total)) / normaliser;
      points[static_cast<std::size_t>(j)] = {p, p};
      q_[static_cast<std::size_t>(pi.variable)][static_cast<std::size_t>(j)] = {nullptr, pi.alpha[static_cast<std::size_t>(j)] / total, 0};
    }
  }
  return largest == INFINITY ? 1.0 : largest;
}

// E_q log p of a term whose design has a discrete unknown's values: instance by instance,
// each weighted as the updates weigh them.
double cavi::weighted_term(const design& d, int statement) {
  const auto& s = graph_.model().statements[static_cast<std::size_t>(statement)];
  const auto table = model::instances(graph_).table(s);
  const std::size_t count = s.loops.empty() ? 1 : table.size() / s.loops.size();
  double sum = 0;
  for (long row = 0; row < d.rows(); ++row) {
    const double point = row_weight(d, row);
    if (point == 0) continue;
    set_row(d, row);
    const long k = discrete_value(d, row);
    for (std::size_t i = 0; i < count; ++i)
      if (const double w = instance_weight(d, k, statement, i); w > 0)
        sum += point * w * model::instances(graph_).log_density(s, table.data() + i * s.loops.size());
  }
  return sum / static_cast<double>(1L << d.bits);
}

// A Categorical term reading a Dirichlet unknown was evaluated at the normalised point:
// its log normaliser, once per instance, is added back.
double cavi::simplex_correction(int statement) const {
  const auto& s = graph_.model().statements[static_cast<std::size_t>(statement)];
  double total = 0;
  // Its prior, Dirichlet(a): sum (a_k - 1) log pi_k, evaluated with each log pi_k short by
  // the block's log normaliser, is short by sum (a_k - 1) of them.
  if (s.target >= 0 && simplex_of_[static_cast<std::size_t>(s.target)]) {
    const simplex& pi = *simplex_of_[static_cast<std::size_t>(s.target)];
    if (!pi.fitted) return 0;
    model::instances(graph_).visit(s, [&](const ppl::index_t* loops) {
      const ppl::index_t offset = model::instances(graph_).target(s, loops).first;
      const ppl::view a = model::instances(graph_).args_at(s, loops)[0];
      double weight = 0;
      for (ppl::index_t k = 0; k < a.size(); ++k) weight += a[k] - 1;
      for (std::size_t b = 0; b < pi.blocks.size(); ++b)
        if (pi.blocks[b].first == offset) total += weight * pi.log_normaliser[b];
    });
    return total;
  }
  // A Categorical child's log pi_k is short by the log normaliser once; a Multinomial's,
  // Multinomial(n, pi), n times.
  const bool categorical = s.dist_name == "Categorical";
  if ((!categorical && s.dist_name != "Multinomial") || s.args.size() < (categorical ? 1U : 2U)) return 0;
  const lang::ir::expr& probabilities = *s.args[categorical ? 0 : 1];
  for (const auto& pi : simplexes_) {
    if (!pi->fitted || !lang::ir::reads_variable(probabilities, pi->variable)) continue;
    const double* base = graph_.value(pi->variable).data.data();
    model::instances(graph_).visit(s, [&](const ppl::index_t* loops) {
      const ppl::index_t offset = model::instances(graph_).eval_at(s, loops, probabilities).data - base;
      const double times = categorical ? 1.0 : model::instances(graph_).args_at(s, loops)[0][0];
      for (std::size_t b = 0; b < pi->blocks.size(); ++b)
        if (pi->blocks[b].first == offset) total += times * pi->log_normaliser[b];
    });
  }
  return total;
}

double cavi::discrete_entropy() const {
  double total = 0;
  for (const auto& z : discretes_)
    for (std::size_t e : free_[static_cast<std::size_t>(z->variable)])
      for (double r : z->r[e])
        if (r > 0) total -= r * std::log(r);
  for (const auto& pi : simplexes_) {
    if (!pi->fitted) continue;
    for (const auto& [offset, size] : pi->blocks) {  // log B(alpha) + (alpha_0 - K) digamma(alpha_0) - sum (alpha_k - 1) digamma(alpha_k)
      double a0 = 0, log_b = 0, rest = 0;
      for (ppl::index_t j = offset; j < offset + size; ++j) {
        const double a = pi->alpha[static_cast<std::size_t>(j)];
        a0 += a, log_b += std::lgamma(a), rest += (a - 1) * digamma(a);
      }
      total += log_b - std::lgamma(a0) + (a0 - static_cast<double>(size)) * digamma(a0) - rest;
    }
  }
  return total;
}

double cavi::discrete_draw(ppl::rng& rng) {
  double log_q = 0;
  boost::random::uniform_01<double> uniform;
  for (const auto& z : discretes_) {
    auto& values = graph_.values()[static_cast<std::size_t>(z->variable)].data;
    for (std::size_t e : free_[static_cast<std::size_t>(z->variable)]) {
      const std::size_t k = particles::pick(z->r[e], uniform(rng));
      values[e] = z->values[k];
      log_q += std::log(z->r[e][k]);
    }
  }
  const stdlib::distribution& dirichlet = *stdlib::library().find_distribution("Dirichlet");
  for (const auto& pi : simplexes_) {
    double* values = graph_.values()[static_cast<std::size_t>(pi->variable)].data.data();
    for (const auto& [offset, size] : pi->blocks) {  // normalised gammas; the density the library's
      double total = 0;
      for (ppl::index_t j = offset; j < offset + size; ++j)
        total += values[j] = boost::random::gamma_distribution<double>(pi->alpha[static_cast<std::size_t>(j)])(rng);
      for (ppl::index_t j = offset; j < offset + size; ++j) values[j] /= total;
      const ppl::view alpha{pi->alpha.data() + offset, ppl::shape::vector(size)};
      log_q += dirichlet.log_density({&alpha, 1}, {values + offset, ppl::shape::vector(size)}, true);
    }
  }
  return log_q;
}

}  // namespace ppl::inference
