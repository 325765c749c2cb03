// Binding data to `data` declarations: sizes, kinds, shapes, bounds and defaults.
#include <algorithm>
#include <cmath>
#include <fmt/core.h>
#include <sstream>

#include "model/graph.hpp"

namespace ppl::model {

using lang::ir::expr;
using lang::ir::role;

namespace {

std::string number(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

// "1 dimension", "2 dimensions"; a scalar has none.
std::string dimensions(int rank) {
  return rank == 0 ? "no dimensions (a scalar)" : std::to_string(rank) + (rank == 1 ? " dimension" : " dimensions");
}

// The size variable a declared dimension names directly (`N` in `int[N]`), or -1.
int size_variable(const expr& dim) {
  return dim.which == expr::kind::variable ? dim.slot : -1;
}

}  // namespace

lang::check_options missing_values(const lang::ir::model& m, const data::data_table& data) {
  lang::check_options o;
  for (const auto& var : m.variables) {
    if (var.role != role::data || !var.observed) continue;
    const data::data_value* d = data.find(var.name);
    if (d && std::any_of(d->value.data.begin(), d->value.data.end(), [](double x) { return std::isnan(x); }))
      o.partly_observed.insert(var.name);
  }
  return o;
}

void graph::bind_data(const data::data_table& data, data::data_table* take) {
  // A column of text that the model reads as data: the error at its first cell that is not
  // a number, in the data file.
  for (const auto& var : model_.variables) {
    const data::text_column* text = data.text(var.name);
    if (!text || var.role != role::data) continue;
    ppl::diagnostic d = text->problem;
    const auto at = model_.lines.locate(var.pos);
    d.note = "`" + var.name + "` is data of the model (" + model_.source.name + ":" + std::to_string(at.line) + ":" +
             std::to_string(at.column) + "), so each of its values must be a number";
    throw ppl::source_error(std::move(d));
  }
  std::vector<std::string> bound_by(model_.variables.size());
  auto bind_size = [&](int size_var, index_t extent, const std::string& origin, std::size_t pos) {
    auto& t = values_[static_cast<std::size_t>(size_var)];
    const auto& name = model_.variables[static_cast<std::size_t>(size_var)].name;
    if (!bound_by[static_cast<std::size_t>(size_var)].empty()) {
      if (static_cast<index_t>(t.data[0]) != extent)
        ppl::fail_at(model_.source, pos, "size `" + name + "` is " + std::to_string(static_cast<index_t>(t.data[0])) +
                                              " from " + bound_by[static_cast<std::size_t>(size_var)] + " but " +
                                              std::to_string(extent) + " from " + origin);
      return;
    }
    t = tensor::scalar(static_cast<double>(extent));
    bound_by[static_cast<std::size_t>(size_var)] = origin;
  };
  // Sizes given directly (--set N=10) come first; then those implied by arrays.
  for (std::size_t v = 0; v < model_.variables.size(); ++v) {
    const auto& var = model_.variables[v];
    const data::data_value* d = data.find(var.name);
    if (!var.is_size || !d) continue;
    if (d->value.shape.rank != 0 || !d->integer || !(d->value.data[0] >= 0))
      ppl::fail_at(model_.source, var.pos, "size `" + var.name + "` must be a non-negative integer (" + d->origin + ")");
    // Checked before the conversion, which is undefined for a double beyond the integers.
    if (d->value.data[0] > static_cast<double>(max_elements))
      ppl::fail_at(model_.source, var.pos, fmt::format("size `{}` is {:.0f}, more than the limit of {} (2^28) ({})", var.name,
                                                        d->value.data[0], max_elements, d->origin));
    bind_size(static_cast<int>(v), static_cast<index_t>(d->value.data[0]), d->origin, var.pos);
  }
  for (std::size_t v = 0; v < model_.variables.size(); ++v) {
    const auto& var = model_.variables[v];
    const data::data_value* d = data.find(var.name);
    if (var.is_size || !d || var.role != role::data) continue;
    if (d->value.shape.rank != var.type.rank)
      ppl::fail_at(model_.source, var.pos, "`" + var.name + "` is declared with " + dimensions(var.type.rank) + " but " +
                                                d->origin + " gives " + dimensions(d->value.shape.rank));
    for (int k = 0; k < var.type.rank; ++k) {
      int sv = size_variable(*var.dims[static_cast<std::size_t>(k)]);
      if (sv >= 0 && model_.variables[static_cast<std::size_t>(sv)].is_size)
        bind_size(sv, d->value.shape[k], "`" + var.name + "` (" + d->origin + ")", var.dims[static_cast<std::size_t>(k)]->pos);
    }
  }
  for (std::size_t v = 0; v < model_.variables.size(); ++v) {
    const auto& var = model_.variables[v];
    if (var.is_size && bound_by[v].empty())
      values_[v] = tensor();  // unbound: an error only if something needs it
    if (var.role == role::data && !var.is_size) bind_declared(static_cast<int>(v), data, take);
  }
}

void graph::bind_declared(int v, const data::data_table& data, data::data_table* take) {
  if (built_[static_cast<std::size_t>(v)]) return;
  built_[static_cast<std::size_t>(v)] = 1;
  const auto& var = model_.variables[static_cast<std::size_t>(v)];
  // Data that this declaration's sizes, bounds or default read are bound first.
  std::vector<int> reads;
  for (const auto& dim : var.dims) lang::ir::collect_reads(dim.get(), reads);
  lang::ir::collect_reads(var.bounds.lower.get(), reads);
  lang::ir::collect_reads(var.bounds.upper.get(), reads);
  lang::ir::collect_reads(var.default_value.get(), reads);
  for (int r : reads)
    if (!model_.variables[static_cast<std::size_t>(r)].is_size) bind_declared(r, data, take);
  const data::data_value* given = data.find(var.name);
  const bool may_be_missing = var.observed && options_.allow_missing_observations;
  if (!given && !var.default_value && !may_be_missing)
    ppl::fail_at(model_.source, var.pos, "no value for data `" + var.name + "`: it is not in the data and has no default");
  // Every size the declaration uses must be known by now.
  for (const auto& dim : var.dims) {
    int sv = size_variable(*dim);
    if (sv >= 0 && values_[static_cast<std::size_t>(sv)].data.empty())
      ppl::fail_at(model_.source, dim->pos, "the size `" + model_.variables[static_cast<std::size_t>(sv)].name + "` of `" +
                                                 var.name + "` is unknown: give `" + var.name + "` in the data or set `" +
                                                 model_.variables[static_cast<std::size_t>(sv)].name + "` with --set");
  }
  shape declared;
  declared.rank = var.type.rank;
  for (int k = 0; k < var.type.rank; ++k) {
    index_t n = 0;
    try {
      n = eval_.eval_index(*var.dims[static_cast<std::size_t>(k)], frame_);
    } catch (const eval_error& e) {  // a size of 1e300, an index out of range: at the place
      ppl::fail_at(model_.source, e.pos, e.what());
    }
    if (n < 0)
      ppl::fail_at(model_.source, var.dims[static_cast<std::size_t>(k)]->pos,
                    "dimension " + std::to_string(k + 1) + " of `" + var.name + "` is " + std::to_string(n) + "; a size must not be negative");
    declared.dims[static_cast<std::size_t>(k)] = n;
  }
  tensor& t = values_[static_cast<std::size_t>(v)];
  std::string origin;
  if (const data::data_value* d = given) {
    if (take) t = std::move(take->find(var.name)->value);
    else t = d->value;
    origin = d->origin;
  } else if (var.default_value) {
    view x;
    try {
      x = eval_.eval(*var.default_value, frame_);
    } catch (const eval_error& e) {
      ppl::fail_at(model_.source, e.pos, e.what());
    }
    t.shape = x.shape;
    t.data.assign(x.begin(), x.end());
    origin = "its default";
  } else {  // an observation simulated (may_be_missing)
    missing_[static_cast<std::size_t>(v)] = 1;
    t = tensor(declared, std::nan(""));
    return;
  }
  if (!(t.shape == declared))
    ppl::fail_at(model_.source, var.pos, "`" + var.name + "` is declared with shape " + declared.str() + " but " +
                                              origin + " has shape " + t.shape.str());
  if (!var.may_miss) note_missing(v, given);
  check_declared(v);
}

// Integer-ness and declared bounds, element by element.
void graph::check_declared(int v) {
  const auto& var = model_.variables[static_cast<std::size_t>(v)];
  const tensor& t = values_[static_cast<std::size_t>(v)];
  double lower = -INFINITY, upper = INFINITY;
  if (var.bounds.lower) lower = eval_.eval(*var.bounds.lower, frame_).scalar();
  if (var.bounds.upper) upper = eval_.eval(*var.bounds.upper, frame_).scalar();
  for (index_t i = 0; i < t.size(); ++i) {
    double x = t.data[static_cast<std::size_t>(i)];
    if (std::isfinite(x) && !(var.type.kind == stdlib::scalar_kind::integer && x != std::floor(x)) && x >= lower && x <= upper)
      continue;  // the common case: build the element's name only for a message
    if (std::isnan(x) && (var.may_miss || !holes_[static_cast<std::size_t>(v)].empty())) continue;  // imputed, or a hole
    std::string where = element_name(var.name, t.shape, i);
    if (!std::isfinite(x)) ppl::fail_at(model_.source, var.pos, where + " = " + number(x) + " is not a finite number");
    if (var.type.kind == stdlib::scalar_kind::integer && x != std::floor(x))
      ppl::fail_at(model_.source, var.pos, where + " = " + number(x) + " is not an integer, but `" + var.name + "` is declared int");
    if (x < lower) ppl::fail_at(model_.source, var.pos, where + " = " + number(x) + " is below its declared lower bound " + number(lower));
    if (x > upper) ppl::fail_at(model_.source, var.pos, where + " = " + number(x) + " is above its declared upper bound " + number(upper));
  }
}

}  // namespace ppl::model
