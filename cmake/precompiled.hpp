// The headers that most translation units read, precompiled once (CMakeLists.txt,
// ppl_fast_build): Eigen and Boost.Math alone took about 3 s per unit to parse. Only
// third-party and standard headers belong here, so that editing ppl's own never
// rebuilds it; and only the heavy ones, as a larger precompiled header measured slower
// (every unit pays to load it).
#pragma once
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Dense>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <fmt/core.h>
