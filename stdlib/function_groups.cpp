// Helpers shared by the groups of built-in functions: names and types in messages.
#include "stdlib/function_groups.hpp"

#include <cctype>
#include <stdexcept>

namespace ppl::stdlib {

std::string display_name(std::string_view name) {
  if (!name.empty() && std::isalpha(static_cast<unsigned char>(name[0]))) return std::string(name);
  return "`" + std::string(name) + "`";
}

void expect_name(std::string_view name, std::string_view expected) {
  if (name != expected)
    throw std::logic_error("no built-in " + std::string(name) + " (expected " + std::string(expected) + ")");
}

std::string describe_types(std::span<const type_sig> args) {
  if (args.empty()) return "nothing";
  std::string s;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i > 0) s += i + 1 == args.size() ? " and " : ", ";
    s += to_string(args[i]);
  }
  return s;
}

}  // namespace ppl::stdlib
