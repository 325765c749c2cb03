// CSV read a block at a time (read_csv) against the same text read whole (parse_csv): the
// same table whatever the block size, blocks ending inside quoted cells that span lines,
// and messages at their lines in the file, at its end too.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "data/data.hpp"
#include "tests/support/data_files.hpp"

namespace test_csv_blocks {

using namespace ppl::data;
using ppl::testing::scratch_file;

// Rows of counts, reals, missing values, a text column that turns to text late, a quoted
// cell across lines, CRLF line ends and blank lines, under R's row-name column.
std::string sample_text(int rows) {
  std::string text = "\"\",count,x,note,X.1,X.2\r\n";
  for (int i = 1; i <= rows; ++i) {
    text += "\"" + std::to_string(i) + "\"," + std::to_string(i * 7 % 13) + "," + (i % 17 == 0 ? "NA" : std::to_string(i * 0.25)) + ",";
    text += i == rows - 3 ? "\"two\nlines, \"\"quoted\"\"\"" : (i > rows / 2 ? "late text" : std::to_string(i));
    text += "," + std::to_string(i) + "," + (i % 11 == 0 ? "" : std::to_string(-i)) + (i % 3 ? "\r\n" : "\n");
    if (i % 50 == 0) text += "\n";
  }
  return text;
}

TEST_CASE("CSV a block at a time: the table the whole text gives, whatever the block size") {
  const std::string text = sample_text(400);
  const std::string path = scratch_file("blocks.csv", text);
  const data_table whole = parse_csv({path, text});
  REQUIRE(whole.find("count"));
  CHECK(whole.find("count")->value.data.size() == 400);
  REQUIRE(whole.find("X"));
  for (std::size_t block : {1UL, 7UL, 64UL, 1000UL, 1UL << 20}) {
    INFO("block ", block);
    ppl::testing::check_same_tables(whole, read_csv(path, block));
  }
}

TEST_CASE("CSV a block at a time: an error at the end of a large file names its line") {
  std::string text = "a,b\n";
  for (int i = 0; i < 20000; ++i) text += std::to_string(i) + "," + std::to_string(i % 5) + "\n";
  text += "1,2,3\n";
  const std::string path = scratch_file("late_error.csv", text);
  for (std::size_t block : {100UL, 4096UL, 1UL << 20}) {
    INFO("block ", block);
    std::string message;
    try {
      read_csv(path, block);
    } catch (const ppl::source_error& e) {
      message = e.what();
      CHECK(e.diag().where.line == 20002);
      CHECK(e.diag().where.column == 4);
      CHECK(e.diag().source_line == "1,2,3");
    }
    CHECK(message.find("row 20001 has more cells than the header's 2") != std::string::npos);
  }
  // A quote never closed, opened near the end.
  const std::string open = scratch_file("open_quote.csv", "a,b\n1,2\n3,4\n5,\"6\n7,8\n");
  try {
    read_csv(open, 5);
    FAIL("no error");
  } catch (const ppl::source_error& e) {
    CHECK(e.diag().where.line == 4);
    CHECK(std::string(e.what()).find("never closed") != std::string::npos);
  }
}

TEST_CASE("CSV a block at a time: the reading's progress is reported after each block, up to the file's size") {
  const std::string text = sample_text(400);
  const std::string path = scratch_file("progress.csv", text);
  std::vector<std::pair<std::size_t, std::size_t>> calls;
  set_read_progress([&](std::size_t done, std::size_t total) { calls.emplace_back(done, total); });
  read_csv(path, 1000);
  set_read_progress(nullptr);
  REQUIRE(calls.size() >= text.size() / 1000);
  for (std::size_t k = 1; k < calls.size(); ++k) CHECK(calls[k].first >= calls[k - 1].first);
  CHECK(calls.back().first == text.size());
  CHECK(calls.back().second == text.size());
  // And none once the hook is cleared.
  calls.clear();
  read_csv(path, 1000);
  CHECK(calls.empty());
}

}  // namespace test_csv_blocks
