// Selections of an array's elements, as Stan writes them: head(v, n), tail(v, n),
// segment(v, i, n), row(M, i), col(M, j), to_vector(x), to_array_1d(x), and take(x, idx),
// the elements (or a matrix's rows) an integer array names, which the checker makes of
// Stan's multiple indexing `x[idx]`. Each element of the result is one element of the
// first argument, so the gradient scatters the result's adjoint back to them; the counts
// and positions are integers and have none.
#include <sstream>

#include "stdlib/function_groups.hpp"

namespace ppl::stdlib {

namespace {

enum class pick { head, tail, segment, row, col, to_vector, to_array_1d, take };

struct pick_name {
  std::string_view name;
  pick which;
  std::string_view usage;
};

constexpr pick_name pick_names[] = {
    {"head", pick::head, "head(v, n) of a vector and an integer count"},
    {"tail", pick::tail, "tail(v, n) of a vector and an integer count"},
    {"segment", pick::segment, "segment(v, i, n) of a vector, its first position and a count"},
    {"row", pick::row, "row(M, i) of a matrix and an integer position"},
    {"col", pick::col, "col(M, j) of a matrix and an integer position"},
    {"to_vector", pick::to_vector, "to_vector(x) of a scalar or an array"},
    {"to_array_1d", pick::to_array_1d, "to_array_1d(x) of a scalar or an array"},
    {"take", pick::take, "take(x, idx) of a vector or a matrix and an integer array"},
};

bool whole(const type_sig& t) { return t.rank == 0 && t.kind == scalar_kind::integer; }

class selection final : public function {
 public:
  explicit selection(const pick_name& p) : p_(p) {}
  std::string_view name() const override { return p_.name; }

  type_result result_type(std::span<const type_sig> a) const override {
    bool ok = false;
    switch (p_.which) {
      case pick::head:
      case pick::tail: ok = a.size() == 2 && a[0].rank == 1 && whole(a[1]); break;
      case pick::segment: ok = a.size() == 3 && a[0].rank == 1 && whole(a[1]) && whole(a[2]); break;
      case pick::row:
      case pick::col: ok = a.size() == 2 && a[0].rank == 2 && whole(a[1]); break;
      case pick::to_vector:
      case pick::to_array_1d: ok = a.size() == 1; break;
      case pick::take:
        ok = a.size() == 2 && (a[0].rank == 1 || a[0].rank == 2) && a[1].rank == 1 && a[1].kind == scalar_kind::integer;
        break;
    }
    if (!ok) return std::string(p_.name) + " expects " + std::string(p_.usage) + ", got " + describe_types(a);
    return type_sig{a[0].kind, p_.which == pick::take ? a[0].rank : 1};
  }

  shape result_shape(std::span<const view> a) const override {
    const view& x = a[0];
    switch (p_.which) {
      case pick::head:
      case pick::tail: return shape::vector(count(a[1][0], x.size(), "n", "v has"));
      case pick::segment: {
        const index_t i = position(a[1][0], x.size(), "i", "v has");
        return shape::vector(count(a[2][0], x.size() - i, "n", "from i, v has"));
      }
      case pick::row: position(a[1][0], x.rows(), "i", "M has rows"); return shape::vector(x.cols());
      case pick::col: position(a[1][0], x.cols(), "j", "M has columns"); return shape::vector(x.rows());
      case pick::to_vector:
      case pick::to_array_1d: return shape::vector(x.size());
      case pick::take: {
        const index_t extent = x.shape[0];
        for (index_t k = 0; k < a[1].size(); ++k) position(a[1][k], extent, "an index", x.shape.rank == 1 ? "v has" : "M has rows");
        return x.shape.rank == 1 ? shape::vector(a[1].size()) : shape::matrix(a[1].size(), x.cols());
      }
    }
    return shape::scalar();
  }

  void eval(std::span<const view> a, double* out) const override {
    const index_t n = result_shape(a).size();
    for (index_t k = 0; k < n; ++k) out[k] = a[0].data[source(a, k)];
  }

  void backward(std::span<const view> a, view out, const double* d_out, std::span<double* const> d) const override {
    if (!d[0]) return;
    for (index_t k = 0; k < out.size(); ++k) d[0][source(a, k)] += d_out[k];
  }

 private:
  // The flat position in the first argument of the result's element k.
  index_t source(std::span<const view> a, index_t k) const {
    const view& x = a[0];
    switch (p_.which) {
      case pick::head:
      case pick::to_array_1d: return k;
      case pick::tail: return x.size() - static_cast<index_t>(a[1][0]) + k;
      case pick::segment: return static_cast<index_t>(a[1][0]) - 1 + k;
      case pick::row: return (static_cast<index_t>(a[1][0]) - 1) * x.cols() + k;
      case pick::col: return k * x.cols() + static_cast<index_t>(a[1][0]) - 1;
      // A matrix column by column, as Stan's to_vector reads one; any other array in order.
      case pick::to_vector: return x.shape.rank == 2 ? (k % x.rows()) * x.cols() + k / x.rows() : k;
      case pick::take: {
        if (x.shape.rank == 1) return static_cast<index_t>(a[1][k]) - 1;
        const index_t cols = x.cols();
        return (static_cast<index_t>(a[1][k / cols]) - 1) * cols + k % cols;
      }
    }
    return 0;
  }

  // A count of at most `limit` elements.
  index_t count(double n, index_t limit, std::string_view what, std::string_view has) const {
    if (!(n >= 0) || n > static_cast<double>(limit)) fail(what, n, "must be between 0 and " + std::to_string(limit) + " (" + std::string(has) + " " + std::to_string(limit) + ")");
    return static_cast<index_t>(n);
  }
  // A position from 1 to `extent`; returns it from 0.
  index_t position(double i, index_t extent, std::string_view what, std::string_view has) const {
    if (!(i >= 1) || i > static_cast<double>(extent)) fail(what, i, "is outside 1.." + std::to_string(extent) + " (" + std::string(has) + " " + std::to_string(extent) + ")");
    return static_cast<index_t>(i) - 1;
  }
  [[noreturn]] void fail(std::string_view what, double value, const std::string& why) const {
    std::ostringstream m;
    m << p_.name << ": " << what << " = " << value << " " << why;
    throw argument_error(m.str());
  }

  pick_name p_;
};

}  // namespace

std::unique_ptr<function> make_selection(std::string_view name) {
  for (const auto& p : pick_names)
    if (p.name == name) return std::make_unique<selection>(p);
  expect_name(name, "head");
  return nullptr;
}

}  // namespace ppl::stdlib
