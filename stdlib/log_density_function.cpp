#include "stdlib/log_density_function.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "stdlib/function_groups.hpp"

namespace ppl::stdlib {

namespace {

class log_density_function final : public function {
 public:
  log_density_function(const distribution& d, std::string name, density_kind kind)
      : dist_(d), name_(std::move(name)), kind_(kind) {
    const auto params = d.params();
    elementwise_ = d.value_rank() == 0 && std::all_of(params.begin(), params.end(), [](const auto& p) { return p.rank == 0; });
  }

  std::string_view name() const override { return name_; }

  type_result result_type(std::span<const type_sig> args) const override {
    const auto params = dist_.params();
    if (args.size() != params.size() + 1)
      return name_ + " takes " + std::to_string(params.size() + 1) + " arguments (the value, then " +
             std::to_string(params.size()) + " of " + std::string(dist_.name()) + "), got " + std::to_string(args.size());
    int rank = 0;
    for (const auto& a : args) rank = std::max(rank, a.rank);
    for (std::size_t k = 0; k < args.size(); ++k) {
      const std::string what = k == 0 ? "the value" : "argument " + std::string(params[k - 1].name);
      const int expected = k == 0 ? dist_.value_rank() : params[k - 1].rank;
      if (elementwise_ ? args[k].rank != 0 && args[k].rank != rank : args[k].rank != expected)
        return name_ + ": " + what + " has " + std::to_string(args[k].rank) + " dimensions; " +
               (elementwise_ ? "each argument must be a scalar or an array of one common shape" : "expected " + std::to_string(expected)) +
               ", got " + describe_types(args);
      if (k > 0 && params[k - 1].kind == scalar_kind::integer && args[k].kind != scalar_kind::integer)
        return name_ + ": argument " + std::string(params[k - 1].name) + " must be an integer, not real";
    }
    return type_sig{scalar_kind::real, 0};
  }

  shape result_shape(std::span<const view> args) const override {
    if (elementwise_) common_shape(args);
    return shape::scalar();
  }
  bool shape_from_shapes() const override { return true; }

  void eval(std::span<const view> args, double* out) const override {
    const double total = evaluate(args, nullptr, 0);
    out[0] = kind_ == density_kind::cdf ? std::exp(total) : total;
  }

  // A log density (or log cdf) of scalars with its partials from the one evaluation that
  // backward() would repeat: term()'s checks, then the value with a gradient_out whose
  // slots start at 0, so d_out * partials[k] is what term() adds.
  bool eval_partials(std::span<const view> args, double* out, double* partials) const override {
    if (!elementwise_ && kind_ == density_kind::log_density && args.size() <= 5) return whole_partials(args, out, partials);
    if (!elementwise_ || kind_ == density_kind::cdf || args.size() > 5) return function::eval_partials(args, out, partials);
    const bool scalars = std::all_of(args.begin(), args.end(), [](const view& a) { return a.shape.rank == 0; });
    if (!scalars) {
      // Arrays (a vectorised normal_lpdf(y | mu, sigma)): the sum and each element's
      // partial, scaled by 1, as backward() would add them scaled by d_out. A sum that is
      // not finite leaves backward() to run, as it did.
      std::array<double*, 5> d{};
      double* next = partials;
      for (std::size_t k = 0; k < args.size(); ++k) {
        d[k] = next;
        std::fill_n(next, args[k].size(), 0.0);
        next += args[k].size();
      }
      out[0] = evaluate(args, d.data(), 1.0);
      return std::isfinite(out[0]);
    }
    // Scalars (a density per row of a batch or a tape): term()'s checks and value inline,
    // without its loop of scaled adds (a fifth of a mixture's gradient).
    const std::span<const view> params = args.subspan(1);
    if (const double refused = refusal(params, args[0]); refused != 0) {
      out[0] = refused;
      return false;
    }
    gradient_out g;
    for (std::size_t k = 0; k < args.size(); ++k) {
      partials[k] = 0;
      (k == 0 ? g.value : g.params[k - 1]) = partials + k;
    }
    double total = 0;
    total += value(params, args[0], &g);
    out[0] = total;
    return true;
  }

  const distribution* rows_density() const override {
    return elementwise_ && kind_ == density_kind::log_density ? &dist_ : nullptr;
  }

  // The plain cdf is exp of the summed log cdfs: its derivative is the value times theirs.
  void backward(std::span<const view> args, view out, const double* d_out, std::span<double* const> d_args) const override {
    evaluate(args, d_args.data(), kind_ == density_kind::cdf ? d_out[0] * out[0] : d_out[0]);
  }

 private:
  shape common_shape(std::span<const view> args) const {
    shape s;
    for (std::size_t k = 0; k < args.size(); ++k) {
      if (args[k].shape.rank == 0) continue;
      if (s.rank != 0 && !(s == args[k].shape))
        throw argument_error(name_ + ": arguments have shapes " + s.str() + " and " + args[k].shape.str() +
                             "; each must be a scalar or of one common shape");
      s = args[k].shape;
    }
    return s;
  }

  // The sum of the log densities; with `d_args`, also adds `scale` times their gradient.
  double evaluate(std::span<const view> args, double* const* d_args, double scale) const {
    if (!elementwise_) return term(args, d_args, scale);
    const index_t n = common_shape(args).size();
    // A log density of a value of n elements through the distribution's rows, as a `~`
    // is summed; a refusal (NaN for a parameter, -inf outside the support) is told apart
    // by the element-by-element loop below, its derivatives being unspecified.
    if (kind_ == density_kind::log_density && args[0].size() == n && (!d_args || scale == 1.0)) {
      const rows_params r = rows_of(args.subspan(1), d_args ? d_args + 1 : nullptr);
      const double total = checked_log_density_rows(dist_, r, args.size() - 1, args[0].data, d_args ? d_args[0] : nullptr, n);
      if (std::isfinite(total)) return total;
      d_args = nullptr;
    }
    // On the stack: two vectors per call (and more per element in term()) were a third of
    // the time of a `factor` of normal_lpdf.
    view_buffer<max_params + 1> one;
    for (const view& a : args) one.push_back(a);
    std::array<double*, max_params + 1> slots;
    double total = 0;
    for (index_t i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < args.size(); ++k) {
        const index_t at = args[k].shape.rank == 0 ? 0 : i;
        one[k] = {args[k].data + at, shape::scalar()};
        if (d_args) slots[k] = d_args[k] ? d_args[k] + at : nullptr;
      }
      total += term(one.span(), d_args ? slots.data() : nullptr, scale);
    }
    return total;
  }

  // A density of declared shapes (a categorical of a vector; a `~` a tape replays through
  // statement::density): term()'s checks, then the value with its gradient written
  // straight into the partials, from 0, in one pass instead of term()'s two and its
  // buffers. False where refused (the value is then the refusal's).
  bool whole_partials(std::span<const view> args, double* out, double* partials) const {
    const std::span<const view> params = args.subspan(1);
    if (const double refused = refusal(params, args[0]); refused != 0) {
      out[0] = refused;
      return false;
    }
    gradient_out g;
    double* next = partials;
    for (std::size_t k = 0; k < args.size(); ++k) {
      std::fill_n(next, args[k].size(), 0.0);
      (k == 0 ? g.value : g.params[k - 1]) = next;
      next += args[k].size();
    }
    out[0] = value(params, args[0], &g);
    return std::isfinite(out[0]);
  }

  // NaN for parameters check() refuses, -inf for a value outside the support (of a log
  // density); 0 when both pass.
  double refusal(std::span<const view> params, const view& x) const {
    try {
      dist_.check(params);
    } catch (const parameter_error&) {
      return NAN;
    }
    if (kind_ == density_kind::log_density && !dist_.in_support(params, x)) return -INFINITY;
    return 0;
  }

  // One log density, its gradient scaled into the slots given.
  double term(std::span<const view> args, double* const* d_args, double scale) const {
    const std::span<const view> params = args.subspan(1);
    if (const double refused = refusal(params, args[0]); refused != 0) return refused;
    if (!d_args) return value(params, args[0], nullptr);
    // A scalar argument's derivative goes to a slot on the stack; a larger one to a vector.
    std::array<double, 5> small{};
    std::array<double*, 5> at{};
    std::array<index_t, 5> size{};
    std::vector<std::vector<double>> local;
    gradient_out g;
    for (std::size_t k = 0; k < args.size() && k < 5; ++k) {
      if (!d_args[k]) continue;
      size[k] = args[k].size();
      if (size[k] == 1) {
        at[k] = &small[k];
      } else {
        local.resize(args.size());
        local[k].assign(static_cast<std::size_t>(size[k]), 0.0);
        at[k] = local[k].data();
      }
      (k == 0 ? g.value : g.params[k - 1]) = at[k];
    }
    const double lp = value(params, args[0], &g);
    for (std::size_t k = 0; k < args.size() && k < 5; ++k)
      for (index_t i = 0; i < size[k]; ++i) d_args[k][i] += scale * at[k][i];
    return lp;
  }

  double value(std::span<const view> params, view x, const gradient_out* g) const {
    switch (kind_) {
      case density_kind::log_density: return dist_.log_density(params, x, true, g);
      case density_kind::log_ccdf: return dist_.log_ccdf(params, x[0], g);
      default: return dist_.log_cdf(params, x[0], g);
    }
  }

  const distribution& dist_;
  std::string name_;
  density_kind kind_;
  bool elementwise_ = false;
};

}  // namespace

std::unique_ptr<function> make_log_density_function(const distribution& d, std::string name, density_kind kind) {
  return std::make_unique<log_density_function>(d, std::move(name), kind);
}

}  // namespace ppl::stdlib
