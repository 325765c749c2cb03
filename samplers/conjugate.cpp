// `conjugate`: the factory that tries every conjugate pair, and the one sampler that runs
// any of them: sum the children's sufficient statistics over their plates, then draw each
// element of the variable from its posterior.
#include "samplers/conjugate.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "model/blanket.hpp"
#include "samplers/conjugate_alias.hpp"
#include "samplers/conjugate_blocks.hpp"
#include "samplers/dot_rows.hpp"
#include "samplers/factories.hpp"

namespace ppl::samplers {

namespace {

using lang::ir::expr;
using lang::ir::statement;

class conjugate_sampler final : public sampler, public conjugate_totals {
 public:
  conjugate_sampler(model::graph& g, int v, const conjugate_pair& pair, const std::vector<int>& children)
      : graph_(g), variable_(v), pair_(pair) {
    const auto& shape = g.value(v).shape;
    stride_ = pair.stats_per_element > 0 ? pair.stats_per_element : (shape.rank ? shape[shape.rank - 1] : 1) + 1;
    const auto& m = g.model();
    for (int si : children) add_table(m.statements[static_cast<std::size_t>(si)], children_);
    for (int si : m.variables[static_cast<std::size_t>(v)].statements) add_table(m.statements[static_cast<std::size_t>(si)], priors_);
    if (!refresh_.empty()) {  // the aliases and what is derived from them
      refresh_ = reaching(m, refresh_);
      for (std::size_t k = 0; k < refresh_.size(); ++k) refresh_[k] = refresh_[k] && m.variables[k].role == lang::ir::role::derived;
    }
  }

  // A prior of many blocks whose children go block by block (samplers/conjugate_blocks.hpp)
  // is split between --threads threads, when its arguments are the same for every block (so
  // that they are evaluated once, before the threads start), and between the processes of
  // a team.
  void configure(const sampler_settings& settings) override {
    if (settings.particles || !by_block()) return;
    block_sweep& sweep = blocks();
    const std::size_t count = sweep.blocks().size();
    if (settings.threads > 1 && count >= 256 * static_cast<std::size_t>(settings.threads) &&
        std::all_of(priors_.begin(), priors_.end(), [](const table& p) {
          return std::none_of(p.s->args.begin(), p.s->args.end(), [](const auto& a) { return lang::ir::uses_loop_variable(*a); });
        }))
      sweep.use_threads(static_cast<std::size_t>(settings.threads));
    if (team* t = process_team(); t && t->size() > 1 && count >= 2 * static_cast<std::size_t>(t->size())) sweep.share(*t);
  }

  std::string report() const override { return sweep_ ? sweep_->report() : std::string(); }

  void step(ppl::rng& rng, bool) override {
    if (graph_.temperature() == 1 && !weight_ && by_block()) return block_step(rng);
    collect(graph_.temperature());
    // The change in the joint: the children's terms through the pair's kernel of the
    // statistics, the prior's terms evaluated before and after.
    double change = -prior_terms();
    for (std::size_t k = 0; k < priors_.size(); ++k)
      for (std::size_t i = 0; i < priors_[k].count; ++i) change += draw_block(priors_[k], i, rng, stats_.data());
    change_ = change + prior_terms();
    if (!refresh_.empty()) graph_.update_derived(refresh_);
  }

  double last_change() const override { return change_; }

  void totals(std::vector<double>& out, bool with_base) override {
    collect(1.0, with_base);
    out = stats_;
    if (!with_base) return;
    for (const auto& p : priors_) {
      for (std::size_t i = 0; i < p.count; ++i) {
        const ppl::index_t* loops = p.loops.data() + i * p.s->loops.size();
        const ppl::index_t offset = model::instances(graph_).target(*p.s, loops).first;
        pair_.prior_stats(model::instances(graph_).args_at(*p.s, loops), out.data() + offset * stride_);
      }
    }
  }
  ppl::index_t stride() const override { return stride_; }
  void weigh(instance_weight weight) override { weight_ = std::move(weight); }

 private:
  // The children's statistics at the graph's current values into stats_, each
  // likelihood's counted `beta` times.
  void collect(double beta, bool with_base = true) {
    for (auto& c : children_)
      if (!c.varying.empty()) read_factors(graph_, c.varying, c.s->args.size(), c.arg, c.fixed_args);
    const std::size_t size = graph_.values()[static_cast<std::size_t>(variable_)].data.size() * static_cast<std::size_t>(stride_);
    constant_statistics(size);
    const auto base = [&] {
      if (constant_stats_.empty()) stats_.assign(size, 0.0);
      else stats_ = constant_stats_;
    };
    if (weight_) {  // instance by instance, weighted (coordinate ascent's average over a discrete q)
      if (with_base) base();
      else stats_.assign(size, 0.0);
      for (const auto& c : children_)
        if (c.ref && !c.constant) c.fixed ? accumulate_fixed(c, stats_.data(), true) : accumulate_weighted(c);
      return;
    }
    // Tempered (SMC at beta < 1): every pair's statistics are sums over the children, and
    // its kernel linear in them, so likelihood^beta is the likelihood's children counted
    // beta times each.
    if (!with_base) {
      stats_.assign(size, 0.0);
    } else if (beta == 1 || constant_stats_.empty()) {
      base();
    } else {
      if (constant_prior_.size() != size) {
        constant_prior_.assign(size, 0.0);
        constant_likelihood_.assign(size, 0.0);
        for (const auto& c : children_)
          if (c.constant) accumulate_fixed(c, (in_likelihood(c) ? constant_likelihood_ : constant_prior_).data());
      }
      stats_.resize(size);
      for (std::size_t k = 0; k < size; ++k) stats_[k] = constant_prior_[k] + beta * constant_likelihood_[k];
    }
    if (through_derived_) linear_through_derived(beta);
    for (const auto& c : children_) {
      if (!c.ref || c.constant) continue;
      if (const double w = weight(c, beta); w == 1) {
        accumulate(c);
      } else {  // into a zeroed scratch copy, then added w times
        scratch_.swap(stats_);
        stats_.assign(size, 0.0);
        accumulate(c);
        for (std::size_t k = 0; k < size; ++k) scratch_[k] += w * stats_[k];
        scratch_.swap(stats_);
      }
    }
  }

  // Observed children at fixed elements with fixed arguments add the same statistics at
  // every sweep: summed once. Without any, nothing is kept (a statistic a user of 480,189
  // users is 66 doubles: 254 MB a copy).
  void constant_statistics(std::size_t size) {
    if (constant_size_ == size) return;
    constant_size_ = size;
    constant_stats_.clear();
    if (std::any_of(children_.begin(), children_.end(), [](const table& c) { return c.constant; })) {
      constant_stats_.assign(size, 0.0);
      for (const auto& c : children_)
        if (c.constant) accumulate_fixed(c, constant_stats_.data());
    }
    constant_prior_.clear();
  }

  // A statement's instances. For children whose element and other arguments cannot
  // change between sweeps (indices and arguments free of unknowns), those are read once:
  // `elements`, `value_offsets` and `fixed_args` (one scalar per argument and instance),
  // so a sweep is a plain loop over arrays.
  struct table {
    const statement* s = nullptr;
    std::vector<ppl::index_t> loops;
    std::size_t count = 0;
    std::size_t arg = 0, which = 0;
    const expr* ref = nullptr;  // the variable's reference inside argument `arg`
    const expr* scale = nullptr;  // a scaled form: the factor c, passed to the pair as argument `arg`
    bool fixed = false;
    ppl::index_t span = 1;  // fixed: the statistics one instance can touch (a vector prior's block)
    bool constant = false;  // fixed, and its values observed: its statistics never change
    // Not fixed, but its elements and value offsets are (make_rows): the arguments are
    // read as columns over all instances at each sweep, through the graph's batch path.
    bool rows = false;
    std::vector<ppl::index_t> elements, value_offsets, value_sizes;
    std::vector<double> fixed_args;
    std::vector<alias_factor> varying;  // through an alias: factors read again at each update
    // y ~ Normal(dot(v-block, x-block), s) with both blocks at fixed places and s fixed
    // (a rating in matrix factorisation): its children in runs by block
    // (samplers/dot_rows.hpp; dot.other >= 0).
    dot_children dot;
  };

  // The prior statements' log density, where the pair has no kernel of the prior (0 where it has).
  double prior_terms() {
    double total = 0;
    if (!pair_.prior_log_kernel)
      for (const statement* s : prior_statements_) total += model::instances(graph_).log_density(*s);
    return total;
  }

  // Draws instance i of prior table p from its posterior given the statistics (`stats`: the
  // variable's, element 0 first); returns the change in the children's kernel and the
  // prior's (where the pair has a kernel of it).
  double draw_block(const table& p, std::size_t i, ppl::rng& rng, const double* stats_base) {
    const ppl::index_t* loops = p.loops.data() + i * p.s->loops.size();
    auto [offset, size] = model::instances(graph_).target(*p.s, loops);
    return draw_at(model::instances(graph_).args_at(*p.s, loops), offset, size, rng, stats_base);
  }
  // The same given the prior's arguments and the block's place.
  double draw_at(std::span<const ppl::view> prior, ppl::index_t offset, ppl::index_t size, ppl::rng& rng, const double* stats_base) {
    const double* stats = stats_base + offset * stride_;
    double* value = graph_.values()[static_cast<std::size_t>(variable_)].data.data() + offset;
    const auto kernel = [&] { return pair_.log_kernel(stats, value, size) + (pair_.prior_log_kernel ? pair_.prior_log_kernel(prior, value, size) : 0.0); };
    const double before = kernel();
    pair_.draw(prior, stats, rng, value, size);
    return kernel() - before;
  }

  // Whether the update can go block by block (samplers/conjugate_blocks.hpp): every child
  // whose statistics can change is a dot row (a rating in matrix factorisation).
  bool by_block() const {
    if (through_derived_ || priors_.empty()) return false;
    bool dots = false;
    for (const auto& c : children_) {
      if (!c.ref || c.constant) continue;
      if (c.dot.other < 0 || c.dot.other == variable_) return false;
      dots = true;
    }
    return dots;
  }

  // The block-by-block update of every instance of the prior, in the order the serial step
  // draws them (made once).
  block_sweep& blocks() {
    if (sweep_) return *sweep_;
    std::vector<prior_block> all;
    for (std::size_t k = 0; k < priors_.size(); ++k)
      for (std::size_t i = 0; i < priors_[k].count; ++i) {
        const auto [offset, size] = model::instances(graph_).target(*priors_[k].s, priors_[k].loops.data() + i * priors_[k].s->loops.size());
        all.push_back({static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(i), offset, size});
      }
    std::vector<const dot_children*> dots;
    for (const auto& c : children_)
      if (c.ref && !c.constant) dots.push_back(&c.dot);
    sweep_ = std::make_unique<block_sweep>(graph_, std::move(all), std::move(dots), stride_, pair_.add_linear);
    return *sweep_;
  }

  // The step block by block (by_block). With threads, the prior's arguments, the same for
  // every block, are copied before they start, and each block reads them there.
  void block_step(ppl::rng& rng) {
    constant_statistics(graph_.values()[static_cast<std::size_t>(variable_)].data.size() * static_cast<std::size_t>(stride_));
    block_sweep& sweep = blocks();
    std::vector<std::vector<double>> held;
    std::vector<std::vector<ppl::view>> args;
    if (sweep.threaded()) {
      held.resize(priors_.size() * stdlib::max_params);
      args.resize(priors_.size());
      for (std::size_t k = 0; k < priors_.size(); ++k)
        for (const ppl::view& v : model::instances(graph_).args_at(*priors_[k].s, priors_[k].loops.data())) {
          auto& copy = held[k * stdlib::max_params + args[k].size()];
          copy.assign(v.data, v.data + v.size());
          args[k].push_back({copy.data(), v.shape});
        }
    }
    const auto draw = [&](const prior_block& b, ppl::rng& r, const double* stats) {
      return args.empty() ? draw_block(priors_[b.table], b.index, r, stats) : draw_at(args[b.table], b.offset, b.size, r, stats);
    };
    const double before = prior_terms();  // before the draws: apart, not as an operand beside run()
    const double change = sweep.run(rng, constant_stats_, draw, graph_.values()[static_cast<std::size_t>(variable_)].data.data());
    change_ = change - before + prior_terms();
    if (!refresh_.empty()) graph_.update_derived(refresh_);
  }

  // How many times a child's statistics count at temperature beta: beta for the
  // likelihood's (an observation of data), 1 for the prior's.
  bool in_likelihood(const table& c) const { return graph_.likelihood(static_cast<int>(c.s - graph_.model().statements.data())); }
  double weight(const table& c, double beta) const { return beta != 1 && in_likelihood(c) ? beta : 1.0; }

  void add_table(const statement& s, std::vector<table>& out) {
    table t;
    t.s = &s;
    t.loops = model::instances(graph_).table(s);
    t.count = s.loops.empty() ? 1 : t.loops.size() / s.loops.size();
    if (s.target != variable_) {
      // The first form listed for the distribution that the argument takes (as matched).
      for (std::size_t k = 0; k < pair_.likelihoods.size() && !t.ref; ++k) {
        const likelihood& l = pair_.likelihoods[k];
        if (l.dist != s.dist_name || l.arg >= s.args.size()) continue;
        t.arg = l.arg, t.which = k;
        t.ref = reference_in(*s.args[t.arg], l.form, variable_);
      }
      if (t.ref && is_scaled(pair_.likelihoods[t.which].form)) t.scale = &scale_in(*s.args[t.arg], pair_.likelihoods[t.which].form, variable_);
      if (t.ref) make_fixed(t);
      else if (!make_alias(t)) through_derived_ = true;  // reads the variable through a derived one
      if (t.ref && !t.fixed) make_rows(t);
      if (t.ref && !t.fixed && !t.rows) make_dot(t);
      const auto target = static_cast<std::size_t>(s.target);
      t.constant = t.fixed && t.varying.empty() && graph_.model().variables[target].role == lang::ir::role::data && !graph_.simulated(s.target);
    } else if (std::find(prior_statements_.begin(), prior_statements_.end(), &s) == prior_statements_.end()) {
      prior_statements_.push_back(&s);
    }
    out.push_back(std::move(t));
  }

  // A child through an alias (lambda[i] <- theta[i] * t[i]): its places and factors read
  // once, as a fixed child's; the alias is recomputed after each draw.
  bool make_alias(table& t) {
    alias_rows a;
    if (!read_alias(graph_, variable_, *t.s, pair_.likelihoods, a)) return false;
    t.which = a.which, t.arg = a.arg, t.ref = a.ref;
    t.elements = std::move(a.elements), t.value_offsets = std::move(a.value_offsets), t.value_sizes = std::move(a.value_sizes);
    t.fixed_args = std::move(a.fixed_args);
    t.varying = std::move(a.varying);
    t.span = stride_;
    t.fixed = true;
    if (refresh_.empty()) refresh_.assign(graph_.model().variables.size(), 0);
    refresh_[static_cast<std::size_t>(a.alias)] = 1;
    return true;
  }

  void make_fixed(table& t) {
    const statement& s = *t.s;
    for (std::size_t k = 0; k < s.args.size(); ++k) {
      if (k == t.arg) {
        if (t.ref != s.args[k].get() && !t.scale) return;  // sqrt(v) and the like: evaluated each sweep
        if (t.scale && t.scale->depends_on_unknown) return;  // a factor that reads other unknowns: likewise
        for (const auto& ix : s.args[k]->indices)
          if (ix.lo && ix.lo->depends_on_unknown) return;
      } else if (s.args[k]->depends_on_unknown || s.args[k]->type.rank != 0) {
        return;
      }
    }
    const double* base = graph_.value(variable_).data.data();
    for (std::size_t i = 0; i < t.count; ++i) {
      const ppl::index_t* loops = t.loops.data() + i * s.loops.size();
      auto [offset, size] = model::instances(graph_).target(s, loops);
      const auto& args = model::instances(graph_).args_at(s, loops);
      t.elements.push_back(t.scale ? model::instances(graph_).eval_at(s, loops, *t.ref).data - base : args[t.arg].data - base);
      t.span = std::max(t.span, (t.scale ? ppl::index_t{1} : args[t.arg].size()) * stride_);
      t.value_offsets.push_back(offset);
      t.value_sizes.push_back(size);
      const double scale = t.scale ? model::instances(graph_).eval_at(s, loops, *t.scale).scalar() : 0.0;
      for (std::size_t k = 0; k < args.size(); ++k) t.fixed_args.push_back(k == t.arg ? scale : args[k][0]);
    }
    t.fixed = true;
  }

  void accumulate(const table& c) {
    if (c.fixed) return accumulate_fixed(c, stats_.data());
    if (c.rows && accumulate_rows(c)) return;
    if (c.dot.other >= 0) return accumulate_dot(c);
    for (std::size_t i = 0; i < c.count; ++i) {
      const ppl::index_t* loops = c.loops.data() + i * c.s->loops.size();
      accumulate_instance(c, loops, model::instances(graph_).eval_at(*c.s, loops, *c.ref));
    }
  }

  // One instance of a child, its arguments evaluated: its statistics added at the element
  // of the variable that `ref` (its reference's value) points to.
  void accumulate_instance(const table& c, const ppl::index_t* loops, const ppl::view& ref) {
    auto [offset, size] = model::instances(graph_).target(*c.s, loops);
    std::vector<ppl::view> args = model::instances(graph_).args_at(*c.s, loops);
    const ppl::index_t element = ref.data - graph_.value(variable_).data.data();
    ppl::view x{graph_.value(c.s->target).data.data() + offset, value_shape(*c.s, size)};
    if (c.scale) args[c.arg] = model::instances(graph_).eval_at(*c.s, loops, *c.scale);
    if (linear_mean(c)) accumulate_linear(c, loops, element, x[0], args[1][0]);
    else pair_.accumulate(c.which, x, args, stats_.data() + element * stride_);
  }

  // Children reached through derived variables linear in a scalar v: their means at v = 0
  // and v = 1 (derived values recomputed through the blanket) give c0 and c1 for all of
  // them in two passes.
  void linear_through_derived(double beta) {
    if (!blanket_) blanket_ = std::make_unique<model::blanket>(graph_, variable_);
    auto& v = graph_.values()[static_cast<std::size_t>(variable_)].data[0];
    double saved = v;
    std::vector<double> c0, c1, y, sigma, weights;
    for (double at : {0.0, 1.0}) {
      v = at;
      blanket_->update(0);
      for (const auto& c : children_) {
        if (c.ref) continue;
        for (std::size_t i = 0; i < c.count; ++i) {
          const ppl::index_t* loops = c.loops.data() + i * c.s->loops.size();
          const auto& args = model::instances(graph_).args_at(*c.s, loops);
          (at == 0 ? c0 : c1).push_back(args[0][0]);
          if (at != 0) continue;
          sigma.push_back(args[1][0]);
          weights.push_back(weight(c, beta));
          y.push_back(graph_.value(c.s->target).data[static_cast<std::size_t>(model::instances(graph_).target(*c.s, loops).first)]);
        }
      }
    }
    v = saved;
    blanket_->update(0);
    for (std::size_t i = 0; i < y.size(); ++i) {
      double slope = c1[i] - c0[i];
      if (slope == 0) continue;
      double observed = (y[i] - c0[i]) / slope, scale = sigma[i] / std::fabs(slope);
      std::array<ppl::view, 2> args = {ppl::view{&c0[i], ppl::shape::scalar()}, ppl::view{&scale, ppl::shape::scalar()}};
      if (weights[i] == 1) {
        pair_.accumulate(0, {&observed, ppl::shape::scalar()}, args, stats_.data());
        continue;
      }
      scratch_.assign(static_cast<std::size_t>(stride_), 0.0);
      pair_.accumulate(0, {&observed, ppl::shape::scalar()}, args, scratch_.data());
      for (std::size_t k = 0; k < scratch_.size(); ++k) stats_[k] += weights[i] * scratch_[k];
    }
  }

  // y ~ Normal(c0 + c' v, s) with v a scalar or a block of the variable: c0 and c come
  // from evaluating the mean at v = 0 and at unit vectors. A scalar v is then observed as
  // (y - c0) / c with scale s / |c|; a block gets the residual y - c0, the coefficients c
  // (as the first argument) and s, for the pair to add c c' / s^2 and c (y - c0) / s^2.
  void accumulate_linear(const table& c, const ppl::index_t* loops, ppl::index_t element, double y, double sigma) {
    auto& values = graph_.values()[static_cast<std::size_t>(variable_)].data;
    ppl::index_t k = model::instances(graph_).eval_at(*c.s, loops, *c.ref).size();
    std::vector<double> saved(values.begin() + element, values.begin() + element + k), coef(static_cast<std::size_t>(k));
    std::fill(values.begin() + element, values.begin() + element + k, 0.0);
    double c0 = model::instances(graph_).eval_at(*c.s, loops, *c.s->args[c.arg]).scalar();
    for (ppl::index_t j = 0; j < k; ++j) {
      values[static_cast<std::size_t>(element + j)] = 1;
      coef[static_cast<std::size_t>(j)] = model::instances(graph_).eval_at(*c.s, loops, *c.s->args[c.arg]).scalar() - c0;
      values[static_cast<std::size_t>(element + j)] = 0;
    }
    std::copy(saved.begin(), saved.end(), values.begin() + element);
    double* stats = stats_.data() + element * stride_;
    if (k > 1) {
      double residual = y - c0;
      std::array<ppl::view, 2> args = {ppl::view{coef.data(), ppl::shape::vector(k)}, ppl::view{&sigma, ppl::shape::scalar()}};
      pair_.accumulate(c.which, {&residual, ppl::shape::scalar()}, args, stats);
      return;
    }
    if (coef[0] == 0) return;
    double observed = (y - c0) / coef[0], scale = sigma / std::fabs(coef[0]);
    std::array<ppl::view, 2> args = {ppl::view{&c0, ppl::shape::scalar()}, ppl::view{&scale, ppl::shape::scalar()}};
    pair_.accumulate(c.which, {&observed, ppl::shape::scalar()}, args, stats);
  }

  // A child plate whose elements and value offsets cannot change but whose arguments can
  // (mu in a[j] ~ Normal(mu, tau); a and b in y[n] ~ Normal(a[g[n]] + b * x[n], s); tau in
  // y[n] ~ Normal(b[g[n]], 1 / sqrt(tau))): its
  // arguments go as columns over all instances, and a linear mean's intercept and slope
  // from two columns, the variable set to 0 and to 1 everywhere. That needs the argument
  // to read the variable once (one element per instance) and no derived variable.
  // Whether the argument is a mean linear in the variable rather than the variable itself
  // (a + b * x[n]): its intercept and slope are read, not its value.
  bool linear_mean(const table& t) const {
    return !t.scale && t.ref != t.s->args[t.arg].get() && pair_.likelihoods[t.which].form == link::linear;
  }

  void make_rows(table& t) {
    const statement& s = *t.s;
    if (s.dist->value_rank() != 0 || t.ref->type.rank != 0 || s.args.size() > cols_.size()) return;
    for (const auto& ix : t.ref->indices)
      if (ix.lo && ix.lo->depends_on_unknown) return;
    // A scaled form's pair reads the factor inside it (tau * w[n] in 1 / sqrt(tau * w[n])).
    const expr& arg = t.scale ? *t.scale : *s.args[t.arg];
    if (linear_mean(t)) {
      if (s.args.size() != 2 || t.arg != 0) return;
      std::vector<int> reads;
      lang::ir::collect_reads(&arg, reads);
      if (std::count(reads.begin(), reads.end(), variable_) != 1) return;
      for (int r : reads)
        if (graph_.model().variables[static_cast<std::size_t>(r)].role == lang::ir::role::derived) return;
    }
    std::vector<double> probe;
    if (!model::instances(graph_).batch_values(s, arg, probe)) return;
    const double* base = graph_.value(variable_).data.data();
    for (std::size_t i = 0; i < t.count; ++i) {
      const ppl::index_t* loops = t.loops.data() + i * s.loops.size();
      t.elements.push_back(model::instances(graph_).eval_at(s, loops, *t.ref).data - base);
      t.value_offsets.push_back(model::instances(graph_).target(s, loops).first);
    }
    t.rows = true;
  }

  // The dot fast path (table::dot): the argument is exactly dot(ref, x) or dot(x, ref), x
  // an element block of another variable whose indices are free of unknowns, every other
  // argument a scalar free of unknowns; x's values are read in place at each sweep.
  void make_dot(table& t) {
    const statement& s = *t.s;
    // Vector priors only: a scalar's pair takes its children as observations of it.
    if (t.count == 0 || !pair_.add_linear || pair_.likelihoods[t.which].form != link::linear || s.args.size() != 2 || t.arg != 0) return;
    // On success the loops table is released: only a weighted sum (accumulate_weighted)
    // reads it again, and makes it anew.
    read_dot_children(graph_, s, t.loops, t.count, t.ref, variable_, t.dot);
  }

  void accumulate_dot(const table& c) {
    c.dot.for_each(graph_, [&](const double* x, double y, double w, ppl::index_t element) {
      pair_.add_linear(x, y, w, c.dot.block, stats_.data() + element * stride_);
    });
  }

  bool accumulate_rows(const table& c) {
    const statement& s = *c.s;
    const bool linear = linear_mean(c);
    for (std::size_t k = 0; k < s.args.size(); ++k)
      if (!(linear && k == c.arg) && !model::instances(graph_).batch_values(s, c.scale && k == c.arg ? *c.scale : *s.args[k], cols_[k])) return false;
    if (linear) {
      auto& v = graph_.values()[static_cast<std::size_t>(variable_)].data;
      saved_ = v;
      std::fill(v.begin(), v.end(), 0.0);
      bool ok = model::instances(graph_).batch_values(s, *s.args[c.arg], intercept_);
      std::fill(v.begin(), v.end(), 1.0);
      ok = ok && model::instances(graph_).batch_values(s, *s.args[c.arg], slope_);
      v = saved_;
      if (!ok) return false;
    }
    const double* y = graph_.value(s.target).data.data();
    if (!linear && pair_.accumulate_rows) {
      std::array<const double*, stdlib::max_params> columns{};
      for (std::size_t k = 0; k < s.args.size(); ++k) columns[k] = cols_[k].data();
      pair_.accumulate_rows(c.which, y, c.value_offsets.data(), columns.data(), c.count, c.elements.data(), stride_, stats_.data());
      return true;
    }
    std::array<ppl::view, stdlib::max_params> args{};
    for (std::size_t i = 0; i < c.count; ++i) {
      double* stats = stats_.data() + c.elements[i] * stride_;
      double x = y[c.value_offsets[i]];
      if (linear) {
        // y ~ Normal(c0 + c1 v, sigma): v observed as (y - c0) / c1 with scale sigma / |c1|.
        double c0 = intercept_[i], c1 = slope_[i] - c0;
        if (c1 == 0) continue;
        double scale = cols_[1][i] / std::fabs(c1);
        x = (x - c0) / c1;
        args[0] = {&c0, ppl::shape::scalar()};
        args[1] = {&scale, ppl::shape::scalar()};
        pair_.accumulate(c.which, {&x, ppl::shape::scalar()}, std::span<const ppl::view>(args.data(), 2), stats);
        continue;
      }
      for (std::size_t k = 0; k < s.args.size(); ++k) args[k] = {&cols_[k][i], ppl::shape::scalar()};
      pair_.accumulate(c.which, {&x, ppl::shape::scalar()}, std::span<const ppl::view>(args.data(), s.args.size()), stats);
    }
    return true;
  }

  // A child's instances one by one, each's statistics counted weight_ times.
  void accumulate_weighted(const table& c) {
    const int si = static_cast<int>(c.s - graph_.model().statements.data());
    std::vector<double> before;
    // A dot table let its loops go (make_dot): found again here.
    const std::vector<ppl::index_t> found = c.loops.empty() && !c.s->loops.empty() ? model::instances(graph_).table(*c.s) : std::vector<ppl::index_t>{};
    const ppl::index_t* table = found.empty() ? c.loops.data() : found.data();
    for (std::size_t i = 0; i < c.count; ++i) {
      const double w = weight_(si, i);
      if (w == 0) continue;
      const ppl::index_t* loops = table + i * c.s->loops.size();
      const ppl::view ref = model::instances(graph_).eval_at(*c.s, loops, *c.ref);
      // The statistics this child can touch, kept to count its addition w times.
      double* stats = stats_.data() + (ref.data - graph_.value(variable_).data.data()) * stride_;
      const ppl::index_t span = ref.size() * stride_;
      before.assign(stats, stats + span);
      accumulate_instance(c, loops, ref);
      for (ppl::index_t k = 0; k < span; ++k) stats[k] = before[static_cast<std::size_t>(k)] + w * (stats[k] - before[static_cast<std::size_t>(k)]);
    }
  }

  void accumulate_fixed(const table& c, double* stats, bool weighted = false) {
    const auto& child_values = graph_.value(c.s->target).data;
    std::size_t n_args = c.s->args.size();
    std::array<ppl::view, stdlib::max_params> args{};
    for (std::size_t k = 0; k < n_args; ++k) args[k].shape = ppl::shape::scalar();
    bool scalar = c.s->dist->value_rank() == 0;
    ppl::view x;
    const int si = static_cast<int>(c.s - graph_.model().statements.data());
    std::vector<double> one(weighted ? static_cast<std::size_t>(c.span) : 0);
    for (std::size_t i = 0; i < c.count; ++i) {
      const double w = weighted ? weight_(si, i) : 1.0;
      if (w == 0) continue;
      for (std::size_t k = 0; k < n_args; ++k) args[k].data = &c.fixed_args[i * n_args + k];
      x.data = child_values.data() + c.value_offsets[i];
      x.shape = scalar ? ppl::shape::scalar() : ppl::shape::vector(c.value_sizes[i]);
      double* into = stats + c.elements[i] * stride_;
      if (!weighted) {
        pair_.accumulate(c.which, x, std::span<const ppl::view>(args.data(), n_args), into);
        continue;
      }
      std::fill(one.begin(), one.end(), 0.0);
      pair_.accumulate(c.which, x, std::span<const ppl::view>(args.data(), n_args), one.data());
      for (ppl::index_t k = 0; k < c.span; ++k) into[k] += w * one[static_cast<std::size_t>(k)];
    }
  }

  static ppl::shape value_shape(const statement& s, ppl::index_t size) {
    return s.dist->value_rank() == 0 ? ppl::shape::scalar() : ppl::shape::vector(size);
  }

  model::graph& graph_;
  int variable_;
  const conjugate_pair& pair_;
  std::vector<table> children_, priors_;
  std::vector<const statement*> prior_statements_;
  std::vector<double> stats_, constant_stats_;  // constant_stats_ empty where no child is constant
  std::size_t constant_size_ = ~std::size_t{0};  // the size constant_stats_ was found for
  // At a temperature below 1: constant_stats_ split into the prior's and the likelihood's
  // children, and a scratch buffer for a child counted beta times.
  std::vector<double> constant_prior_, constant_likelihood_, scratch_;
  double change_ = NAN;
  ppl::index_t stride_ = 1;  // statistics per element of the variable
  bool through_derived_ = false;
  std::vector<char> refresh_;  // by variable: aliases read by children (make_alias) and what they feed
  std::unique_ptr<model::blanket> blanket_;
  std::unique_ptr<block_sweep> sweep_;  // the update block by block (blocks), where by_block
  instance_weight weight_;  // coordinate ascent's weights of the children's instances (weigh)
  std::array<std::vector<double>, stdlib::max_params> cols_;          // accumulate_rows: a child plate's arguments
  std::vector<double> intercept_, slope_, saved_;     // and a linear mean at 0 and 1, the values set aside
};

}  // namespace

std::unique_ptr<sampler> make_conjugate_sampler(model::graph& g, int v, const conjugate_pair& pair, const std::vector<int>& children) {
  return std::make_unique<conjugate_sampler>(g, v, pair, children);
}

std::unique_ptr<conjugate_totals> make_conjugate_totals(model::graph& g, int v, const conjugate_pair& pair, const std::vector<int>& children) {
  return std::make_unique<conjugate_sampler>(g, v, pair, children);
}

}  // namespace ppl::samplers
