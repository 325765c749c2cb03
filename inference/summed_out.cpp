// Discrete unknowns summed out of the mode's target (inference/summed_out.hpp).
#include "inference/summed_out.hpp"

#include <boost/random/uniform_01.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/source_error.hpp"
#include "draws/psis.hpp"
#include "inference/particles.hpp"
#include "model/instances.hpp"
#include "model/supports.hpp"
#include "samplers/structure.hpp"
#include "samplers/unconstrained.hpp"

namespace ppl::inference {

namespace {

std::string line_of(const lang::ir::model& m, const lang::ir::statement& s) {
  return fmt::format("line {}", ppl::locate(m.source.text, s.pos).line);
}

// The graph at temperature 1 while it lives: the elements' terms are summed untempered.
class untempered {
 public:
  explicit untempered(model::graph& g) : g_(g), beta_(g.temperature()) { g_.set_temperature(1); }
  ~untempered() { g_.set_temperature(beta_); }
  untempered(const untempered&) = delete;
  untempered& operator=(const untempered&) = delete;

 private:
  model::graph& g_;
  double beta_;
};

}  // namespace

unknown_split split_unknowns(model::graph& g, const std::vector<char>& predicted) {
  const auto& m = g.model();
  unknown_split out;
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    if (m.variables[v].role != lang::ir::role::unknown || predicted[v]) continue;
    std::string reason;
    if (samplers::smooth_block(g, static_cast<int>(v), reason)) out.smooth.push_back(static_cast<int>(v));
    else if (reason == "not continuous") out.discrete.push_back(static_cast<int>(v));
    else out.rough += (out.rough.empty() ? "" : "; ") + m.variables[v].name + " " + reason;
  }
  return out;
}

summed_out::summed_out(model::graph& g, const std::vector<int>& variables) : graph_(g), variables_(variables) {
  const auto& m = g.model();
  statements.assign(m.statements.size(), 0);
  // Which element's terms each statement instance is, to find a term two elements share.
  struct owner {
    std::size_t unknown;
    index_t index;
  };
  std::vector<std::vector<owner>> owners(m.statements.size());
  auto name = [&](std::size_t u, index_t e) {
    const int v = variables_[u];
    return element_name(m.variables[static_cast<std::size_t>(v)].name, g.value(v).shape, e);
  };
  for (std::size_t u = 0; u < variables_.size(); ++u) {
    const int v = variables_[u];
    const std::string& var = m.variables[static_cast<std::size_t>(v)].name;
    std::string reason;
    if (!samplers::finite_support(g, v, reason)) throw std::invalid_argument(var + " cannot be summed out: " + reason);
    if (model::supports(g).moves(v)) throw std::invalid_argument(var + " cannot be summed out: its support follows other unknowns");
    blankets_.push_back(std::make_unique<model::blanket>(g, v));
    model::blanket& b = *blankets_.back();
    if (!b.whole().empty())
      throw std::invalid_argument(fmt::format("{0} cannot be summed out: it is read through an index that depends on unknowns ({1}), so "
                                              "its elements' terms cannot be told apart", var, line_of(m, m.statements[static_cast<std::size_t>(b.whole().front())])));
    model::supports(g).visit(v, [&](index_t offset, index_t size, const stdlib::support& s) {
      std::vector<double> values;
      if (s.kind == stdlib::support_kind::spin) values = {-1.0, 1.0};
      else
        for (double k = s.lower; k <= s.upper; ++k) values.push_back(k);
      for (index_t e = offset; e < offset + size; ++e) elements_.push_back({u, e, values});
    });
  }
  for (const auto& e : elements_)
    blankets_[e.unknown]->for_each_term(e.index, [&](int s, index_t instance) {
      auto& list = owners[static_cast<std::size_t>(s)];
      if (list.empty()) list.assign(static_cast<std::size_t>(model::instances(g).count(m.statements[static_cast<std::size_t>(s)])), {variables_.size(), -1});
      owner& o = list[static_cast<std::size_t>(instance)];
      if (o.unknown != variables_.size() && (o.unknown != e.unknown || o.index != e.index))
        throw std::invalid_argument(fmt::format("{} cannot be summed out: {} and {} share a term ({}), so they are not independent "
                                                "given the rest and their sum does not split into one per element",
                                                m.variables[static_cast<std::size_t>(variables_[e.unknown])].name, name(o.unknown, o.index),
                                                name(e.unknown, e.index), line_of(m, m.statements[static_cast<std::size_t>(s)])));
      o = {e.unknown, e.index};
      statements[static_cast<std::size_t>(s)] = 1;
    });
  for (std::size_t s = 0; s < m.statements.size(); ++s) {
    if (!statements[s]) continue;
    const auto& st = m.statements[s];
    const std::vector<index_t> table = model::instances(g).table(st);
    const std::size_t depth = st.loops.size();
    loose statement{static_cast<int>(s), {}, 0};
    for (std::size_t i = 0; i < owners[s].size(); ++i) {
      if (owners[s][i].unknown != variables_.size()) continue;
      ++statement.count;
      statement.loops.insert(statement.loops.end(), table.begin() + static_cast<long>(i * depth), table.begin() + static_cast<long>((i + 1) * depth));
    }
    if (statement.count > 0) loose_.push_back(std::move(statement));
  }
}

double& summed_out::value_of(const element& e) {
  return graph_.values()[static_cast<std::size_t>(variables_[e.unknown])].data[static_cast<std::size_t>(e.index)];
}

double summed_out::conditional(const element& e) {
  model::blanket& b = *blankets_[e.unknown];
  double& x = value_of(e);
  logs_.resize(e.values.size());
  for (std::size_t k = 0; k < e.values.size(); ++k) {
    x = e.values[k];
    b.update(e.index);
    logs_[k] = b.log_density(e.index);
    if (std::isnan(logs_[k])) logs_[k] = -INFINITY;  // a fault of the model at this value: it weighs nothing
  }
  return draws::log_sum_exp(logs_);
}

double summed_out::total() { return sum({}, false); }

double summed_out::add(std::span<double* const> slots) { return sum(slots, true); }

double summed_out::sum(std::span<double* const> slots, bool differentiate) {
  const auto& m = graph_.model();
  const untempered scope(graph_);  // the graph tempers their total as one likelihood
  double total = 0;
  for (const auto& e : elements_) {
    model::blanket& b = *blankets_[e.unknown];
    double& x = value_of(e);
    const double keep = x;
    const double log_sum = conditional(e);
    if (log_sum == -INFINITY) {
      x = keep;
      b.update(e.index);
      return -INFINITY;
    }
    total += log_sum;
    for (std::size_t k = 0; differentiate && k < e.values.size(); ++k) {
      const double r = std::exp(logs_[k] - log_sum);
      if (r == 0) continue;
      x = e.values[k];
      b.update(e.index);
      b.for_each_term_at(e.index, [&](int s, const index_t* loops) {
        model::instances(graph_).differentiate(m.statements[static_cast<std::size_t>(s)], loops, slots, r);
      });
      // What the terms passed to derived variables that read the element goes on from
      // them, last computed first.
      derived_.clear();
      b.for_each_derived_at(e.index, [&](int s, const index_t* loops) { derived_.push_back({s, loops}); });
      for (auto it = derived_.rbegin(); it != derived_.rend(); ++it)
        model::instances(graph_).differentiate(m.statements[static_cast<std::size_t>(it->first)], it->second, slots, 1);
    }
    x = keep;
    b.update(e.index);
  }
  for (const auto& l : loose_) {
    const auto& st = m.statements[static_cast<std::size_t>(l.statement)];
    const std::size_t depth = st.loops.size();
    for (std::size_t i = 0; i < l.count; ++i) {
      const ppl::index_t* loops = l.loops.data() + i * depth;
      total += differentiate ? model::instances(graph_).differentiate(st, loops, slots, 1) : model::instances(graph_).log_density(st, loops);
    }
  }
  return total;
}

void summed_out::set(ppl::rng* rng) {
  const untempered scope(graph_);
  for (const auto& e : elements_) {
    conditional(e);
    particles::normalise_logs(logs_);
    const std::size_t chosen = rng ? particles::pick(logs_, boost::random::uniform_01<double>()(*rng))
                                   : static_cast<std::size_t>(std::max_element(logs_.begin(), logs_.end()) - logs_.begin());
    value_of(e) = e.values[chosen];
    blankets_[e.unknown]->update(e.index);
  }
}

std::string summed_out::names() const {
  std::string out;
  for (int v : variables_) out += (out.empty() ? "" : ", ") + graph_.model().variables[static_cast<std::size_t>(v)].name;
  return out;
}

}  // namespace ppl::inference
