#pragma once
// A binary archive for a run's saved state (`ppl infer --resume`): one class both writes
// and reads, so a sampler lists the fields it keeps once, in one function, and saving and
// loading cannot disagree about their order:
//
//   void persist(ppl::archive& a) override { a(step_size_, count_, mean_); }
//
// Numbers are stored as their bytes (a state file is read back by the same build on the
// same machine), vectors and strings with their length first. Reading past the end, or a
// length that does not fit what is left, throws.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace ppl {

class archive {
 public:
  // An archive to write into.
  archive() = default;
  // An archive that reads `bytes`.
  explicit archive(std::string bytes) : bytes_(std::move(bytes)), reading_(true) {}

  bool reading() const { return reading_; }
  const std::string& bytes() const { return bytes_; }
  // Room for `n` bytes to be written without the buffer growing (a growing buffer is held
  // twice while it is copied); room never written takes no memory.
  void reserve(std::size_t n) { bytes_.reserve(n); }
  // The bytes written, moved out (a large state is then never held twice).
  std::string take() { return std::move(bytes_); }
  // Whether a reading archive has been read to its end.
  bool done() const { return at_ == bytes_.size(); }

  template <typename... T>
  void operator()(T&... values) {
    (field(values), ...);
  }
  // Writing from values that stay as they are (a writing archive only reads them).
  template <typename... T>
  void write(const T&... values) {
    if (reading_) throw std::logic_error("archive::write on an archive that reads");
    (field(const_cast<T&>(values)), ...);
  }
  // A vector of doubles in the fewest bytes that give every value back bit for bit: as
  // signed or unsigned 8-, 16- or 32-bit integers when every value is one (LDA's topic
  // assignments, ±1 spins: an eighth of their doubles), else as doubles. Reading resizes `x`.
  void compact(std::vector<double>& x) {
    std::uint64_t n = x.size();
    raw(&n, sizeof n);
    std::uint8_t kind = reading_ ? 0 : integer_kind(x);
    raw(&kind, sizeof kind);
    const std::size_t width = kind & 0x0f;
    if (reading_) {
      check(kind == 1 || kind == 2 || kind == 4 || kind == 8 || kind == (unsigned_kind | 1) || kind == (unsigned_kind | 2));
      check(n <= left() / width);
      x.resize(static_cast<std::size_t>(n));
    }
    switch (kind) {
      case 1: return integers<std::int8_t>(x);
      case unsigned_kind | 1: return integers<std::uint8_t>(x);
      case 2: return integers<std::int16_t>(x);
      case unsigned_kind | 2: return integers<std::uint16_t>(x);
      case 4: return integers<std::int32_t>(x);
      default: raw(x.data(), x.size() * sizeof(double));
    }
  }

  // The bytes compact(x) writes.
  static std::size_t compact_size(const std::vector<double>& x) { return sizeof(std::uint64_t) + 1 + x.size() * (integer_kind(x) & 0x0fu); }

  // A vector of strings in the layout operator() gives it, written straight to a stream:
  // large ones (a chain's state) are then never copied into an archive.
  static void write_strings(std::ostream& out, const std::vector<std::string>& items) {
    auto size = [&](std::uint64_t n) { out.write(reinterpret_cast<const char*>(&n), sizeof n); };
    size(items.size());
    for (const auto& s : items) {
      size(s.size());
      out.write(s.data(), static_cast<std::streamsize>(s.size()));
    }
  }

 private:
  template <typename T>
  void field(T& x) {
    if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
      raw(&x, sizeof x);
    } else if constexpr (std::is_same_v<T, std::string>) {
      sized(x);
    } else if constexpr (std::is_base_of_v<Eigen::PlainObjectBase<T>, T>) {
      std::int64_t rows = x.rows(), cols = x.cols();
      raw(&rows, sizeof rows);
      raw(&cols, sizeof cols);
      if (reading_) {
        check(rows >= 0 && cols >= 0 && (rows == 0 || cols == 0 || static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(cols) <= left() / sizeof(double)));
        x.resize(rows, cols);
      }
      raw(x.data(), static_cast<std::size_t>(x.size()) * sizeof(double));
    } else {
      sized(x);  // a std::vector
    }
  }

  // A vector or string: its length, then its elements.
  template <typename C>
  void sized(C& c) {
    std::uint64_t n = c.size();
    raw(&n, sizeof n);
    using E = typename C::value_type;
    if constexpr (std::is_arithmetic_v<E>) {
      if (reading_) {
        check(n <= left() / sizeof(E));
        c.resize(static_cast<std::size_t>(n));
      }
      raw(c.data(), static_cast<std::size_t>(n) * sizeof(E));
    } else {
      if (reading_) {
        check(n <= left());
        c.resize(static_cast<std::size_t>(n));
      }
      for (auto& e : c) field(e);
    }
  }

  // GCC 12 takes the copy out of a string's small buffer for a read of uninitialised bytes
  // (-Wmaybe-uninitialized, a false positive: `check` bounds it by what was stored).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
  void raw(void* p, std::size_t n) {
    if (n == 0) return;
    if (reading_) {
      check(n <= left());
      std::memcpy(p, bytes_.data() + at_, n);
      at_ += n;
    } else {
      bytes_.append(static_cast<const char*>(p), n);
    }
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  // How compact() stores x: the bytes of the narrowest integer type holding every value
  // exactly (not -0 or NaN), with unsigned_kind set for an unsigned one; 8 for doubles.
  static constexpr std::uint8_t unsigned_kind = 0x10;
  static std::uint8_t integer_kind(const std::vector<double>& x) {
    double lo = 0, hi = 0;
    for (double v : x) {
      if (!(v >= -2147483648.0 && v <= 2147483647.0) || v != static_cast<double>(static_cast<std::int32_t>(v)) ||
          (v == 0 && std::signbit(v)))
        return 8;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    if (lo >= -128 && hi <= 127) return 1;
    if (lo >= 0 && hi <= 255) return unsigned_kind | 1;
    if (lo >= -32768 && hi <= 32767) return 2;
    if (lo >= 0 && hi <= 65535) return unsigned_kind | 2;
    return 4;
  }

  template <typename I>
  void integers(std::vector<double>& x) {
    constexpr std::size_t chunk = 4096;  // converted through a small buffer, never a copy of the whole
    I buffer[chunk];
    for (std::size_t first = 0; first < x.size(); first += chunk) {
      const std::size_t n = std::min(chunk, x.size() - first);
      if (!reading_)
        for (std::size_t i = 0; i < n; ++i) buffer[i] = static_cast<I>(x[first + i]);
      raw(buffer, n * sizeof(I));
      if (reading_)
        for (std::size_t i = 0; i < n; ++i) x[first + i] = static_cast<double>(buffer[i]);
    }
  }

  std::size_t left() const { return bytes_.size() - at_; }
  static void check(bool ok) {
    if (!ok) throw std::runtime_error("the saved state is truncated or corrupt");
  }

  std::string bytes_;
  std::size_t at_ = 0;
  bool reading_ = false;
};

}  // namespace ppl
