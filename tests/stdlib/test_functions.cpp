// Built-in functions and operators: types, values, shape errors, and every backward()
// against central finite differences.
#include <doctest/doctest.h>

#include <cmath>

#include "stdlib/registry.hpp"
#include "tests/stdlib/distribution_checks.hpp"

using namespace ppl::testing;
using ppl::stdlib::scalar_kind;
using ppl::stdlib::type_sig;

namespace {

const ppl::stdlib::function& fn(const char* name) {
  const auto* f = ppl::stdlib::library().find_function(name);
  REQUIRE(f != nullptr);
  return *f;
}

tensor call_fn(const char* name, const std::vector<tensor>& args) {
  auto v = views(args);
  tensor out(fn(name).result_shape(v));
  fn(name).eval(v, out.data.data());
  return out;
}

// Checks backward() for the scalar sum(w .* f(args)) with fixed weights w.
void check_backward(const char* name, std::vector<tensor> args) {
  const auto& f = fn(name);
  tensor out = call_fn(name, args);
  std::vector<double> w(out.data.size());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = 0.5 + 0.25 * static_cast<double>(i);
  auto objective = [&] {
    tensor o = call_fn(name, args);
    double s = 0;
    for (std::size_t i = 0; i < w.size(); ++i) s += w[i] * o.data[i];
    return s;
  };
  std::vector<std::vector<double>> grads;
  std::vector<double*> slots;
  for (auto& a : args) grads.emplace_back(a.data.size(), 0.0);
  for (auto& g : grads) slots.push_back(g.data());
  f.backward(views(args), out.as_view(), w.data(), slots);
  for (std::size_t i = 0; i < args.size(); ++i)
    for (std::size_t k = 0; k < args[i].data.size(); ++k) {
      double& x = args[i].data[k];
      double h = 1e-6 * std::max(1.0, std::fabs(x)), saved = x;
      x = saved + h;
      double up = objective();
      x = saved - h;
      double down = objective();
      x = saved;
      INFO(name, ": argument ", i, " element ", k);
      CHECK(grads[i][k] == doctest::Approx((up - down) / (2 * h)).epsilon(1e-5));
    }
}

}  // namespace

TEST_CASE("result types") {
  type_sig i0{scalar_kind::integer, 0}, r0{scalar_kind::real, 0}, r1{scalar_kind::real, 1}, r2{scalar_kind::real, 2};
  auto type = [](const char* name, std::vector<type_sig> args) { return fn(name).result_type(args); };
  CHECK(std::get<type_sig>(type("+", {i0, i0})) == i0);
  CHECK(std::get<type_sig>(type("+", {i0, r1})) == r1);
  CHECK(std::get<type_sig>(type("/", {i0, i0})) == r0);
  CHECK(std::get<type_sig>(type("*", {r2, r1})) == r1);
  CHECK(std::get<type_sig>(type("*", {r2, r2})) == r2);
  CHECK(std::get<type_sig>(type("sum", {type_sig{scalar_kind::integer, 1}})) == i0);
  CHECK(std::get<type_sig>(type("exp", {r2})) == r2);
  CHECK(std::get<type_sig>(type("<", {r0, r0})) == i0);
  CHECK(std::get<std::string>(type("*", {r1, r1})).find("use dot(u, v)") != std::string::npos);
  CHECK(std::get<std::string>(type("dot", {r2, r1})) == "dot expects two vectors, got real[,] and real[]");
  CHECK(std::get<std::string>(type("%", {r0, i0})).find("needs integers") != std::string::npos);
  CHECK(std::get<std::string>(type("+", {r1, r2})).find("same shape") != std::string::npos);
}

TEST_CASE("values") {
  CHECK(call_fn("log_sum_exp", {vec({1000.0, 1000.0})}).data[0] == doctest::Approx(1000 + std::log(2.0)));
  CHECK(call_fn("softplus", {scalar(800)}).data[0] == doctest::Approx(800));
  CHECK(call_fn("inv_logit", {scalar(-800)}).data[0] == 0);
  CHECK(call_fn("softmax", {vec({1000.0, 1000.0})}).data[1] == doctest::Approx(0.5));
  CHECK(call_fn("sd", {vec({2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0})}).data[0] == doctest::Approx(std::sqrt(32.0 / 7)));
  CHECK(call_fn("max", {scalar(2), scalar(5)}).data[0] == 5);
  CHECK(call_fn("min", {vec({3.0, -1.0, 2.0})}).data[0] == -1);
  CHECK(call_fn("rep", {scalar(1.5), scalar(3)}).data == std::vector<double>{1.5, 1.5, 1.5});
  CHECK(call_fn("length", {mat(2, 3, std::vector<double>(6, 0.0))}).data[0] == 6);
  CHECK(call_fn("%", {scalar(7), scalar(3)}).data[0] == 1);
  CHECK(call_fn("'", {mat(2, 3, {1, 2, 3, 4, 5, 6})}).data == std::vector<double>{1, 4, 2, 5, 3, 6});
  CHECK(call_fn("*", {mat(2, 2, {1, 2, 3, 4}), vec({1.0, 1.0})}).data == std::vector<double>{3, 7});
}

TEST_CASE("run-time shape errors") {
  CHECK_THROWS_WITH_AS(call_fn("dot", {vec({1.0, 2.0}), vec({1.0, 2.0, 3.0})}), "dot: arguments have sizes 2 and 3", ppl::stdlib::argument_error);
  CHECK_THROWS_AS(call_fn("*", {mat(2, 3, std::vector<double>(6, 1.0)), vec({1.0, 2.0})}), ppl::stdlib::argument_error);
  CHECK_THROWS_AS(call_fn("+", {vec({1.0}), vec({1.0, 2.0})}), ppl::stdlib::argument_error);
  CHECK_THROWS_AS(call_fn("sd", {vec({1.0})}), ppl::stdlib::argument_error);
  CHECK_THROWS_AS(call_fn("rep", {scalar(1), scalar(-1)}), ppl::stdlib::argument_error);
}

TEST_CASE("every differentiable function's backward matches finite differences") {
  for (const char* unary : {"exp", "log", "log1p", "expm1", "sqrt", "abs", "inv_logit", "logit", "tanh", "softplus", "neg"})
    check_backward(unary, {vec({0.3, 0.7})});
  for (const char* binary : {"+", "-", ".*", "./", "/", "^", "pow"}) {
    check_backward(binary, {vec({0.4, 1.3}), vec({1.7, 0.6})});
    check_backward(binary, {scalar(0.8), vec({1.7, 0.6})});
  }
  check_backward("sum", {vec({0.4, 1.3, -2.0})});
  check_backward("mean", {vec({0.4, 1.3, -2.0})});
  check_backward("sd", {vec({0.4, 1.3, -2.0})});
  check_backward("log_sum_exp", {vec({0.4, 1.3, -2.0})});
  check_backward("softmax", {vec({0.4, 1.3, -2.0})});
  check_backward("dot", {vec({0.4, 1.3}), vec({-2.0, 0.5})});
  check_backward("rep", {scalar(0.7), scalar(3)});
  check_backward("transpose", {mat(2, 3, {1, 2, 3, 4, 5, 6})});
  check_backward("'", {mat(2, 3, {1, 2, 3, 4, 5, 6})});
  check_backward("*", {mat(2, 3, {1, 2, 3, 4, 5, 6}), vec({0.5, -1.0, 2.0})});
  check_backward("*", {vec({0.5, -1.0}), mat(2, 3, {1, 2, 3, 4, 5, 6})});
  check_backward("*", {mat(2, 3, {1, 2, 3, 4, 5, 6}), mat(3, 2, {0.1, 0.2, 0.3, 0.4, 0.5, 0.6})});
  check_backward("*", {scalar(1.5), vec({0.5, -1.0})});
  check_backward("max", {vec({0.5, -1.0, 2.0})});
  check_backward("min", {scalar(0.5), scalar(-1.0)});
}
