// NumPy's .npz written (data/data.hpp's write_npz, for `ppl convert`): each value an
// .npy member of a stored zip archive (PKWARE's APPNOTE, ZIP64 records where a member or
// the directory passes 4 GiB), in the layout numpy.lib.format gives (NEP 1). The reader
// is data/numpy.cpp.
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "data/data.hpp"

namespace ppl::data {

namespace {

void put(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>(v >> (8 * i) & 0xff);
}

// How a value is stored: integers as int32 where every one fits (4 bytes, not 8), else
// int64, reals and any array with a missing value as float64.
struct npy_layout {
  std::string descr;
  int bytes;
};

npy_layout layout_of(const data_value& v) {
  if (!v.integer || v.first_missing) return {"<f8", 8};
  bool small = true;
  for (const double x : v.value.data) {
    if (std::isnan(x) || x != std::floor(x) || std::abs(x) > 9.0e15) return {"<f8", 8};
    small = small && x >= std::numeric_limits<std::int32_t>::min() && x <= std::numeric_limits<std::int32_t>::max();
  }
  return small ? npy_layout{"<i4", 4} : npy_layout{"<i8", 8};
}

// The .npy header, padded with blanks to a multiple of 64 bytes, as numpy writes it.
std::string npy_header_text(const ppl::shape& s, const npy_layout& l) {
  std::string shape = "(";
  for (int d = 0; d < s.rank; ++d) shape += std::to_string(s[d]) + (s.rank == 1 ? "," : d + 1 < s.rank ? ", " : "");
  shape += ")";
  std::string dict = "{'descr': '" + l.descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  const std::size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  put(out, dict.size(), 2);
  return out + dict;
}

// Calls emit(bytes, n) for the values of `v` in layout `l`, a block at a time.
template <typename Emit>
void for_each_block(const data_value& v, const npy_layout& l, Emit&& emit) {
  std::vector<unsigned char> block(static_cast<std::size_t>(l.bytes) << 14);
  const std::size_t per = block.size() / static_cast<std::size_t>(l.bytes);
  const std::vector<double>& x = v.value.data;
  for (std::size_t done = 0; done < x.size(); done += per) {
    const std::size_t n = std::min(per, x.size() - done);
    for (std::size_t i = 0; i < n; ++i) {
      unsigned char* p = block.data() + i * static_cast<std::size_t>(l.bytes);
      if (l.descr == "<f8") std::memcpy(p, &x[done + i], 8);
      else for (int b = 0; b < l.bytes; ++b) p[b] = static_cast<unsigned char>(static_cast<std::uint64_t>(static_cast<std::int64_t>(x[done + i])) >> (8 * b));
    }
    emit(block.data(), n * static_cast<std::size_t>(l.bytes));
  }
}

}  // namespace

void write_npz(const data_table& table, std::ostream& out) {
  constexpr std::uint64_t limit = 0xffffffff;
  std::uint64_t offset = 0;
  std::string directory;
  std::size_t count = 0;
  const auto write = [&](const void* p, std::size_t n) {
    out.write(static_cast<const char*>(p), static_cast<std::streamsize>(n));
    offset += n;
  };
  for (const auto& [name, v] : table.values()) {
    const npy_layout l = layout_of(v);
    const std::string header = npy_header_text(v.value.shape, l);
    const std::uint64_t size = header.size() + static_cast<std::uint64_t>(v.value.data.size()) * static_cast<std::uint64_t>(l.bytes);
    auto crc = static_cast<std::uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(header.data()), static_cast<uInt>(header.size())));
    for_each_block(v, l, [&](const unsigned char* p, std::size_t n) { crc = static_cast<std::uint32_t>(crc32(crc, p, static_cast<uInt>(n))); });
    const std::string file = name + ".npy";
    const bool big = size >= limit, far = offset >= limit;
    // The local header: ZIP64 sizes in its extra field when the member passes 4 GiB.
    std::string local;
    put(local, 0x04034b50, 4), put(local, big ? 45 : 20, 2), put(local, 0, 2), put(local, 0, 2), put(local, 0, 2), put(local, 0x21, 2);
    put(local, crc, 4), put(local, big ? limit : size, 4), put(local, big ? limit : size, 4), put(local, file.size(), 2), put(local, big ? 20 : 0, 2);
    local += file;
    if (big) put(local, 1, 2), put(local, 16, 2), put(local, size, 8), put(local, size, 8);
    const std::uint64_t at = offset;
    write(local.data(), local.size());
    write(header.data(), header.size());
    for_each_block(v, l, [&](const unsigned char* p, std::size_t n) { write(p, n); });
    // Its entry in the central directory, with what passes 4 GiB in a ZIP64 field.
    std::string extra;
    if (big) put(extra, size, 8), put(extra, size, 8);
    if (far) put(extra, at, 8);
    std::string e;
    put(e, 0x02014b50, 4), put(e, 45, 2), put(e, big || far ? 45 : 20, 2), put(e, 0, 2), put(e, 0, 2), put(e, 0, 2), put(e, 0x21, 2);
    put(e, crc, 4), put(e, big ? limit : size, 4), put(e, big ? limit : size, 4), put(e, file.size(), 2);
    put(e, extra.empty() ? 0 : extra.size() + 4, 2), put(e, 0, 2), put(e, 0, 2), put(e, 0, 2), put(e, 0, 4), put(e, far ? limit : at, 4);
    e += file;
    if (!extra.empty()) put(e, 1, 2), put(e, extra.size(), 2), e += extra;
    directory += e;
    ++count;
  }
  const std::uint64_t start = offset;
  write(directory.data(), directory.size());
  if (start >= limit || count >= 0xffff) {  // the ZIP64 end record and its locator
    const std::uint64_t record = offset;
    std::string z;
    put(z, 0x06064b50, 4), put(z, 44, 8), put(z, 45, 2), put(z, 45, 2), put(z, 0, 4), put(z, 0, 4);
    put(z, count, 8), put(z, count, 8), put(z, directory.size(), 8), put(z, start, 8);
    put(z, 0x07064b50, 4), put(z, 0, 4), put(z, record, 8), put(z, 1, 4);
    write(z.data(), z.size());
  }
  std::string end;
  const std::uint64_t entries = std::min<std::uint64_t>(count, 0xffff);
  put(end, 0x06054b50, 4), put(end, 0, 2), put(end, 0, 2), put(end, entries, 2), put(end, entries, 2);
  put(end, std::min<std::uint64_t>(directory.size(), limit), 4), put(end, std::min(start, limit), 4), put(end, 0, 2);
  write(end.data(), end.size());
}

}  // namespace ppl::data
