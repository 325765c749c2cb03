// Data loaders: CSV (with matrices from X.1 ... X.P columns, CRLF, gzip), JSON and --set.
#include <doctest/doctest.h>

#include "core/source_error.hpp"
#include "data/data.hpp"

namespace test_data {

using namespace ppl;
using namespace ppl::data;

namespace {
std::string path(const char* name) { return std::string(PPL_SOURCE_DIR) + "/tests/data/" + name; }
}  // namespace

TEST_CASE("CSV columns, integer detection and matrices") {
  data_table t = read_csv(path("matrix.csv"));
  REQUIRE(t.find("id"));
  CHECK(t.find("id")->integer);
  CHECK(t.find("id")->value.data == std::vector<double>{1, 2});
  CHECK_FALSE(t.find("X.1")->integer);
  const data_value* x = t.find("X");
  REQUIRE(x);
  CHECK(x->value.shape == shape::matrix(2, 2));
  CHECK(x->value.data == std::vector<double>{0.5, 2, 1.5, 4});
  CHECK_FALSE(x->integer);
}

TEST_CASE("CSV with CRLF line ends, spaces and blank lines, plain or gzipped") {
  for (const char* name : {"crlf.csv", "crlf.csv.gz"}) {
    data_table t = read_csv(path(name));
    CHECK(t.find("b")->value.data == std::vector<double>{2, 4});
  }
}

TEST_CASE("JSON scalars and nested arrays") {
  data_table t = read_json(path("good.json"));
  CHECK(t.find("N")->value.shape.rank == 0);
  CHECK(t.find("N")->integer);
  CHECK_FALSE(t.find("v")->integer);
  CHECK(t.find("m")->value.shape == shape::matrix(2, 3));
  CHECK(t.find("m")->value.data[3] == 4);
  CHECK(t.find("e")->value.shape == shape::vector(0));
}

TEST_CASE("--set") {
  data_table t;
  apply_set(t, "K=50");
  apply_set(t, "v=[1, 2.5]");
  CHECK(t.find("K")->integer);
  CHECK(t.find("K")->value.data[0] == 50);
  CHECK(t.find("v")->value.data == std::vector<double>{1, 2.5});
  CHECK_THROWS_WITH_AS(apply_set(t, "K"), "--set K: expected name=value", std::invalid_argument);
  CHECK_THROWS_WITH_AS(apply_set(t, "1x=3"), "--set 1x=3: `1x` is not a variable name", std::invalid_argument);
  CHECK_THROWS_WITH_AS(apply_set(t, "K=abc"), "--set K=abc: the value is not a number or an array of numbers", std::invalid_argument);
  CHECK_THROWS_AS(apply_set(t, "K=[1, [2]]"), std::invalid_argument);
}

TEST_CASE("a missing file is an error naming it") {
  CHECK_THROWS_WITH_AS(read_csv(path("nope.csv")), doctest::Contains("nope.csv: error: cannot open the file"), ppl::source_error);
}

}  // namespace test_data
