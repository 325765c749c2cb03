#pragma once
// Initial value problems dy/dt = f(t, y), y(t0) = y0, solved at given output times, and
// the forward sensitivities of the solution to y0 and to parameters p that f reads:
// S = dy/d(y0, p), an n x (n + p) matrix, solves
//   dS/dt = J_y S + [0 | J_p],   S(t0) = [I | 0],
// integrated together with y under one error control (the coupled forward system of
// Hindmarsh et al., "SUNDIALS", ACM TOMS 31, 2005, which Stan's ODE solvers also use).
// Two methods, both adaptive with dense output from Boost.Odeint:
// - rk45: the Dormand–Prince 5(4) pair, for non-stiff systems;
// - bdf: for stiff systems, a Rosenbrock method of order 4 (Hairer & Wanner, "Solving
//   Ordinary Differential Equations II", 1996, IV.7) — linearly implicit, so it needs the
//   Jacobian of the system: J_y for y, and for the coupled system also the derivative of
//   J_y S + J_p in y, taken by forward differences of the Jacobians.
#include <cstddef>
#include <functional>
#include <stdexcept>

namespace ppl::model {

struct ode_system {
  std::size_t n = 0;  // the state's size
  std::size_t p = 0;  // the parameters' (the columns of S past the first n)
  // dy = f(t, y).
  std::function<void(double t, const double* y, double* dy)> f;
  // f(t, y) again, J_y = df/dy (n x n, row-major), J_p = df/dp (n x p), df/dt (n): each
  // filled when not null.
  std::function<void(double t, const double* y, double* dy, double* jy, double* jp, double* dfdt)> jacobian;
};

struct ode_options {
  enum class method { rk45, bdf } which = method::rk45;
  double rel_tol = 1e-6, abs_tol = 1e-6;
  long max_steps = 1000000;  // between two output times
};

// The solver could not go on: too many steps, or a state that is not finite.
struct ode_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// y0 holds system.n values; `out` (times x n) receives y at each of the `times` output
// times ts; `sensitivities`, when not null, S at each (times x n x (n + p), row-major).
// Output times must be nondecreasing and after t0.
// This header is C++17, for model/ode.cpp: Boost 1.74's uBLAS, which Odeint's Rosenbrock
// stepper is written on, does not compile as C++20 (std::allocator lost construct).
void solve_ode(const ode_system& system, const ode_options& options, const double* y0, double t0, const double* ts,
               std::size_t times, double* out, double* sensitivities);

}  // namespace ppl::model
