// Reverse mode: every differentiable built-in's backward() against central finite
// differences, through one generic checker and a table of {name, arguments}.
#include <array>
#include <cmath>
#include <set>

#include "stdlib/log_density_function.hpp"
#include "tests/stdlib/function_cases.hpp"

namespace test_function_gradients {

using namespace ppl::testing;

namespace {

// The central difference of `objective` along moving `entries` (one entry, or a symmetric
// pair) of an argument together.
template <class F>
double central_difference(const F& objective, std::vector<double*> entries) {
  const double saved = *entries[0], h = 1e-6 * std::max(1.0, std::fabs(saved));
  for (double* x : entries) *x = saved + h;
  const double up = objective();
  for (double* x : entries) *x = saved - h;
  const double down = objective();
  for (double* x : entries) *x = saved;
  return (up - down) / (2 * h);
}

// For the scalar objective L = sum_i w_i f(args)_i with fixed, unequal weights w, backward()
// with d_out = w must add dL/d(arg) to every slot: the slots start at 1, not 0, to catch an
// assignment where an addition is due. Integer arguments must receive nothing.
void check_backward(const gradient_case& c, const ppl::stdlib::function& f) {
  const auto call = [&f](const std::string&, const std::vector<tensor>& a) {
    tensor o(f.result_shape(views(a)));
    f.eval(views(a), o.data.data());
    return o;
  };
  std::vector<tensor> args = c.args;
  const tensor out = call(c.name, args);
  std::vector<double> w(out.data.size());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = 0.5 + 0.25 * static_cast<double>(i);
  auto objective = [&] {
    const tensor o = call(c.name, args);
    double s = 0;
    for (std::size_t i = 0; i < w.size(); ++i) s += w[i] * o.data[i];
    return s;
  };
  std::vector<std::vector<double>> grads;
  for (const auto& a : args) grads.emplace_back(a.data.size(), 1.0);
  std::vector<double*> slots;
  for (auto& g : grads) slots.push_back(g.data());
  f.backward(views(args), out.as_view(), w.data(), slots);
  for (std::size_t i = 0; i < args.size(); ++i)
    for (std::size_t k = 0; k < args[i].data.size(); ++k) {
      INFO(c.name, ": argument ", i, ", element ", k);
      if (i < c.integer.size() && c.integer[i]) {
        CHECK(grads[i][k] == 1.0);
      } else if (c.symmetric) {
        const auto n = static_cast<std::size_t>(args[i].shape[0]), row = k / n, col = k % n, mirror = col * n + row;
        if (col > row) continue;  // each pair once, from the lower triangle
        const double adjoint = grads[i][k] - 1.0 + (mirror == k ? 0.0 : grads[i][mirror] - 1.0);
        std::vector<double*> pair = {&args[i].data[k]};
        if (mirror != k) pair.push_back(&args[i].data[mirror]);
        CHECK(adjoint == doctest::Approx(central_difference(objective, pair)).epsilon(1e-5));
      } else {
        CHECK(grads[i][k] - 1.0 == doctest::Approx(central_difference(objective, {&args[i].data[k]})).epsilon(1e-5));
      }
    }
  // Null slots are simply skipped.
  std::vector<double*> none(args.size(), nullptr);
  f.backward(views(args), out.as_view(), w.data(), none);
  // Where eval_partials gives the partials with the value (a batch and a tape keep them),
  // d_out times them is what backward() added.
  if (out.data.size() != 1) return;
  std::size_t count = 0;
  for (const auto& a : args) count += a.data.size();
  std::vector<double> partials(count, NAN);
  double value = NAN;
  if (!f.eval_partials(views(args), &value, partials.data())) return;
  CHECK(value == out.data[0]);
  std::size_t at = 0;
  for (std::size_t i = 0; i < args.size(); ++i)
    for (std::size_t k = 0; k < args[i].data.size(); ++k, ++at) {
      INFO(c.name, ": eval_partials, argument ", i, ", element ", k);
      if (i >= c.integer.size() || !c.integer[i]) CHECK(w[0] * partials[at] == doctest::Approx(grads[i][k] - 1.0).epsilon(1e-12));
    }
}

std::vector<gradient_case> elementwise_cases() {
  std::vector<gradient_case> cases;
  for (const char* name :
       {"exp", "log", "log1p", "expm1", "sqrt", "abs", "inv_logit", "logit", "tanh", "softplus", "neg"}) {
    cases.push_back({name, {vec({0.3, 0.7})}});
    cases.push_back({name, {mat(2, 2, {0.15, 0.5, 0.85, 0.95})}});
  }
  for (const char* name : {"exp", "expm1", "abs", "inv_logit", "tanh", "softplus", "neg"})
    cases.push_back({name, {vec({-2.5, -0.4, 4.0})}});
  cases.push_back({"softplus", {vec({-30.0, 30.0})}});
  for (const char* name : {"+", "-", ".*", "./", "/", "^", "pow"}) {
    cases.push_back({name, {vec({0.4, 1.3}), vec({1.7, 0.6})}});
    cases.push_back({name, {scalar(0.8), vec({1.7, 0.6})}});
    cases.push_back({name, {mat(2, 1, {0.4, 1.3}), scalar(1.7)}});
    cases.push_back({name, {scalar(1.1), scalar(-0.6)}});
  }
  return cases;
}

std::vector<gradient_case> other_cases() {
  const tensor m23 = mat(2, 3, {1, -2, 3, 0.5, 5, -6});
  return {
      {"sum", {vec({0.4, 1.3, -2.0})}},       {"sum", {mat(2, 2, {0.4, 1.3, -2.0, 1})}},
      {"mean", {vec({0.4, 1.3, -2.0})}},      {"sd", {vec({0.4, 1.3, -2.0})}},
      {"sd", {mat(2, 2, {0.4, 1.3, -2.0, 7})}}, {"log_sum_exp", {vec({0.4, 1.3, -2.0})}},
      {"log_sum_exp", {vec({800, 801})}},      {"softmax", {vec({0.4, 1.3, -2.0})}},
      {"softmax", {vec({-500, -499.5})}},      {"dot", {vec({0.4, 1.3}), vec({-2.0, 0.5})}},
      {"rep", {scalar(0.7), scalar(3)}, {false, true}},
      {"length", {vec({0.7, 3})}},
      {"transpose", {m23}},                    {"'", {m23}},
      {"*", {m23, vec({0.5, -1.0, 2.0})}},     {"*", {vec({0.5, -1.0}), m23}},
      {"*", {m23, mat(3, 2, {0.1, 0.2, 0.3, 0.4, 0.5, 0.6})}},
      {"*", {scalar(1.5), vec({0.5, -1.0})}}, {"*", {m23, scalar(-0.5)}},
      // max and min are not differentiable where the choice switches; away from ties
      // backward passes the adjoint to the chosen element.
      {"max", {vec({0.5, -1.0, 2.0})}},        {"min", {scalar(0.5), scalar(-1.0)}},
  };
}

}  // namespace

TEST_CASE("backward() of every differentiable built-in matches finite differences") {
  std::set<std::string> seen;
  for (const auto& cases : {elementwise_cases(), other_cases(), special_gradient_cases(), array_gradient_cases()})
    for (const auto& c : cases) {
      seen.insert(c.name);
      check_backward(c, fn(c.name));
    }
  // hmm_marginal's Gamma and rho must stay probabilities, which a central difference of
  // one entry leaves: test_hmm_marginal.cpp checks it against the exact derivatives instead.
  seen.insert("hmm_marginal");
  for (const auto& name : ppl::stdlib::library().function_names()) {
    if (!fn(name).differentiable()) continue;
    INFO("no gradient case for ", name);
    CHECK(seen.count(name) == 1);
  }
}

TEST_CASE("log-density calls: backward() and eval_partials match finite differences") {
  // Scalars, arrays, a shared parameter; a distribution with its own rows kernel (Normal)
  // and ones through the default (Gamma, StudentT).
  const auto density = [](const char* d, const char* name) {
    return ppl::stdlib::make_log_density_function(dist(d), name, ppl::stdlib::density_kind::log_density);
  };
  const auto normal = density("Normal", "normal_lpdf"), gamma = density("Gamma", "gamma_lpdf"),
             student = density("StudentT", "student_t_lpdf");
  check_backward({"normal_lpdf", {scalar(0.3), scalar(-0.2), scalar(1.4)}}, *normal);
  check_backward({"normal_lpdf", {vec({0.3, -1, 2}), vec({0.1, 0.2, 0.3}), scalar(1.4)}}, *normal);
  check_backward({"normal_lpdf", {scalar(0.3), vec({0.1, 0.2, 0.3}), vec({1.4, 0.5, 2})}}, *normal);
  check_backward({"gamma_lpdf", {vec({0.5, 2}), scalar(2.0), vec({1.0, 3.0})}}, *gamma);
  check_backward({"student_t_lpdf", {vec({0.5, -2}), scalar(3.0), vec({1.0, 0.2}), scalar(0.7)}}, *student);
}

TEST_CASE("log_mix of two components at theta 0 and 1: the one-sided derivatives") {
  // d/dtheta log(theta e^lp1 + (1 - theta) e^lp2) = (e^lp1 - e^lp2) / e^value.
  for (const double theta : {0.0, 1.0}) {
    std::vector<tensor> args = {scalar(theta), scalar(-1.2), scalar(0.4)};
    std::array<double, 3> p{};
    double value = 0;
    REQUIRE(fn("log_mix").eval_partials(views(args), &value, p.data()));
    CHECK(value == (theta == 0 ? 0.4 : -1.2));
    CHECK(p[0] == doctest::Approx((std::exp(-1.2) - std::exp(0.4)) / std::exp(value)));
    CHECK(p[1] == theta);
    CHECK(p[2] == 1 - theta);
  }
}

TEST_CASE("backward() of the non-differentiable operators adds nothing") {
  for (const char* name : {"!=", "%", "&&", "<", "<=", "==", ">", ">=", "||"}) {
    const std::vector<tensor> args = {vec({1, 2}), vec({2, 2})};
    const tensor out = call(name, args);
    std::vector<double> d0(2, 0.0), d1(2, 0.0), d_out = {1.0, 1.0};
    std::vector<double*> slots = {d0.data(), d1.data()};
    fn(name).backward(views(args), out.as_view(), d_out.data(), slots);
    INFO(name);
    CHECK(d0 == std::vector<double>{0, 0});
    CHECK(d1 == std::vector<double>{0, 0});
  }
}

}  // namespace test_function_gradients
