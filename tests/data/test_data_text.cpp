// Data as text: quoted CSV cells (RFC 4180), columns of text the model may leave unread,
// and binary files refused in one line without echoing their bytes.
#include <cmath>
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "lang/checker.hpp"
#include "data/data.hpp"
#include "tests/support/data_files.hpp"
#include "model/graph.hpp"
#include "stdlib/registry.hpp"

namespace test_data_text {

using namespace ppl;
using namespace ppl::data;
using ppl::diagnostic;
using ppl::source_error;

using ppl::testing::data_error_of;
using ppl::testing::scratch_file;

TEST_CASE("CSV: quoted cells and names are read as RFC 4180 writes them") {
  data_table t = read_csv(scratch_file("quoted.csv", "\"y\",\"a, b\",\"z\"\n\"1.5\",\"2\",3\n\" 4 \",\"5\",\"6\"\n"));
  REQUIRE(t.find("y"));
  CHECK(t.find("y")->value.data == std::vector<double>{1.5, 4});
  CHECK_FALSE(t.find("y")->integer);
  CHECK(t.find("a, b")->value.data == std::vector<double>{2, 5});
  CHECK(t.find("a, b")->integer);
  CHECK(t.find("z")->value.data == std::vector<double>{3, 6});
  // A quoted cell may hold commas, line breaks and doubled quotes; the rows still count.
  data_table u = read_csv(scratch_file("multiline.csv", "note,y\n\"one, \"\"two\"\"\nthree\",1\nfour,2\n"));
  CHECK(u.find("y")->value.data == std::vector<double>{1, 2});
  CHECK(u.text("note"));
}

TEST_CASE("CSV: a quote left open or followed by text is an error at it") {
  diagnostic open = data_error_of("open.csv", "y,x\n1,2\n\"3,4\n5,6\n");
  CHECK(open.where.line == 3);
  CHECK(open.where.column == 1);
  CHECK(open.message.find("this quote is never closed") != std::string::npos);
  diagnostic after = data_error_of("after.csv", "y,x\n1,2\n\"3\"4,5\n");
  CHECK(after.where.line == 3);
  CHECK(after.where.column == 4);
  CHECK(after.message.find("text after the closing quote") != std::string::npos);
}

TEST_CASE("CSV: a column that is not all numbers is kept as text, with why") {
  data_table t = read_csv(scratch_file("people.csv", "y,name,note,X.1,X.2\n1,Ann,,1,a\n0,\"Smith, Jo\",late,2,3\n"));
  CHECK(t.find("y")->value.data == std::vector<double>{1, 0});
  REQUIRE(t.text("name"));
  CHECK(t.text("name")->reason == "is text");
  CHECK(t.text("name")->problem.message == "\"Ann\" in column \"name\" (row 1) is not a number");
  CHECK(t.text("name")->problem.where.line == 2);
  CHECK(t.text("name")->problem.where.column == 3);
  // Missing first, text later: the error is at the first word.
  REQUIRE(t.text("note"));
  CHECK(t.text("note")->reason == "is text");
  CHECK(t.text("note")->problem.message == "\"late\" in column \"note\" (row 2) is not a number");
  // A matrix with a column of text is text too.
  REQUIRE(t.text("X"));
  CHECK(t.text("X")->matrix);
  CHECK(t.find("X.1"));
  // Numbers with empty cells: numbers, the empty ones missing.
  CHECK(std::isnan(read_csv(scratch_file("gaps.csv", "y,z\n1,\n2,3\n")).find("z")->value.data[0]));
  // A later number replaces the text, as --set does.
  data_table later;
  later.set("name", data_value{tensor::scalar(1), true, "--set name=1"});
  t.merge(later);
  CHECK(t.find("name"));
  CHECK_FALSE(t.text("name"));
}

TEST_CASE("CSV as R and pandas write it: row names under an empty name, dotted names, NaN") {
  // R's write.csv(d, "f.csv") and pandas' d.to_csv("f.csv"): the row names (the index)
  // first, under an empty name; R's dotted names; R's NA and pandas' NaN for a missing value.
  for (const char* text : {"\"\",\"log.dose\",\"y\"\n\"1\",0.5,3\n\"2\",1.5,NA\n", ",log.dose,y\n0,0.5,3\n1,1.5,NaN\n",
                           "\"\",log.dose,y\nMazda,0.5,3\nFiat,1.5,nan\n"}) {
    INFO(text);
    data_table t = read_csv(scratch_file("r_written.csv", text));
    REQUIRE(t.text("(row names)"));
    CHECK(t.text("(row names)")->reason == "holds row names (its name is empty, as R's write.csv and pandas' to_csv write them)");
    REQUIRE(t.find("log_dose"));
    CHECK(t.find("log_dose")->value.data == std::vector<double>{0.5, 1.5});
    CHECK_FALSE(t.find("log.dose"));
    REQUIRE(t.find("y"));
    CHECK(std::isnan(t.find("y")->value.data[1]));
    REQUIRE(t.find("y")->first_missing);
    CHECK(t.find("y")->first_missing->where.line == 3);
  }
  // A column already named log_dose: the dotted one keeps its own name.
  data_table both = read_csv(scratch_file("both.csv", "log.dose,log_dose\n1,2\n"));
  CHECK(both.find("log.dose")->value.data[0] == 1);
  CHECK(both.find("log_dose")->value.data[0] == 2);
  // Another program's spelling of a missing value says which ones ppl reads; inf is no datum.
  data_table na = read_csv(scratch_file("na_spelling.csv", "y\n1\nN/A\n"));
  REQUIRE(na.text("y"));
  CHECK(na.text("y")->problem.message == "\"N/A\" in column \"y\" (row 2) is not a number (ppl reads NA, NaN and an empty cell as a missing value)");
  data_table inf = read_csv(scratch_file("inf.csv", "y\n1\ninf\n"));
  REQUIRE(inf.text("y"));
  CHECK(inf.text("y")->problem.message == "\"inf\" in column \"y\" (row 2) is not a finite number");
  // An empty name other than the first is still refused (test_data_errors.cpp), as is a lone one.
  CHECK_THROWS_AS(read_csv(scratch_file("lone.csv", "\"\"\n1\n")), source_error);
}

TEST_CASE("a column of text that the model reads is the error at its first cell") {
  auto m = ppl::lang::compile({"m.ppl", "data name: real[N]\nmu ~ Normal(0, 1)\n"}, ppl::stdlib::library());
  data_table t = read_csv(scratch_file("named.csv", "name,y\n1.5,1\nBob,2\n"));
  rng r(1);
  try {
    ppl::model::graph g(m, t, r);
    FAIL("the text column was bound");
  } catch (const source_error& e) {
    CHECK(e.diag().file.find("named.csv") != std::string::npos);
    CHECK(e.diag().where.line == 3);
    CHECK(e.diag().where.column == 1);
    CHECK(e.diag().message == "\"Bob\" in column \"name\" (row 2) is not a number");
    CHECK(e.diag().note == "`name` is data of the model (m.ppl:1:6), so each of its values must be a number");
  }
}

TEST_CASE("binary data is refused in one line, without its bytes") {
  struct binary {
    const char* name;
    std::string bytes;
    std::size_t line, column;
    const char* message;
  };
  const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), gz("\x1f\x8b\x08\0\0\0\0\0", 8);
  for (const auto& b : {binary{"nul.csv", std::string("y\n1\n2\0\x01\n", 8), 3, 2, "the byte 0x00 is not text: this is binary data, not a CSV file"},
                        binary{"escape.csv", "y\n1\x1b[31m\n", 2, 2, "the byte 0x1b is not text"},
                        binary{"image.csv", png, 1, 1, "this is a PNG image, not a CSV file"},
                        binary{"image.json", png, 1, 1, "this is a PNG image, not a JSON file"},
                        binary{"packed.csv", gz, 1, 1, "this is a gzip-compressed file, not a CSV file: name it with .gz"},
                        binary{"sheet.csv", "PK\x03\x04rest", 1, 1, "this is a zip archive"},
                        binary{"wide.csv", std::string("\xff\xfey\0\n\0", 6), 1, 1, "this is UTF-16 text, not a CSV file"},
                        binary{"nul.json", std::string("{\"y\": [1,\n 2]}\0junk", 19), 2, 5, "the byte 0x00 is not text"}}) {
    diagnostic d = data_error_of(b.name, b.bytes);
    INFO(b.name << ": " << d.str());
    CHECK(d.where.line == b.line);
    CHECK(d.where.column == b.column);
    CHECK(d.message.find(b.message) != std::string::npos);
    CHECK(d.source_line.empty());
    const std::string shown = d.str();
    CHECK(std::count(shown.begin(), shown.end(), '\n') == 1);
  }
}

TEST_CASE("messages escape the bytes they quote") {
  diagnostic d = read_csv(scratch_file("latin1.csv", "y,caf\xe9\n1,2\n3,\xe9t\xe9\n")).text("caf\xe9")->problem;
  CHECK(d.message == "\"\\xe9t\\xe9\" in column \"caf\\xe9\" (row 2) is not a number");
  // Well-formed UTF-8 is text, and stays as it is.
  diagnostic u = read_csv(scratch_file("utf8.csv", "y,ville\n1,Z\xc3\xbcrich\n")).text("ville")->problem;
  CHECK(u.message == "\"Z\xc3\xbcrich\" in column \"ville\" (row 1) is not a number");
  CHECK(ppl::printable(std::string("a\0b\tc\x7f", 6)) == "a\\x00b\tc\\x7f");
}

}  // namespace test_data_text
