// Expressions evaluated through the whole pipeline: precedence, indexing, slices,
// products and functions, as transformed data.
#include <doctest/doctest.h>

#include "tests/support/model_fixture.hpp"

namespace test_evaluator {

using ppl::testing::error_of;
using ppl::testing::fixture;

namespace {

double scalar(const std::string& expr, const std::string& prelude = "") {
  fixture f(prelude + "\nresult = " + expr + "\n");
  return f.value("result").data.at(0);
}

}  // namespace

TEST_CASE("operators follow the usual precedence and associativity") {
  CHECK(scalar("1 + 2 * 3 ^ 2") == 19);
  CHECK(scalar("-2 ^ 2") == -4);
  CHECK(scalar("2 ^ 3 ^ 2") == 512);
  CHECK(scalar("10 - 4 - 3") == 3);
  CHECK(scalar("7 / 2") == 3.5);
  CHECK(scalar("7 % 3 + 1") == 2);
  CHECK(scalar("-1 % 4") == 3);
  CHECK(scalar("1 < 2 && 2 < 1 || 3 == 3") == 1);
  CHECK(scalar("!(1 == 1)") == 0);
  CHECK(scalar("(1 + 2) * 3") == 9);
}

TEST_CASE("indexing, slices and transposes") {
  const std::string m = "data A: real[2, 3] = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]\n";
  CHECK(scalar("A[2, 3]", m) == 6);
  CHECK(scalar("sum(A[2])", m) == 15);
  CHECK(scalar("sum(A[:, 2])", m) == 7);
  CHECK(scalar("sum(A[, 3])", m) == 9);
  CHECK(scalar("sum(A[1, 2:3])", m) == 5);
  CHECK(scalar("A'[3, 1]", m) == 3);
  CHECK(scalar("length(A)", m) == 6);
  CHECK(scalar("max(A)", m) == 6);
  CHECK(scalar("min(A[2])", m) == 4);
}

TEST_CASE("products, reductions and elementwise functions") {
  const std::string m = "data A: real[2, 2] = [[1.0, 2.0], [3.0, 4.0]]\ndata v: real[2] = [1.0, -1.0]\n";
  CHECK(scalar("sum(A * v)", m) == -2);         // [-1, -1]
  CHECK(scalar("sum(v * A)", m) == -4);         // [-2, -2]
  CHECK(scalar("(A * A)[2, 1]", m) == 15);
  CHECK(scalar("dot(v, v)", m) == 2);
  CHECK(scalar("sum(v .* v)", m) == 2);
  CHECK(scalar("mean(rep(2.5, 4))") == 2.5);
  CHECK(scalar("sd([1.0, 2.0, 3.0])") == doctest::Approx(1.0));
  CHECK(scalar("log_sum_exp([0.0, 0.0])") == doctest::Approx(std::log(2.0)));
  CHECK(scalar("sum(softmax([1.0, 2.0, 3.0]))") == doctest::Approx(1.0));
  CHECK(scalar("inv_logit(logit(0.25))") == doctest::Approx(0.25));
  CHECK(scalar("softplus(0.0)") == doctest::Approx(std::log(2.0)));
  CHECK(scalar("pow(2, 10)") == 1024);
  CHECK(scalar("sum(exp(log([1.0, 2.0])))") == doctest::Approx(3.0));
  CHECK(scalar("abs(-3)") == 3);
  CHECK(scalar("sqrt(16.0) + log1p(0.0) + expm1(0.0) + tanh(0.0)") == 4);
}

TEST_CASE("run-time errors point at the expression") {
  CHECK(error_of("data v: real[3] = [1.0, 2.0, 3.0]\nr = v[0]\n") == "test.ppl:2:7: error: index 0 is out of range 1..3 for dimension 1 of `v`");
  CHECK(error_of("data v: real[2] = [1.0, 2.0]\ndata w: real[3] = [1.0, 2.0, 3.0]\nr = dot(v, w)\n") ==
        "test.ppl:3:5: error: dot: arguments have sizes 2 and 3");
  CHECK(error_of("data n: int = 3\nfor i in 1:n { r[i] = i }\nq = r[i]\n").find("undefined name `i`") != std::string::npos);
}

TEST_CASE("an index of a loop variable plus or minus a literal, taken without a call, reads the right element") {
  // eval_index computes i - 1, i + 1 and 1 + i directly (model/evaluator.cpp): each
  // element of r must be the sum of the elements the formula names.
  fixture f("data v: real[5] = [1.0, 10.0, 100.0, 1000.0, 10000.0]\n"
            "for i in 2:4 { r[i - 1] = v[i - 1] + v[i + 1] + 2 * v[1 + i] - v[i - 0] }\n");
  const auto& r = f.value("r").data;
  REQUIRE(r.size() == 3);
  CHECK(r[0] == 1.0 + 100.0 + 200.0 - 10.0);
  CHECK(r[1] == 10.0 + 1000.0 + 2000.0 - 100.0);
  CHECK(r[2] == 100.0 + 10000.0 + 20000.0 - 1000.0);
  // Out of range through that path: the same message, at the index.
  CHECK(error_of("data v: real[3] = [1.0, 2.0, 3.0]\nfor i in 1:3 { r[i] = v[i - 1] }\n") ==
        "test.ppl:2:27: error: index 0 is out of range 1..3 for dimension 1 of `v` (when i = 1)");
}

}  // namespace test_evaluator
