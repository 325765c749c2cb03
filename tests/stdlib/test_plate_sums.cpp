// log_density_sum, the one-call density of a plate of values sharing parameters, agrees
// with summing log_density value by value, for the overrides and the default alike.
#include <cstring>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_plate_sums {

using namespace ppl::testing;

TEST_CASE("plate sums equal sums of single densities") {
  struct plate {
    const char* name;
    std::vector<double> params;
    std::vector<double> values;
  };
  for (const auto& c : std::vector<plate>{{"Bernoulli", {0.3}, {1, 0, 0, 1, 1}},
                                          {"Bernoulli", {1.0}, {1, 1}},
                                          {"Bernoulli", {0.3}, {1, 2}},
                                          {"Poisson", {2.5}, {0, 3, 7}},
                                          {"Normal", {1, 2}, {0.5, -1, 4}},
                                          {"Gamma", {2.5, 0.7}, {0.1, 3, 12.5, 1}},
                                          {"Gamma", {1.0, 2.0}, {0, 0.5}},
                                          {"Gamma", {0.5, 2.0}, {0.5, 0}},
                                          {"Gamma", {2.0, 1.0}, {0.5, -1}}}) {
    std::vector<tensor> params;
    for (double p : c.params) params.push_back(scalar(p));
    double one_by_one = 0;
    for (double v : c.values) one_by_one += log_density(dist(c.name), params, scalar(v));
    double sum = dist(c.name).log_density_sum(views(params), c.values.data(), static_cast<ppl::index_t>(c.values.size()));
    INFO(c.name);
    if (std::isinf(one_by_one)) CHECK(sum == one_by_one);
    else CHECK(sum == doctest::Approx(one_by_one));
  }
}

// Rows' parameters, each one value shared by every row or one a row, with their derivatives
// into `dp` (made, zeroed).
ppl::stdlib::rows_params rows_with(const std::vector<std::vector<double>>& params, std::vector<std::vector<double>>& dp) {
  ppl::stdlib::rows_params rows;
  dp.assign(params.size(), {});
  for (std::size_t i = 0; i < params.size(); ++i) {
    dp[i].assign(params[i].size(), 0.0);
    rows.p[i] = params[i].data();
    rows.step[i] = params[i].size() == 1 ? 0 : 1;
    rows.dp[i] = dp[i].data();
  }
  return rows;
}

TEST_CASE("rows at once (log_density_rows) equal the rows' single densities and gradients, shared or per row") {
  // Normal overrides it (a shared scale's log once), Gamma too (a repeated shape's log-gamma
  // and digamma once), Poisson (no call a row); StudentT takes the default.
  struct rows_case {
    const char* name;
    std::vector<std::vector<double>> params;  // one value (shared by every row) or one per row
  };
  const std::vector<double> x = {0.3, -1.2, 2.5, 0.9};
  for (const auto& c : std::vector<rows_case>{{"Normal", {{0.5, -1, 2, 0}, {1.5}}},
                                             {"Normal", {{0.2}, {0.5, 1, 2, 3}}},
                                             {"Normal", {{0.5, -1, 2, 0}, {0.5, 1, 2, 3}}},
                                             {"StudentT", {{4}, {0.5, -1, 2, 0}, {1.5}}},
                                             {"Gamma", {{2}, {0.5, 1, 2, 3}}},
                                             {"Gamma", {{0.5, 1, 2, 3}, {1.5}}},
                                             {"Gamma", {{0.5, 1, 1, 3}, {0.5, 1, 2, 2}}},
                                             {"Gamma", {{2.5}, {0.7}}},
                                             {"Poisson", {{0.5, 2, 1, 6}}},
                                             {"Poisson", {{0, 2, 1, 6}}},
                                             {"Poisson", {{2.5}}}}) {
    INFO(c.name, " with ", c.params.size(), " parameters");
    const auto& d = dist(c.name);
    const std::size_t k = c.params.size();
    const bool positive = std::string(c.name) == "Gamma";
    std::vector<double> values = x;
    if (positive)
      for (double& v : values) v = std::fabs(v) + 0.1;
    if (std::string(c.name) == "Poisson") values = {0, 3, 1, 7};  // counts; a rate of 0 with a count of 0
    // Row by row.
    double expected = 0;
    std::vector<std::vector<double>> dp_expected(k);
    std::vector<double> dx_expected(values.size(), 0.0);
    for (std::size_t i = 0; i < k; ++i) dp_expected[i].assign(c.params[i].size(), 0.0);
    for (std::size_t r = 0; r < values.size(); ++r) {
      std::vector<tensor> params;
      ppl::stdlib::gradient_out g;
      for (std::size_t i = 0; i < k; ++i) {
        const std::size_t at = c.params[i].size() == 1 ? 0 : r;
        params.push_back(scalar(c.params[i][at]));
        g.params[i] = &dp_expected[i][at];
      }
      g.value = &dx_expected[r];
      expected += d.log_density(views(params), view{&values[r], shape::scalar()}, true, &g);
    }
    // At once.
    std::vector<std::vector<double>> dp;
    ppl::stdlib::rows_params rows = rows_with(c.params, dp);
    std::vector<double> dx(values.size(), 0.0);
    const double total = d.log_density_rows(rows, k, values.data(), dx.data(), static_cast<index_t>(values.size()), true);
    CHECK(total == doctest::Approx(expected).epsilon(1e-13));
    for (std::size_t r = 0; r < values.size(); ++r) CHECK(dx[r] == doctest::Approx(dx_expected[r]).epsilon(1e-13));
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < dp[i].size(); ++j) CHECK(dp[i][j] == doctest::Approx(dp_expected[i][j]).epsilon(1e-13));
    // An invalid parameter with `check`: -inf.
    std::vector<double> bad = c.params.back();
    bad[0] = -1;
    rows.p[k - 1] = bad.data();
    CHECK(d.log_density_rows(rows, k, values.data(), nullptr, static_cast<index_t>(values.size()), true) == -INFINITY);
  }
}

TEST_CASE("rows kept apart (log_density_each): each row's density and partials, set, as log_density_rows gives one row") {
  // Normal overrides it (the shared scale's log once, the same arithmetic as its rows);
  // StudentT takes the default. A scale that is not positive gives a value that is not
  // finite, which the caller evaluates again.
  struct rows_case {
    const char* name;
    std::vector<std::vector<double>> params;
  };
  const std::vector<double> x = {0.3, -1.2, 2.5, 0.9};
  for (const auto& c : std::vector<rows_case>{{"Normal", {{0.5, -1, 2, 0}, {1.5}}},
                                             {"Normal", {{0.2}, {0.5, 1, 2, 3}}},
                                             {"Normal", {{0.2}, {-1.0}}},
                                             {"Normal", {{0.2}, {0.5, 0, 2, 3}}},
                                             {"StudentT", {{4}, {0.5, -1, 2, 0}, {1.5}}}}) {
    INFO(c.name, " with ", c.params.size(), " parameters");
    const auto& d = dist(c.name);
    const std::size_t k = c.params.size(), n = x.size();
    std::vector<std::vector<double>> dp;
    const ppl::stdlib::rows_params rows = rows_with(c.params, dp);
    std::vector<double> out(n), partials(n * (k + 1), 7.0);  // set, not added: the 7s go
    d.log_density_each(rows, k, x.data(), 1, static_cast<index_t>(n), out.data(), partials.data());
    for (std::size_t r = 0; r < n; ++r) {
      std::vector<double> one(k + 1, 0.0);
      ppl::stdlib::rows_params row;
      for (std::size_t i = 0; i < k; ++i) row.p[i] = rows.p[i] + static_cast<index_t>(r) * rows.step[i], row.dp[i] = &one[i + 1];
      const double expected = d.log_density_rows(row, k, &x[r], one.data(), 1, true);
      INFO("row ", r);
      if (!std::isfinite(expected)) {
        CHECK(!std::isfinite(out[r]));
        continue;
      }
      CHECK(out[r] == expected);  // the one-row kernel's arithmetic
      for (std::size_t i = 0; i <= k; ++i) CHECK(partials[r * (k + 1) + i] == doctest::Approx(one[i]).epsilon(1e-15));
    }
  }
}

TEST_CASE("log_mix's rows at once equal its rows one by one, bit for bit") {
  const auto* found = ppl::stdlib::library().find_function("log_mix");
  REQUIRE(found);
  const auto& f = *found;
  const std::vector<double> lp1 = {-1.0, -1000, 3.5, -INFINITY, 0.2}, lp2 = {-2.0, -1000, 3.5, -0.7, -INFINITY};
  for (const double theta : {0.3, 0.0, 1.0}) {
    INFO("theta ", theta);
    const std::size_t n = lp1.size();
    std::vector<ppl::view> args = {{&theta, shape::scalar()}, {lp1.data(), shape::vector(5)}, {lp2.data(), shape::vector(5)}};
    std::vector<double> out(n), partials(3 * n);
    REQUIRE(f.eval_partials_rows(args, n, out.data(), partials.data()));
    for (std::size_t r = 0; r < n; ++r) {
      double value = 0, p[3];
      std::vector<ppl::view> one = {{&theta, shape::scalar()}, {&lp1[r], shape::scalar()}, {&lp2[r], shape::scalar()}};
      f.eval_partials(one, &value, p);
      CHECK(std::memcmp(&value, &out[r], sizeof value) == 0);
      for (int i = 0; i < 3; ++i) CHECK(std::memcmp(&p[i], &partials[3 * r + i], sizeof(double)) == 0);
    }
  }
}

TEST_CASE("logit-link count rows at once: one exp and one log1p a row, the single densities bit for bit") {
  // BinomialLogit(n, alpha) and BernoulliLogit(alpha) override log_density_rows (logit_parts);
  // alpha on both sides of 0 and far out, where each branch and the log1p's accuracy matter.
  struct rows_case {
    const char* name;
    std::vector<std::vector<double>> params;
    std::vector<double> values;
  };
  for (const auto& c : std::vector<rows_case>{{"BinomialLogit", {{10, 3, 7, 12, 0}, {0.4, -2.5, 35, -40, 1}}, {4, 0, 7, 0, 0}},
                                             {"BinomialLogit", {{8}, {0.3, -0.2, 3.5, -7}}, {2, 8, 1, 0}},
                                             {"BinomialLogit", {{5, 6, 7, 8}, {-1.25}}, {5, 0, 3, 2}},
                                             {"BernoulliLogit", {{0.4, -2.5, 35, -40, 0}}, {1, 0, 0, 1, 1}},
                                             {"BernoulliLogit", {{-0.8}}, {1, 0, 0, 1}}}) {
    INFO(c.name, " with ", c.params[0].size(), " first parameters");
    const auto& d = dist(c.name);
    const std::size_t k = c.params.size();
    double expected = 0;
    std::vector<std::vector<double>> dp_expected(k);
    for (std::size_t i = 0; i < k; ++i) dp_expected[i].assign(c.params[i].size(), 0.0);
    for (std::size_t r = 0; r < c.values.size(); ++r) {
      std::vector<tensor> params;
      ppl::stdlib::gradient_out g;
      for (std::size_t i = 0; i < k; ++i) {
        const std::size_t at = c.params[i].size() == 1 ? 0 : r;
        params.push_back(scalar(c.params[i][at]));
        g.params[i] = &dp_expected[i][at];
      }
      d.check(views(params));
      expected += d.log_density(views(params), view{&c.values[r], shape::scalar()}, true, &g);
    }
    std::vector<std::vector<double>> dp;
    ppl::stdlib::rows_params rows = rows_with(c.params, dp);
    const auto n = static_cast<index_t>(c.values.size());
    const double total = d.log_density_rows(rows, k, c.values.data(), nullptr, n, true);
    CHECK(std::memcmp(&total, &expected, sizeof(double)) == 0);
    for (std::size_t i = 0; i < k; ++i) CHECK(std::memcmp(dp[i].data(), dp_expected[i].data(), dp[i].size() * sizeof(double)) == 0);
    // A value outside the support, and a NaN log-odds with `check`: -inf.
    std::vector<double> outside = c.values;
    outside[1] = 2.5;
    CHECK(d.log_density_rows(rows, k, outside.data(), nullptr, n, true) == -INFINITY);
    std::vector<double> nan_odds = c.params.back();
    nan_odds.back() = NAN;
    rows.p[k - 1] = nan_odds.data();
    CHECK(d.log_density_rows(rows, k, c.values.data(), nullptr, n, true) == -INFINITY);
  }
  // A count that is not a non-negative integer, with `check`: -inf.
  const std::vector<double> counts{3, -1}, odds{0.5}, values{1, 0};
  ppl::stdlib::rows_params rows;
  rows.p[0] = counts.data();
  rows.step[0] = 1;
  rows.p[1] = odds.data();
  CHECK(dist("BinomialLogit").log_density_rows(rows, 2, values.data(), nullptr, 2, true) == -INFINITY);
}

TEST_CASE("Normal rows that share a scale: one reciprocal, four partial sums, each derivative asked or not") {
  // Nine rows: two rounds of the four-row loop and one row after it.
  const auto& d = dist("Normal");
  const std::vector<double> x = {0.3, -1.2, 2.5, 0.9, 4.1, -0.7, 0.0, 1.3, -2.2};
  const std::vector<double> mu = {0.5, -1, 2, 0, 3.5, 0.25, -0.5, 1, -3};
  const double sigma = 1.7;
  const auto n = static_cast<index_t>(x.size());
  for (const bool shared_mu : {false, true}) {
    double expected = 0, dsigma_expected = 0;
    std::vector<double> dx_expected(x.size(), 0.0), dmu_expected(shared_mu ? 1 : x.size(), 0.0);
    for (std::size_t r = 0; r < x.size(); ++r) {
      const std::vector<tensor> params = {scalar(shared_mu ? mu[0] : mu[r]), scalar(sigma)};
      ppl::stdlib::gradient_out g;
      g.value = &dx_expected[r];
      g.params[0] = &dmu_expected[shared_mu ? 0 : r];
      g.params[1] = &dsigma_expected;
      expected += d.log_density(views(params), view{&x[r], shape::scalar()}, true, &g);
    }
    for (const bool with_dx : {false, true})
      for (const bool with_dmu : {false, true}) {
        INFO("shared mu ", shared_mu, ", dx ", with_dx, ", dmu ", with_dmu);
        std::vector<double> dx(x.size(), 0.0), dmu(dmu_expected.size(), 0.0);
        double dsigma = 0;
        ppl::stdlib::rows_params rows;
        rows.p = {mu.data(), &sigma};
        rows.step = {shared_mu ? 0 : 1, 0};
        rows.dp = {with_dmu ? dmu.data() : nullptr, &dsigma};
        const double total = d.log_density_rows(rows, 2, x.data(), with_dx ? dx.data() : nullptr, n, true);
        CHECK(total == doctest::Approx(expected).epsilon(1e-14));
        CHECK(dsigma == doctest::Approx(dsigma_expected).epsilon(1e-13));
        for (std::size_t r = 0; r < x.size(); ++r) CHECK(dx[r] == doctest::Approx(with_dx ? dx_expected[r] : 0.0).epsilon(1e-14));
        for (std::size_t r = 0; r < dmu.size(); ++r) CHECK(dmu[r] == doctest::Approx(with_dmu ? dmu_expected[r] : 0.0).epsilon(1e-14));
      }
  }
  // A value that is not finite, anywhere among the rows, gives -inf; so does a mean that is
  // not finite when the parameters are checked, and a scale of 0.
  ppl::stdlib::rows_params rows;
  rows.p = {mu.data(), &sigma};
  rows.step = {1, 0};
  for (const double bad : {INFINITY, -INFINITY, NAN}) {
    std::vector<double> y = x;
    y[7] = bad;
    CHECK(d.log_density_rows(rows, 2, y.data(), nullptr, n, false) == -INFINITY);
    std::vector<double> m = mu;
    m[8] = bad;
    rows.p[0] = m.data();
    CHECK(d.log_density_rows(rows, 2, x.data(), nullptr, n, true) == -INFINITY);
    rows.p[0] = mu.data();
  }
  const double zero = 0;
  rows.p[1] = &zero;
  CHECK(d.log_density_rows(rows, 2, x.data(), nullptr, n, true) == -INFINITY);
}

namespace {

// A density of 1 on [0, hi] that never looks at its value, so that only
// checked_log_density_rows can refuse one outside; hi is a parameter (a support that moves
// with it) or 1 (a fixed one).
class flat final : public ppl::stdlib::distribution {
 public:
  explicit flat(bool moves) : moves_(moves) {}
  std::string_view name() const override { return "Flat"; }
  std::span<const ppl::stdlib::param_spec> params() const override { return spec_; }
  ppl::stdlib::scalar_kind value_kind() const override { return ppl::stdlib::scalar_kind::real; }
  void check(std::span<const view> p) const override {
    if (!(p[0][0] > 0)) throw ppl::stdlib::parameter_error("hi must be positive");
  }
  ppl::stdlib::support value_support(std::span<const view> p) const override { return {ppl::stdlib::support_kind::real_interval, 0, moves_ ? p[0][0] : 1}; }
  bool support_moves() const override { return moves_; }
  double log_density(std::span<const view>, view, bool, const ppl::stdlib::gradient_out*) const override { return 0; }
  void draw(std::span<const view>, ppl::rng&, double* out) const override { out[0] = 0; }

 private:
  bool moves_;
  std::array<ppl::stdlib::param_spec, 1> spec_{{{"hi", ppl::stdlib::scalar_kind::real, 0}}};
};

}  // namespace

TEST_CASE("checked rows: a value outside the support or an invalid parameter refuses the rows") {
  for (const bool moves : {false, true}) {
    INFO("support moves: ", moves);
    const flat d(moves);
    std::vector<double> hi = {1, 1, 2, 1}, x = {0.5, 0.2, 0.9, 1.0};
    ppl::stdlib::rows_params rows;
    rows.p[0] = hi.data();
    rows.step[0] = 1;
    CHECK(ppl::stdlib::checked_log_density_rows(d, rows, 1, x.data(), nullptr, 4) == 0);
    x[2] = 1.5;  // within the third row's support only where it moves
    CHECK(ppl::stdlib::checked_log_density_rows(d, rows, 1, x.data(), nullptr, 4) == (moves ? 0 : -INFINITY));
    x[3] = -0.1;
    CHECK(ppl::stdlib::checked_log_density_rows(d, rows, 1, x.data(), nullptr, 4) == -INFINITY);
    x[3] = NAN;
    CHECK(ppl::stdlib::checked_log_density_rows(d, rows, 1, x.data(), nullptr, 4) == -INFINITY);
    x[3] = 0.5;
    hi[1] = -1;
    CHECK(ppl::stdlib::checked_log_density_rows(d, rows, 1, x.data(), nullptr, 3) == -INFINITY);
  }
}

}  // namespace test_plate_sums
