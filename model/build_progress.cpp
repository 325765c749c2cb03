#include "model/build_progress.hpp"

namespace ppl::model {

namespace {

build_progress& hook() {
  static build_progress h;
  return h;
}

thread_local const char* open_phase = nullptr;

}  // namespace

void set_build_progress(build_progress h) { hook() = std::move(h); }

build_phase::build_phase(const char* phase, bool reporting) : outer_(open_phase), reporting_(reporting) {
  if (!reporting_) return;
  open_phase = phase;
  if (hook()) hook()({phase, 0, 0});
}

build_phase::~build_phase() {
  if (reporting_) open_phase = outer_;
}

void report_instances(const lang::ir::model& m, const lang::ir::statement& s, double fraction) {
  if (open_phase && hook()) hook()({open_phase, m.lines.locate(s.pos).line, fraction});
}

}  // namespace ppl::model
