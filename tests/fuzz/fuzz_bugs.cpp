// libFuzzer target: BUGS model text through its parser, the lowering into ppl's syntax
// tree (without data, and with data naming a few common variables) and the checker. Any
// input must end in a model or a ppl::source_error — never a crash, a sanitizer report
// or a hang.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lang/bugs_lower.hpp"
#include "lang/bugs_parser.hpp"
#include "lang/checker.hpp"
#include "stdlib/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const ppl::lang::bugs_data_shapes shapes{
      {"N", {{}, true, 3}}, {"y", {{3}, false, 0}}, {"x", {{3, 2}, false, 0}}, {"n", {{3}, true, 0}}};
  const ppl::source_file src{"fuzz.bug", std::string(reinterpret_cast<const char*>(data), size)};
  try {
    const auto program = ppl::lang::parse_bugs(src);
    for (const auto* d : {static_cast<const ppl::lang::bugs_data_shapes*>(nullptr), &shapes}) {
      try {
        ppl::lang::check(src, ppl::lang::lower_bugs(src, program, d), ppl::stdlib::library());
      } catch (const ppl::source_error&) {
      }
    }
  } catch (const ppl::source_error&) {
  }
  return 0;
}
