// Conditionals: `c ? a : b` (lowered to ifelse) and `if (...) { } else { }` (a loop of one
// instance or none around each statement of a branch).
#include <doctest/doctest.h>

#include "lang/checker.hpp"
#include "lang/parser.hpp"
#include "stdlib/registry.hpp"

namespace test_conditionals {

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

const lang::ir::statement& defining(const lang::ir::model& m, const std::string& name, std::size_t k = 0) {
  return m.statements[static_cast<std::size_t>(m.variables[static_cast<std::size_t>(m.find(name))].statements.at(k))];
}

}  // namespace

TEST_CASE("c ? a : b is ifelse, right-associative and below ||") {
  auto m = compile("x ~ Normal(0, 1)\ny = x > 0 || x < -1 ? 1.5 : x < -0.5 ? 2 : x\nz = [1, 2, 3][x > 0 ? 1 : 2]\n");
  const auto& y = *defining(m, "y").value;
  REQUIRE(y.fn);
  CHECK(y.fn->name() == "ifelse");
  CHECK(y.args[0]->fn->name() == "||");
  CHECK(y.args[2]->fn->name() == "ifelse");
  CHECK(defining(m, "z").value->which == lang::ir::expr::kind::index);
}

TEST_CASE("an if's branches are hidden loops of one instance or none") {
  auto m = compile("data c: int = 1\ndata y: real[N]\nfor n in 1:N {\n  if (n > c) { y[n] ~ Normal(0, 1) }\n"
                   "  else if (n == c) { y[n] ~ Normal(1, 1) }\n  else { y[n] ~ Normal(2, 1) }\n}\n");
  int observations = 0;
  for (const auto& s : m.statements) {
    if (s.which != lang::ir::statement::kind::sample) continue;
    ++observations;
    REQUIRE(s.loops.size() >= 2);
    CHECK(s.loops[0].name == "n");
    CHECK_FALSE(s.loops[0].hidden);
    for (std::size_t k = 1; k < s.loops.size(); ++k) CHECK((s.loops[k].hidden && s.loops[k].condition));
  }
  CHECK(observations == 3);
}

TEST_CASE("a factor inside an if on unknowns is a term where the condition holds") {
  auto m = compile("th ~ Normal(0, 1)\nif (th > 0) { factor -th }\n");
  const auto& f = m.statements.back();
  CHECK(f.which == lang::ir::statement::kind::factor);
  CHECK(f.loops.empty());
  CHECK(f.value->fn->name() == "ifelse");
}

TEST_CASE("conditionals: errors") {
  CHECK(error_of("data y: real[N]\nth ~ Normal(0, 1)\nif (th > 0) { y ~ Normal(1, 1) }\n")
            .find("m.ppl:3:8: error: this condition reads `th`, which is not data: an `if` around `~` must be decided by data") == 0);
  CHECK(error_of("th ~ Normal(0, 1)\nif (th > 0) { m = 1 } else { m = 2 }\n").find("an `if` around `=`") != std::string::npos);
  CHECK(error_of("th ~ Normal(0, 1)\nif (th) { factor 1 }\n") ==
        "m.ppl:2:5: error: the condition of an `if` must be an integer scalar, such as a comparison (x > 0), not real");
  CHECK(error_of("x ~ Normal(0, 1)\ny = x ? 1 : 2\n") ==
        "m.ppl:2:5: error: the condition of `? :` must be an integer, such as a comparison (x > 0), not real");
  CHECK(error_of("if (1 > 0) { data b: int }\n") ==
        "m.ppl:1:14: error: `data` declarations must be at the top level, not inside an `if`");
  CHECK(error_of("if x > 0 { y ~ Normal(0, 1) }\n").find("expected a condition in parentheses") != std::string::npos);
}

}  // namespace test_conditionals
