// What the checker decides without data: elements defined twice or never where the loops
// and indices are literal, rows of literals that differ in length, and models without
// unknowns.
#include <doctest/doctest.h>

#include "lang/checker.hpp"
#include "stdlib/registry.hpp"

namespace test_elements {

using namespace ppl;

namespace {

std::string error_of(const std::string& text) {
  try {
    lang::compile({"m.ppl", text}, stdlib::library());
  } catch (const ppl::source_error& e) {
    std::string s = e.what();
    return s.substr(0, s.find('\n'));
  }
  return "";
}

}  // namespace

TEST_CASE("an element defined twice is found without data where the loops and indices are literal") {
  CHECK(error_of("x ~ Normal(0, 1)\nx ~ Normal(1, 1)\n") == "m.ppl:2:1: error: x is defined twice: on line 1 and here");
  CHECK(error_of("for i in 1:5 { x[i] ~ Normal(0, 1) }\nfor i in 1:10 { x[i] ~ Normal(0, 1) }\n") ==
        "m.ppl:2:17: error: x[1] is defined twice: on line 1 (when i = 1) and here (when i = 1)");
  CHECK(error_of("for i in 1:3 { x[1] ~ Normal(0, 1) }\n") ==
        "m.ppl:1:16: error: x[1] is defined twice by this statement: when i = 1 and when i = 2");
  CHECK(error_of("for i in 1:2, j in 1:2 { x[i] ~ Normal(0, 1) }\n") ==
        "m.ppl:1:26: error: x[1] is defined twice by this statement: when i = 1, j = 1 and when i = 1, j = 2");
  CHECK(error_of("x[1] = 2\nx[2] = 3\nx[1] = 4\n") == "m.ppl:3:1: error: x[1] is defined twice: on line 1 and here");
  CHECK(error_of("for i in 1:3 { x[i + 1] = i }\nx[2] = 0\n") ==
        "m.ppl:2:1: error: x[2] is defined twice: on line 1 (when i = 1) and here");
  CHECK(error_of("for i in 1:3, j in 1:2 { A[i, j] ~ Normal(0, 1) }\nA[2, 2 * 1] ~ Normal(0, 1)\n") ==
        "m.ppl:2:1: error: A[2, 2] is defined twice: on line 1 (when i = 2, j = 2) and here");
}

TEST_CASE("definitions that do not overlap, or that the data decides, pass the checker") {
  CHECK(error_of("x[1] ~ Normal(0, 1)\nfor i in 2:5 { x[i] ~ Normal(x[i - 1], 1) }\n").empty());
  CHECK(error_of("for i in 1:2, j in 1:3 { A[i, j] ~ Normal(0, 1) }\n").empty());
  CHECK(error_of("for i in 1:3 { x[2 * i] = i }\nfor i in 1:3 { x[2 * i - 1] = -i }\n").empty());
  CHECK(error_of("for i in 1:0 { x[1] ~ Normal(0, 1) }\nx[1] ~ Normal(0, 1)\n").empty());  // an empty loop
  // Bounds from data: the graph decides, with the data.
  CHECK(error_of("data N: int\nfor i in 1:N { x[i] ~ Normal(0, 1) }\nfor i in 1:N { x[i] ~ Normal(0, 1) }\n").empty());
  // Computed from data and observed: `~` observes, it does not define.
  CHECK(error_of("x = 3.0\nx ~ Normal(0, 1)\n").empty());
  CHECK(error_of("data y: real[3]\nfor i in 1:3 { y[i] ~ Normal(0, 1) }\nfor i in 1:3 { y[i] ~ Normal(1, 1) }\n").empty());
}

TEST_CASE("an element of an unknown that no statement defines is found without data") {
  CHECK(error_of("x[1] ~ Normal(0, 1)\nx[3] ~ Normal(0, 1)\n") == "m.ppl:1:1: error: x[2] is never defined");
  CHECK(error_of("for i in 1:2 { A[i, 1] ~ Normal(0, 1) }\nA[1, 2] ~ Normal(0, 1)\n") == "m.ppl:1:16: error: A[2, 2] is never defined");
  // A computed array may leave elements undefined (BUGS's ragged arrays): the graph
  // refuses a read of one (tests/model/test_graph.cpp).
  CHECK(error_of("for i in 1:3 { x[i] = 2 * i }\nx[5] = 10\n") == "");
}

TEST_CASE("rows of a literal must agree in length") {
  CHECK(error_of("v = [[1, 2], [3]]\n") == "m.ppl:1:14: error: the elements of a vector literal have different shapes: [2] and [1]");
  CHECK(error_of("v = [[[1], [2]], [[3], [4, 5]]]\n") ==
        "m.ppl:1:24: error: the elements of a vector literal have different shapes: [1] and [2]");
  CHECK(error_of("x ~ Normal(0, 1)\nv = [[x, 2], [3]]\n") ==
        "m.ppl:2:14: error: the elements of a vector literal have different shapes: [2] and [1]");
  CHECK(error_of("v = [[1, 2], [3, 4]]\nw = [[[1], [2]], [[3], [4]]]\n").empty());
  // Rows that are not literals are checked by the graph.
  CHECK(error_of("data a: real[N]\nv = [a, [1.0, 2.0]]\n").empty());
}

TEST_CASE("a model knows whether it has unknowns") {
  CHECK_FALSE(lang::ir::has_unknowns(lang::compile({"m.ppl", "data y: real[N]\nfor n in 1:N { y[n] ~ Normal(0, 1) }\n"}, stdlib::library())));
  CHECK(lang::ir::has_unknowns(lang::compile({"m.ppl", "mu ~ Normal(0, 1)\n"}, stdlib::library())));
}

}  // namespace test_elements
