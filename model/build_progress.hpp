#pragma once
// How far a long build has gone. A graph of a hundred million instances takes a minute to
// build, to score at its start and to hand to its samplers (issue 39), and a terminal
// should show that it is moving: the phase, the statement whose instances are being gone
// through and how far through its outer loop, redrawn by cli/progress.hpp.
//
// One hook for the process, set by the command that shows it; one thread reports (the
// first chain's: chains build side by side, and one line shows one of them). A phase is
// named on the reporting thread by a `build_phase` for its duration; the statements'
// instance loops (graph::for_each_instance, and the samplers' own passes over a plate)
// call `report_instances` every `report_every` instances, which costs a counter and a
// branch, and nothing at all where no phase is open on the thread.
#include <cstddef>
#include <functional>

#include "lang/ir.hpp"

namespace ppl::model {

struct build_step {
  const char* phase = "";  // "the graph", "the samplers", "the start's log density"
  std::size_t line = 0;    // the statement's line in the model (0: none known)
  double fraction = 0;     // how far through the statement's outer loop, 0 to 1
};
using build_progress = std::function<void(const build_step&)>;

// The process's hook (null, the default: none). Set before the chains are built and
// cleared after; it is called from the reporting thread only.
void set_build_progress(build_progress hook);

// While alive, names this thread's phase of the build if `reporting` (else it does
// nothing); phases nest, the innermost showing.
class build_phase {
 public:
  build_phase(const char* phase, bool reporting);
  ~build_phase();
  build_phase(const build_phase&) = delete;
  build_phase& operator=(const build_phase&) = delete;

 private:
  const char* outer_ = nullptr;
  bool reporting_;
};

inline constexpr std::size_t report_every = 1 << 16;

// The hook called with the open phase, `s`'s line in `m` and how far through it; nothing
// where no phase is open on this thread or no hook is set.
void report_instances(const lang::ir::model& m, const lang::ir::statement& s, double fraction);

}  // namespace ppl::model
