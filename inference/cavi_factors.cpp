// The factors of a mean-field q (inference/cavi.hpp): each conjugate posterior family's
// moments, entropy and draws, and the two points of equal weight that have its expected
// sufficient statistics; its density is the library's distribution's.
#include <array>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/random/beta_distribution.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <numbers>
#include <string_view>

#include "inference/cavi.hpp"
#include "stdlib/registry.hpp"

namespace ppl::inference {

namespace {

using boost::math::digamma;

enum class family { point, normal, gamma, inverse_gamma, beta };

family family_of(const char* name) {
  if (!name) return family::point;
  const std::string_view f(name);
  return f == "Normal" ? family::normal : f == "Gamma" ? family::gamma : f == "InverseGamma" ? family::inverse_gamma : family::beta;
}

// Two points of equal weight with mean m and geometric mean g (m >= g > 0): the roots of
// t^2 - 2 m t + g^2, the smaller from the product so that it keeps its precision.
std::pair<double, double> mean_and_geometric_mean(double m, double g) {
  const double upper = m + std::sqrt(std::max(0.0, (m - g) * (m + g)));
  return {g * g / upper, upper};
}

}  // namespace

double q_factor::mean() const {
  switch (family_of(family)) {
    case family::point: return a;
    case family::normal: return a;
    case family::gamma: return a / b;
    case family::inverse_gamma: return a > 1 ? b / (a - 1) : INFINITY;
    case family::beta: return a / (a + b);
  }
  return NAN;
}

double q_factor::sd() const {
  switch (family_of(family)) {
    case family::point: return 0;
    case family::normal: return b;
    case family::gamma: return std::sqrt(a) / b;
    case family::inverse_gamma: return a > 2 ? b / ((a - 1) * std::sqrt(a - 2)) : INFINITY;
    case family::beta: return std::sqrt(a * b / ((a + b) * (a + b) * (a + b + 1)));
  }
  return NAN;
}

std::pair<double, double> q_factor::points() const {
  switch (family_of(family)) {
    case family::point: return {a, a};
    case family::normal: return {a - b, a + b};  // x and x^2
    case family::gamma: return mean_and_geometric_mean(a / b, std::exp(digamma(a)) / b);  // x and log x
    case family::inverse_gamma: {  // 1 / x and log x: 1 / x is Gamma(a, b)
      const auto [lo, hi] = mean_and_geometric_mean(a / b, std::exp(digamma(a)) / b);
      return {1 / hi, 1 / lo};
    }
    case family::beta: {  // log x and log(1 - x): x1 x2 = A and (1 - x1)(1 - x2) = B
      const double both = digamma(a + b);
      const double product = std::exp(2 * (digamma(a) - both)), complement = std::exp(2 * (digamma(b) - both));
      // x and 1 - x each have their smaller root from the product, which keeps its precision
      // near 0 and near 1.
      const double sum = 1 + product - complement, root = std::sqrt(std::max(0.0, sum * sum - 4 * product));
      return {2 * product / (sum + root), 1 - 2 * complement / (2 - sum + root)};
    }
  }
  return {NAN, NAN};
}

double q_factor::entropy() const {
  switch (family_of(family)) {
    case family::point: return 0;
    case family::normal: return 0.5 * std::log(2 * std::numbers::pi * std::numbers::e * b * b);
    case family::gamma: return a - std::log(b) + std::lgamma(a) + (1 - a) * digamma(a);
    case family::inverse_gamma: return a + std::log(b) + std::lgamma(a) - (1 + a) * digamma(a);
    case family::beta:
      return std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b) - (a - 1) * digamma(a) - (b - 1) * digamma(b) + (a + b - 2) * digamma(a + b);
  }
  return NAN;
}

// The family's own distribution in the library gives its density.
double q_factor::log_density(double x) const {
  if (!family) return 0;
  const std::array<ppl::view, 2> args = {ppl::view{&a, ppl::shape::scalar()}, ppl::view{&b, ppl::shape::scalar()}};
  return stdlib::library().find_distribution(family)->log_density(args, {&x, ppl::shape::scalar()}, true);
}

double q_factor::draw(ppl::rng& rng) const {
  switch (family_of(family)) {
    case family::point: return a;
    case family::normal: return boost::random::normal_distribution<double>(a, b)(rng);
    case family::gamma: return boost::random::gamma_distribution<double>(a, 1 / b)(rng);
    case family::inverse_gamma: return 1 / boost::random::gamma_distribution<double>(a, 1 / b)(rng);
    case family::beta: return boost::random::beta_distribution<double>(a, b)(rng);
  }
  return NAN;
}

}  // namespace ppl::inference
