// JSON data in Stan's format: an object of numbers and rectangular nested arrays, read
// with nlohmann::json.
#include <array>
#include <cctype>
#include <cmath>
#include <istream>
#include <streambuf>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "core/source_error.hpp"
#include "data/data.hpp"
#include "data/text.hpp"

namespace ppl::data {

namespace {

// Objects as sorted maps: nlohmann's ordered_json finds a key by a linear search, which
// made reading 50,000 named values take seconds. Values are bound in the file's order
// from the key scan below instead.
using json = nlohmann::json;

std::string too_deep(const std::string& name) {
  return "`" + name + "` has more than " + std::to_string(max_rank) + " dimensions";
}

// Stan writes infinities and NaN as strings; say why they are refused rather than only
// that a string is not a number.
std::string not_a_number(const json& j, const std::string& name) {
  if (j.is_string()) {
    static const char* const non_finite[] = {"inf", "-inf", "+inf", "infinity", "-infinity", "+infinity", "nan"};
    std::string s = j.get<std::string>();
    for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const char* word : non_finite)
      if (s == word)
        return "`" + name + "` holds \"" + j.get<std::string>() + "\"; data must be finite numbers (a missing value is null)";
  }
  std::string type = j.type_name();
  std::string article = type == "object" ? "an " : "a ";
  return "`" + name + "` holds " + article + type + "; only numbers and arrays of numbers are data";
}

// Walks a nested array, checking it is rectangular and numeric, appending its numbers.
// `s` grows by one dimension whenever a depth is first reached.
// A missing value, null (or "NA", as R's jsonlite writes it with na = "string"), is NaN:
// the graph imputes it where a `~` observes it and refuses it anywhere else.
void flatten(const json& j, int depth, shape& s, data_value& out, const std::string& name) {
  if (j.is_null() || (j.is_string() && j.get_ref<const std::string&>() == "NA")) {
    if (depth < s.rank) throw std::invalid_argument("`" + name + "` is ragged: a missing value where an array was expected");
    out.value.data.push_back(std::nan(""));
    return;
  }
  if (j.is_number()) {
    if (depth < s.rank) throw std::invalid_argument("`" + name + "` is ragged: a number where an array was expected");
    if (!j.is_number_integer() && !j.is_number_unsigned()) out.integer = false;
    double x = j.get<double>();
    if (!std::isfinite(x)) throw std::invalid_argument("`" + name + "` holds a number that is not finite");
    out.value.data.push_back(x);
    return;
  }
  if (!j.is_array()) throw std::invalid_argument(not_a_number(j, name));
  if (depth >= max_rank) throw std::invalid_argument(too_deep(name));
  if (depth == s.rank) {
    s.rank = depth + 1;
    s.dims[static_cast<std::size_t>(depth)] = static_cast<index_t>(j.size());
  } else if (s.dims[static_cast<std::size_t>(depth)] != static_cast<index_t>(j.size())) {
    throw std::invalid_argument("`" + name + "` is ragged: its rows differ in length");
  }
  for (const auto& item : j) flatten(item, depth + 1, s, out, name);
}

// The shape along the first path to a number. Checking the walk against it catches an
// array that is deeper in a later element than in the first.
shape first_path_shape(const json& j, const std::string& name) {
  shape s;
  for (const json* p = &j; p->is_array(); p = &(*p)[0]) {
    if (s.rank >= max_rank) throw std::invalid_argument(too_deep(name));
    s.dims[static_cast<std::size_t>(s.rank++)] = static_cast<index_t>(p->size());
    if (p->empty()) break;
  }
  return s;
}

// Python's json module writes NaN and Infinity, which are not JSON: say so, at the word.
std::string syntax_message(const ppl::source_file& src, std::size_t& at, const std::string& what) {
  std::size_t start = src.text.find_last_of(" \t\r\n,[:", at);
  start = start == std::string::npos ? 0 : start + 1;
  for (std::string_view bad : {"NaN", "Infinity", "-Infinity"})
    if (std::string_view(src.text).substr(start, bad.size()) == bad) {
      at = start;
      return "invalid JSON: " + std::string(bad) + " is not a JSON number, and data must be finite";
    }
  auto colon = what.find(": ");  // after nlohmann's "[json.exception...] parse error at line 1, column 8"
  return "invalid JSON: " + ppl::printable(colon == std::string::npos ? what : what.substr(colon + 2));
}

json parse(const ppl::source_file& src) {
  // nlohmann stops at a NUL byte as at the end of the text, so `{"y": 1}` followed by a NUL
  // and anything at all passed, and the key scan below then read what it had not checked.
  // JSON allows a NUL nowhere (in strings it must be written \u0000), nor any other control
  // character outside white space.
  refuse_binary(src, "JSON");
  try {
    return json::parse(src.text);
  } catch (const json::parse_error& e) {
    std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
    std::string message = syntax_message(src, at, e.what());
    ppl::fail_at(src, at, std::move(message));
  } catch (const json::exception& e) {
    // A number too large for a double: nlohmann quotes it, which lets us point at it.
    std::string what = e.what();
    auto open = what.find('\''), close = what.rfind('\'');
    std::size_t at = open < close ? src.text.find(what.substr(open + 1, close - open - 1)) : 0;
    ppl::fail_at(src, at == std::string::npos ? 0 : at, "invalid JSON: " + ppl::printable(what.substr(what.find("] ") + 2)));
  }
}

using key_list = std::vector<std::pair<std::string, std::size_t>>;  // name, offset of its quote

// A key as nlohmann reads it, so that "\u0079" and "y" are the same name.
std::string unescape(std::string_view raw) {
  if (raw.find('\\') == std::string_view::npos) return std::string(raw);
  return json::parse("\"" + std::string(raw) + "\"").get<std::string>();
}

// The top-level keys in file order with their offsets, since parsed values carry no
// positions: a message about `y` points at "y". The text has already parsed as an object.
key_list top_level_keys(std::string_view text) {
  key_list keys;
  int depth = 0;
  bool key_next = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') {
      std::size_t end = i + 1;
      while (end < text.size() && text[end] != '"') end += text[end] == '\\' ? 2 : 1;
      if (depth == 1 && key_next) keys.push_back({unescape(text.substr(i + 1, end - i - 1)), i});
      key_next = false;
      i = end;
    } else if (text[i] == '{' || text[i] == '[') {
      key_next = ++depth == 1;
    } else if (text[i] == '}' || text[i] == ']') {
      --depth;
    } else if (text[i] == ',') {
      key_next = depth == 1;
    }
  }
  return keys;
}

// nlohmann keeps one of two equal keys silently; a second value for a name is a mistake.
void check_keys(const ppl::source_file& src, const key_list& keys) {
  std::set<std::string_view> seen;
  for (const auto& [name, at] : keys) {
    if (name.empty()) ppl::fail_at(src, at, "empty variable name");
    if (!seen.insert(name).second) ppl::fail_at(src, at, "duplicate variable name \"" + ppl::printable(name) + "\"");
  }
}

}  // namespace

data_value json_value(const json& j, const std::string& name, const std::string& origin) {
  data_value v;
  v.integer = true;
  v.origin = origin;
  shape expected = first_path_shape(j, name);
  flatten(j, 0, v.value.shape, v, name);
  if (j.is_array() && !(v.value.shape == expected))
    throw std::invalid_argument("`" + name + "` is ragged: its rows differ in length");
  return v;
}

namespace {

// Stan's JSON read as a stream of events (nlohmann's SAX interface): each value's numbers go
// straight into its array, with no document of the whole file beside them. Anything this
// reader does not take (a syntax error, a ragged array, a duplicate name, text) stops it,
// and the file is then read again as a document (parse_json), which gives the data or the
// message at its place.
class json_events final : public nlohmann::json_sax<json> {
 public:
  explicit json_events(std::string path) : path_(std::move(path)) {}
  data_table table;

  bool null() override { return scalar(std::nan(""), true); }
  bool boolean(bool) override { return false; }
  bool number_integer(number_integer_t x) override { return scalar(static_cast<double>(x), true); }
  bool number_unsigned(number_unsigned_t x) override { return scalar(static_cast<double>(x), true); }
  bool number_float(number_float_t x, const string_t&) override { return std::isfinite(x) && scalar(x, false); }
  bool string(string_t& s) override { return s == "NA" && scalar(std::nan(""), true); }
  bool binary(binary_t&) override { return false; }
  bool start_object(std::size_t) override { return !std::exchange(in_object_, true); }  // the top level only
  bool end_object() override { return open_ == 0 && name_.empty(); }
  bool key(string_t& k) override {
    if (k.empty() || !seen_.insert(k).second) return false;
    name_ = k;
    value_ = data_value{};
    value_.integer = true;
    value_.origin = path_;
    rank_ = 0, fixed_ = false, open_ = 0;
    return true;
  }
  bool start_array(std::size_t) override {
    if (!in_object_ || name_.empty() || open_ >= max_rank) return false;
    if (fixed_ && open_ >= rank_) return false;  // deeper in a later element than in the first
    if (!fixed_) rank_ = std::max(rank_, open_ + 1);
    counts_[static_cast<std::size_t>(open_)] = 0;
    if (open_ > 0) ++counts_[static_cast<std::size_t>(open_ - 1)];
    ++open_;
    return true;
  }
  bool end_array() override {
    const auto d = static_cast<std::size_t>(--open_);
    if (dims_set_[d] && dims_[d] != counts_[d]) return false;  // ragged
    dims_[d] = counts_[d], dims_set_[d] = true;
    return open_ > 0 || finish();
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  bool scalar(double x, bool integer) {
    if (!in_object_ || name_.empty()) return false;
    if (!fixed_) {
      if (open_ != rank_) return false;  // a number where an array was expected
      fixed_ = true;
    } else if (open_ != rank_) {
      return false;
    }
    if (open_ > 0) ++counts_[static_cast<std::size_t>(open_ - 1)];
    value_.integer = value_.integer && integer;
    // Grown by a quarter, not doubled: a hundred million numbers are not held at twice
    // their size (the stream cannot say an array's length before its end).
    auto& data = value_.value.data;
    if (data.size() == data.capacity()) data.reserve(data.size() + data.size() / 4 + 16);
    data.push_back(x);
    return open_ > 0 || finish();
  }
  // A value complete: its shape from the arrays' lengths.
  bool finish() {
    value_.value.shape.rank = rank_;
    for (int d = 0; d < rank_; ++d) value_.value.shape.dims[static_cast<std::size_t>(d)] = dims_[static_cast<std::size_t>(d)];
    dims_set_.fill(false);
    // The growth's slack given back once the value is whole (a copy now, while little else
    // is held, rather than a quarter more for the whole run).
    if (auto& data = value_.value.data; data.capacity() > data.size() + data.size() / 16 + 64) data.shrink_to_fit();
    table.set(std::exchange(name_, {}), std::move(value_));
    return true;
  }

  std::string path_, name_;
  std::set<std::string> seen_;
  bool in_object_ = false, fixed_ = false;
  int open_ = 0, rank_ = 0;  // arrays open, and the value's rank (fixed at its first number)
  data_value value_;
  std::array<index_t, max_rank> counts_{}, dims_{};
  std::array<bool, max_rank> dims_set_{};
};

// The file through text_blocks, a block at a time, each block cut at its first byte that is
// no text (nlohmann reads a NUL as the end of the input, so `{"y": 1}` and then a NUL and
// anything would pass): the stream then ends there, and `binary` says so.
class text_buffer final : public std::streambuf {
 public:
  explicit text_buffer(const std::string& path) : in_(path) {}
  bool binary = false;

 protected:
  int_type underflow() override {
    if (binary) return traits_type::eof();
    block_.clear();
    if (in_.read(block_, std::size_t{1} << 20) == 0) return traits_type::eof();
    if (const std::size_t at = first_binary_byte(block_); at != std::string::npos) block_.resize(at), binary = true;
    if (block_.empty()) return traits_type::eof();
    setg(block_.data(), block_.data(), block_.data() + block_.size());
    return traits_type::to_int_type(block_[0]);
  }

 private:
  text_blocks in_;
  std::string block_;
};

}  // namespace

// Streamed from the file a block at a time (a `.gz` inflated as it comes).
std::optional<data_table> stream_json(const std::string& path) {
  json_events events(path);
  text_buffer buffer(path);
  std::istream in(&buffer);
  if (!json::sax_parse(in, &events) || buffer.binary) return std::nullopt;
  return std::move(events.table);
}

// The document reader (parse_json) runs only where the stream stops: it gives the message.
data_table read_json(const std::string& path) {
  if (auto table = stream_json(path)) return std::move(*table);
  return parse_json({path, read_file_text(path)});
}

data_table parse_json(const ppl::source_file& src) {
  const std::string& path = src.name;
  json doc = parse(src);
  if (!doc.is_object()) ppl::fail_at(src, src.text.find_first_not_of(" \t\r\n"), "the JSON data must be an object of named values");
  auto keys = top_level_keys(src.text);
  check_keys(src, keys);
  data_table table;
  auto bind = [&](const std::string& name, const json& value, std::size_t at) {
    try {
      table.set(name, json_value(value, name, path));
    } catch (const std::invalid_argument& e) {
      ppl::fail_at(src, at, ppl::printable(e.what()));  // names may hold any character, escaped in JSON
    }
  };
  // In file order, so that the first bad value in the file is the one reported.
  for (const auto& [name, at] : keys)
    if (auto it = doc.find(name); it != doc.end()) bind(name, *it, at);
  for (const auto& [name, value] : doc.items())  // none, unless the key scan missed one
    if (!table.find(name)) bind(name, value, 0);
  return table;
}

}  // namespace ppl::data
