// R's dump format: files R's own dump() wrote (tests/data/r/make_fixtures.R) against the
// values it wrote beside them, OpenBUGS's row-major list against JAGS's column-major dump
// of the same data, each form and value by hand, and malformed input at its place.
#include <cmath>
#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <zlib.h>

#include "core/source_error.hpp"
#include "data/data.hpp"
#include "tests/support/data_files.hpp"

namespace test_data_r {

using namespace ppl;
using namespace ppl::data;
using ppl::diagnostic;
using ppl::source_error;

namespace {

std::string fixture(const std::string& name) { return std::string(PPL_SOURCE_DIR) + "/tests/data/r/" + name; }

data_table r(const std::string& text) { return parse_r_dump({"t.R", text}); }

std::vector<double> values(const data_table& t, const std::string& name) {
  const data_value* v = t.find(name);
  REQUIRE_MESSAGE(v, name << " is not in the table");
  return v->value.data;
}

diagnostic error_of(const std::string& text) {
  try {
    r(text);
  } catch (const source_error& e) {
    return e.diag();
  }
  FAIL("no error for " << text);
  return {};
}

void check_error(const std::string& text, std::size_t line, std::size_t column, const std::string& message) {
  const diagnostic d = error_of(text);
  INFO(text << "\n" << d.str());
  CHECK(d.where.line == line);
  CHECK(d.where.column == column);
  CHECK(d.message.find(message) != std::string::npos);
}

std::string scratch_file(const std::string& name, const std::string& text) {
  static const auto dir = std::filesystem::temp_directory_path() / ("ppl_test_data_r_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// expected.txt (see make_fixtures.R): `var NAME RANK DIMS... INTEGER` then one line per
// element, `NAME I1 ... Ir VALUE` with R's indices.
void check_against_expected(const data_table& t, const std::string& file) {
  std::ifstream in(fixture("expected.txt"));
  REQUIRE(in);
  std::string line;
  const data_value* v = nullptr;
  std::size_t variables = 0, elements = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string first, name;
    words >> first;
    if (first == "var") {
      int rank = 0, integer = 0;
      words >> name >> rank;
      shape s;
      s.rank = rank;
      for (int d = 0; d < rank; ++d) words >> s.dims[static_cast<std::size_t>(d)];
      words >> integer;
      INFO(file << ": " << name);
      v = t.find(name);
      REQUIRE(v);
      CHECK(v->value.shape == s);
      CHECK(v->integer == (integer == 1));
      ++variables;
      continue;
    }
    REQUIRE(v);
    index_t flat = 0;
    for (int d = 0; d < v->value.shape.rank; ++d) {
      index_t i = 0;
      words >> i;
      flat += (i - 1) * v->value.shape.stride(d);  // ppl's tensors are row-major
    }
    std::string text;
    words >> text;
    INFO(file << ": " << line);
    REQUIRE(flat < v->value.size());
    const double x = v->value.data[static_cast<std::size_t>(flat)];
    if (text == "NA") CHECK(std::isnan(x));
    else CHECK(x == std::stod(text));
    ++elements;
  }
  CHECK(variables == t.values().size());
  CHECK(elements > 100);
}

}  // namespace

TEST_CASE("R's dump(): arrays of one to four dimensions, element by element, as R wrote them") {
  for (const char* file : {"dump.R", "dump_s.R"}) check_against_expected(read_data_file(fixture(file)), file);
}

TEST_CASE("OpenBUGS's list is read row by row, JAGS's dump column by column: the same Rats data") {
  const data_table bugs = read_data_file(fixture("rats_openbugs.txt"));  // not .R: known by its first statement
  const data_table jags = read_data_file(fixture("rats_jags.R"));
  const data_value* y = bugs.find("Y");
  REQUIRE(y);
  CHECK(y->value.shape == shape::matrix(30, 5));
  CHECK(values(bugs, "Y") == values(jags, "Y"));
  const std::vector<double> first_rat(y->value.data.begin(), y->value.data.begin() + 5);
  CHECK(first_rat == std::vector<double>{151, 199, 246, 283, 320});
  CHECK(y->value.data[29 * 5 + 4] == 324);  // Y[30, 5]
  CHECK(y->integer);
  CHECK(bugs.find("N")->value.shape.rank == 0);
  CHECK(bugs.find("N")->integer);
  CHECK(values(bugs, "x") == values(jags, "x"));
  CHECK_FALSE(bugs.find("x")->integer);  // 8.0, 15.0, ...
  CHECK(values(bugs, "xbar") == values(jags, "xbar"));
}

TEST_CASE("R's statements: quoted names, = and ;, comments, values over several lines, lists") {
  const data_table t = r("# a comment\n"
                         "\"N\" <- 3   # after a value\n"
                         "`y` <-\n  c(1,\n    2, # between\n 3) ; k = 2L\n"
                         "data <- list(a = 1, \"b\" = c(4, 5))\n");
  CHECK(values(t, "N") == std::vector<double>{3});
  CHECK(values(t, "y") == std::vector<double>{1, 2, 3});
  CHECK(values(t, "k") == std::vector<double>{2});
  CHECK(values(t, "a") == std::vector<double>{1});
  CHECK(values(t, "b") == std::vector<double>{4, 5});
  CHECK(t.find("data") == nullptr);  // a list's elements are the variables
  CHECK(t.values().size() == 5);
  CHECK(r("").values().empty());
  // BUGS's names with dots, as ppl's models name them (tests/suites/bugs does the same).
  const data_table bugs = r("\"alpha.c\" <- 0\nlist.x <- 1");
  CHECK(bugs.find("alpha_c"));
  CHECK(bugs.find("list_x"));
  CHECK(bugs.find("alpha.c") == nullptr);
  CHECK(r("\xEF\xBB\xBFx <- 1").find("x"));  // a byte-order mark
}

TEST_CASE("structure(): data and dimensions in either order, named or not; R column by column") {
  // R fills the first index fastest: Y[i, j] = .Data[i + 2 (j - 1)].
  const std::vector<double> row_major{1, 3, 5, 2, 4, 6};
  for (const char* text : {"Y <- structure(1:6, .Dim = c(2L, 3L))", "Y <- structure(.Data = c(1, 2, 3, 4, 5, 6), .Dim = c(2, 3))",
                           "Y <- structure(.Dim = c(2, 3), .Data = c(1, 2, 3, 4, 5, 6))", "Y <- structure(c(1, 2, 3, 4, 5, 6), dim = 2:3)",
                           "Y <- structure(1:6, .Dim = as.integer(c(2, 3)))",
                           "Y <- structure(1:6, dim = 2:3, dimnames = list(c(\"a\", \"b\"), NULL))", "list(Y = structure(1:6, dim = 2:3))"}) {
    INFO(text);
    const data_table t = r(text);
    REQUIRE(t.find("Y"));
    CHECK(t.find("Y")->value.shape == shape::matrix(2, 3));
    CHECK(values(t, "Y") == row_major);
  }
  // Three and four dimensions: element (i, j, k) is .Data[i + 2 (j - 1) + 6 (k - 1)].
  const data_table t = r("a <- structure(1:24, .Dim = c(2, 3, 4))\nb <- structure(1:16, .Dim = c(2, 2, 2, 2))");
  const auto& a = t.find("a")->value;
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j)
      for (index_t k = 0; k < 4; ++k) CHECK(a.data[static_cast<std::size_t>(i * 12 + j * 4 + k)] == 1 + i + 2 * j + 6 * k);
  const auto& b = t.find("b")->value;
  CHECK(b.shape.rank == 4);
  CHECK(b.data[1] == 9);   // b[1, 1, 1, 2]
  CHECK(b.data[8] == 2);   // b[2, 1, 1, 1]
  CHECK(b.data[15] == 16);
  CHECK(r("v <- structure(c(7, 8), .Dim = 2)").find("v")->value.shape == shape::vector(2));
  CHECK(r("e <- structure(numeric(0), .Dim = c(0L, 3L))").find("e")->value.shape == shape::matrix(0, 3));
}

TEST_CASE("OpenBUGS's bare list(...): .Dim's values row by row, as BUGS reads them") {
  const data_table t = r("list(N = 2, Y = structure(.Data = c(1, 2, 3,\n 4, 5, 6), .Dim = c(2, 3)),\n"
                         "    A = structure(.Data = 1:8, .Dim = c(2, 2, 2)))");
  CHECK(values(t, "Y") == std::vector<double>{1, 2, 3, 4, 5, 6});
  CHECK(values(t, "A") == std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(values(t, "N") == std::vector<double>{2});
  // The same list assigned is R's: column by column.
  CHECK(values(r("data <- list(Y = structure(.Data = c(1, 2, 3, 4, 5, 6), .Dim = c(2, 3)))"), "Y") ==
        std::vector<double>{1, 3, 5, 2, 4, 6});
}

TEST_CASE("R's values: numbers, L, TRUE and FALSE, ranges, empty vectors, integer flags") {
  const data_table t = r("a <- c(1, -2, 3L, 1e3, 2.5e-1, .5, 2., -1E+2)\n"
                         "i <- c(1L, -7, 0, 1e2L, TRUE, FALSE)\n"
                         "r1 <- 1:4; r2 <- 3:-1; r3 <- -2:-4; r4 <- c(0, 2:3, c(9, c(10)))\n"
                         "r5 <- 1.5:3\n"
                         "e1 <- integer(0); e2 <- numeric(0); z <- integer(3); d <- double(2)\n"
                         "s <- 5; one <- c(5); n <- c(a = 1, b = 2)\n"
                         "tiny <- 1e-400; big <- 123456789012345678\n"
                         "t <- as.integer(c(2.7, -2.7)); u <- as.numeric(1:2)\n");
  CHECK(values(t, "a") == std::vector<double>{1, -2, 3, 1000, 0.25, 0.5, 2, -100});
  CHECK_FALSE(t.find("a")->integer);
  CHECK(values(t, "i") == std::vector<double>{1, -7, 0, 100, 1, 0});
  CHECK(t.find("i")->integer);
  CHECK(values(t, "r1") == std::vector<double>{1, 2, 3, 4});
  CHECK(t.find("r1")->integer);
  CHECK(values(t, "r2") == std::vector<double>{3, 2, 1, 0, -1});
  CHECK(values(t, "r3") == std::vector<double>{-2, -3, -4});
  CHECK(values(t, "r4") == std::vector<double>{0, 2, 3, 9, 10});
  CHECK(t.find("r4")->integer);
  CHECK(values(t, "r5") == std::vector<double>{1.5, 2.5});
  CHECK_FALSE(t.find("r5")->integer);
  CHECK(t.find("e1")->value.shape == shape::vector(0));
  CHECK(t.find("e1")->integer);
  CHECK(t.find("e2")->value.shape == shape::vector(0));
  CHECK_FALSE(t.find("e2")->integer);
  CHECK(values(t, "z") == std::vector<double>{0, 0, 0});
  CHECK(values(t, "d") == std::vector<double>{0, 0});
  CHECK(t.find("s")->value.shape.rank == 0);  // a number alone is a scalar,
  CHECK(t.find("one")->value.shape == shape::vector(1));  // c() a vector
  CHECK(values(t, "n") == std::vector<double>{1, 2});
  CHECK(values(t, "tiny") == std::vector<double>{0});
  CHECK(values(t, "big") == std::vector<double>{123456789012345678.0});
  CHECK(values(t, "t") == std::vector<double>{2, -2});
  CHECK(t.find("t")->integer);
  CHECK(values(t, "u") == std::vector<double>{1, 2});
}

TEST_CASE("NA, NA_integer_ and NA_real_ are missing, the first at its place with R's indices") {
  const data_table t = r("x <- c(1, NA, 2.5)\n"
                         "k <- c(NA_integer_, 3L)\n"
                         "m <- structure(c(1, 2, 3, NA, 5, NA), .Dim = c(2, 3))\n"
                         "s <- NA_real_\n");
  const auto x = values(t, "x");
  CHECK(std::isnan(x[1]));
  CHECK_FALSE(t.find("x")->integer);
  REQUIRE(t.find("x")->first_missing);
  CHECK(t.find("x")->first_missing->where.line == 1);
  CHECK(t.find("x")->first_missing->where.column == 11);
  CHECK(t.find("x")->first_missing->message == "NA at x[2]");
  CHECK(t.find("k")->integer);  // a missing value says nothing against it
  const auto m = values(t, "m");
  CHECK(std::isnan(m[4]));      // .Data[4] is m[2, 2], row-major offset 4
  CHECK(std::isnan(m[5]));
  CHECK(t.find("m")->first_missing->message == "NA at m[2, 2]");
  CHECK(t.find("m")->first_missing->where.line == 3);
  CHECK(t.find("m")->first_missing->where.column == 27);
  CHECK(t.find("s")->first_missing->message == "NA at s");
  CHECK(r("list(m = structure(.Data = c(1, NA, 3, 4), .Dim = c(2, 2)))").find("m")->first_missing->message == "NA at m[1, 2]");
  CHECK_FALSE(r("x <- 1:3").find("x")->first_missing);
}

TEST_CASE("R data errors: syntax at its place, with the source line and a caret") {
  check_error("y <- c(1, 2,\n  3", 1, 7, "this `(` of `c` is never closed");
  check_error("y <- c(1, 2))", 1, 13, "this `)` closes no `(`");
  check_error("list(y = 1))", 1, 12, "this `)` closes no `(`");
  check_error("y <- c(1 2)", 1, 10, "expected `,` or `)` in `c`(...), found `2`");
  check_error("y <- c(1, )", 1, 11, "expected a value after `,`");
  check_error("y <- c(1, , 2)", 1, 11, "expected a value, found `,`");
  check_error("y 3", 1, 3, "expected `<-` after `y`, found `3`");
  check_error("3 <- y", 1, 1, "expected `name <- value`, found `3`");
  check_error("y <- \"abc", 1, 6, "this quote is never closed");
  check_error("y <- 1e", 1, 6, "a number's exponent needs digits");
  check_error("y <- 12abc", 1, 6, "`12abc` is not a number");
  check_error("y <- 0x10", 1, 6, "`0x10` is not a number");
  check_error("y <- [1]", 1, 6, "unexpected `[`");
  check_error("y <- 1 -> z", 1, 8, "`->` is not read");
  check_error("y <- 1e999", 1, 6, "`1e999` is too large");
  check_error("list(N = 1)\nlist(N = 2)", 2, 1, "expected the end of the file after the list(...) at line 1");
  check_error("list(1, 2)", 1, 6, "an element of list(...) without a name");
  const diagnostic d = error_of("N <- 3\ny <- c(1,\n  2 3)\n");
  CHECK(d.str().find("t.R:3:5: error: expected `,` or `)`") != std::string::npos);
  CHECK(d.str().find(" 3 |   2 3)\n   |     ^\n") != std::string::npos);
}

TEST_CASE("R data errors: values that are not data, or code to run") {
  check_error("x <- seq(1, 10, by = 2)", 1, 6, "`seq(...)` is R code, which ppl does not run");
  check_error("x <- rep(0, 5)", 1, 6, "write the values with c(...)");
  check_error("x <- c(1, matrix(0, 2, 2))", 1, 11, "`matrix(...)` is R code");
  check_error("x <- y", 1, 6, "`y` is a name, not a value");
  check_error("x <- c(1, Inf)", 1, 11, "`Inf` is not a finite number");
  check_error("x <- -Inf", 1, 7, "`Inf` is not a finite number");
  check_error("x <- NaN", 1, 6, "`NaN` is not a finite number");
  check_error("N <- 1\nx <- \"abc\"", 2, 1, "`x` holds text (\"abc\"); only numbers and arrays of numbers are data");
  check_error("x <- c(1, \"a\")", 1, 1, "`x` holds text (\"a\")");
  check_error("x <- NULL", 1, 1, "`x` is NULL");
  check_error("x <- list(a = list(b = 1))", 1, 11, "`a` holds a list");
  check_error("x <- c(1, list(a = 2))", 1, 11, "a list inside c(...)");
  check_error("x <- 1:NA", 1, 8, "NA cannot end a range");
  check_error("x <- 1:1e9", 1, 6, "`1:1e9` makes more values than ranges and integer(n) may make in one file (4194304)");
  check_error("x <- -1e308:1e308", 1, 6, "`-1e308:1e308` makes more values");
  check_error("x <- integer(-1)", 1, 14, "integer(n) needs a count n");
  check_error("x <- as.integer(\"3\")", 1, 17, "as.integer(...) of something that is not numbers");
  check_error(std::string(3, '\0'), 1, 1, "the byte 0x00 is not text: this is binary data, not an R data file");
  // Nesting deep enough to exhaust the stack is refused, not followed.
  std::string deep = "x <- ";
  for (int i = 0; i < 100000; ++i) deep += "c(";
  check_error(deep, 1, 206, "values nested more than 100 deep");
}

TEST_CASE("R data errors: dimensions that do not fit, names twice") {
  check_error("Y <- structure(1:14, .Dim = c(5, 3))", 1, 22, "`.Dim` = 5 x 3 = 15 elements, but the data hold 14");
  check_error("Y <- structure(1:3, dim = 4)", 1, 21, "`dim` = 4 elements, but the data hold 3");
  check_error("Y <- structure(1:32, .Dim = c(2, 2, 2, 2, 2))", 1, 22, "`.Dim` gives 5 dimensions; ppl's arrays have at most 4");
  check_error("Y <- structure(1:3, .Dim = 2.5)", 1, 21, "`.Dim` holds 2.5; a dimension is a whole number");
  check_error("Y <- structure(1:3, .Dim = c(NA, 3))", 1, 21, "`.Dim` holds NA");
  check_error("Y <- structure(1:3, .Dim = integer(0))", 1, 21, "`.Dim` is empty");
  check_error("Y <- structure(numeric(0), .Dim = c(1e300, 0))", 1, 28, "`.Dim` holds 1e+300; a dimension is at most 2^31 - 1");
  check_error("Y <- structure(1:3, .Dim = 3, dim = 3)", 1, 31, "the dimensions are given twice");
  check_error("Y <- structure(1:3, 4:6)", 1, 21, "structure(...) takes one value, its data");
  check_error("Y <- structure(.Dim = 3)", 1, 6, "structure(...) without its data");
  check_error("y <- 1\nN <- 2\ny <- 3", 3, 1, "duplicate variable name \"y\"");
  check_error("y <- 1\nd <- list(y = 2)", 2, 11, "duplicate variable name \"y\"");
  check_error("\"\" <- 1", 1, 1, "empty variable name");
  check_error("alpha_c <- 1\nalpha.c <- 2", 2, 1, "duplicate variable name \"alpha_c\" (alpha.c is read as alpha_c)");
}

TEST_CASE("read_data_file: .R and .r, plain or gzipped, and R found in a file of another name") {
  CHECK(values(read_data_file(scratch_file("d.R", "y <- c(1, 2)")), "y") == std::vector<double>{1, 2});
  CHECK(values(read_data_file(scratch_file("d.r", "y <- 3")), "y") == std::vector<double>{3});
  CHECK(values(read_data_file(scratch_file("d.txt", "# OpenBUGS\nlist(y = c(1, 2))")), "y") == std::vector<double>{1, 2});
  CHECK(values(read_data_file(scratch_file("d.dat", "`y` <- 4")), "y") == std::vector<double>{4});
  CHECK(values(read_data_file(scratch_file("c.txt", "y,list\n1,2\n")), "list") == std::vector<double>{2});  // CSV
  CHECK(read_data_file(scratch_file("c.txt", "list\n1\n")).find("list"));
  const std::string gz = scratch_file("d.R.gz", "");
  gzFile f = gzopen(gz.c_str(), "wb");
  REQUIRE(f);
  const std::string text = "y <- structure(1:4, .Dim = c(2, 2))\n";
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  CHECK(values(read_data_file(gz), "y") == std::vector<double>{1, 3, 2, 4});
  // A message names the file as given.
  CHECK_THROWS_WITH_AS(read_data_file(scratch_file("bad.R", "y <- c(1")), doctest::Contains("bad.R:1:7: error: this `(`"), source_error);
}

}  // namespace test_data_r

namespace test_data_r_mapped {

using namespace ppl;
using namespace ppl::data;

// A file of `rows` numbers in c(...) over many lines, then `tail`.
std::string large_text(int rows, const std::string& tail) {
  std::string text = "N <- " + std::to_string(rows) + "L\ny <- c(";
  for (int i = 0; i < rows; ++i) text += std::to_string(i * 0.125 - 3) + (i + 1 < rows ? (i % 10 == 9 ? ",\n" : ", ") : ")\n");
  return text + tail;
}

TEST_CASE("a large R dump read from the mapped file, its pages let go behind the parse, is the text read whole") {
  // Past 16 MB, so that pages are given back during the parse; a missing value late on.
  const std::string text = large_text(1'600'000, "z <- c(1, NA, 3)\n");
  REQUIRE(text.size() > (std::size_t{20} << 20));
  const std::string path = ppl::testing::scratch_file("large.R", text);
  ppl::testing::check_same_tables(read_data_file(path), parse_r_dump({path, text}));
  // An error at the end of the large file: the same message, at the same line and column.
  const std::string bad = large_text(1'600'000, "z <- c(1, 2,, 3)\n");
  const std::string bad_path = ppl::testing::scratch_file("large_bad.R", bad);
  std::string mapped, whole;
  try {
    read_data_file(bad_path);
  } catch (const source_error& e) {
    mapped = e.what();
  }
  try {
    parse_r_dump({bad_path, bad});
  } catch (const source_error& e) {
    whole = e.what();
  }
  CHECK(!mapped.empty());
  CHECK(mapped == whole);
  CHECK(mapped.find("large_bad.R:160002:13: error") != std::string::npos);  // at its line, past the 16 MB given back
}

}  // namespace test_data_r_mapped
