// libFuzzer target: the loader of R data (dump format) on arbitrary bytes. Any input must give a table or a
// ppl::source_error.
#include <cstddef>
#include <cstdint>
#include <string>

#include "data/data.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    ppl::data::parse_r_dump({"fuzz.R", std::string(reinterpret_cast<const char*>(data), size)});
  } catch (const ppl::source_error&) {
  }
  return 0;
}
