#pragma once
// The fixtures that R scripts in tests/support/ write (what posterior or loo computed for
// committed draws): a CSV with a header and no quoted cells, numbers with 17 significant
// digits so that the doubles R computed are read back, NA where R gives none.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ppl::testing {

inline std::string data_fixture(const char* name) { return std::string(PPL_SOURCE_DIR) + "/tests/data/" + name; }

inline double reference_number(const std::string& cell) { return cell == "NA" ? NAN : std::stod(cell); }

// One map from column name to cell per row.
inline std::vector<std::map<std::string, std::string>> read_reference_csv(const std::string& path) {
  auto cells = [](const std::string& line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
    return out;
  };
  std::ifstream in(path);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  std::string line;
  std::getline(in, line);
  const auto header = cells(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    const auto row = cells(line);
    REQUIRE(row.size() == header.size());
    auto& r = rows.emplace_back();
    for (std::size_t i = 0; i < header.size(); ++i) r[header[i]] = row[i];
  }
  return rows;
}

}  // namespace ppl::testing
