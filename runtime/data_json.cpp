// JSON data in Stan's format: an object of numbers and rectangular nested arrays, read
// with nlohmann::json.
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lang/diagnostics.hpp"
#include "runtime/data.hpp"

namespace ppl::runtime {

namespace {

// Walks a nested array, checking it is rectangular and numeric, appending its numbers.
void flatten(const nlohmann::json& j, int depth, shape& s, data_value& out, const std::string& name) {
  if (j.is_number()) {
    if (depth < s.rank) throw std::invalid_argument("`" + name + "` is ragged: a number where an array was expected");
    if (!j.is_number_integer() && !j.is_number_unsigned()) out.integer = false;
    double x = j.get<double>();
    if (!std::isfinite(x)) throw std::invalid_argument("`" + name + "` holds a number that is not finite");
    out.value.data.push_back(x);
    return;
  }
  if (!j.is_array()) throw std::invalid_argument("`" + name + "` holds a " + std::string(j.type_name()) + "; only numbers and arrays of numbers are data");
  if (depth >= max_rank) throw std::invalid_argument("`" + name + "` has more than " + std::to_string(max_rank) + " dimensions");
  if (depth == s.rank) {
    s.rank = depth + 1;
    s.dims[static_cast<std::size_t>(depth)] = static_cast<index_t>(j.size());
  } else if (s.dims[static_cast<std::size_t>(depth)] != static_cast<index_t>(j.size())) {
    throw std::invalid_argument("`" + name + "` is ragged: its rows differ in length");
  }
  for (const auto& item : j) flatten(item, depth + 1, s, out, name);
}

}  // namespace

data_value json_value(const nlohmann::json& j, const std::string& name, const std::string& origin) {
  data_value v;
  v.integer = true;
  v.origin = origin;
  shape s;
  if (j.is_array()) {
    // Fix the rank from the first path to a number so that ragged arrays are detected.
    const nlohmann::json* p = &j;
    while (p->is_array()) {
      if (s.rank >= max_rank) throw std::invalid_argument("`" + name + "` has more than " + std::to_string(max_rank) + " dimensions");
      s.dims[static_cast<std::size_t>(s.rank++)] = static_cast<index_t>(p->size());
      if (p->empty()) break;
      p = &(*p)[0];
    }
    shape probe;
    flatten(j, 0, probe, v, name);
    if (!(probe == s) && !(s.size() == 0)) throw std::invalid_argument("`" + name + "` is ragged: its rows differ in length");
  } else {
    flatten(j, 0, s, v, name);
  }
  v.value.shape = s;
  return v;
}

data_table read_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw lang::source_error({path, {}, "cannot open the file", "", ""});
  std::ostringstream os;
  os << in.rdbuf();
  lang::source_file src{path, os.str()};
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(src.text);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    auto colon = what.rfind(": ");
    lang::fail_at(src, e.byte > 0 ? e.byte - 1 : 0, "invalid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2)));
  }
  if (!doc.is_object()) lang::fail_at(src, 0, "the JSON data must be an object of named values");
  data_table table;
  for (const auto& [name, value] : doc.items()) {
    try {
      table.set(name, json_value(value, name, path));
    } catch (const std::invalid_argument& e) {
      auto at = src.text.find("\"" + name + "\"");
      lang::fail_at(src, at == std::string::npos ? 0 : at, e.what());
    }
  }
  return table;
}

}  // namespace ppl::runtime
