#pragma once
// Data files written by a test into a scratch folder of its run, and the error that
// reading one gives.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/source_error.hpp"
#include "data/data.hpp"

namespace ppl::testing {

// Writes `text` to `name` in a scratch folder of this test run and returns the path.
inline std::string scratch_file(const std::string& name, const std::string& text) {
  static const auto dir = std::filesystem::temp_directory_path() / ("ppl_test_data_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The diagnostic that loading `text` as `name` throws; fails the test if nothing is thrown.
inline diagnostic data_error_of(const std::string& name, const std::string& text) {
  try {
    data::read_data_file(scratch_file(name, text));
  } catch (const source_error& e) {
    return e.diag();
  }
  FAIL("no error for " << name);
  return {};
}

}  // namespace ppl::testing
