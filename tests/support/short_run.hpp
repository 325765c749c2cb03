#pragma once
// PPL_TEST_SHORT=1 (set for every test of the sanitized build, tests/CMakeLists.txt)
// shortens the few runs whose Eigen kernels instrumentation makes ten to twenty times
// slower. Their tolerances come from the runs' own Monte Carlo standard errors, so a
// shorter run is a weaker test, never a wrong one.
#include <cstdlib>
#include <cstring>

namespace ppl::testing {

inline bool short_run() {
  const char* s = std::getenv("PPL_TEST_SHORT");
  return s && *s && std::strcmp(s, "0") != 0;
}

// n, or n / divisor in a short run.
inline long shortened(long n, long divisor) { return short_run() ? n / divisor : n; }

}  // namespace ppl::testing
