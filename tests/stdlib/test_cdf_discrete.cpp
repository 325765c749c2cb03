// Distribution functions of the discrete distributions, P(X <= k) and P(X > k) at the
// integer floor(x) as Stan's _lcdf and _lccdf, against Boost.Math; and the functions
// `NAME_lcdf`, `NAME_lccdf` and `NAME_cdf` made from them, summed over arrays.
#include <boost/math/distributions.hpp>

#include "stdlib/log_density_function.hpp"
#include "tests/stdlib/cdf_checks.hpp"

namespace test_cdf_discrete {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Counts below 0 are outside Boost's domain; non-integer x reads floor(x).
template <class B>
cdf_reference count_reference(const B& b, double upper = INFINITY) {
  return {[b, upper](double x) { return x < 0 ? 0.0 : x >= upper ? 1.0 : bm::cdf(b, std::floor(x)); },
          [b, upper](double x) { return x < 0 ? 1.0 : x >= upper ? 0.0 : bm::cdf(bm::complement(b, std::floor(x))); }};
}

}  // namespace

TEST_CASE("log cdf and log ccdf of the discrete distributions") {
  check_cdf_values(dist("Poisson"), {3.5}, count_reference(bm::poisson_distribution<>(3.5)), {-1, 0, 2, 3.7, 10, 40, 150});
  check_cdf_values(dist("Poisson"), {300}, count_reference(bm::poisson_distribution<>(300)), {20, 250, 300, 400, 900});
  check_cdf_values(dist("Binomial"), {20, 0.3}, count_reference(bm::binomial_distribution<>(20, 0.3), 20),
                   {-1, 0, 1, 5, 6.5, 15, 19, 20, 25});
  check_cdf_values(dist("Bernoulli"), {0.3}, count_reference(bm::bernoulli_distribution<>(0.3), 1), {-1, 0, 0.5, 1, 2});
  check_cdf_values(dist("Geometric"), {0.2}, count_reference(bm::geometric_distribution<>(0.2)), {-1, 0, 3, 10, 200, 3000});
  check_cdf_values(dist("Geometric"), {1e-9}, count_reference(bm::geometric_distribution<>(1e-9)), {0, 5, 1e6});
  check_cdf_values(dist("NegativeBinomial2"), {4, 1.5}, count_reference(bm::negative_binomial_distribution<>(1.5, 1.5 / 5.5)),
                   {-1, 0, 2, 4, 9, 60, 400});
  check_cdf_values(dist("NegativeBinomial"), {2.5, 0.5}, count_reference(bm::negative_binomial_distribution<>(2.5, 0.5 / 1.5)),
                   {-1, 0, 3, 5, 30, 200});
  check_cdf_values(dist("DiscreteUniform"), {2, 7},
                   {[](double x) { return std::clamp((std::floor(x) - 1) / 6, 0.0, 1.0); },
                    [](double x) { return std::clamp((7 - std::floor(x)) / 6, 0.0, 1.0); }},
                   {0, 2, 3.5, 6, 7, 9});
}

TEST_CASE("gradients of the discrete distribution functions in their real parameters") {
  for (double k : {0.0, 3.0, 12.0}) {
    check_cdf_gradients(dist("Poisson"), {4.2}, k);
    check_cdf_gradients(dist("Binomial"), {15, 0.35}, k);
    check_cdf_gradients(dist("Geometric"), {0.3}, k);
    check_cdf_gradients(dist("NegativeBinomial2"), {4.0, 2.5}, k, 1e-4);
    check_cdf_gradients(dist("NegativeBinomial"), {2.0, 0.7}, k, 1e-4);
  }
  check_cdf_gradients(dist("Bernoulli"), {0.35}, 0);
}

namespace {

using ppl::stdlib::density_kind;

double call(const ppl::stdlib::function& f, const std::vector<tensor>& args) {
  double out = 0;
  f.eval(views(args), &out);
  return out;
}

}  // namespace

TEST_CASE("NAME_lcdf, NAME_lccdf and NAME_cdf sum over arrays and pass gradients back") {
  const auto& d = dist("Weibull");
  const auto lcdf = ppl::stdlib::make_log_density_function(d, "weibull_lcdf", density_kind::log_cdf);
  const auto lccdf = ppl::stdlib::make_log_density_function(d, "weibull_lccdf", density_kind::log_ccdf);
  const auto cdf = ppl::stdlib::make_log_density_function(d, "weibull_cdf", density_kind::cdf);
  std::vector<tensor> args = {vec({0.5, 1.2, 3}), scalar(1.5), scalar(2)};
  const bm::weibull_distribution<> w(1.5, 2);
  double log_f = 0, log_q = 0;
  for (double t : {0.5, 1.2, 3.0}) log_f += std::log(bm::cdf(w, t)), log_q += std::log(bm::cdf(bm::complement(w, t)));
  CHECK(call(*lcdf, args) == doctest::Approx(log_f).epsilon(1e-12));
  CHECK(call(*lccdf, args) == doctest::Approx(log_q).epsilon(1e-12));
  CHECK(call(*cdf, args) == doctest::Approx(std::exp(log_f)).epsilon(1e-12));
  // Invalid parameters give NaN, as the _lpdf functions.
  CHECK(std::isnan(call(*lccdf, {vec({0.5, 1.2}), scalar(-1), scalar(2)})));

  for (const auto* f : {lcdf.get(), lccdf.get(), cdf.get()}) {
    std::vector<std::vector<double>> grads = {std::vector<double>(3, 0.0), {0.0}, {0.0}};
    std::vector<double*> slots = {grads[0].data(), grads[1].data(), grads[2].data()};
    const double value = call(*f, args), d_out = 1;
    f->backward(views(args), {&value, ppl::shape::scalar()}, &d_out, slots);
    for (std::size_t a = 0; a < args.size(); ++a)
      for (std::size_t k = 0; k < args[a].data.size(); ++k) {
        double& slot = args[a].data[k];
        const double h = 1e-6, saved = slot;
        slot = saved + h;
        const double up = call(*f, args);
        slot = saved - h;
        const double down = call(*f, args);
        slot = saved;
        INFO(f->name(), " argument ", a, " element ", k);
        CHECK(grads[a][k] == doctest::Approx((up - down) / (2 * h)).epsilon(1e-5));
      }
  }
}

}  // namespace test_cdf_discrete
