#pragma once
// Helpers for the tests of the built-in functions: look-up, calling through the contract
// (result_shape, then eval), and type signatures written compactly.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "stdlib/registry.hpp"
#include "tests/stdlib/distribution_checks.hpp"

namespace ppl::testing {

inline const stdlib::function& fn(const std::string& name) {
  const auto* f = stdlib::library().find_function(name);
  INFO("function ", name);
  REQUIRE(f != nullptr);
  return *f;
}

inline tensor call(const std::string& name, const std::vector<tensor>& args) {
  const auto v = views(args);
  tensor out(fn(name).result_shape(v));
  fn(name).eval(v, out.data.data());
  return out;
}

// int0 is int, real1 is real[], real2 is real[,], ...
inline stdlib::type_sig int_t(int rank) { return {stdlib::scalar_kind::integer, rank}; }
inline stdlib::type_sig real_t(int rank) { return {stdlib::scalar_kind::real, rank}; }

}  // namespace ppl::testing
