// Data loaders, part two: mixed files, and every kind of malformed input with the line and
// column its message points at. Bad inputs are written next to their expectations.
#include <algorithm>
#include <cmath>
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <zlib.h>

#include "core/source_error.hpp"
#include "data/data.hpp"
#include "tests/support/data_files.hpp"

namespace test_data_errors {

using namespace ppl;
using namespace ppl::data;
using ppl::diagnostic;
using ppl::source_error;

using ppl::testing::data_error_of;
using ppl::testing::scratch_file;

namespace {

std::string data_path(const char* name) { return std::string(PPL_SOURCE_DIR) + "/tests/data/" + name; }

void check_error(const std::string& name, const std::string& text, std::size_t line, std::size_t column,
                 const std::string& message) {
  diagnostic d = data_error_of(name, text);
  INFO(name << ": " << d.str());
  CHECK(d.where.line == line);
  CHECK(d.where.column == column);
  CHECK(d.message.find(message) != std::string::npos);
}

// The column of text that loading `text` as `name` makes of `column`; fails the test if the
// column is read as numbers.
text_column text_of(const std::string& name, const std::string& text, const std::string& column) {
  data_table t = read_data_file(scratch_file(name, text));
  const text_column* c = t.text(column);
  if (!c) FAIL(column << " of " << name << " is not text");
  CHECK(t.find(column) == nullptr);
  return c ? *c : text_column{};
}

// A column with a missing value (an empty or NA cell) is numbers, NaN where missing, and
// says where its first missing value is, for the error if the model cannot impute it.
void check_missing(const std::string& name, const std::string& text, const std::string& column, std::size_t line,
                   std::size_t col, const std::string& message) {
  data_table t = read_data_file(scratch_file(name, text));
  const data_value* v = t.find(column);
  REQUIRE_MESSAGE(v, column << " of " << name << " is not numbers");
  CHECK(std::any_of(v->value.data.begin(), v->value.data.end(), [](double x) { return std::isnan(x); }));
  REQUIRE(v->first_missing);
  CHECK(v->first_missing->where.line == line);
  CHECK(v->first_missing->where.column == col);
  CHECK(v->first_missing->message == message);
}

// A cell that makes its column text: the error it gives if the model reads the column.
void check_text(const std::string& name, const std::string& text, const std::string& column, std::size_t line,
                std::size_t col, const std::string& message) {
  diagnostic d = text_of(name, text, column).problem;
  INFO(name << ": " << d.str());
  CHECK(d.where.line == line);
  CHECK(d.where.column == col);
  CHECK(d.message.find(message) != std::string::npos);
}

}  // namespace

TEST_CASE("CSV: quoted and padded names, reals, and matrices only from complete PREFIX.1..P") {
  data_table t = read_csv(data_path("good.csv"));
  CHECK(t.find("id")->integer);
  CHECK(t.find("id")->value.data == std::vector<double>{1, 2, -3});
  CHECK_FALSE(t.find("x")->integer);
  CHECK(t.find("x")->value.data == std::vector<double>{1e-3, -2.5, 4});
  CHECK(t.find("x")->origin.find("column x") != std::string::npos);
  // Columns appear as X.2, X.1, X.3: the matrix is ordered by the number, not the file.
  const data_value* x = t.find("X");
  REQUIRE(x);
  CHECK(x->integer);
  CHECK(x->value.shape == shape::matrix(3, 3));
  CHECK(x->value.data == std::vector<double>{0, 2, -4, 1, 3, 5, 2, 4, 6});
  CHECK(t.find("Z") == nullptr);  // Z.2 is missing
  CHECK(t.find("Z.3")->value.data == std::vector<double>{8, 8, 8});
}

TEST_CASE("CSV errors point at the cell, name the column and count rows from 1") {
  check_text("word.csv", "y,x\n1,2\n3, abc\n", "x", 3, 4, "\"abc\" in column \"x\" (row 2) is not a number");
  check_text("two.csv", "y\n1 2\n", "y", 2, 1, "\"1 2\" in column \"y\" (row 1) is not a number");
  check_text("inf.csv", "y\n1\ninf\n", "y", 3, 1, "\"inf\" in column \"y\" (row 2) is not a finite number");
  check_text("minus_inf.csv", "y\n-Inf\n", "y", 2, 1, "\"-Inf\" in column \"y\" (row 1) is not a finite number");
  // nan (NumPy's), NaN (pandas') and NA (R's) are missing values (test_data_text.cpp).
  check_error("short.csv", "y,x\n1,2\n3\n", 3, 2, "row 2 has 1 cells but the header has 2");
  check_error("long.csv", "y,x\n1,2\n3,4,5\n", 3, 4, "row 2 has more cells than the header's 2");
  check_error("dup.csv", "y,x,y\n1,2,3\n", 1, 5, "duplicate column name \"y\"");
  check_error("dup_quoted.csv", "\"y\",y\n1,2\n", 1, 5, "duplicate column name \"y\"");
  check_error("noname.csv", "y,,x\n1,2,3\n", 1, 3, "empty column name in the header");
  check_error("trailing_comma.csv", "y,x,\n1,2,3\n", 1, 5, "empty column name in the header");
}

TEST_CASE("CSV error messages carry the source line and a caret") {
  diagnostic d = text_of("caret.csv", "doc,word\n1,2\n1,x7\n", "word").problem;
  CHECK(d.source_line == "1,x7");
  CHECK(d.str().find("caret.csv:3:3: error:") != std::string::npos);
  CHECK(d.str().find(" 3 | 1,x7\n   |   ^\n") != std::string::npos);
}

TEST_CASE("JSON errors: syntax at the right line and column, bad values at their name") {
  check_error("syntax.json", "{\n  \"y\": [1, 2],\n  \"x\": [1 2]\n}\n", 3, 11, "invalid JSON: syntax error while parsing array");
  check_error("unclosed.json", "{\"y\": [1, 2", 1, 12, "unexpected end of input");
  check_error("empty.json", "", 1, 1, "invalid JSON");
  check_error("array.json", "[1, 2]", 1, 1, "the JSON data must be an object of named values");
  check_error("ragged.json", "{\"y\": [[1, 2], [3]]}", 1, 2, "`y` is ragged");
  check_error("ragged_depth.json", "{\"y\": [[1, 2], [3, [4]]]}", 1, 2, "`y` is ragged");
  check_error("number_for_array.json", "{\"y\": [[1, 2], 3]}", 1, 2, "`y` is ragged");
  check_error("string.json", "{\"N\": 3,\n \"y\": \"abc\"}", 2, 2, "`y` holds a string");
  check_error("bool.json", "{\"y\": [true]}", 1, 2, "`y` holds a boolean");
  check_error("deep.json", "{\"y\": [[[[[1]]]]]}", 1, 2, "`y` has more than 4 dimensions");
  check_error("deep_empty.json", "{\"y\": [[[[[]]]]]}", 1, 2, "`y` has more than 4 dimensions");
}

TEST_CASE("missing values: NA and empty CSV cells, JSON null, at their place") {
  check_missing("empty.csv", "y,x\n1,2\n3,\n", "x", 3, 3, "empty cell in column \"x\" (row 2)");
  check_missing("blank.csv", "y,x\n1,2\n  ,4\n", "y", 3, 3, "empty cell in column \"y\" (row 2)");
  check_missing("na.csv", "y,x\n1,2\nNA,4\n5,NA\n", "y", 3, 1, "NA in column \"y\" (row 2)");
  // A column of missing values and text is text, at its first word.
  CHECK(read_csv(scratch_file("na_text.csv", "y,x\n1,NA\n2,abc\n")).text("x"));
  data_table t = read_json(scratch_file("null.json", "{\"y\": [1, null, \"NA\"], \"m\": [[1, null], [null, 4]], \"k\": null}"));
  const auto& y = t.find("y")->value.data;
  CHECK(y[0] == 1);
  CHECK(std::isnan(y[1]));
  CHECK(std::isnan(y[2]));
  CHECK(t.find("m")->value.shape == shape::matrix(2, 2));
  CHECK(std::isnan(t.find("m")->value.data[2]));
  CHECK(std::isnan(t.find("k")->value.data[0]));
  CHECK_FALSE(t.find("y")->first_missing);  // JSON values carry no positions
  check_error("null_ragged.json", "{\"y\": [[1, 2], null]}", 1, 2, "`y` is ragged");
}

TEST_CASE("JSON shapes: four dimensions, empty arrays, integer flags") {
  data_table t = read_json(scratch_file("shapes.json",
                                        "{\"a\": [[[[1, 2]]]], \"e\": [[], []], \"r\": [1, 2.0], \"u\": 18446744073709551615,"
                                        " \"n\": -3, \"x\": 1e-3}"));
  CHECK(t.find("a")->value.shape.rank == 4);
  CHECK(t.find("a")->value.data == std::vector<double>{1, 2});
  CHECK(t.find("e")->value.shape == shape::matrix(2, 0));
  CHECK_FALSE(t.find("r")->integer);
  CHECK(t.find("u")->integer);
  CHECK(t.find("n")->integer);
  CHECK(t.find("n")->value.data[0] == -3);
  CHECK_FALSE(t.find("x")->integer);
  CHECK(t.find("x")->value.shape.rank == 0);
}

TEST_CASE("read_data_file chooses the reader by extension") {
  CHECK(read_data_file(scratch_file("pick.json", "{\"y\": [1, 2]}")).find("y")->value.size() == 2);
  CHECK(read_data_file(scratch_file("pick.txt", "y\n1\n2\n3\n")).find("y")->value.size() == 3);
  CHECK_THROWS_WITH_AS(read_data_file(data_path("missing.json")), doctest::Contains("missing.json: error: cannot open the file"),
                       source_error);
}

TEST_CASE("--set: numbers and arrays, later values replace earlier ones") {
  data_table t;
  apply_set(t, "beta=0.25");
  CHECK_FALSE(t.find("beta")->integer);
  CHECK(t.find("beta")->value.shape.rank == 0);
  CHECK(t.find("beta")->origin == "--set beta=0.25");
  apply_set(t, "_m2=[[1, 2], [3, 4]]");
  CHECK(t.find("_m2")->value.shape == shape::matrix(2, 2));
  CHECK(t.find("_m2")->integer);
  apply_set(t, "beta=-1");
  CHECK(t.find("beta")->integer);
  CHECK(t.find("beta")->value.data[0] == -1);
  for (const char* bad : {"=3", "K=", "K =3", "a-b=1", "K=1,2", "K=[1, 2"}) CHECK_THROWS_AS(apply_set(t, bad), std::invalid_argument);
  CHECK_THROWS_WITH_AS(apply_set(t, "K=abc"), doctest::Contains("not a number or an array"), std::invalid_argument);
}

TEST_CASE("CSV: a byte-order mark, CRLF positions, and a long single column") {
  CHECK(read_csv(scratch_file("bom.csv", "\xEF\xBB\xBFy,x\n1,2\n")).find("y"));
  check_error("crlf_short.csv", "y,x\r\n1,2\r\n3\r\n", 3, 2, "row 2 has 1 cells but the header has 2");
  check_missing("crlf_empty.csv", "y,x\r\n1,\r\n", "x", 2, 3, "empty cell in column \"x\" (row 1)");
  check_error("header_only_blanks.csv", " \n1\n", 1, 1, "the header row is empty");
  // One column: each cell ends at a line break, never at a comma far ahead.
  std::string text = "y\n";
  for (int i = 0; i < 100000; ++i) text += std::to_string(i % 7) + "\n";
  data_table t = read_csv(scratch_file("single.csv", text));
  CHECK(t.find("y")->value.size() == 100000);
  CHECK(t.find("y")->value.data[99999] == 99999 % 7);
}

TEST_CASE("gzip: a truncated or damaged archive is an error, not a shorter data set") {
  std::string text = "doc,word\n";
  for (int i = 0; i < 20000; ++i) text += std::to_string(i / 100 + 1) + "," + std::to_string(i % 97 + 1) + "\n";
  std::string path = scratch_file("whole.csv.gz", "");
  gzFile f = gzopen(path.c_str(), "wb");
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  CHECK(read_csv(path).find("word")->value.size() == 20000);
  std::ifstream in(path, std::ios::binary);
  std::string packed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string cut = scratch_file("cut.csv.gz", packed.substr(0, packed.size() / 2));
  CHECK_THROWS_WITH_AS(read_csv(cut), doctest::Contains("cut.csv.gz: error: cannot decompress the file: it is truncated"),
                       source_error);
  packed.replace(packed.size() / 2, 200, 200, '\0');
  CHECK_THROWS_WITH_AS(read_csv(scratch_file("bad.csv.gz", packed)), doctest::Contains("cannot decompress the file"),
                       source_error);
}

TEST_CASE("JSON: non-finite values, odd keys, and errors in file order") {
  check_error("inf.json", "{\"y\": [1, \"inf\"]}", 1, 2, "`y` holds \"inf\"; data must be finite numbers");
  check_error("nan.json", "{\"y\": \"NaN\"}", 1, 2, "`y` holds \"NaN\"; data must be finite numbers");
  check_error("py_nan.json", "{\"y\": [1, NaN]}", 1, 11, "NaN is not a JSON number, and data must be finite");
  // nlohmann stops at a NUL as at the end: what followed was neither checked nor refused.
  check_error("nul.json", std::string("{\"y\": 1}\0{\"$\\, 1}", 17), 1, 9, "the byte 0x00 is not text: this is binary data");
  check_error("py_inf.json", "{\"y\": -Infinity}", 1, 7, "-Infinity is not a JSON number");
  check_error("overflow.json", "{\"y\": [1, 1e400]}", 1, 11, "number overflow");
  check_error("object.json", "{\"y\": {\"a\": 1}}", 1, 2, "`y` holds an object");
  check_error("dup.json", "{\"y\": 1,\n \"y\": 2}", 2, 2, "duplicate variable name \"y\"");
  check_error("dup_escaped.json", "{\"y\": 1, \"\\u0079\": 2}", 1, 10, "duplicate variable name \"y\"");
  check_error("empty_key.json", "{\"\": 1}", 1, 2, "empty variable name");
  // Keys are checked in the order written, and a string value equal to a later key's
  // name does not take the position.
  check_error("order.json", "{\"z\": 1, \"y\": [\"z\"], \"a\": null}", 1, 10, "`y` holds a string");
  check_error("nested_key.json", "{\"b\": {\"a\": 1}, \"a\": null}", 1, 2, "`b` holds an object");
  CHECK(read_json(scratch_file("escaped.json", "{\"a\\\"b\": 1, \"y\": 2}")).find("a\"b"));
}

TEST_CASE("--set: every error names the assignment") {
  data_table t;
  CHECK_THROWS_WITH_AS(apply_set(t, "K=\"abc\""), "--set K=\"abc\": `K` holds a string; only numbers and arrays of numbers are data",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(apply_set(t, "v=[[1], [2, 3]]"), "--set v=[[1], [2, 3]]: `v` is ragged: its rows differ in length",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(apply_set(t, "K=1e999"), "--set K=1e999: the value is not a number or an array of numbers",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(apply_set(t, "K=true"), doctest::Contains("--set K=true: `K` holds a boolean"), std::invalid_argument);
  apply_set(t, "v=[1, null]");  // missing, as in a JSON file
  CHECK(std::isnan(t.find("v")->value.data[1]));
}

}  // namespace test_data_errors
