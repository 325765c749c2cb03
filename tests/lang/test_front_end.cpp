// Parsing and checking: roles, types and the dependency order.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "lang/checker.hpp"
#include "lang/parser.hpp"
#include "stdlib/registry.hpp"

namespace test_front_end {

using namespace ppl;

namespace {

lang::ir::model compile(const std::string& text) { return lang::compile({"m.ppl", text}, stdlib::library()); }

std::string error_of(const std::string& text) {
  try {
    compile(text);
  } catch (const ppl::source_error& e) {
    std::string s = e.what();
    return s.substr(0, s.find('\n'));
  }
  return "";
}

}  // namespace

TEST_CASE("every example parses and checks") {
  for (const char* name : {"coin", "mark", "lda", "ising", "bnn"}) {
    std::ifstream in(std::string(PPL_SOURCE_DIR) + "/examples/" + name + "/" + name + ".ppl");
    std::stringstream ss;
    ss << in.rdbuf();
    CHECK_NOTHROW(lang::compile({name, ss.str()}, stdlib::library()));
  }
}

TEST_CASE("roles: data, observed, computed, unknown, derived") {
  auto m = compile("data y: real[N]\ndata s: real = 1.0\nybar = mean(y)\nmu ~ Normal(ybar, 10)\n"
                   "for n in 1:N { y[n] ~ Normal(mu, s) }\ntwice = 2 * mu\n");
  auto role = [&](const char* n) { return m.variables[static_cast<std::size_t>(m.find(n))].role; };
  CHECK(role("y") == lang::ir::role::data);
  CHECK(m.variables[static_cast<std::size_t>(m.find("y"))].observed);
  CHECK(role("N") == lang::ir::role::data);
  CHECK(role("ybar") == lang::ir::role::transformed_data);
  CHECK(role("mu") == lang::ir::role::unknown);
  CHECK(role("twice") == lang::ir::role::derived);
}

TEST_CASE("statements are ordered parents first, observations and factors last") {
  auto m = compile("factor -x * x\ny ~ Normal(x, 1)\nx ~ Normal(0, 1)\n");
  REQUIRE(m.statements.size() == 3);
  CHECK(m.variables[static_cast<std::size_t>(m.statements[0].target)].name == "x");
  CHECK(m.variables[static_cast<std::size_t>(m.statements[1].target)].name == "y");
  CHECK(m.statements[2].which == lang::ir::statement::kind::factor);
}

TEST_CASE("types and ranks") {
  auto m = compile("data X: real[N, P]\nfor n in 1:N { r[n] = X[n] }\nt = X'\nc = X[:, 1]\nk = length(X) + 1\n");
  auto type = [&](const char* n) { return m.variables[static_cast<std::size_t>(m.find(n))].type; };
  CHECK(type("r").rank == 2);
  CHECK(type("t").rank == 2);
  CHECK(type("c").rank == 1);
  CHECK(type("k").kind == stdlib::scalar_kind::integer);
}

TEST_CASE("comments, semicolons and single-statement loops") {
  auto m = compile("# a comment\nx ~ Normal(0, 1); y ~ Normal(x, 1) # trailing\nfor i in 1:3 z[i] ~ Normal(y, 1)\n");
  CHECK(m.statements.size() == 3);
  // A comment runs to the line feed: a lone carriage return does not end it, so what
  // follows one (here a byte outside ASCII) is still comment.
  CHECK(compile("x ~ Normal(0, 1) # a\r\xe2\x80\x94 b\ny ~ Normal(x, 1)\n").statements.size() == 2);
  CHECK(error_of("x ~ # a\r\xe2 b\n") == "m.ppl:1:12: error: expected a distribution (`Normal(0, 1)`) but found end of input");
}

TEST_CASE("numbers are digits: nan and inf are names") {
  CHECK(error_of("x = nan\n") == "m.ppl:1:5: error: undefined name `nan`");
  CHECK(error_of("x = -inf\n") == "m.ppl:1:6: error: undefined name `inf`");
  CHECK(compile("inf ~ Normal(0, 1)\nnan = 2 * inf\n").variables.size() == 2);
  // Spirit read `nan(...)` as NaN with a payload, which swallowed the comment mark.
  CHECK(error_of("y[naN(#)\xe2\n").find("m.ppl:1:") == 0);
}

TEST_CASE("semantic errors") {
  CHECK(error_of("x ~ Normal(0, 1)\nx ~ Normal(1, 1)\n") == "m.ppl:2:1: error: x is defined twice: on line 1 and here");
  // A variable computed from data and also the target of `~` is observed (as y_std in bnn).
  CHECK(error_of("x ~ Normal(0, 1)\nx = 3\n").empty());
  CHECK(error_of("m ~ Normal(0, 1)\nx ~ Normal(m, 1)\nx = 2 * m\n") == "m.ppl:2:1: error: `x` is defined both with `~` and with `=` from unknowns; give the two a different name");
  CHECK(error_of("y = x[1]\nx = 2\n") == "m.ppl:1:6: error: `x` has 0 dimensions but is indexed with 1");
  CHECK(error_of("data K: int\ndata v: real[K] = rep(0.0, z)\nz ~ Poisson(3)\n").find("may use only data") != std::string::npos);
}

TEST_CASE("a line index gives every offset the line and column that scanning gives") {
  for (std::string text : {"", "\n", "a", "ab\ncd\n", "\n\nx\r\ny", "x ~ Normal(0, 1)\n\nfor i in 1:3 {\n  y[i] ~ Normal(x, 1)\n}"}) {
    ppl::line_index lines(text);
    for (std::size_t offset = 0; offset <= text.size() + 1; ++offset) {
      // The scan, written out: a line feed ends a line.
      ppl::location expected{1, 1};
      for (std::size_t i = 0; i < std::min(offset, text.size()); ++i)
        expected = text[i] == '\n' ? ppl::location{expected.line + 1, 1} : ppl::location{expected.line, expected.column + 1};
      INFO(text << " at " << offset);
      CHECK(lines.locate(offset).line == expected.line);
      CHECK(lines.locate(offset).column == expected.column);
      CHECK(ppl::locate(text, offset).line == expected.line);
      CHECK(ppl::locate(text, offset).column == expected.column);
    }
  }
}

TEST_CASE("variables are found by name, and a model's lines by offset") {
  auto m = compile("data y: real[N]\nmu ~ Normal(0, 1)\nfor n in 1:N {\n  y[n] ~ Normal(mu, 1)\n}\n");
  for (std::size_t v = 0; v < m.variables.size(); ++v) CHECK(m.find(m.variables[v].name) == static_cast<int>(v));
  CHECK(m.find("nothing") == -1);
  CHECK(m.lines.locate(m.statements.back().pos).line == 4);
}

}  // namespace test_front_end
