// Result types of the built-in functions, and the messages of the checker's type errors.
#include <set>

#include "tests/stdlib/function_cases.hpp"

namespace test_function_types {

using namespace ppl::testing;
using ppl::stdlib::type_sig;

namespace {

std::vector<type_case> elementwise_cases() {
  const auto i0 = int_t(0), i1 = int_t(1), r0 = real_t(0), r1 = real_t(1), r2 = real_t(2);
  std::vector<type_case> cases;
  for (const char* name : {"exp", "log", "log1p", "expm1", "sqrt", "inv_logit", "logit", "tanh", "softplus"}) {
    cases.push_back(ok(name, {i0}, r0));
    cases.push_back(ok(name, {r2}, r2));  // any rank
    cases.push_back(ok(name, {real_t(3)}, real_t(3)));
  }
  cases.push_back(bad("exp", {r0, r0}, "exp takes 1 argument, got 2"));
  cases.push_back(ok("abs", {i1}, i1));
  cases.push_back(ok("abs", {r0}, r0));
  cases.push_back(ok("pow", {i0, i0}, r0));
  cases.push_back(ok("pow", {r1, r0}, r1));
  cases.push_back(
      bad("pow", {r1, r2}, "pow needs operands of the same shape, or one a scalar, got real[] and real[,]"));
  cases.push_back(bad("pow", {r1}, "pow takes 2 arguments, got 1"));
  cases.push_back(ok("^", {i0, i0}, r0));
  return cases;
}

std::vector<type_case> operator_cases() {
  const auto i0 = int_t(0), i1 = int_t(1), i2 = int_t(2), r0 = real_t(0), r1 = real_t(1), r2 = real_t(2);
  return {
      ok("+", {i0, i0}, i0), ok("+", {i0, r0}, r0), ok("+", {i0, r1}, r1), ok("+", {r2, i0}, r2),
      bad("+", {r1, r2}, "`+` needs operands of the same shape, or one a scalar, got real[] and real[,]"),
      ok("-", {i1, i0}, i1), ok(".*", {i1, i1}, i1), ok(".*", {i1, r1}, r1),
      ok("/", {i0, i0}, r0), ok("./", {i1, i1}, r1), ok("/", {r2, r0}, r2),
      ok("%", {i0, i0}, i0), ok("%", {i1, i0}, i1),
      bad("%", {r0, i0}, "`%` needs integers, got real and int"),
      ok("<", {r0, r0}, i0), ok("<=", {i0, r0}, i0), ok(">", {r1, r1}, i1), ok(">=", {r2, r2}, i2),
      ok("==", {r1, r0}, i1), ok("!=", {i0, i0}, i0),
      ok("&&", {i0, i0}, i0), ok("||", {r0, i0}, i0),
      ok("neg", {i0}, i0), ok("neg", {r1}, r1), ok("!", {r0}, i0),
      ok("*", {i0, i0}, i0), ok("*", {r0, i2}, r2), ok("*", {i1, r0}, r1),
      ok("*", {r2, r1}, r1), ok("*", {r1, r2}, r1), ok("*", {r2, r2}, r2), ok("*", {i2, i1}, i1),
      bad("*", {r1, r1}, "`*` of two vectors is ambiguous; use dot(u, v) or u .* v"),
      bad("*", {real_t(3), r1}, "`*` needs scalars, vectors or matrices, got real[,,] and real[]"),
      ok("'", {r2}, r2), ok("transpose", {i2}, i2),
      bad("'", {r1}, "`'` expects a matrix, got real[]"),
      bad("transpose", {r2, r2}, "transpose expects a matrix, got real[,] and real[,]"),
  };
}

std::vector<type_case> reduction_cases() {
  const auto i0 = int_t(0), i1 = int_t(1), r0 = real_t(0), r1 = real_t(1), r2 = real_t(2);
  return {
      ok("sum", {i1}, i0), ok("sum", {r2}, r0), ok("mean", {i1}, r0), ok("sd", {i1}, r0),
      ok("log_sum_exp", {r1}, r0), bad("sum", {r1, r1}, "sum takes 1 argument, got 2"),
      ok("max", {i1}, i0), ok("max", {r2}, r0), ok("max", {i0, i0}, i0), ok("min", {i0, r0}, r0),
      bad("max", {r1, r1}, "max expects one array or two scalars, got real[] and real[]"),
      bad("min", {}, "min expects one array or two scalars, got nothing"),
      ok("softmax", {r1}, r1), ok("softmax", {i1}, r1),
      bad("softmax", {r2}, "softmax expects one vector, got real[,]"),
      ok("dot", {r1, i1}, r0), ok("dot", {i1, i1}, i0),
      bad("dot", {r2, r1}, "dot expects two vectors, got real[,] and real[]"),
      bad("dot", {r1}, "dot expects two vectors, got real[]"),
      ok("rep", {r0, i0}, r1), ok("rep", {i0, i0}, i1),
      bad("rep", {r0, r0}, "rep expects a scalar and an integer count, rep(x, n), got real and real"),
      bad("rep", {r1, i0}, "rep expects a scalar and an integer count"),
      ok("length", {r2}, i0), ok("length", {i0}, i0), bad("length", {r1, r1}, "length takes 1 argument, got 2"),
  };
}

}  // namespace

TEST_CASE("result types and type errors, on a table covering every built-in") {
  std::set<std::string> seen;
  for (const auto& cases :
       {elementwise_cases(), operator_cases(), reduction_cases(), special_type_cases(), array_type_cases()})
    for (const auto& c : cases) {
      std::string args;
      for (const auto& a : c.args) args += (args.empty() ? "" : ", ") + to_string(a);
      INFO(c.name, "(", args, ")");
      seen.insert(c.name);
      const auto r = fn(c.name).result_type(c.args);
      if (c.error.empty()) {
        REQUIRE(std::holds_alternative<type_sig>(r));
        CHECK(to_string(std::get<type_sig>(r)) == to_string(c.expected));
      } else {
        REQUIRE(std::holds_alternative<std::string>(r));
        INFO("message: ", std::get<std::string>(r));
        CHECK(std::get<std::string>(r).find(c.error) != std::string::npos);
      }
    }
  for (const auto& name : ppl::stdlib::library().function_names()) {
    INFO("no type case for ", name);
    CHECK(seen.count(name) == 1);
  }
}

}  // namespace test_function_types
