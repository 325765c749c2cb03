#pragma once
// The deviance and DIC (`ppl infer --dic`; docs/output.md, "Deviance and DIC"). The
// deviance is -2 times the log density of the observations (the `~` statements of data,
// constants included), written per draw as the column `deviance`, as JAGS's deviance
// monitor records it. Its penalties:
// - pD as JAGS computes it (Plummer 2008, "Penalized loss functions for Bayesian model
//   comparison", Biostatistics 9(3)): per observation, half the symmetrised Kullback–Leibler
//   divergence between its distribution under two chains' parameters at the same
//   iteration, averaged over iterations and pairs of chains, and summed. Each divergence
//   is estimated from one replicate drawn from each side, as JAGS does for distributions
//   without a closed form; needs 2 or more chains;
// - pD as Spiegelhalter, Best, Carlin & van der Linde (2002) define it, the mean deviance
//   less the deviance at the posterior means of the unknowns (continuous unknowns only:
//   a discrete unknown's mean is not a value it can take);
// - pV = var(deviance) / 2 (Gelman et al., Bayesian Data Analysis), from the column.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "model/graph.hpp"

namespace ppl::inference {

struct dic_penalties {
  double pd_jags = NAN, pd_jags_se = NAN, deviance_at_mean = NAN;
  std::string jags_note, mean_note;  // why a figure is missing
};

// One chain's part: the deviance at its current values, the unknowns' running sums, and
// the observations' parameters at every stride-th kept draw.
class deviance_record {
 public:
  // `draws`: the rows the chain keeps.
  deviance_record(model::graph& g, long draws, int chains);

  double deviance();
  // At kept draw `draw` (1, 2, ...), after the deviance of the same values.
  void record(long draw);

  // The observations' parameters stored: iterations, and doubles per iteration.
  long stored() const { return stored_; }

 private:
  friend dic_penalties penalties(std::vector<deviance_record*> chains, ppl::rng& rng);
  void store_parameters();

  model::graph& g_;
  long draws_;                  // the rows the chain keeps
  int chains_;
  std::vector<int> observed_;   // statements
  std::vector<int> unknowns_;   // variables
  std::vector<std::vector<double>> sums_;  // per unknown, element by element
  long counted_ = 0;
  long stride_ = 1;
  // Per stored iteration, every observed instance's parameters in statement and instance
  // order; `layout_` (from the first) the statement and the parameters' shapes of each.
  struct instance_layout {
    int statement;
    std::vector<shape> params;
    shape value;
  };
  std::vector<instance_layout> layout_;
  std::vector<double> parameters_;
  long stored_ = 0;
  std::size_t per_iteration_ = 0;
};

// From every chain's record (the same model and draws): JAGS's pD, and the deviance at
// the posterior means (set in the first chain's graph, which is left there).
dic_penalties penalties(std::vector<deviance_record*> chains, ppl::rng& rng);

}  // namespace ppl::inference
