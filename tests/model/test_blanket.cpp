// The indexed Markov blanket: the right terms, the right derived updates.
#include <doctest/doctest.h>

#include "model/blanket.hpp"
#include "tests/support/model_fixture.hpp"

namespace test_blanket {

using ppl::model::blanket;
using ppl::testing::fixture;

TEST_CASE("an Ising site's blanket is its prior and the three factors that mention it") {
  fixture f("data L: int = 4\nfor i in 1:L, j in 1:L { s[i, j] ~ Spin() }\n"
            "for i in 1:L, j in 1:L { factor 0.4 * s[i, j] * (s[i % L + 1, j] + s[i, j % L + 1]) + 0.1 * s[i, j] }\n"
            "m = abs(mean(s))\n");
  int s = f.model->find("s");
  blanket b(*f.graph, s);
  CHECK(b.whole().empty());
  for (ppl::index_t e = 0; e < 16; ++e) {
    CHECK(b.degree(e) == 4);  // its own factor (right and down bonds) and those of its up and left neighbours
    double joint0 = f.graph->log_density(), blanket0 = b.log_density(e);
    CHECK(blanket0 == doctest::Approx(ppl::model::instances(*f.graph).blanket_log_density(s, e)));
    f.graph->values()[static_cast<std::size_t>(s)].data[static_cast<std::size_t>(e)] *= -1;
    CHECK(f.graph->log_density() - joint0 == doctest::Approx(b.log_density(e) - blanket0));
  }
}

TEST_CASE("a blanket through a derived variable indexed by data is precise") {
  fixture f("data g: int[N]\ndata x: real[N]\nfor k in 1:2 { mu[k] ~ Normal(0, 1) }\n"
            "for n in 1:N { m[n] = 2 * mu[g[n]] }\nfor n in 1:N { x[n] ~ Normal(m[n], 1) }\n",
            {"g=[1,2,1,1]", "x=[0.5,1.0,-0.2,0.3]"});
  int mu = f.model->find("mu");
  blanket b(*f.graph, mu);
  CHECK(b.degree(0) == 4);  // its prior and x[1], x[3], x[4]
  CHECK(b.degree(1) == 2);  // its prior and x[2]
  double j0 = f.graph->log_density(), b0 = b.log_density(0);
  f.graph->values()[static_cast<std::size_t>(mu)].data[0] += 0.7;
  b.update(0);
  CHECK(f.value("m").data[2] == doctest::Approx(2 * f.value("mu").data[0]));
  CHECK(f.graph->log_density() - j0 == doctest::Approx(b.log_density(0) - b0));
}

TEST_CASE("reads through unknown indices count whole") {
  fixture f("for k in 1:2 { p[k] ~ Beta(1, 1) }\nfor n in 1:3 { z[n] ~ Categorical([0.5, 0.5]) }\n"
            "data y: int[N]\nfor n in 1:N { y[n] ~ Bernoulli(p[z[n]]) }\n",
            {"y=[1,0,1]"});
  blanket b(*f.graph, f.model->find("p"));
  CHECK(b.whole().size() == 1);
  blanket bz(*f.graph, f.model->find("z"));
  CHECK(bz.whole().empty());
  CHECK(bz.degree(1) == 2);  // z[2]'s prior and y[2]
}

TEST_CASE("a chain's element is in its successor's prior term (x[t] ~ Normal(0.8 * x[t - 1], 0.5))") {
  fixture f("data y: real[T]\nx[1] ~ Normal(0, 1)\nfor t in 2:T { x[t] ~ Normal(0.8 * x[t - 1], 0.5) }\n"
            "for t in 1:T { y[t] ~ Normal(x[t], 1) }\n",
            {"y=[1.0, 2.0, 0.5, -1.0]"});
  int x = f.model->find("x");
  blanket b(*f.graph, x);
  CHECK(b.degree(0) == 3);  // its prior, y[1] and x[2]'s prior
  CHECK(b.degree(1) == 3);  // its prior, y[2] and x[3]'s prior
  CHECK(b.degree(3) == 2);  // the last: its prior and y[4]
  for (ppl::index_t e = 0; e < 4; ++e) {
    double j0 = f.graph->log_density(), b0 = b.log_density(e);
    f.graph->values()[static_cast<std::size_t>(x)].data[static_cast<std::size_t>(e)] += 0.3;
    CHECK(f.graph->log_density() - j0 == doctest::Approx(b.log_density(e) - b0));
  }
}

TEST_CASE("a scalar read by every instance of a plate takes the plate's term whole, as the sum of its instances") {
  // alpha's blanket: its prior, all of theta's priors (evaluated as one statement) and,
  // through the derived r, all of y's terms; theta[2]'s: its prior and y[2].
  fixture f("data y: int[N]\nalpha ~ Exponential(1)\nfor i in 1:N { theta[i] ~ Gamma(alpha, 2) }\n"
            "for i in 1:N { r[i] = theta[i] * alpha }\nfor i in 1:N { y[i] ~ Poisson(r[i]) }\n",
            {"y=[1,4,0,2,3]"});
  const int alpha = f.model->find("alpha"), theta = f.model->find("theta");
  blanket b(*f.graph, alpha), t(*f.graph, theta);
  CHECK(b.degree(0) == 11);
  CHECK(t.degree(1) == 2);
  CHECK(b.log_density(0) == doctest::Approx(ppl::model::instances(*f.graph).blanket_log_density(alpha, 0)).epsilon(1e-12));
  CHECK(b.log_density(0, false) == doctest::Approx(ppl::model::instances(*f.graph).blanket_log_density(alpha, 0) -
                                                   ppl::model::instances(*f.graph).log_density(f.model->statements[0])).epsilon(1e-12));
  for (double a : {0.3, 1.7, 4.0}) {
    const double j0 = f.graph->log_density(), b0 = b.log_density(0);
    f.graph->values()[static_cast<std::size_t>(alpha)].data[0] = a;
    b.update(0);
    CHECK(f.graph->log_density() - j0 == doctest::Approx(b.log_density(0) - b0).epsilon(1e-12));
  }
}

}  // namespace test_blanket
