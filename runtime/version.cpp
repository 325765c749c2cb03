#include "runtime/version.hpp"
namespace ppl::runtime {
const char* version() { return "0.1.0"; }
}  // namespace ppl::runtime
