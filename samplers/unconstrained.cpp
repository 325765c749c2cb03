#include "samplers/unconstrained.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "samplers/structure.hpp"

namespace ppl::samplers {

using lang::ir::expr;
using lang::ir::statement;

namespace {

// Derived variables computed (transitively) from the variables marked in `from`, marked in
// a copy of it.
std::vector<char> reached_from(const lang::ir::model& m, std::vector<char> from) {
  for (const auto& s : m.statements) {
    if (s.which != statement::kind::assign || m.variables[static_cast<std::size_t>(s.target)].role != lang::ir::role::derived) continue;
    for (int r : lang::ir::statement_reads(s))
      if (from[static_cast<std::size_t>(r)]) from[static_cast<std::size_t>(s.target)] = 1;
  }
  return from;
}

// The unknowns outside the block that the terms involving it (`reached`: the block and the
// derived variables computed from it) read, directly or through derived variables.
std::vector<int> unknowns_read(const model::graph& g, const std::vector<char>& reached) {
  const auto& m = g.model();
  std::vector<char> read(m.variables.size(), 0);
  for (const auto& s : m.statements) {
    if (s.which == statement::kind::assign || g.predictive(s)) continue;
    auto reads = lang::ir::statement_reads(s);
    if (s.target >= 0) reads.push_back(s.target);
    if (std::none_of(reads.begin(), reads.end(), [&](int r) { return reached[static_cast<std::size_t>(r)] != 0; })) continue;
    for (int r : reads) read[static_cast<std::size_t>(r)] = 1;
  }
  read = with_inputs(m, std::move(read));
  std::vector<int> out;
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (read[v] && !reached[v] && m.variables[v].role == lang::ir::role::unknown) out.push_back(static_cast<int>(v));
  return out;
}

}  // namespace

unconstrained_target::unconstrained_target(model::graph& g, std::vector<int> variables)
    : graph_(g), variables_(std::move(variables)) {
  const auto& m = g.model();
  wrt_.assign(m.variables.size(), 0);
  for (int v : variables_) {
    wrt_[static_cast<std::size_t>(v)] = 1;
    moving_ = moving_ || model::supports(g).moves(v);
    model::supports(g).visit(v, [&](ppl::index_t offset, ppl::index_t size, const stdlib::support& s) {
      if (block_transform::applies(s)) {
        blocks_.push_back({v, offset, size, dimension_, block_transform(s, size)});
        dimension_ += blocks_.back().t.dimension();
      } else {
        for (ppl::index_t e = offset; e < offset + size; ++e) scalars_.push_back({v, e, transform(s), dimension_++});
      }
    });
  }
  // Elements whose bounds follow other unknowns of this block move with them.
  for (auto& b : scalars_) {
    if (!model::supports(g).follows_bounds(b.variable)) continue;
    const auto inputs = model::supports(g).inputs(b.variable);
    for (std::size_t r = 0; r < inputs.size(); ++r) b.follows = b.follows || (inputs[r] && wrt_[r]);
    follows_ = follows_ || b.follows;
  }
  const std::vector<char> reached = reached_from(m, wrt_);
  derived_.assign(m.variables.size(), 0);
  const std::vector<char>& feeds = feeding_density(g);
  for (std::size_t v = 0; v < m.variables.size(); ++v) derived_[v] = reached[v] && feeds[v];
  inputs_ = variables_;
  for (int v : unknowns_read(g, reached)) inputs_.push_back(v);
}

void unconstrained_target::refresh_supports() {
  if (!moving_) return;
  std::size_t k = 0;
  for (int v : variables_)
    model::supports(graph_).visit(v, [&](ppl::index_t, ppl::index_t size, const stdlib::support& s) {
      if (block_transform::applies(s)) return;
      for (ppl::index_t e = 0; e < size; ++e) scalars_[k++].t = transform(s);
    });
}

Eigen::VectorXd unconstrained_target::position() const {
  Eigen::VectorXd y;
  position(y);
  return y;
}

void unconstrained_target::position(Eigen::VectorXd& y) const {
  y.resize(dimension_);
  for (const auto& b : scalars_) {
    const double x = graph_.value(b.variable).data[static_cast<std::size_t>(b.element)];
    y[b.position] = b.follows ? transform(model::supports(graph_).of_element(b.variable, b.element)).to_unconstrained(x) : b.t.to_unconstrained(x);
  }
  for (const auto& b : blocks_) b.t.to_unconstrained(graph_.value(b.variable).data.data() + b.offset, y.data() + b.position);
}

double unconstrained_target::write(const Eigen::VectorXd& y) {
  auto& values = graph_.values();
  double log_jacobian = 0;
  auto write_scalar = [&](scalar_block& b) {
    const auto at = b.t.evaluate(y[b.position]);
    values[static_cast<std::size_t>(b.variable)].data[static_cast<std::size_t>(b.element)] = at.x;
    log_jacobian += at.log_jacobian;
    b.slope = at.derivative;
    b.jacobian_slope = at.log_jacobian_derivative;
    if (b.follows && std::isfinite(b.t.lower()) && std::isfinite(b.t.upper()))
      b.fraction = (at.x - b.t.lower()) / (b.t.upper() - b.t.lower());
  };
  for (auto& b : scalars_)
    if (!b.follows) write_scalar(b);
  for (const auto& b : blocks_)
    log_jacobian += b.t.to_constrained(y.data() + b.position, values[static_cast<std::size_t>(b.variable)].data.data() + b.offset);
  // Then the elements whose bounds follow those values: x = lower + (upper - lower)
  // inv_logit(y), with the bounds read at the values just written.
  if (follows_)
    for (auto& b : scalars_)
      if (b.follows) {
        b.t = transform(model::supports(graph_).of_element(b.variable, b.element));
        write_scalar(b);
      }
  log_jacobian_ = log_jacobian;
  return log_jacobian;
}

double unconstrained_target::log_density(const Eigen::VectorXd& y, Eigen::VectorXd& gradient) {
  const double log_jacobian = write(y);
  const double lp = graph_.log_density_gradient(wrt_, gradient_) + (jacobian_ ? log_jacobian : 0.0);
  if (follows_) pass_through_bounds();
  gradient.resize(dimension_);
  for (const auto& b : scalars_) {
    const double dx = gradient_[static_cast<std::size_t>(b.variable)][static_cast<std::size_t>(b.element)];
    gradient[b.position] = dx * b.slope + (jacobian_ ? b.jacobian_slope : 0.0);
  }
  for (const auto& b : blocks_) {
    auto segment = gradient.segment(b.position, b.t.dimension());
    segment.setZero();
    b.t.backward(y.data() + b.position, gradient_[static_cast<std::size_t>(b.variable)].data() + b.offset, gradient.data() + b.position,
                 block_work_);
    if (jacobian_) continue;
    // backward adds J'dx and log |J|'s gradient; the latter alone is what a dx of 0 gives.
    Eigen::VectorXd jacobian_part = Eigen::VectorXd::Zero(b.t.dimension());
    zeros_.assign(static_cast<std::size_t>(b.size), 0.0);
    b.t.backward(y.data() + b.position, zeros_.data(), jacobian_part.data(), block_work_);
    segment -= jacobian_part;
  }
  return std::isnan(lp) || !gradient.allFinite() ? -INFINITY : lp;
}

// An element x = lower + (upper - lower) inv_logit(y) whose bounds follow unknowns of the
// block: with y held, x moves with the bounds (dx/dlower = 1 - fraction, dx/dupper =
// fraction) and so does log |dx/dy|, through log(upper - lower); both reach the unknowns the
// bounds read. With one bound, x = lower + exp(y) or upper - exp(y) moves with it one for
// one, and log |dx/dy| = y does not.
void unconstrained_target::pass_through_bounds() {
  bound_slots_.assign(wrt_.size(), nullptr);
  for (std::size_t v = 0; v < wrt_.size(); ++v)
    if (wrt_[v]) bound_slots_[v] = gradient_[v].data();
  for (const auto& b : scalars_) {
    if (!b.follows) continue;
    const double dx = gradient_[static_cast<std::size_t>(b.variable)][static_cast<std::size_t>(b.element)];
    const bool lower = std::isfinite(b.t.lower()), upper = std::isfinite(b.t.upper());
    if (lower && upper) {
      const double width = b.t.upper() - b.t.lower();
      model::supports(graph_).bound_backward(b.variable, b.element, dx * (1 - b.fraction) - 1 / width, dx * b.fraction + 1 / width, bound_slots_);
    } else {
      model::supports(graph_).bound_backward(b.variable, b.element, lower ? dx : 0.0, upper ? dx : 0.0, bound_slots_);
    }
  }
}

void unconstrained_target::drop_jacobian() {
  if (follows_)
    throw std::invalid_argument("without the Jacobian the mode is sought on the constrained scale, where an element whose bounds "
                                "follow other unknowns has no fixed range; use the default (with the Jacobian)");
  jacobian_ = false;
}

void unconstrained_target::set(const Eigen::VectorXd& y) { set_with_jacobian(y); }

double unconstrained_target::set_with_jacobian(const Eigen::VectorXd& y) {
  const double log_jacobian = write(y);
  graph_.update_derived(derived_);
  return log_jacobian;
}

void unconstrained_target::remember_inputs() {
  remembered_temperature_ = graph_.temperature();
  remembered_.clear();
  for (int v : inputs_) {
    const auto& d = graph_.value(v).data;
    remembered_.insert(remembered_.end(), d.begin(), d.end());
  }
}

bool unconstrained_target::inputs_unchanged() const {
  if (graph_.temperature() != remembered_temperature_) return false;
  auto at = remembered_.begin();
  for (int v : inputs_) {
    const auto& d = graph_.value(v).data;
    if (static_cast<std::size_t>(remembered_.end() - at) < d.size() || !std::equal(d.begin(), d.end(), at)) return false;
    at += static_cast<std::ptrdiff_t>(d.size());
  }
  return at == remembered_.end();
}

std::string unconstrained_target::coordinate_label(long i) const {
  const auto& m = graph_.model();
  for (const auto& b : scalars_)
    if (b.position == i)
      return element_name(m.variables[static_cast<std::size_t>(b.variable)].name, graph_.value(b.variable).shape, b.element);
  for (const auto& b : blocks_)
    if (i >= b.position && i < b.position + b.t.dimension())
      return element_name(m.variables[static_cast<std::size_t>(b.variable)].name, graph_.value(b.variable).shape,
                                    b.offset + b.t.coordinate_element(i - b.position));
  return "?";
}

std::vector<std::pair<int, ppl::index_t>> unconstrained_target::coordinate_keys() const {
  std::vector<std::pair<int, ppl::index_t>> out(static_cast<std::size_t>(dimension_));
  for (const auto& b : scalars_) out[static_cast<std::size_t>(b.position)] = {b.variable, b.element};
  for (const auto& b : blocks_)
    for (long j = 0; j < b.t.dimension(); ++j) out[static_cast<std::size_t>(b.position + j)] = {b.variable, b.offset + j};
  return out;
}

namespace {

// The first call of a non-differentiable function on a value computed from `from`.
const expr* rough_call(const expr* e, const std::vector<char>& from) {
  if (!e || !e->depends_on_unknown) return nullptr;
  if (e->which == expr::kind::call && !e->fn->differentiable()) {
    std::vector<int> reads;
    lang::ir::collect_reads(e, reads);
    for (int r : reads)
      if (from[static_cast<std::size_t>(r)]) return e;
  }
  for (const auto& a : e->args)
    if (const expr* found = rough_call(a.get(), from)) return found;
  return nullptr;
}

}  // namespace

bool continuous_support(const stdlib::support& s) {
  return s.kind == stdlib::support_kind::real_interval || s.kind == stdlib::support_kind::real_vector || block_transform::applies(s);
}

bool smooth_block(model::graph& g, int variable, std::string& reason) {
  bool continuous = true;
  model::supports(g).visit(variable, [&](ppl::index_t, ppl::index_t, const stdlib::support& s) {
    continuous = continuous && continuous_support(s);
  });
  if (!continuous) {
    reason = "not continuous";
    return false;
  }
  if (model::supports(g).reads_itself(variable)) {
    reason = "its support's bounds follow its own values";
    return false;
  }
  const auto& m = g.model();
  const std::vector<char>& feeds = feeding_density(g);
  std::vector<char> from(m.variables.size(), 0);
  from[static_cast<std::size_t>(variable)] = 1;
  for (const auto& s : m.statements) {
    bool reads = false;
    for (int r : lang::ir::statement_reads(s)) reads = reads || from[static_cast<std::size_t>(r)];
    if (!reads) continue;
    if (s.which == statement::kind::assign) {
      if (!feeds[static_cast<std::size_t>(s.target)]) continue;
      from[static_cast<std::size_t>(s.target)] = 1;
    }
    const expr* rough = rough_call(s.value.get(), from);
    for (const auto& a : s.args)
      if (!rough) rough = rough_call(a.get(), from);
    if (rough) {
      reason = "reaches the density through `" + std::string(rough->fn->name()) + "` (line " +
               std::to_string(ppl::locate(m.source.text, rough->pos).line) + "), which has no gradient";
      return false;
    }
  }
  reason = "smooth and continuous";
  return true;
}

}  // namespace ppl::samplers
