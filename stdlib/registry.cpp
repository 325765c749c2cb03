#include "stdlib/registry.hpp"

namespace ppl::stdlib {

void registry::add(std::unique_ptr<distribution> d) {
  std::string key(d->name());
  distributions_[key] = std::move(d);
}

void registry::add(std::unique_ptr<function> f) {
  std::string key(f->name());
  functions_[key] = std::move(f);
}

const distribution* registry::find_distribution(std::string_view name) const {
  auto it = distributions_.find(name);
  return it == distributions_.end() ? nullptr : it->second.get();
}

const function* registry::find_function(std::string_view name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : it->second.get();
}

std::vector<std::string> registry::distribution_names() const {
  std::vector<std::string> names;
  for (const auto& [name, d] : distributions_) names.push_back(name);
  return names;
}

std::vector<std::string> registry::function_names() const {
  std::vector<std::string> names;
  for (const auto& [name, f] : functions_) names.push_back(name);
  return names;
}

const registry& library() {
  static const registry r = [] {
    registry built;
    register_library(built);
    return built;
  }();
  return r;
}

}  // namespace ppl::stdlib
