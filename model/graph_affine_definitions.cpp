// `=` statements affine in what they read, recomputed as a sparse product. A BUGS model's
// linear predictor, `mu[i, j] <- alpha[i] + beta[i] * (x[j] - xbar)`, is recomputed after
// every update of what it reads (a Gaussian block's draw, a scale move's steps, the end of
// each iteration); through the batch path each element costs ~50 instructions, walking its
// expression node by node. Its value is c + A v, v the elements of the variables it reads
// (unknowns, or derived variables, each a leaf here) and c, A fixed by the data, A with a
// few nonzeros a row: held by columns, an element costs its nonzeros.
//
// Which statements qualify is structural (model/affine.hpp); c and A are read by running
// the statement the ordinary way with v = 0 and then with each element of v at 1 in turn
// (at most max_probed_elements evaluations of an instance in all), and checked at a random
// v against the ordinary way before they are used. The values agree with the batch path's
// to rounding, not bit for bit (the sum's order differs). A gradient takes the same table
// both ways: forward the product, backward A' times the target's adjoint.
#include <boost/random/normal_distribution.hpp>
#include <algorithm>
#include <cmath>

#include "model/affine.hpp"
#include "model/graph.hpp"

namespace ppl::model {

using lang::ir::role;
using lang::ir::statement;

struct graph::affine_definition {
  std::vector<int> inputs;             // the variables read, whole, one after another in v
  std::vector<index_t> offsets;        // each instance's element of the target
  std::vector<double> constant;        // c, by instance
  // A by columns (v's elements): entries column_start[j] .. column_start[j + 1] - 1, each
  // the target element it adds to and its coefficient. A column's few entries are then
  // added where they go, with no pass over the rows beyond c's.
  std::vector<std::size_t> column_start;
  std::vector<index_t> to;
  std::vector<double> coefficient;
};

namespace {

// Reading c and A evaluates the statement once per element of v: at most this many
// instances in all (a few milliseconds), else the batch path keeps it.
constexpr double max_probed_elements = 1e6;

}  // namespace

graph::affine_definition* graph::affine_definition_of(const statement& s) {
  const auto index = static_cast<std::size_t>(&s - model_.statements.data());
  if (affine_definitions_.size() < model_.statements.size()) {
    affine_definitions_.resize(model_.statements.size());
    affine_definition_tried_.resize(model_.statements.size(), 0);
  }
  if (eval_.log) return nullptr;  // reads are being logged: the evaluator must see them
  if (affine_definition_tried_[index]) return affine_definitions_[index].get();
  affine_definition_tried_[index] = 1;
  const auto target = static_cast<std::size_t>(s.target);
  if (!options_.affine_definitions || s.which != statement::kind::assign || model_.variables[target].role != role::derived ||
      s.loops.empty() || !instances_fixed(s) || has_holes_ || !defined_[target].empty() || s.value->type.rank != 0 ||
      !s.value->depends_on_unknown || lang::ir::reads_variable(*s.value, s.target))
    return nullptr;
  affinity affine(model_, false);
  if (!affine(*s.value)) return nullptr;
  auto a = std::make_shared<affine_definition>();
  a->inputs = affine.reached();
  std::size_t p = 0;
  for (int v : a->inputs) p += static_cast<std::size_t>(values_[static_cast<std::size_t>(v)].size());
  const double count = static_cast<double>(instance_count(s));
  if (p == 0 || count * static_cast<double>(p + 2) > max_probed_elements) return nullptr;
  a->offsets = plate_offsets(s);
  if (a->offsets.size() != static_cast<std::size_t>(count)) return nullptr;

  std::vector<std::vector<double>> saved;
  for (int v : a->inputs) saved.push_back(values_[static_cast<std::size_t>(v)].data);
  auto set = [&](auto value) {  // v's element k to value(k), then the statement the ordinary way
    std::size_t k = 0;
    for (int v : a->inputs)
      for (double& x : values_[static_cast<std::size_t>(v)].data) x = value(k++);
    if (!batch_assign(s)) run_statement(s, nullptr, false);
  };
  auto result = [&](std::size_t r) { return values_[target].data[static_cast<std::size_t>(a->offsets[r])]; };
  const auto n = a->offsets.size();
  bool ok = false;
  try {
    set([](std::size_t) { return 0.0; });
    for (std::size_t r = 0; r < n; ++r) a->constant.push_back(result(r));
    a->column_start.push_back(0);
    for (std::size_t j = 0; j < p; ++j) {
      set([j](std::size_t k) { return k == j ? 1.0 : 0.0; });
      for (std::size_t r = 0; r < n; ++r)
        if (const double slope = result(r) - a->constant[r]; slope != 0) {
          a->to.push_back(a->offsets[r]);
          a->coefficient.push_back(slope);
        }
      a->column_start.push_back(a->to.size());
    }
    // Checked at a random point (a fixed stream: the same in every chain and run).
    ppl::rng check(20261130);
    boost::random::normal_distribution<double> normal;
    std::vector<double> point(p);
    for (double& x : point) x = 1 + normal(check);
    set([&](std::size_t k) { return point[k]; });
    std::vector<double> predicted(a->constant), size(n, 1.0);
    std::vector<std::size_t> row(values_[target].data.size());
    for (std::size_t r = 0; r < n; ++r) row[static_cast<std::size_t>(a->offsets[r])] = r;
    for (std::size_t j = 0; j < p; ++j)
      for (std::size_t e = a->column_start[j]; e < a->column_start[j + 1]; ++e) {
        const std::size_t r = row[static_cast<std::size_t>(a->to[e])];
        predicted[r] += a->coefficient[e] * point[j];
        size[r] += std::abs(a->coefficient[e] * point[j]);
      }
    ok = true;
    for (std::size_t r = 0; r < n && ok; ++r) ok = std::abs(result(r) - predicted[r]) <= 1e-10 * (size[r] + std::abs(a->constant[r]));
  } catch (const std::exception&) {
    ok = false;  // the statement refuses these points: it keeps the ordinary way
  }
  for (std::size_t i = 0; i < a->inputs.size(); ++i) values_[static_cast<std::size_t>(a->inputs[i])].data = saved[i];
  if (!batch_assign(s)) run_statement(s, nullptr, false);
  if (!ok) return nullptr;
  affine_definitions_[index] = a;
  return a.get();
}

std::size_t graph::affine_definition_count() const {
  return static_cast<std::size_t>(std::count_if(affine_definitions_.begin(), affine_definitions_.end(), [](const auto& a) { return a != nullptr; }));
}

void graph::apply_affine_definition(affine_definition& a, const statement& s) {
  double* out = values_[static_cast<std::size_t>(s.target)].data.data();
  for (std::size_t r = 0; r < a.offsets.size(); ++r) out[a.offsets[r]] = a.constant[r];
  const std::size_t* start = a.column_start.data();
  const index_t* to = a.to.data();
  const double* coefficient = a.coefficient.data();
  for (int v : a.inputs)
    for (double x : values_[static_cast<std::size_t>(v)].data) {
      for (std::size_t e = start[0]; e < start[1]; ++e) out[to[e]] += coefficient[e] * x;
      ++start;
    }
}

void graph::pass_back_affine_definition(const affine_definition& a, const statement& s, std::span<double* const> slots) const {
  const double* d = slots[static_cast<std::size_t>(s.target)];
  if (!d) return;
  const std::size_t* start = a.column_start.data();
  const index_t* to = a.to.data();
  const double* coefficient = a.coefficient.data();
  for (int v : a.inputs) {
    const auto size = static_cast<std::size_t>(values_[static_cast<std::size_t>(v)].size());
    if (double* into = slots[static_cast<std::size_t>(v)])
      for (std::size_t k = 0; k < size; ++k) {
        double sum = 0;
        for (std::size_t e = start[k]; e < start[k + 1]; ++e) sum += coefficient[e] * d[to[e]];
        into[k] += sum;
      }
    start += size;
  }
}

}  // namespace ppl::model
