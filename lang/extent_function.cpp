#include "lang/extent_function.hpp"

#include <utility>

namespace ppl::lang {

namespace {

using stdlib::argument_error;
using stdlib::scalar_kind;
using stdlib::type_sig;

class extent_function final : public stdlib::function {
 public:
  extent_function(int dimension, int rank, bool declared, std::vector<std::string> labels)
      : dimension_(dimension), rank_(rank), declared_(declared), labels_(std::move(labels)) {}

  std::string_view name() const override { return "extent"; }
  stdlib::type_result result_type(std::span<const type_sig>) const override { return type_sig{scalar_kind::integer, 0}; }
  stdlib::shape result_shape(std::span<const stdlib::view>) const override { return stdlib::shape::scalar(); }
  bool differentiable() const override { return false; }
  void backward(std::span<const stdlib::view>, stdlib::view, const double*, std::span<double* const>) const override {}

  void eval(std::span<const stdlib::view> args, double* out) const override {
    std::size_t first = 0, label = 0;
    stdlib::shape reference;
    if (declared_) {
      reference.rank = rank_;
      for (int d = 0; d < rank_; ++d) reference.dims[static_cast<std::size_t>(d)] = static_cast<stdlib::index_t>(args[static_cast<std::size_t>(d)][0]);
      first = static_cast<std::size_t>(rank_);
    } else {
      reference = args[0].shape;
      first = 1;
    }
    for (std::size_t i = first; i < args.size(); ++i)
      if (!(args[i].shape == reference))
        throw argument_error(labels_[label] + (declared_ ? " is declared with shape " : " has shape ") + reference.str() + " but " +
                             labels_[i - first + 1] + " has shape " + args[i].shape.str() +
                             ": the arrays of a vectorised statement must all have one shape");
    out[0] = static_cast<double>(reference[dimension_]);
  }

 private:
  int dimension_, rank_;
  bool declared_;
  std::vector<std::string> labels_;
};

}  // namespace

std::unique_ptr<stdlib::function> make_extent_function(int dimension, int rank, bool declared, std::vector<std::string> labels) {
  return std::make_unique<extent_function>(dimension, rank, declared, std::move(labels));
}

}  // namespace ppl::lang
