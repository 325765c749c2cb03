// Censored observations written with distribution functions, as in Stan: a right-censored
// time adds log P(T > c) through `factor exponential_lccdf(c | lambda)`. With a Gamma(a, b)
// prior on the rate the posterior is Gamma(a + #observed, b + sum of all times), whichever
// sampler moves lambda (|z| < 4 against the exact mean and sd, fixed seeds).
#include "tests/samplers/inference_fixture.hpp"

namespace test_censoring {

using namespace ppl::testing;

namespace {

const char* const censored_exponential = R"(
data t: real[N]
data c: real[M]
lambda ~ Gamma(2, 1)
t ~ Exponential(lambda)
for i in 1:M { factor exponential_lccdf(c[i] | lambda) }
)";

const std::vector<std::string> censored_data = {"t=[0.5,1.2,0.3,2.1,0.8,1.6]", "c=[2.0,3.0,1.5]"};

// Gamma(2 + 6, 1 + 6.5 + 6.5).
constexpr double shape = 8, rate = 14;

ppl::inference::run_options with(const std::string& kind) {
  auto o = two_chains(500, 3000, 31);
  o.overrides["lambda"] = kind;
  return o;
}

}  // namespace

TEST_CASE("a right-censored exponential through exponential_lccdf, by nuts and by slice") {
  for (const std::string kind : {"nuts", "slice"}) {
    INFO("sampler ", kind);
    auto p = infer(censored_exponential, censored_data, with(kind));
    CHECK(p.kind("lambda") == kind);
    check_mean(p, "lambda", shape / rate);
    check_sd(p, "lambda", std::sqrt(shape) / rate);
  }
}

TEST_CASE("a vectorised factor of weibull_lccdf and weibull_lcdf calls compile and sample") {
  // Left- and right-censored Weibull times with a known shape: the posterior of sigma is
  // checked only for being finite and positive here; the exact case is the exponential one.
  auto p = infer("data t: real[N]\ndata r: real[M]\ndata l: real[K]\nsigma ~ Gamma(2, 1)\nt ~ Weibull(1.5, sigma)\n"
                 "factor weibull_lccdf(r | 1.5, sigma)\nfactor weibull_lcdf(l | 1.5, sigma)\n",
                 {"t=[0.5,1.2,2.1]", "r=[2.0,3.0]", "l=[0.2]"}, two_chains(200, 500, 5));
  const auto s = p.summary("sigma");
  CHECK(s.mean > 0);
  CHECK(std::isfinite(s.sd));
}

}  // namespace test_censoring
