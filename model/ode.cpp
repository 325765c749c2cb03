#include "model/ode.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <vector>

#include <boost/numeric/odeint.hpp>

namespace ppl::model {

namespace {

namespace odeint = boost::numeric::odeint;
using ublas_vector = boost::numeric::ublas::vector<double>;
using ublas_matrix = boost::numeric::ublas::matrix<double>;

// The system integrated: y alone, or y followed by S (n x cols, row-major).
class coupled {
 public:
  coupled(const ode_system& s, bool with_s)
      : s_(s), n_(s.n), cols_(with_s ? s.n + s.p : 0), jy_(n_ * n_), jp_(n_ * s.p), dfdt_(n_), jy2_(n_ * n_), jp2_(n_ * s.p), g_(n_ * cols_) {}

  std::size_t size() const { return n_ + n_ * cols_; }

  // The state at t0: y0, and S = [I | 0] when it is carried.
  template <class State>
  void start(const double* y0, State& z) const {
    std::copy(y0, y0 + n_, z.begin());
    for (std::size_t i = 0; i < n_ && cols_; ++i) z[n_ + i * cols_ + i] = 1.0;
  }

  void derivative(double t, const double* z, double* dz) {
    if (!cols_) return s_.f(t, z, dz);
    s_.jacobian(t, z, dz, jy_.data(), s_.p ? jp_.data() : nullptr, nullptr);
    sensitivity_derivative(jy_, jp_, z + n_, dz + n_);
  }

  // The Jacobian of the whole system in z (row-major, size() x size()) and its derivative
  // in t.
  void jacobian(double t, const double* z, double* jz, double* dzdt) {
    const std::size_t m = size();
    std::fill(jz, jz + m * m, 0.0);
    s_.jacobian(t, z, nullptr, jy_.data(), cols_ && s_.p ? jp_.data() : nullptr, dfdt_.data());
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t k = 0; k < n_; ++k) jz[i * m + k] = jy_[i * n_ + k];
    std::copy(dfdt_.begin(), dfdt_.end(), dzdt);
    if (!cols_) return;
    const double* S = z + n_;
    // dS'/dS: J_y acting on each column of S.
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t c = 0; c < cols_; ++c)
        for (std::size_t k = 0; k < n_; ++k) jz[(n_ + i * cols_ + c) * m + n_ + k * cols_ + c] = jy_[i * n_ + k];
    // dS'/dy and dS'/dt by forward differences of J_y S + J_p.
    base_.resize(n_ * cols_);
    moved_.assign(z, z + n_);
    sensitivity_derivative(jy_, jp_, S, base_.data());
    for (std::size_t j = 0; j <= n_; ++j) {
      const bool in_time = j == n_;
      const double at = in_time ? t : z[j];
      const double h = std::sqrt(std::numeric_limits<double>::epsilon()) * std::max(1.0, std::fabs(at));
      if (!in_time) moved_[j] = z[j] + h;
      s_.jacobian(in_time ? t + h : t, moved_.data(), nullptr, jy2_.data(), s_.p ? jp2_.data() : nullptr, nullptr);
      if (!in_time) moved_[j] = z[j];
      sensitivity_derivative(jy2_, jp2_, S, g_.data());
      for (std::size_t r = 0; r < n_ * cols_; ++r) {
        const double d = (g_[r] - base_[r]) / h;
        if (in_time)
          dzdt[n_ + r] = d;
        else
          jz[(n_ + r) * m + j] = d;
      }
    }
  }

 private:
  // dS = J_y S + [0 | J_p].
  void sensitivity_derivative(const std::vector<double>& jy, const std::vector<double>& jp, const double* S, double* dS) const {
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t c = 0; c < cols_; ++c) {
        double sum = c >= n_ ? jp[i * s_.p + (c - n_)] : 0.0;
        for (std::size_t k = 0; k < n_; ++k) sum += jy[i * n_ + k] * S[k * cols_ + c];
        dS[i * cols_ + c] = sum;
      }
  }

  const ode_system& s_;
  std::size_t n_, cols_;
  std::vector<double> jy_, jp_, dfdt_, jy2_, jp2_, g_;
  std::vector<double> base_, moved_;  // jacobian()'s differences, kept from step to step
};

// Copies each output time's state, and S, out; the first call is at t0.
template <class State>
struct recorder {
  std::size_t n, width;
  double* out;
  double* sensitivities;
  std::size_t calls = 0;
  void operator()(const State& z, double) {
    if (calls++ == 0) return;
    const std::size_t k = calls - 2;
    for (std::size_t i = 0; i < n + width; ++i)
      if (!std::isfinite(z[i])) throw ode_failure("the solution is not finite");
    for (std::size_t i = 0; i < n; ++i) out[k * n + i] = z[i];
    if (sensitivities)
      for (std::size_t i = 0; i < width; ++i) sensitivities[k * width + i] = z[n + i];
  }
};

}  // namespace

void solve_ode(const ode_system& system, const ode_options& options, const double* y0, double t0, const double* ts,
               std::size_t count, double* out, double* sensitivities) {
  if (count == 0) return;
  coupled sys(system, sensitivities != nullptr);
  const std::size_t n = system.n, m = sys.size();
  std::vector<double> times{t0};
  times.insert(times.end(), ts, ts + count);
  const double first_step = (ts[0] - t0) / 100;
  const int max_steps = static_cast<int>(std::min<long>(options.max_steps, INT_MAX));
  try {
    if (options.which == ode_options::method::rk45) {
      using state = std::vector<double>;
      state z(m, 0.0);
      sys.start(y0, z);
      auto f = [&](const state& x, state& dx, double t) { sys.derivative(t, x.data(), dx.data()); };
      auto stepper = odeint::make_dense_output(options.abs_tol, options.rel_tol, odeint::runge_kutta_dopri5<state>());
      odeint::integrate_times(stepper, f, z, times.begin(), times.end(), first_step,
                              recorder<state>{n, m - n, out, sensitivities}, odeint::max_step_checker(max_steps));
    } else {
      // Odeint's Rosenbrock stepper loses accuracy on a system that reads t (its stages'
      // df/dt terms; Boost 1.74), so t is integrated as the last element of the state,
      // with derivative 1, and the system the stepper sees is autonomous: df/dt becomes
      // J's last column.
      ublas_vector z(m + 1, 0.0);
      sys.start(y0, z);
      z[m] = t0;
      std::vector<double> jz(m * m), dzdt(m);
      auto f = [&](const ublas_vector& x, ublas_vector& dx, double) {
        sys.derivative(x[m], &x[0], &dx[0]);
        dx[m] = 1.0;
      };
      auto jacobian = [&](const ublas_vector& x, ublas_matrix& J, const double&, ublas_vector& dfdt) {
        sys.jacobian(x[m], &x[0], jz.data(), dzdt.data());
        for (std::size_t i = 0; i < m; ++i) {
          for (std::size_t j = 0; j < m; ++j) J(i, j) = jz[i * m + j];
          J(i, m) = dzdt[i];
          J(m, i) = 0.0;
          dfdt[i] = 0.0;
        }
        J(m, m) = 0.0;
        dfdt[m] = 0.0;
      };
      auto stepper = odeint::make_dense_output(options.abs_tol, options.rel_tol, odeint::rosenbrock4<double>());
      odeint::integrate_times(stepper, std::make_pair(f, jacobian), z, times.begin(), times.end(), first_step,
                              recorder<ublas_vector>{n, m - n, out, sensitivities}, odeint::max_step_checker(max_steps));
    }
  } catch (const odeint::odeint_error& e) {
    throw ode_failure(e.what());
  }
}

}  // namespace ppl::model
