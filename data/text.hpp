#pragma once
// Getting the text of a data file, shared by the loaders: reading it (decompressing a
// `.gz`), and refusing what is not text.
#include <cstdio>
#include <string>
#include <string_view>

#include "core/source_error.hpp"

namespace ppl::data {

// The whole file; a `.gz` file decompressed. Throws ppl::source_error naming the file.
std::string read_file_text(const std::string& path);

// A text file a block at a time, for a reader whose memory must hold its values and not
// the whole text (a 100-million-row CSV): a `.gz` inflated as it is read (a damaged or
// truncated archive throws, as read_file_text does), any other file as it is (a gzip file
// without its name is then refused by refuse_binary, as read_file_text's text is).
class text_blocks {
 public:
  explicit text_blocks(const std::string& path);
  ~text_blocks();
  text_blocks(const text_blocks&) = delete;
  text_blocks& operator=(const text_blocks&) = delete;
  // Appends up to `bytes` bytes of the file to `text`; the number appended, 0 at its end.
  std::size_t read(std::string& text, std::size_t bytes);
  // The text's size as far as it is known before reading it (a plain file's size, a gzip
  // file's trailer; 0 if neither says).
  std::size_t size_hint() const { return size_hint_; }

 private:
  std::string path_;
  void* file_ = nullptr;  // a gzFile, for a `.gz`
  std::FILE* plain_ = nullptr;
  std::size_t size_hint_ = 0;
  std::size_t read_ = 0;  // bytes read so far (inflated, of a `.gz`)
};

// The offset of the first byte that text never holds (a NUL, most control characters), or
// npos: refuse_binary's test, for a reader that sees the text a block at a time.
std::size_t first_binary_byte(std::string_view text);

// Throws a one-line ppl::source_error, at the first byte that text never holds (a NUL,
// most control characters) or at the start of a file recognised by its first bytes (a
// gzip file without its .gz name, an image, a spreadsheet), naming what the file seems to
// be. Never echoes the bytes. `kind` is what the file should have been: "CSV", "JSON",
// "R data".
void refuse_binary(ppl::source_view src, std::string_view kind);

}  // namespace ppl::data
