#pragma once
// JAGS's CODA files as draws_source reads them (draws/reader.hpp): the index,
// STEMindex.txt, names each column's lines in the chain files STEMchain1.txt, ... beside
// it; a chain file holds `iteration value` lines, every draw of one column before the
// next column's. The iteration numbers are read as numbers and otherwise ignored.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ppl::draws::detail {

struct coda_index {
  std::vector<std::string> names;     // in the index's order
  std::vector<std::size_t> first;     // each name's first line (1-based) in a chain file
  std::size_t length = 0;             // lines per name, the same for every name
  std::vector<std::string> chains;    // STEMchain1.txt, STEMchain2.txt, ...
};

// What the first line of a text says it is: a CODA index line (`NAME FIRST LAST`), a
// chain file's line (`ITERATION VALUE`), or neither.
enum class coda_kind { none, index, chain };
coda_kind coda_line_kind(std::string_view line);

// Reads an index and finds its chain files. Throws ppl::source_error.
coda_index read_coda_index(const std::string& path);

// Calls value(k, i, x) for draw i (0-based) of name k, in the file's order: a name's draws
// in order, one name after another. Throws ppl::source_error on a malformed line or a
// file shorter than the index says.
void scan_coda_chain(const std::string& path, const coda_index& index,
                     const std::function<void(std::size_t, std::size_t, double)>& value);

}  // namespace ppl::draws::detail
