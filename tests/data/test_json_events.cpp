// JSON read as a stream of events (read_json) against the document reader (parse_json):
// the same table for every JSON data file of the examples and the suites, and for the
// shapes and missing values the document reader takes; files it refuses get the document
// reader's message.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "data/data.hpp"
#include "data/text.hpp"
#include "tests/support/data_files.hpp"

namespace test_json_events {

using namespace ppl::data;
using ppl::testing::scratch_file;

void check_file(const std::string& path) {
  INFO(path);
  const auto streamed = stream_json(path);
  REQUIRE(streamed);  // taken by the stream, not by the document reader after it
  ppl::testing::check_same_tables(parse_json({path, read_file_text(path)}), *streamed);
}

TEST_CASE("JSON events: every JSON data file of the examples and suites reads as the document reader reads it") {
  int files = 0;
  for (const char* folder : {"examples", "tests/suites", "tests/data"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(PPL_SOURCE_DIR) + "/" + folder)) {
      const std::string p = entry.path().string();
      if (!entry.is_regular_file() || !p.ends_with(".json") || p.find("data") == std::string::npos) continue;
      if (p.find("/tests/suites/") != std::string::npos && !p.ends_with("/data.json")) continue;
      if (p.find("/tests/data/") != std::string::npos && p.find("good") == std::string::npos) continue;
      check_file(p);
      ++files;
    }
  }
  CHECK(files > 50);
}

TEST_CASE("JSON events: shapes, missing values, escapes and empty arrays") {
  for (const char* text : {"{\"y\": [1, null, \"NA\"], \"m\": [[1, null], [null, 4]], \"k\": null}",
                           "{\"e\": [], \"ee\": [[]], \"z\": [[[1, 2], [3, 4]], [[5, 6], [7, 8.5]]], \"n\": 3}",
                           "{\"a\\\"b\": 1, \"u\\u0079\": [1e3, -2, 18446744073709551615]}", "{}"}) {
    INFO(text);
    check_file(scratch_file("events.json", text));
  }
}

TEST_CASE("JSON events: what the stream does not take gets the document reader's message") {
  for (const char* text : {"{\"y\": [[1, 2], [3]]}", "{\"y\": [[1, 2], 3]}", "{\"y\": [1, [2]]}", "{\"y\": 1, \"y\": 2}",
                           "{\"y\": true}", "{\"y\": \"inf\"}", "{\"y\": {\"a\": 1}}", "[1, 2]", "{\"y\": 1e999}",
                           "{\"y\": NaN}", "{\"y\": [1, 2}", "{\"\": 1}"}) {
    INFO(text);
    const std::string path = scratch_file("refused.json", text);
    std::string whole, streamed;
    try {
      parse_json({path, read_file_text(path)});
    } catch (const ppl::source_error& e) {
      whole = e.diag().str();
    }
    try {
      read_json(path);
    } catch (const ppl::source_error& e) {
      streamed = e.diag().str();
    }
    CHECK(!whole.empty());
    CHECK(whole == streamed);
    CHECK(!stream_json(path));
  }
}

}  // namespace test_json_events
