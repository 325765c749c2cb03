#pragma once
// Held-out scoring for models whose observations are Normal (`--heldout FILE` where no
// sampler scores held-out data itself, as LDA's does): the root mean square error, against
// the held-out values, of the posterior-mean prediction, the Normal's mean averaged over the
// draws kept so far (before any is kept, the current draw's). The held-out file gives new
// values of the observed variable and of the data that index it (user[r], item[r]); a
// graph of the model over the data with those replaced evaluates the means at each draw.
#include <memory>
#include <string>
#include <vector>

#include "core/archive.hpp"
#include "data/data.hpp"
#include "model/graph.hpp"
#include "samplers/dot_rows.hpp"

namespace ppl::inference {

// The data a held-out graph reads beside the held-out file: the model's data less what the
// file replaces (not copied first). Made before the data move into a lone chain's graph.
data::data_table heldout_base(const data::data_table& data, const data::data_table& heldout);

class heldout_prediction {
 public:
  // Throws std::invalid_argument when the held-out table names no observed variable whose
  // every `~` is Normal, or when the unknowns' sizes differ with the held-out data.
  heldout_prediction(model::graph& chain_graph, const data::data_table& data, const data::data_table& heldout, ppl::rng& rng);

  // Adds the chain's current draw to the running mean of the predictions.
  void add(model::graph& chain_graph);
  // The RMSE of the running mean, or of the current draw's predictions before any is added.
  double rmse(model::graph& chain_graph);
  // What rmse() measures, for messages.
  std::string what() const { return "held-out RMSE of " + observed_ + " (posterior-mean prediction)"; }
  // The running mean's state, kept with a chain's saved state.
  void persist(ppl::archive& a) { a(sums_, added_); }

 private:
  // The predictions at the chain's current values into predictions_.
  void predict(model::graph& chain_graph);

  std::unique_ptr<model::graph> graph_;
  std::string observed_;
  std::vector<const lang::ir::statement*> statements_;  // the observed variable's `~`s, each Normal
  std::vector<samplers::dot_rows> dots_;                           // per statement: its mean's places, when a dot of fixed blocks
  std::vector<double> values_;                           // held-out values, in the statements' instance order
  std::vector<double> predictions_, sums_, column_;
  long added_ = 0;
};

}  // namespace ppl::inference
