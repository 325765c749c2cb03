#include "data/text.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <zlib.h>

#include "data/data.hpp"

namespace ppl::data {

namespace {

[[noreturn]] void fail_file(const std::string& path, std::string message) {
  throw ppl::source_error({path, {}, std::move(message), "", ""});
}

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// A gzip file ends with its uncompressed size modulo 2^32: a hint that lets the text be
// inflated into one allocation. Capped, since a plain file passed through has no trailer.
std::size_t gzip_size_hint(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const auto size = static_cast<std::size_t>(std::max<std::streamoff>(in ? std::streamoff(in.tellg()) : 0, 0));
  unsigned char head[2] = {}, tail[4] = {};
  if (size < 18 || !in.seekg(0).read(reinterpret_cast<char*>(head), 2) || head[0] != 0x1f || head[1] != 0x8b) return 0;
  in.seekg(-4, std::ios::end).read(reinterpret_cast<char*>(tail), 4);
  std::size_t hint = tail[0] | tail[1] << 8 | tail[2] << 16 | std::size_t{tail[3]} << 24;
  return std::min(hint, size * 64);
}

// zlib's reason for a failed read, without the path it prefixes; "" when the stream is
// fine. A stream cut short reads as a clean end of file with Z_BUF_ERROR set.
std::string gzip_failure(gzFile f, const std::string& path, bool failed) {
  int code = Z_OK;
  std::string why = gzerror(f, &code);
  if (why.rfind(path + ": ", 0) == 0) why.erase(0, path.size() + 2);
  if (!failed && code == Z_OK) return "";
  return "cannot decompress the file: " + (code == Z_BUF_ERROR ? std::string("it is truncated") : why);
}

// gzread passes uncompressed files through, but a damaged or truncated archive must not
// pass as a shorter data set.
std::string read_gzip(const std::string& path) {
  std::string text(gzip_size_hint(path) + 1, '\0');
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) fail_file(path, std::string("cannot open the file: ") + std::strerror(errno));
  gzbuffer(f, 1 << 18);
  std::size_t used = 0;
  int n = 0;
  do {
    if (used == text.size()) text.resize(2 * text.size());
    n = gzread(f, text.data() + used, static_cast<unsigned>(std::min<std::size_t>(text.size() - used, 1u << 30)));
    if (n > 0) used += static_cast<std::size_t>(n);
  } while (n > 0);
  const std::string why = gzip_failure(f, path, n < 0);
  gzclose(f);
  if (!why.empty()) fail_file(path, why);
  text.resize(used);
  return text;
}

struct signature {
  std::string_view bytes;
  const char* what;
  const char* advice;  // empty, or what to do
};

// What a file's first bytes say it is, for the files most often given as data by mistake.
constexpr std::array<signature, 7> signatures{{
    {"\x1f\x8b", "a gzip-compressed file", "name it with .gz at the end (data.csv.gz) to have it decompressed"},
    {"PK\x03\x04", "a zip archive (a spreadsheet saved as .xlsx is one)", "save the sheet as CSV"},
    {"\x89PNG", "a PNG image", ""},
    {"\xff\xd8\xff", "a JPEG image", ""},
    {"%PDF", "a PDF document", ""},
    {"\xff\xfe", "UTF-16 text", "save it as UTF-8"},
    {"\xfe\xff", "UTF-16 text", "save it as UTF-8"},
}};

[[noreturn]] void fail_one_line(ppl::source_view src, std::size_t offset, std::string message) {
  ppl::diagnostic d = ppl::make_diagnostic(src, offset, std::move(message));
  d.source_line.clear();  // the line would be the binary bytes themselves
  throw ppl::source_error(std::move(d));
}

// "a CSV", "a JSON", "an R data": the letter R is said with a vowel.
std::string a_kind(std::string_view kind) { return (kind.starts_with('R') ? "an " : "a ") + std::string(kind); }

}  // namespace

std::string read_file_text(const std::string& path) {
  if (ends_with(path, ".gz")) return read_gzip(path);
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) fail_file(path, std::string("cannot open the file: ") + std::strerror(errno));
  std::string text(static_cast<std::size_t>(in.tellg()), '\0');
  in.seekg(0);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  return text;
}

text_blocks::text_blocks(const std::string& path) : path_(path) {
  if (!ends_with(path, ".gz")) {
    plain_ = std::fopen(path.c_str(), "rb");
    if (!plain_) fail_file(path, std::string("cannot open the file: ") + std::strerror(errno));
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (in) size_hint_ = static_cast<std::size_t>(std::max<std::streamoff>(in.tellg(), 0));
    return;
  }
  size_hint_ = gzip_size_hint(path);
  file_ = gzopen(path.c_str(), "rb");
  if (!file_) fail_file(path, std::string("cannot open the file: ") + std::strerror(errno));
  gzbuffer(static_cast<gzFile>(file_), 1 << 18);
}

text_blocks::~text_blocks() {
  if (file_) gzclose(static_cast<gzFile>(file_));
  if (plain_) std::fclose(plain_);
}

std::size_t text_blocks::read(std::string& text, std::size_t bytes) {
  const std::size_t used = text.size();
  // A small file is not given a whole block of zeros first: what is left of it, and one
  // byte more to see its end (a file still growing gets the next call's).
  if (plain_ && size_hint_ >= read_) bytes = std::min(bytes, size_hint_ - read_ + 1);
  text.resize(used + bytes);
  std::size_t got = 0;
  if (plain_) {
    got = std::fread(text.data() + used, 1, bytes, plain_);
    read_ += got;
    text.resize(used + got);
    report_read(read_, size_hint_);
    if (got < bytes && std::ferror(plain_)) fail_file(path_, std::string("cannot read the file: ") + std::strerror(errno));
    return got;
  }
  int n = 0;
  while (got < bytes) {
    n = gzread(static_cast<gzFile>(file_), text.data() + used + got, static_cast<unsigned>(std::min<std::size_t>(bytes - got, 1u << 30)));
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  text.resize(used + got);
  read_ += got;
  report_read(read_, size_hint_);
  if (got < bytes)
    if (const std::string why = gzip_failure(static_cast<gzFile>(file_), path_, n < 0); !why.empty()) fail_file(path_, why);
  return got;
}

namespace {
read_progress& progress_hook() {
  static read_progress hook;
  return hook;
}
}  // namespace

void set_read_progress(read_progress progress) { progress_hook() = std::move(progress); }

void report_read(std::size_t done, std::size_t total) {
  if (progress_hook()) progress_hook()(done, total);
}

std::size_t first_binary_byte(std::string_view text) {
  const auto binary = [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return (b < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') || b == 0x7f;
  };
  const auto it = std::find_if(text.begin(), text.end(), binary);
  return it == text.end() ? std::string_view::npos : static_cast<std::size_t>(it - text.begin());
}

void refuse_binary(ppl::source_view src, std::string_view kind) {
  const std::string_view text = src.text;
  for (const auto& s : signatures)
    if (text.starts_with(s.bytes))
      fail_one_line(src, 0, "this is " + std::string(s.what) + ", not " + a_kind(kind) + " file" +
                                (*s.advice ? ": " + std::string(s.advice) : ""));
  if (const std::size_t at = first_binary_byte(text); at != std::string_view::npos) {
    const auto b = static_cast<unsigned char>(text[at]);
    static const char* hex = "0123456789abcdef";
    fail_one_line(src, at,
                  std::string("the byte 0x") + hex[b >> 4] + hex[b & 15] + " is not text: this is binary data, not " +
                      a_kind(kind) + " file");
  }
}

}  // namespace ppl::data
