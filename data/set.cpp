// Choosing a loader by extension (or, for R's format, by the first statement), and
// `--set name=value`.
#include <cctype>
#include <nlohmann/json.hpp>

#include "data/data.hpp"
#include "data/r_lexer.hpp"
#include "data/text.hpp"

namespace ppl::data {

// In data_json.cpp: one JSON value as data, or std::invalid_argument saying why not.
data_value json_value(const nlohmann::json& j, const std::string& name, const std::string& origin);

data_table read_data_file(const std::string& path) {
  if (path.ends_with(".json")) return read_json(path);
  if (path.ends_with(".npz")) return read_npz(path);
  if (path.ends_with(".npy")) return read_npy(path);
  const std::string_view base = std::string_view(path).substr(0, path.size() - (path.ends_with(".gz") ? 3 : 0));
  if (base.ends_with(".R") || base.ends_with(".r")) return read_r_dump(path);
  if (base.ends_with(".csv")) return read_csv(path);
  // Another name: R's dump if its first statement says so (from the first megabyte), else
  // CSV, which is read a block at a time.
  std::string head;
  text_blocks(path).read(head, std::size_t{1} << 20);
  if (r_dump::looks_like_r(head)) return read_r_dump(path);
  return read_csv(path);
}

namespace {

bool is_identifier(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

}  // namespace

// set -> name '=' (number | JSON array)
void apply_set(data_table& table, std::string_view assignment) {
  std::string text(assignment);
  auto eq = assignment.find('=');
  if (eq == std::string_view::npos) throw std::invalid_argument("--set " + text + ": expected name=value");
  std::string name(assignment.substr(0, eq));
  if (!is_identifier(name)) throw std::invalid_argument("--set " + text + ": `" + name + "` is not a variable name");
  nlohmann::json value;
  try {
    value = nlohmann::json::parse(assignment.substr(eq + 1));
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument("--set " + text + ": the value is not a number or an array of numbers");
  }
  try {
    table.set(name, json_value(value, name, "--set " + text));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("--set " + text + ": " + e.what());
  }
}

}  // namespace ppl::data
