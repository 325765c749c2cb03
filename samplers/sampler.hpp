#pragma once
// The sampler contract. A factory looks at the graph's structure and says whether it can
// sample a variable, and why (DESIGN.md, requirement 2); the first factory in priority
// order that can, claims it. A sampler updates its variable given everything else; each
// chain has its own samplers (they hold adaptation state).
#include <memory>
#include <string>
#include <string_view>

#include "runtime/graph.hpp"
#include "runtime/random.hpp"

namespace ppl::samplers {

class sampler {
 public:
  virtual ~sampler() = default;
  // One update of the variable given everything else; adaptation only when `warmup`.
  virtual void step(runtime::rng& rng, bool warmup) = 0;
  // Acceptance statistics for the summary; empty when not Metropolis-type.
  virtual std::string report() const { return {}; }
  // A sampler that integrates variables out replaces their statements' terms in lp__
  // with the marginal it keeps: it marks them in `skip` and returns the marginal's log.
  virtual double marginal_log_density(std::vector<char>& /*skip*/) { return 0; }
};

struct claim {
  bool ok = false;
  std::string reason;  // why it can (for `ppl plan`) or why it cannot (for errors)
};

class factory {
 public:
  virtual ~factory() = default;
  virtual std::string_view kind() const = 0;
  virtual claim can_sample(runtime::graph& g, int variable) const = 0;
  virtual std::unique_ptr<sampler> make(runtime::graph& g, int variable) const = 0;
};

}  // namespace ppl::samplers
