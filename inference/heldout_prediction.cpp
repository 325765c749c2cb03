#include "inference/heldout_prediction.hpp"

#include <cmath>
#include <stdexcept>

namespace ppl::inference {

using lang::ir::role;
using lang::ir::statement;

data::data_table heldout_base(const data::data_table& data, const data::data_table& heldout) {
  data::data_table base;
  for (const auto& [name, value] : data.values())
    if (!heldout.find(name) && !heldout.text(name)) base.set(name, value);
  for (const auto& [name, column] : data.text_columns())
    if (!heldout.find(name) && !heldout.text(name)) base.set_text(name, column);
  return base;
}

heldout_prediction::heldout_prediction(model::graph& chain_graph, const data::data_table& data, const data::data_table& heldout,
                                       ppl::rng& rng) {
  const auto& m = chain_graph.model();
  for (const auto& v : m.variables) {
    if (!v.observed || !heldout.find(v.name)) continue;
    bool normal = !v.statements.empty();
    for (int si : v.statements) {
      const statement& s = m.statements[static_cast<std::size_t>(si)];
      normal = normal && s.which == statement::kind::sample && s.dist_name == "Normal";
    }
    if (!normal) continue;
    if (!observed_.empty())
      throw std::invalid_argument("--heldout: the file gives two observed variables, `" + observed_ + "` and `" + v.name + "`; give one");
    observed_ = v.name;
    for (int si : v.statements) statements_.push_back(&m.statements[static_cast<std::size_t>(si)]);
  }
  if (observed_.empty())
    throw std::invalid_argument("--heldout: no sampler of this model scores held-out data, and the file gives no observed variable "
                                "whose every `~` is Normal (held-out RMSE), nor is the model LDA (document completion, which "
                                "`ppl plan` shows as `collapsed` for z, theta and phi)");
  data::data_table merged = heldout_base(data, heldout);
  merged.merge(heldout);
  graph_ = std::make_unique<model::graph>(m, merged, rng);
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].role == role::unknown && graph_->value(static_cast<int>(v)).size() != chain_graph.value(static_cast<int>(v)).size())
      throw std::invalid_argument("--heldout: with the held-out data, `" + m.variables[v].name + "` has " +
                                  std::to_string(graph_->value(static_cast<int>(v)).size()) + " values, where the model's data give it " +
                                  std::to_string(chain_graph.value(static_cast<int>(v)).size()) +
                                  ": the held-out file may only change the observations and what indexes them");
  const int observed = m.find(observed_);
  for (const statement* s : statements_) {
    // A mean dot(u[user[r]], v[item[r]]) is read from the blocks in place at each draw.
    dots_.emplace_back();
    if (!samplers::read_dot_rows(*graph_, *s, *s->args[0], dots_.back())) dots_.back().left = -1;
    const auto table = model::instances(*graph_).table(*s);
    const std::size_t depth = s->loops.size(), count = depth ? table.size() / depth : 1;
    for (std::size_t i = 0; i < count; ++i)
      values_.push_back(graph_->value(observed).data[static_cast<std::size_t>(model::instances(*graph_).target(*s, table.data() + i * depth).first)]);
  }
  sums_.assign(values_.size(), 0.0);
}

void heldout_prediction::predict(model::graph& chain_graph) {
  const auto& m = chain_graph.model();
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].role == role::unknown) graph_->values()[v].data = chain_graph.value(static_cast<int>(v)).data;
  graph_->update_derived();
  predictions_.clear();
  for (std::size_t k = 0; k < statements_.size(); ++k) {
    const statement* s = statements_[k];
    if (const samplers::dot_rows& d = dots_[k]; d.left >= 0) {
      for (std::size_t i = 0; i < d.left_offsets.size(); ++i) predictions_.push_back(d.at(*graph_, i));
      continue;
    }
    if (model::instances(*graph_).batch_values(*s, *s->args[0], column_)) {
      predictions_.insert(predictions_.end(), column_.begin(), column_.end());
      continue;
    }
    const auto table = model::instances(*graph_).table(*s);
    const std::size_t depth = s->loops.size(), count = depth ? table.size() / depth : 1;
    for (std::size_t i = 0; i < count; ++i) predictions_.push_back(model::instances(*graph_).eval_at(*s, table.data() + i * depth, *s->args[0]).scalar());
  }
}

void heldout_prediction::add(model::graph& chain_graph) {
  predict(chain_graph);
  for (std::size_t i = 0; i < sums_.size(); ++i) sums_[i] += predictions_[i];
  ++added_;
}

double heldout_prediction::rmse(model::graph& chain_graph) {
  if (added_ == 0) predict(chain_graph);
  double squares = 0;
  long n = 0;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (std::isnan(values_[i])) continue;  // a missing held-out value
    const double prediction = added_ ? sums_[i] / static_cast<double>(added_) : predictions_[i];
    squares += (prediction - values_[i]) * (prediction - values_[i]);
    ++n;
  }
  return n ? std::sqrt(squares / static_cast<double>(n)) : NAN;
}

}  // namespace ppl::inference
