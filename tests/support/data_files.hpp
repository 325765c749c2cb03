#pragma once
// Data files written by a test into a scratch folder of its run, and the error that
// reading one gives.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstring>
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

// Two readings of one file hold the same table: each value's shape, numbers (bit for bit,
// a missing value's NaN too), integer flag, origin and first missing value, and each text
// column's message and reason.
inline void check_same_tables(const data::data_table& a, const data::data_table& b) {
  REQUIRE(a.values().size() == b.values().size());
  for (const auto& [name, v] : a.values()) {
    INFO("value ", name);
    const data::data_value* w = b.find(name);
    REQUIRE(w);
    CHECK(v.value.shape == w->value.shape);
    REQUIRE(v.value.data.size() == w->value.data.size());
    CHECK((v.value.data.empty() || std::memcmp(v.value.data.data(), w->value.data.data(), v.value.data.size() * sizeof(double)) == 0));
    CHECK(v.integer == w->integer);
    CHECK(v.origin == w->origin);
    CHECK(v.first_missing.has_value() == w->first_missing.has_value());
    if (v.first_missing && w->first_missing) CHECK(v.first_missing->str() == w->first_missing->str());
  }
  REQUIRE(a.text_columns().size() == b.text_columns().size());
  for (const auto& [name, t] : a.text_columns()) {
    INFO("text column ", name);
    REQUIRE(b.text(name));
    CHECK(t.problem.str() == b.text(name)->problem.str());
    CHECK(t.reason == b.text(name)->reason);
  }
}

}  // namespace ppl::testing
