// ODE solutions: the solver (model/ode.hpp) against closed-form solutions and their
// derivatives in the initial state and a parameter, for both methods; the stiff method on a
// problem the explicit one cannot take in the same steps; and `ode_rk45`/`ode_bdf` in a
// model, whose values and gradients must match the same model written with the closed
// form.
#include <doctest/doctest.h>

#include <array>
#include <cmath>

#include "model/ode.hpp"
#include "tests/support/model_fixture.hpp"

namespace test_ode {

using ppl::model::ode_failure;
using ppl::model::ode_options;
using ppl::model::ode_system;
using ppl::model::solve_ode;
using ppl::testing::fixture;

namespace {

// dy/dt = -k y: y = y0 exp(-k t), dy/dy0 = exp(-k t), dy/dk = -t y.
ode_system decay(double k) {
  ode_system s;
  s.n = 1;
  s.p = 1;
  s.f = [k](double, const double* y, double* dy) { dy[0] = -k * y[0]; };
  s.jacobian = [k](double, const double* y, double* dy, double* jy, double* jp, double* dfdt) {
    if (dy) dy[0] = -k * y[0];
    if (jy) jy[0] = -k;
    if (jp) jp[0] = -y[0];
    if (dfdt) dfdt[0] = 0;
  };
  return s;
}

// y1' = y2, y2' = -w^2 y1 from (1, 0): y1 = cos(w t), y2 = -w sin(w t).
ode_system oscillator(double w) {
  ode_system s;
  s.n = 2;
  s.p = 1;
  s.f = [w](double, const double* y, double* dy) {
    dy[0] = y[1];
    dy[1] = -w * w * y[0];
  };
  s.jacobian = [w](double, const double* y, double* dy, double* jy, double* jp, double* dfdt) {
    if (dy) dy[0] = y[1], dy[1] = -w * w * y[0];
    if (jy) jy[0] = 0, jy[1] = 1, jy[2] = -w * w, jy[3] = 0;
    if (jp) jp[0] = 0, jp[1] = -2 * w * y[0];
    if (dfdt) dfdt[0] = dfdt[1] = 0;
  };
  return s;
}

ode_options tight(ode_options::method m) {
  ode_options o;
  o.which = m;
  o.rel_tol = o.abs_tol = 1e-10;
  return o;
}

}  // namespace

TEST_CASE("both methods solve exponential decay with its sensitivities") {
  for (auto m : {ode_options::method::rk45, ode_options::method::bdf}) {
    const double k = 0.7, y0 = 2.5;
    const double ts[] = {0.5, 1.0, 1.0, 4.0};
    double out[4], S[8];
    solve_ode(decay(k), tight(m), &y0, 0.0, ts, 4, out, S);
    for (int i = 0; i < 4; ++i) {
      const double y = y0 * std::exp(-k * ts[i]);
      CHECK(out[i] == doctest::Approx(y).epsilon(1e-7));
      CHECK(S[2 * i] == doctest::Approx(std::exp(-k * ts[i])).epsilon(1e-6));
      CHECK(S[2 * i + 1] == doctest::Approx(-ts[i] * y).epsilon(1e-6));
    }
    // Without sensitivities, the same values.
    double plain[4];
    solve_ode(decay(k), tight(m), &y0, 0.0, ts, 4, plain, nullptr);
    for (int i = 0; i < 4; ++i) CHECK(plain[i] == doctest::Approx(out[i]).epsilon(1e-8));
  }
}

TEST_CASE("both methods solve an oscillator, and its derivative in the frequency") {
  for (auto m : {ode_options::method::rk45, ode_options::method::bdf}) {
    const double w = 1.3, y0[] = {1.0, 0.0};
    const double ts[] = {1.0, 5.0, 10.0};
    double out[6], S[18];
    solve_ode(oscillator(w), tight(m), y0, 0.0, ts, 3, out, S);
    for (int i = 0; i < 3; ++i) {
      const double t = ts[i];
      CHECK(out[2 * i] == doctest::Approx(std::cos(w * t)).epsilon(1e-6).scale(1));
      CHECK(out[2 * i + 1] == doctest::Approx(-w * std::sin(w * t)).epsilon(1e-6).scale(1));
      // Columns: d/dy0[1], d/dy0[2], d/dw.
      CHECK(S[6 * i + 0] == doctest::Approx(std::cos(w * t)).epsilon(1e-6).scale(1));
      CHECK(S[6 * i + 1] == doctest::Approx(std::sin(w * t) / w).epsilon(1e-6).scale(1));
      CHECK(S[6 * i + 2] == doctest::Approx(-t * std::sin(w * t)).epsilon(1e-6).scale(1));
      CHECK(S[6 * i + 5] == doctest::Approx(-std::sin(w * t) - w * t * std::cos(w * t)).epsilon(1e-6).scale(1));
    }
  }
}

TEST_CASE("the stiff method takes a stiff problem the explicit one cannot in as many steps") {
  // y' = -L (y - cos t) - sin t from y(0) = 1: y = cos t, with transients decaying at rate
  // L = 1e5; an explicit method's step is bounded by its stability region (about 3 / L).
  const double L = 1e5;
  long calls = 0;
  ode_system s;
  s.n = 1;
  s.f = [&](double t, const double* y, double* dy) {
    ++calls;
    dy[0] = -L * (y[0] - std::cos(t)) - std::sin(t);
  };
  s.jacobian = [&](double t, const double* y, double* dy, double* jy, double*, double* dfdt) {
    ++calls;
    if (dy) dy[0] = -L * (y[0] - std::cos(t)) - std::sin(t);
    if (jy) jy[0] = -L;
    if (dfdt) dfdt[0] = -L * std::sin(t) - std::cos(t);
  };
  ode_options o;
  o.max_steps = 2000;
  const double y0 = 1.0, ts[] = {10.0};
  double out[1];
  o.which = ode_options::method::bdf;
  solve_ode(s, o, &y0, 0.0, ts, 1, out, nullptr);
  CHECK(out[0] == doctest::Approx(std::cos(10.0)).epsilon(1e-5));
  CHECK(calls < 10000);
  o.which = ode_options::method::rk45;
  CHECK_THROWS_AS(solve_ode(s, o, &y0, 0.0, ts, 1, out, nullptr), ode_failure);
}

TEST_CASE("a blow-up is a failure, not an endless loop") {
  // y' = y^2 from 1 reaches infinity at t = 1.
  ode_system s;
  s.n = 1;
  s.f = [](double, const double* y, double* dy) { dy[0] = y[0] * y[0]; };
  s.jacobian = [](double, const double* y, double* dy, double* jy, double*, double* dfdt) {
    if (dy) dy[0] = y[0] * y[0];
    if (jy) jy[0] = 2 * y[0];
    if (dfdt) dfdt[0] = 0;
  };
  const double y0 = 1.0, ts[] = {2.0};
  double out[1];
  for (auto m : {ode_options::method::rk45, ode_options::method::bdf}) {
    ode_options o;
    o.which = m;
    o.max_steps = 10000;
    CHECK_THROWS_AS(solve_ode(s, o, &y0, 0.0, ts, 1, out, nullptr), ode_failure);
  }
}

namespace {

// The same model with the solution from the solver and in closed form: y' = -k t y, so
// y = y0 exp(-k t^2 / 2); observations lognormal around it.
const char* data = "ts=[0.5, 1.0, 1.5, 2.5]";
const char* observed = "y=[1.9, 1.4, 0.8, 0.3]";
std::string ode_model(const std::string& call) {
  return "data ts: real[N]\ndata y: real[N]\nk ~ LogNormal(0, 1)\ny0 ~ LogNormal(0, 1)\nsigma ~ HalfNormal(1)\n"
         "z = " + call + "\nfor n in 1:N { y[n] ~ LogNormal(log(z[n, 1]), sigma) }\n";
}
const char* closed_form =
    "data ts: real[N]\ndata y: real[N]\nk ~ LogNormal(0, 1)\ny0 ~ LogNormal(0, 1)\nsigma ~ HalfNormal(1)\n"
    "for n in 1:N { y[n] ~ LogNormal(log(y0 * exp(-k * ts[n] * ts[n] / 2)), sigma) }\n";

void set_point(fixture& f, double k, double y0, double sigma) {
  f.mutable_value("k").data[0] = k;
  f.mutable_value("y0").data[0] = y0;
  f.mutable_value("sigma").data[0] = sigma;
  f.graph->update_derived();
}

}  // namespace

TEST_CASE("an ODE in a model: values and gradients match the closed form") {
  const std::string calls[] = {
      "ode_rk45_tol(t, s, [-k * t * s[1]], [y0], 0.0, ts, 1e-10, 1e-10, 100000)",
      "ode_bdf_tol(t, s, [-k * t * s[1]], [y0], 0.0, ts, 1e-10, 1e-10, 100000)",
      // A right-hand side that is no vector literal goes through the evaluator, not the tape.
      "ode_rk45_tol(t, s, -k * t * s, [y0], 0.0, ts, 1e-10, 1e-10, 100000)",
      "ode_bdf_tol(t, s, -k * t * s, [y0], 0.0, ts, 1e-10, 1e-10, 100000)",
  };
  for (const auto& call : calls) {
    INFO(call);
    fixture a(ode_model(call), {data, observed});
    fixture b(closed_form, {data, observed});
    for (auto [k, y0, sigma] : {std::array{0.4, 2.0, 0.3}, std::array{1.7, 0.6, 1.2}}) {
      set_point(a, k, y0, sigma);
      set_point(b, k, y0, sigma);
      const auto& z = a.value("z");
      REQUIRE(z.shape.rank == 2);
      for (int n = 0; n < 4; ++n) {
        const double t = a.value("ts").data[static_cast<std::size_t>(n)];
        CHECK(z.data[static_cast<std::size_t>(n)] == doctest::Approx(y0 * std::exp(-k * t * t / 2)).epsilon(1e-8));
      }
      CHECK(a.graph->log_density() == doctest::Approx(b.graph->log_density()).epsilon(1e-8));
      std::vector<char> wrt(a.model->variables.size(), 0);
      for (const char* name : {"k", "y0", "sigma"}) wrt[static_cast<std::size_t>(a.model->find(name))] = 1;
      std::vector<std::vector<double>> ga, gb;
      const double lpa = a.graph->log_density_gradient(wrt, ga);
      const double lpb = b.graph->log_density_gradient(wrt, gb);
      CHECK(lpa == doctest::Approx(lpb).epsilon(1e-8));
      for (const char* name : {"k", "y0", "sigma"}) {
        const auto v = static_cast<std::size_t>(a.model->find(name));
        INFO(name);
        CHECK(ga[v][0] == doctest::Approx(gb[v][0]).epsilon(1e-6));
      }
    }
  }
}

TEST_CASE("an ODE inside a loop solves per instance, and its initial state takes the gradient") {
  // Two subjects with their own rates; the initial state is an unknown read through an
  // expression, and the right-hand side reads an element of a vector unknown.
  fixture f(
      "data ts: real[3]\ndata obs: real[2, 3]\nfor j in 1:2 { r[j] ~ LogNormal(0, 1) }\na ~ Normal(1, 1)\n"
      "for j in 1:2 { z[j] = ode_rk45_tol(s, [-r[j] * s[1]], [exp(a) + j], 0.0, ts, 1e-10, 1e-10, 100000) }\n"
      "for j in 1:2, n in 1:3 { obs[j, n] ~ Normal(z[j, n, 1], 1) }\n",
      {"ts=[0.5, 1.0, 2.0]", "obs=[[1.0, 0.8, 0.5], [2.0, 1.0, 0.3]]"});
  f.mutable_value("r").data = {0.3, 1.1};
  f.mutable_value("a").data[0] = 0.2;
  f.graph->update_derived();
  const auto& z = f.value("z");
  for (int j = 0; j < 2; ++j)
    for (int n = 0; n < 3; ++n) {
      const double t = std::array{0.5, 1.0, 2.0}[static_cast<std::size_t>(n)];
      CHECK(z.data[static_cast<std::size_t>(j * 3 + n)] ==
            doctest::Approx((std::exp(0.2) + j + 1) * std::exp(-std::array{0.3, 1.1}[static_cast<std::size_t>(j)] * t)).epsilon(1e-8));
    }
  // The gradient against central differences (the solver's error, 1e-10, is far below
  // the differences' 1e-5 step).
  std::vector<char> wrt(f.model->variables.size(), 0);
  for (const char* name : {"r", "a"}) wrt[static_cast<std::size_t>(f.model->find(name))] = 1;
  std::vector<std::vector<double>> g;
  f.graph->log_density_gradient(wrt, g);
  for (const char* name : {"r", "a"}) {
    const auto v = static_cast<std::size_t>(f.model->find(name));
    auto& x = f.graph->values()[v].data;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double x0 = x[i], h = 1e-5;
      x[i] = x0 + h;
      f.graph->update_derived();
      const double up = f.graph->log_density();
      x[i] = x0 - h;
      f.graph->update_derived();
      const double down = f.graph->log_density();
      x[i] = x0;
      f.graph->update_derived();
      INFO(name, "[", i, "]");
      CHECK(g[v][i] == doctest::Approx((up - down) / (2 * h)).epsilon(1e-5));
    }
  }
}

}  // namespace test_ode
