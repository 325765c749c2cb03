// Where a sampler finds the team it joins (samplers/team.hpp).
#include "samplers/team.hpp"

namespace ppl::samplers {

namespace {

team* registered = nullptr;
thread_local team* this_thread = nullptr;

}  // namespace

void set_process_team(team* t) { registered = t; }
void set_thread_team(team* t) { this_thread = t; }
team* process_team() { return this_thread ? this_thread : registered; }

}  // namespace ppl::samplers
