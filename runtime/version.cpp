#include "runtime/version.hpp"
namespace ppl::runtime {
const char* version() { return "0.2.0"; }
}  // namespace ppl::runtime
