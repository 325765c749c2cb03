// NumPy's files as data (data/data.hpp): an .npy file holds one array, an .npz file a zip
// archive of them, one member `name.npy` a variable, as numpy.save and numpy.savez (or
// savez_compressed) write them (the writer, for `ppl convert`, is data/numpy_write.cpp). Formats:
// numpy.lib.format (NEP 1: the magic "\x93NUMPY", a version, a header that is a Python
// dict literal of 'descr', 'fortran_order' and 'shape', then the values) and PKWARE's
// APPNOTE for the archive (stored or deflated members, ZIP64 for those past 4 GiB).
// Values are read a block at a time straight into their arrays: memory is the values.
#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <cctype>

#include "data/data.hpp"
#include "data/row_major.hpp"

namespace ppl::data {

namespace {

[[noreturn]] void fail(const std::string& file, std::string message) {
  ppl::diagnostic d;
  d.file = file;
  d.message = std::move(message);
  throw ppl::source_error(std::move(d));
}

std::uint64_t le(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

// A file read at offsets; any read past its end is an error naming what was being read.
class binary_file {
 public:
  explicit binary_file(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "rb")) {
    if (!f_) fail(path, std::string("cannot open: ") + std::strerror(errno));
    std::error_code ec;
    size_ = std::filesystem::file_size(path, ec);
    if (ec) fail(path, "cannot read its size: " + ec.message());
  }
  ~binary_file() { std::fclose(f_); }
  binary_file(const binary_file&) = delete;
  binary_file& operator=(const binary_file&) = delete;
  std::uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // Exactly n bytes at `offset`, else an error: "the file ends at byte S, inside WHAT".
  void read_at(std::uint64_t offset, void* out, std::size_t n, const std::string& what) {
    if (offset > size_ || n > size_ - offset) fail(path_, "the file ends at byte " + std::to_string(size_) + ", inside " + what + " (truncated?)");
    if (offset != position_ && fseeko(f_, static_cast<off_t>(offset), SEEK_SET) != 0) fail(path_, std::string("cannot seek: ") + std::strerror(errno));
    if (std::fread(out, 1, n, f_) != n) fail(path_, std::string("cannot read ") + what + ": " + std::strerror(errno));
    position_ = offset + n;
  }

 private:
  std::string path_;
  std::FILE* f_;
  std::uint64_t size_ = 0, position_ = 0;
};

// The bytes of one array: a whole .npy file, or an archive member, stored or deflated
// (its CRC-32 and size checked at its end).
class byte_source {
 public:
  byte_source(binary_file& file, std::uint64_t offset, std::uint64_t stored, std::uint64_t size, bool deflated, std::optional<std::uint32_t> crc,
              std::string what)
      : file_(file), offset_(offset), stored_(stored), size_(size), deflated_(deflated), crc_(crc), what_(std::move(what)) {
    if (deflated_ && inflateInit2(&z_, -MAX_WBITS) != Z_OK) fail(file_.path(), "cannot start inflating " + what_);
  }
  ~byte_source() {
    if (deflated_) inflateEnd(&z_);
  }
  byte_source(const byte_source&) = delete;
  byte_source& operator=(const byte_source&) = delete;
  const std::string& what() const { return what_; }
  std::uint64_t remaining() const { return size_ - produced_; }
  const std::string& file() const { return file_.path(); }

  // Exactly n bytes, else an error saying where `what` ends.
  void read(unsigned char* out, std::size_t n, const std::string& part) {
    if (n > size_ - produced_)
      fail(file_.path(), what_ + " ends after " + std::to_string(size_) + " bytes, inside " + part + " (truncated?)");
    if (!deflated_) {
      file_.read_at(offset_ + produced_, out, n, what_);
    } else {
      z_.next_out = out;
      z_.avail_out = static_cast<uInt>(n);
      while (z_.avail_out > 0) {
        if (z_.avail_in == 0) {
          const std::size_t chunk = static_cast<std::size_t>(std::min<std::uint64_t>(in_.size(), stored_ - consumed_));
          if (chunk == 0) fail(file_.path(), what_ + ": its compressed data end early (damaged?)");
          file_.read_at(offset_ + consumed_, in_.data(), chunk, what_);
          consumed_ += chunk;
          z_.next_in = in_.data();
          z_.avail_in = static_cast<uInt>(chunk);
        }
        const int status = inflate(&z_, Z_NO_FLUSH);
        if (status != Z_OK && !(status == Z_STREAM_END && z_.avail_out == 0))
          fail(file_.path(), what_ + ": its compressed data are damaged (" + (z_.msg ? z_.msg : "inflate failed") + ")");
      }
    }
    crc_now_ = static_cast<std::uint32_t>(crc32(crc_now_, out, static_cast<uInt>(n)));
    produced_ += n;
    report_read(std::min(offset_ + (deflated_ ? consumed_ : produced_), file_.size()), file_.size());
  }
  // After the last value: nothing left over, and the archive's CRC-32 matched.
  void finish() {
    if (produced_ != size_)
      fail(file_.path(), what_ + " holds " + std::to_string(size_ - produced_) + " bytes after the values its header gives");
    if (crc_ && *crc_ != crc_now_) fail(file_.path(), what_ + ": its CRC-32 does not match its bytes (damaged?)");
  }

 private:
  binary_file& file_;
  std::uint64_t offset_, stored_, size_;
  bool deflated_;
  std::optional<std::uint32_t> crc_;
  std::string what_;
  z_stream z_{};
  std::vector<unsigned char> in_ = std::vector<unsigned char>(1 << 16);
  std::uint64_t produced_ = 0, consumed_ = 0;
  std::uint32_t crc_now_ = 0;
};

// What an .npy header says.
struct npy_header {
  char kind = 'f';  // 'f' float, 'i' signed, 'u' unsigned, 'b' bool
  int bytes = 8;
  bool fortran = false;
  ppl::shape shape;
};

// The value of `key` in the header's dict text: what follows "'key':", blanks skipped.
std::string_view dict_value(std::string_view dict, std::string_view key) {
  for (const char q : {'\'', '"'}) {
    const std::string quoted = std::string(1, q) + std::string(key) + std::string(1, q);
    const std::size_t at = dict.find(quoted);
    if (at == std::string_view::npos) continue;
    std::size_t i = dict.find(':', at + quoted.size());
    if (i == std::string_view::npos) return {};
    ++i;
    while (i < dict.size() && dict[i] == ' ') ++i;
    return dict.substr(i);
  }
  return {};
}

npy_header parse_header(std::string_view dict, const byte_source& in) {
  const auto bad = [&](const std::string& why) -> npy_header { fail(in.file(), in.what() + ": its header " + why + " (" + ppl::printable(dict.substr(0, 120)) + ")"); };
  npy_header h;
  const std::string_view descr = dict_value(dict, "descr");
  if (descr.empty()) return bad("has no 'descr'");
  if (descr[0] == '[') return bad("describes a structured array (fields): save each field as an array of its own");
  const char q = descr[0];
  const std::size_t end = descr.find(q, 1);
  if ((q != '\'' && q != '"') || end == std::string_view::npos || end < 4) return bad("has a 'descr' that is not a dtype such as '<f8'");
  const std::string_view type = descr.substr(1, end - 1);
  const char order = type[0];
  h.kind = type[1];
  const std::string_view width = type.substr(2);
  h.bytes = width == "1" ? 1 : width == "2" ? 2 : width == "4" ? 4 : width == "8" ? 8 : 0;
  const bool known = (h.kind == 'f' && (h.bytes == 4 || h.bytes == 8)) || ((h.kind == 'i' || h.kind == 'u') && h.bytes > 0) ||
                     (h.kind == 'b' && h.bytes == 1);
  if (!known)
    return bad("gives the dtype '" + std::string(type) + "'; ppl reads numbers: float64 or float32, signed or unsigned integers, bool");
  if (order == '>' && h.bytes > 1) return bad("gives a big-endian dtype; save it little-endian (x.astype('<f8'))");
  if (order != '<' && order != '|' && order != '=' && order != '>') return bad("gives a dtype without a byte order");
  const std::string_view fortran = dict_value(dict, "fortran_order");
  if (!fortran.starts_with("True") && !fortran.starts_with("False")) return bad("has no 'fortran_order' True or False");
  h.fortran = fortran.starts_with("True");
  const std::string_view shape = dict_value(dict, "shape");
  if (shape.empty() || shape[0] != '(') return bad("has no 'shape' tuple");
  const std::size_t close = shape.find(')');
  if (close == std::string_view::npos) return bad("has a 'shape' without its ')'");
  std::vector<index_t> dims;
  for (std::size_t i = 1; i < close;) {
    while (i < close && (shape[i] == ' ' || shape[i] == ',')) ++i;
    if (i == close) break;
    std::uint64_t n = 0;
    const std::size_t start = i;
    while (i < close && shape[i] >= '0' && shape[i] <= '9' && n < (std::uint64_t{1} << 50)) n = n * 10 + static_cast<std::uint64_t>(shape[i++] - '0');
    if (i == start || (i < close && shape[i] != ',' && shape[i] != ' ')) return bad("has a 'shape' that is not a tuple of sizes");
    dims.push_back(static_cast<index_t>(n));
  }
  if (dims.size() > static_cast<std::size_t>(ppl::max_rank)) return bad("gives " + std::to_string(dims.size()) + " dimensions; ppl's arrays have at most " + std::to_string(ppl::max_rank));
  h.shape.rank = static_cast<int>(dims.size());
  for (std::size_t k = 0; k < dims.size(); ++k) h.shape.dims[k] = dims[k];
  return h;
}

npy_header read_header(byte_source& in) {
  std::array<unsigned char, 10> start{};
  in.read(start.data(), 8, "its magic string");
  if (std::memcmp(start.data(), "\x93NUMPY", 6) != 0) fail(in.file(), in.what() + " is not an .npy array (it does not start with \\x93NUMPY)");
  const int major = start[6];
  if (major < 1 || major > 3) fail(in.file(), in.what() + " is .npy format version " + std::to_string(major) + "; ppl reads versions 1 to 3");
  const int width = major == 1 ? 2 : 4;
  in.read(start.data() + 8, static_cast<std::size_t>(width), "its header's length");
  const std::uint64_t length = le(start.data() + 8, width);
  if (length > (1u << 20)) fail(in.file(), in.what() + ": its header claims " + std::to_string(length) + " bytes (damaged?)");
  std::string dict(static_cast<std::size_t>(length), '\0');
  in.read(reinterpret_cast<unsigned char*>(dict.data()), dict.size(), "its header");
  return parse_header(dict, in);
}

// Calls fn(a value of type T) to decode n values from raw little-endian bytes, T chosen
// once for the block by the dtype. (The bytes are copied as they are: ppl is built for
// little-endian machines, as NumPy's '<' dtypes are.)
static_assert(std::endian::native == std::endian::little, "NumPy's '<' dtypes are read by copying their bytes");
template <typename Fn>
void decode(const unsigned char* p, std::size_t n, const npy_header& h, Fn&& fn) {
  const auto each = [&]<typename T>(T) {
    for (std::size_t i = 0; i < n; ++i) {
      T x;
      std::memcpy(&x, p + i * sizeof(T), sizeof(T));
      fn(static_cast<double>(x));
    }
  };
  const int b = h.bytes;
  switch (h.kind) {
    case 'f': return b == 8 ? each(double{}) : each(float{});
    case 'i': return b == 1 ? each(std::int8_t{}) : b == 2 ? each(std::int16_t{}) : b == 4 ? each(std::int32_t{}) : each(std::int64_t{});
    default: return b == 1 ? each(std::uint8_t{}) : b == 2 ? each(std::uint16_t{}) : b == 4 ? each(std::uint32_t{}) : each(std::uint64_t{});
  }
}

// The values of an array whose header has been read, then the source's end checked.
data_value read_values(byte_source& in, const npy_header& h, const std::string& name) {
  data_value out;
  out.integer = h.kind != 'f';
  out.origin = in.file() + (in.what() == in.file() ? "" : ", " + in.what());
  // Reserved and filled as read, not zeroed first: at 100M values the zeroing was a third
  // of the read.
  out.value.shape = h.shape;
  std::vector<unsigned char> block(static_cast<std::size_t>(h.bytes) << 14);
  const std::size_t per_block = block.size() / static_cast<std::size_t>(h.bytes);
  // The values the shape gives must be there: checked before anything is allocated (a
  // damaged header's shape can multiply past any size).
  std::uint64_t total = 1;
  const std::uint64_t fits = in.remaining() / static_cast<std::uint64_t>(h.bytes);
  for (int d = 0; d < h.shape.rank; ++d) {
    const auto n = static_cast<std::uint64_t>(h.shape[d]);
    if (n != 0 && total > fits / n) {
      total = fits + 1;
      break;
    }
    total *= n;
  }
  if (total > fits)
    fail(in.file(), in.what() + ": its header's shape gives more values than its " + std::to_string(in.remaining()) + " bytes hold (truncated?)");
  std::vector<double>& to = out.value.data;
  to.reserve(total);
  for (std::size_t done = 0; done < total;) {
    const std::size_t n = std::min(per_block, total - done);
    in.read(block.data(), n * static_cast<std::size_t>(h.bytes), "its values");
    decode(block.data(), n, h, [&](double x) {
      if (std::isinf(x)) fail(in.file(), in.what() + ": value " + std::to_string(to.size() + 1) + " of `" + name + "` is infinite; data must be finite");
      if (std::isnan(x) && !out.first_missing) {
        ppl::diagnostic d;
        d.file = in.file();
        d.message = "NaN (a missing value) at value " + std::to_string(to.size() + 1) + " of `" + name + "`";
        out.first_missing = d;
      }
      to.push_back(x);
    });
    done += n;
  }
  in.finish();
  if (h.fortran && h.shape.rank > 1) out.value.data = to_row_major(out.value.data, h.shape);  // ppl's arrays are row-major
  out.length_one = false;
  return out;
}

// A member's or file's name as a variable's: its stem, dots read as underscores (as CSV
// headers and R's names are); anything else that a name cannot hold is an error.
std::string variable_name(std::string stem, const std::string& file, const std::string& what) {
  std::replace(stem.begin(), stem.end(), '.', '_');
  const bool ok = !stem.empty() && !std::isdigit(static_cast<unsigned char>(stem[0])) &&
                  std::all_of(stem.begin(), stem.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  if (!ok) fail(file, what + ": `" + ppl::printable(stem) + "` is not a name ppl's variables can have (letters, digits and _)");
  return stem;
}

// The archive's members, from its central directory.
struct member {
  std::string name;
  std::uint64_t local = 0, stored = 0, size = 0;
  int method = 0;
  std::uint32_t crc = 0;
};

std::vector<member> central_directory(binary_file& f) {
  // The end record: its signature in the last 22 bytes, or before a comment of up to 64K.
  const std::uint64_t tail = std::min<std::uint64_t>(f.size(), 22 + 65535);
  std::vector<unsigned char> t(static_cast<std::size_t>(tail));
  f.read_at(f.size() - tail, t.data(), t.size(), "the archive's end");
  std::size_t at = t.size() < 22 ? std::string::npos : t.size() - 22;
  while (at != std::string::npos && le(&t[at], 4) != 0x06054b50) at = at == 0 ? std::string::npos : at - 1;
  if (at == std::string::npos) fail(f.path(), "is not a zip archive as numpy.savez writes (no end of central directory record; truncated?)");
  std::uint64_t entries = le(&t[at + 10], 2), offset = le(&t[at + 16], 4);
  const std::uint64_t end = f.size() - tail + at;
  if (entries == 0xffff || offset == 0xffffffff) {  // ZIP64: the locator sits just before the end record
    std::array<unsigned char, 20> loc{};
    if (end < 20) fail(f.path(), "has a ZIP64 end record without its locator");
    f.read_at(end - 20, loc.data(), loc.size(), "the ZIP64 locator");
    if (le(loc.data(), 4) != 0x07064b50) fail(f.path(), "has a ZIP64 end record without its locator");
    std::array<unsigned char, 56> rec{};
    f.read_at(le(&loc[8], 8), rec.data(), rec.size(), "the ZIP64 end record");
    if (le(rec.data(), 4) != 0x06064b50) fail(f.path(), "has a damaged ZIP64 end record");
    entries = le(&rec[32], 8);
    offset = le(&rec[48], 8);
  }
  std::vector<member> out;
  std::uint64_t pos = offset;
  for (std::uint64_t k = 0; k < entries; ++k) {
    std::array<unsigned char, 46> e{};
    f.read_at(pos, e.data(), e.size(), "the archive's directory");
    if (le(e.data(), 4) != 0x02014b50) fail(f.path(), "has a damaged central directory (entry " + std::to_string(k + 1) + ")");
    member m;
    const auto flags = le(&e[8], 2);
    m.method = static_cast<int>(le(&e[10], 2));
    m.crc = static_cast<std::uint32_t>(le(&e[16], 4));
    m.stored = le(&e[20], 4);
    m.size = le(&e[24], 4);
    const auto name_len = static_cast<std::size_t>(le(&e[28], 2)), extra_len = static_cast<std::size_t>(le(&e[30], 2));
    const auto comment_len = le(&e[32], 2);
    m.local = le(&e[42], 4);
    std::vector<unsigned char> rest(name_len + extra_len);
    f.read_at(pos + 46, rest.data(), rest.size(), "the archive's directory");
    m.name.assign(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(name_len));
    // ZIP64 sizes and offset, for the fields that say 0xffffffff, in this order.
    for (std::size_t x = name_len; x + 4 <= rest.size();) {
      const auto id = le(&rest[x], 2), len = static_cast<std::size_t>(le(&rest[x + 2], 2));
      std::size_t v = x + 4;
      if (id == 0x0001)
        for (std::uint64_t* field : {&m.size, &m.stored, &m.local})
          if (*field == 0xffffffff && v + 8 <= x + 4 + len && v + 8 <= rest.size()) *field = le(&rest[v], 8), v += 8;
      x += 4 + len;
    }
    if (flags & 1) fail(f.path(), "member " + ppl::printable(m.name) + " is encrypted");
    if (m.method != 0 && m.method != 8)
      fail(f.path(), "member " + ppl::printable(m.name) + " is compressed by method " + std::to_string(m.method) +
                         "; ppl reads stored and deflated members (numpy.savez and savez_compressed)");
    out.push_back(std::move(m));
    pos += 46 + name_len + extra_len + comment_len;
  }
  return out;
}

}  // namespace

data_table read_npy(const std::string& path) {
  binary_file f(path);
  byte_source in(f, 0, f.size(), f.size(), false, std::nullopt, path);
  const npy_header h = read_header(in);
  const std::string name = variable_name(std::filesystem::path(path).stem().string(), path, path);
  data_table table;
  table.set(name, read_values(in, h, name));
  return table;
}

data_table read_npz(const std::string& path) {
  binary_file f(path);
  data_table table;
  for (const member& m : central_directory(f)) {
    if (!m.name.ends_with(".npy")) fail(path, "member " + ppl::printable(m.name) + " is not an .npy array (numpy.savez names each name.npy)");
    const std::string what = "member " + ppl::printable(m.name);
    std::array<unsigned char, 30> local{};
    f.read_at(m.local, local.data(), local.size(), what);
    if (le(local.data(), 4) != 0x04034b50) fail(path, what + " is not where the directory says (damaged?)");
    const std::uint64_t data = m.local + 30 + le(&local[26], 2) + le(&local[28], 2);
    // Deflate packs at most 1032 bytes into one: a larger claim is a damaged directory.
    if (m.method == 8 ? m.size / 1032 > m.stored + 1 : m.size != m.stored)
      fail(path, what + ": the directory gives sizes its data cannot have (" + std::to_string(m.stored) + " bytes stored, " +
                     std::to_string(m.size) + " unpacked; damaged?)");
    byte_source in(f, data, m.stored, m.size, m.method == 8, m.crc, what);
    const npy_header h = read_header(in);
    const std::string name = variable_name(m.name.substr(0, m.name.size() - 4), path, what);
    if (table.find(name)) fail(path, what + ": `" + name + "` is given twice");
    table.set(name, read_values(in, h, name));
  }
  return table;
}

}  // namespace ppl::data
