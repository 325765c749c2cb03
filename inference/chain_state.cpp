// A chain's saved state (--resume, checkpoints): written after any iteration, read back
// before the chain goes on.
#include <cstdint>
#include <sstream>
#include <stdexcept>

#include "inference/chain_internal.hpp"

namespace ppl::inference {

using lang::ir::role;

// A chain's saved state: the iterations it has done, its random stream, the values of
// every unknown, then what each sampler keeps (sampler::persist). Derived values are
// recomputed from the unknowns, and samplers rebuild what they derive from them. Values
// that are no state (collapsed theta and phi, drawn from z's counts when recorded) are
// left out, and integers are stored as such (archive::compact): LDA's state is then its
// topic assignments in a byte each, not them, theta and phi in doubles.
std::string save_chain(chain& c, long completed) {
  ppl::archive a;
  std::ostringstream stream;
  stream << c.rng;
  std::string rng_text = stream.str();
  const auto& m = c.graph->model();
  std::size_t size = rng_text.size() + 4096;  // and room for the samplers' own
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].role == role::unknown && !c.rewritten[v]) size += 1 + ppl::archive::compact_size(c.graph->value(static_cast<int>(v)).data);
  a.reserve(size);
  a(completed, rng_text, c.lp, c.start_report, c.restarts);
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    if (m.variables[v].role != role::unknown) continue;
    std::uint8_t kept = !c.rewritten[v];
    a(kept);
    if (kept) a.compact(c.graph->values()[v].data);
  }
  auto samplers = static_cast<std::uint64_t>(c.samplers.size());
  a(samplers);
  for (auto& s : c.samplers) s->persist(a);
  if (c.prediction) c.prediction->persist(a);
  c.trial.persist(a);
  return a.take();
}

// The first part of a saved state, before the samplers are made: the iterations done, the
// random stream and the unknowns' values, set in the chain's graph. Returns the
// iterations done.
long load_chain_values(chain& c, ppl::archive& a) {
  long completed = 0;
  std::string rng_text;
  a(completed, rng_text, c.lp, c.start_report, c.restarts);
  std::istringstream stream(rng_text);
  stream >> c.rng;
  if (!stream) throw std::runtime_error("the saved state is truncated or corrupt");
  const auto& m = c.graph->model();
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    if (m.variables[v].role != role::unknown) continue;
    std::uint8_t kept = 0;
    a(kept);
    if (!kept) continue;  // written by its sampler before it is read
    auto& data = c.graph->values()[v].data;
    const std::size_t size = data.size();
    a.compact(data);
    if (data.size() != size)
      throw std::runtime_error("the saved state does not fit the model: `" + m.variables[v].name + "` has " +
                               std::to_string(data.size()) + " values, the model gives it " + std::to_string(size));
  }
  c.graph->update_derived();
  return completed;
}

// The rest: each sampler's own state.
void load_chain_samplers(chain& c, ppl::archive& a) {
  std::uint64_t samplers = 0;
  a(samplers);
  if (samplers != c.samplers.size()) throw std::runtime_error("the saved state does not fit the model's samplers");
  for (auto& s : c.samplers) s->persist(a);
  if (c.prediction) c.prediction->persist(a);
  c.trial.persist(a);
  if (!a.done()) throw std::runtime_error("the saved state does not fit the model's samplers");
}

}  // namespace ppl::inference
