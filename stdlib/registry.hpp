#pragma once
// The table of built-in distributions and functions. Filled explicitly by
// register_library (stdlib/library.cpp); nothing registers itself.
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "stdlib/distribution.hpp"
#include "stdlib/function.hpp"

namespace ppl::stdlib {

class registry {
 public:
  void add(std::unique_ptr<distribution> d);
  void add(std::unique_ptr<function> f);

  const distribution* find_distribution(std::string_view name) const;
  const function* find_function(std::string_view name) const;

  std::vector<std::string> distribution_names() const;
  std::vector<std::string> function_names() const;

 private:
  std::map<std::string, std::unique_ptr<distribution>, std::less<>> distributions_;
  std::map<std::string, std::unique_ptr<function>, std::less<>> functions_;
};

// Adds every built-in distribution and function.
void register_library(registry& r);

// The registry with the whole library, built once on first use.
const registry& library();

}  // namespace ppl::stdlib
