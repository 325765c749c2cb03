#pragma once
// The text of a model file in the checkout (examples/..., bench/models/...), so that tests
// run the shipped models rather than copies of them.
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ppl::testing {

inline std::string example_text(const std::string& path) {
  std::ifstream in(std::string(PPL_SOURCE_DIR) + "/" + path);
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().empty()) throw std::runtime_error("cannot read " + path);
  return text.str();
}

}  // namespace ppl::testing
