// Choosing a loader by extension, and `--set name=value`.
#include <nlohmann/json.hpp>

#include "runtime/data.hpp"

namespace ppl::runtime {

data_value json_value(const nlohmann::json& j, const std::string& name, const std::string& origin);

data_table read_data_file(const std::string& path) {
  bool json = path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  return json ? read_json(path) : read_csv(path);
}

void apply_set(data_table& table, std::string_view assignment) {
  auto eq = assignment.find('=');
  std::string text(assignment);
  if (eq == std::string_view::npos) throw std::invalid_argument("--set " + text + ": expected name=value");
  std::string name(assignment.substr(0, eq));
  bool identifier = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name) identifier = identifier && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!identifier) throw std::invalid_argument("--set " + text + ": `" + name + "` is not a variable name");
  nlohmann::json value;
  try {
    value = nlohmann::json::parse(assignment.substr(eq + 1));
  } catch (const nlohmann::json::parse_error&) {
    throw std::invalid_argument("--set " + text + ": the value is not a number or an array of numbers");
  }
  table.set(name, json_value(value, name, "--set " + text));
}

}  // namespace ppl::runtime
