// Sum(x): the point mass at the sum of the vector x, JAGS's dsum. Observed (`y ~ Sum([a,
// b])` with y data) it says that the unknowns in x add up to the data; the graph starts
// them on that set and the `sum_move` sampler keeps them there (model/sums.hpp). Its
// density is 1 at the sum (within sum_holds' tolerance) and 0 elsewhere; unobserved, it
// is the sum itself.
#include "stdlib/sum.hpp"

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec sum_params[] = {{"x", scalar_kind::real, 1}};

double total(view x) {
  double t = 0;
  for (index_t i = 0; i < x.size(); ++i) t += x[i];
  return t;
}

class sum_distribution final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Sum"; }
  std::span<const param_spec> params() const override { return sum_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    for (index_t i = 0; i < p[0].size(); ++i) check_finite(name(), "summand", p[0][i]);
  }
  support value_support(std::span<const view>) const override { return {}; }
  double log_density(std::span<const view> p, view x, bool, const gradient_out*) const override {
    return sum_holds(x[0], total(p[0])) ? 0.0 : -INFINITY;
  }
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = total(p[0]);
    return true;
  }
  void draw(std::span<const view> p, ppl::rng&, double* out) const override { out[0] = total(p[0]); }
};

}  // namespace

std::unique_ptr<distribution> make_sum() { return std::make_unique<sum_distribution>(); }

}  // namespace ppl::stdlib
