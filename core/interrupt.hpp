#pragma once
// Ctrl-C and SIGTERM during a run: the handler only sets a flag; chains check it between
// iterations and stop cleanly, so every finished draw is kept.
namespace ppl {

void install_interrupt_handlers();
bool interrupted();
// For tests: act as if a signal had arrived (or reset).
void set_interrupted(bool value);

}  // namespace ppl
