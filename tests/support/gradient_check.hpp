#pragma once
// The model-level gradient (graph::log_density_gradient) against central finite
// differences of the joint log density: tests/model/test_gradient.cpp, test_tape.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/support/model_fixture.hpp"

namespace ppl::testing {

// Sets every element of the marked unknowns to a value from `start` (cycled, offset by the
// element's position so that no two are equal) and compares the gradient with central
// differences of log_density() element by element.
inline void check_model_gradient(fixture& f, const std::vector<std::string>& names, double start = 0.3) {
  auto& g = *f.graph;
  std::vector<char> wrt(f.model->variables.size(), 0);
  int k = 0;
  for (const auto& n : names) {
    int v = f.model->find(n);
    REQUIRE(v >= 0);
    wrt[static_cast<std::size_t>(v)] = 1;
    for (double& x : g.values()[static_cast<std::size_t>(v)].data) x = start + 0.37 * std::sin(1.3 * ++k);
  }
  g.update_derived();
  std::vector<std::vector<double>> grad;
  // Twice: the first gradient records the statements that replay from tapes
  // (model/tape.hpp), the second is a replay, and it is the one compared.
  g.log_density_gradient(wrt, grad);
  const double lp = g.log_density_gradient(wrt, grad);
  REQUIRE(std::isfinite(lp));
  for (const auto& n : names) {
    int v = f.model->find(n);
    auto& x = g.values()[static_cast<std::size_t>(v)].data;
    REQUIRE(grad[static_cast<std::size_t>(v)].size() == x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double x0 = x[i], h = 1e-6 * std::max(1.0, std::fabs(x0));
      x[i] = x0 + h;
      g.update_derived();
      const double up = g.log_density();
      x[i] = x0 - h;
      g.update_derived();
      const double down = g.log_density();
      x[i] = x0;
      const double fd = (up - down) / (2 * h);
      INFO(n, "[", i, "]: reverse ", grad[static_cast<std::size_t>(v)][i], ", finite differences ", fd);
      CHECK(grad[static_cast<std::size_t>(v)][i] == doctest::Approx(fd).epsilon(1e-5).scale(1));
    }
  }
  g.update_derived();
  // Terms that read none of the unknowns are left out, so the result differs from the joint
  // by a constant; evaluating twice gives the same.
  std::vector<std::vector<double>> again;
  CHECK(g.log_density_gradient(wrt, again) == doctest::Approx(lp));
}

// One model built twice, with the path under test and with its reference (`on` and `off`
// options), for comparing their densities and gradients; `wrt` marks `names`.
struct twin_graphs {
  fixture on, off;
  std::vector<std::string> names;
  std::vector<char> wrt;
  twin_graphs(const std::string& text, const std::vector<std::string>& data, const model::graph_options& on_options,
              const model::graph_options& off_options, const std::vector<std::string>& unknowns)
      : on(text, data, on_options), off(text, data, off_options), names(unknowns), wrt(on.model->variables.size(), 0) {
    for (const auto& n : names) {
      const int v = on.model->find(n);
      REQUIRE(v >= 0);
      wrt[static_cast<std::size_t>(v)] = 1;
    }
  }
  // Sets the k-th element of the names (from 1, in order) to value(k) in both graphs and
  // recomputes their derived variables.
  template <class Value>
  void set(const Value& value) {
    int k = 0;
    for (const auto& n : names)
      for (std::size_t i = 0; i < on.mutable_value(n).data.size(); ++i) {
        const double x = value(++k);
        on.mutable_value(n).data[i] = x;
        off.mutable_value(n).data[i] = x;
      }
    on.graph->update_derived();
    off.graph->update_derived();
  }
};

}  // namespace ppl::testing
