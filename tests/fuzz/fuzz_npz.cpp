// libFuzzer target: NumPy's .npz reader on arbitrary bytes (written to a file, as the
// reader reads files). Any input must give a table or a ppl::source_error: a damaged
// directory, header or shape never allocates past the file's size or reads past its end.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "data/data.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = (std::filesystem::temp_directory_path() / ("ppl_fuzz_" + std::to_string(::getpid()) + ".npz")).string();
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  try {
    ppl::data::read_npz(path);
  } catch (const ppl::source_error&) {
  }
  std::filesystem::remove(path);
  return 0;
}
