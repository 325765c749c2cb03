// libFuzzer target: model text through the parser and the checker. Any input must end in
// a model or a ppl::source_error — never a crash, a sanitizer report or a hang.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lang/checker.hpp"
#include "stdlib/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    ppl::lang::compile({"fuzz.ppl", std::string(reinterpret_cast<const char*>(data), size)}, ppl::stdlib::library());
  } catch (const ppl::source_error&) {
  }
  return 0;
}
