#pragma once
// Data from files and the command line, before it meets the model: named arrays of
// numbers. Binding them to `data` declarations (kinds, shapes, sizes, domains) is the graph
// builder's job (runtime/bind_data.*).
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lang/diagnostics.hpp"
#include "runtime/tensor.hpp"

namespace ppl::runtime {

struct data_value {
  tensor value;
  bool integer = false;  // every element was written as an integer
  std::string origin;    // for messages: "data.csv, column y", "data.json", "--set K=50"
};

class data_table {
 public:
  // Adds or replaces (later sources override earlier ones, --set last).
  void set(std::string name, data_value v) { values_[std::move(name)] = std::move(v); }
  const data_value* find(std::string_view name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }
  data_value* find(std::string_view name) {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }
  const std::map<std::string, data_value, std::less<>>& values() const { return values_; }
  void merge(const data_table& other) {
    for (const auto& [k, v] : other.values_) values_[k] = v;
  }

 private:
  std::map<std::string, data_value, std::less<>> values_;
};

// CSV with a header row; each column is a 1-D array named by its header. Columns named
// X.1 ... X.P (consecutive, same prefix) also form the matrix X with P columns. A `.gz`
// file is decompressed on the fly. Errors throw lang::source_error naming file, line and
// column.
data_table read_csv(const std::string& path);

// JSON in Stan's data format: an object of numbers and row-major nested arrays.
data_table read_json(const std::string& path);

// The same from text already in memory (the fuzzers' entry points); `src.name` names it in
// messages.
data_table parse_csv(const lang::source_file& src);
data_table parse_json(const lang::source_file& src);

// Chooses by extension: .json, otherwise CSV.
data_table read_data_file(const std::string& path);

// One `--set name=value`: value is a number or a JSON array. Throws
// std::invalid_argument with a message saying what was wrong.
void apply_set(data_table& table, std::string_view assignment);

}  // namespace ppl::runtime
