#include "core/version.hpp"
namespace ppl {
const char* version() { return "0.2.0"; }
}  // namespace ppl
