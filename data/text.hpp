#pragma once
// Getting the text of a data file, shared by the loaders: reading it (decompressing a
// `.gz`), and refusing what is not text.
#include <string>
#include <string_view>

#include "core/source_error.hpp"

namespace ppl::data {

// The whole file; a `.gz` file decompressed. Throws ppl::source_error naming the file.
std::string read_file_text(const std::string& path);

// Throws a one-line ppl::source_error, at the first byte that text never holds (a NUL,
// most control characters) or at the start of a file recognised by its first bytes (a
// gzip file without its .gz name, an image, a spreadsheet), naming what the file seems to
// be. Never echoes the bytes. `kind` is what the file should have been: "CSV", "JSON",
// "R data".
void refuse_binary(const ppl::source_file& src, std::string_view kind);

}  // namespace ppl::data
