// NumPy's .npy and .npz (data/numpy.cpp): files written by numpy itself
// (tests/data/numpy/make_fixtures.py) read to the values it wrote, whatever their dtype,
// order or compression; ppl's own .npz read back bit for bit; and a damaged or truncated
// archive, a dtype ppl does not read, an infinite value, each a clear error.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "data/data.hpp"
#include "tests/support/data_files.hpp"

namespace test_data_numpy {

using namespace ppl::data;
using ppl::testing::scratch_file;

std::string fixture(const std::string& name) { return std::string(PPL_SOURCE_DIR) + "/tests/data/numpy/" + name; }

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The message reading `path` gives (by its name: read_data_file chooses the reader).
std::string error_of(const std::string& path) {
  try {
    read_data_file(path);
  } catch (const ppl::source_error& e) {
    return e.what();
  }
  FAIL("no error for " << path);
  return {};
}

void check_values(const data_table& t, const std::string& name, const std::vector<double>& expected, bool integer) {
  INFO("value ", name);
  const data_value* v = t.find(name);
  REQUIRE(v);
  CHECK(v->integer == integer);
  REQUIRE(v->value.data.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (std::isnan(expected[i])) CHECK(std::isnan(v->value.data[i]));
    else CHECK(v->value.data[i] == expected[i]);
  }
}

void check_numpy_arrays(const data_table& t) {
  CHECK(t.values().size() == 12);
  check_values(t, "count", {3, 0, 7, 12}, true);
  check_values(t, "big", {-1099511627776.0, 5}, true);
  check_values(t, "small", {-3, 100}, true);
  check_values(t, "unsigned", {65535, 1}, true);
  check_values(t, "flag", {1, 0, 1}, true);
  check_values(t, "x", {0.5, -1.25, NAN}, false);
  check_values(t, "single", {1.5, 2.25}, false);
  check_values(t, "X", {0, 0.25, 0.5, 0.75, 1, 1.25}, false);
  check_values(t, "F", {0, 1, 2, 3, 4, 5}, false);  // fortran_order, read row-major
  check_values(t, "log_dose", {1, 2}, false);          // a member's dots read as underscores
  CHECK(t.find("X")->value.shape == ppl::shape::matrix(2, 3));
  CHECK(t.find("F")->value.shape == ppl::shape::matrix(2, 3));
  const data_value* cube = t.find("cube");
  REQUIRE(cube);
  CHECK(cube->value.shape.rank == 3);
  CHECK(cube->value.data[23] == 23);
  CHECK(cube->value.data[4] == 4);
  const data_value* n = t.find("N");
  REQUIRE(n);
  CHECK(n->value.shape.rank == 0);
  CHECK(n->value.data[0] == 30);
  CHECK(t.find("x")->first_missing.has_value());
  CHECK(!t.find("count")->first_missing.has_value());
}

TEST_CASE("numpy.savez and savez_compressed archives read to the values numpy wrote") {
  check_numpy_arrays(read_data_file(fixture("arrays.npz")));
  check_numpy_arrays(read_data_file(fixture("compressed.npz")));
}

TEST_CASE("an .npy file is one array, named by its stem") {
  const data_table t = read_data_file(fixture("rating.npy"));
  check_values(t, "rating", {1, 2, 3, 4.5}, false);
  CHECK(t.find("rating")->value.shape == ppl::shape::matrix(2, 3 - 1));
}

TEST_CASE("ppl's own .npz reads back bit for bit, integers as int32 where they fit") {
  data_table t = read_data_file(fixture("arrays.npz"));
  std::ostringstream out;
  write_npz(t, out);
  const std::string path = scratch_file("again.npz", out.str());
  const data_table back = read_data_file(path);
  REQUIRE(back.values().size() == t.values().size());
  for (const auto& [name, v] : t.values()) {
    INFO("value ", name);
    const data_value* w = back.find(name);
    REQUIRE(w);
    CHECK(w->value.shape == v.value.shape);
    REQUIRE(w->value.data.size() == v.value.data.size());
    CHECK(std::memcmp(w->value.data.data(), v.value.data.data(), v.value.data.size() * sizeof(double)) == 0);
    CHECK(w->integer == v.integer);
  }
  // count (int32 in numpy's file) is 4 bytes a value in ppl's too; big needs int64.
  CHECK(out.str().find("'descr': '<i4', 'fortran_order': False, 'shape': (4,)") != std::string::npos);
  CHECK(out.str().find("'descr': '<i8', 'fortran_order': False, 'shape': (2,)") != std::string::npos);
  // A CSV's table the same way: the values bit for bit.
  const data_table csv = parse_csv({"d.csv", "n,y,\"name\"\n1,0.1,a\n2,NA,b\n3,2.5e-300,c\n"});
  std::ostringstream csv_out;
  write_npz(csv, csv_out);
  const data_table csv_back = read_data_file(scratch_file("csv.npz", csv_out.str()));
  CHECK(csv_back.values().size() == 2);  // the text column is not written
  check_values(csv_back, "n", {1, 2, 3}, true);
  check_values(csv_back, "y", {0.1, NAN, 2.5e-300}, false);
}

TEST_CASE("a truncated, damaged or foreign file is an error naming it and what is wrong") {
  const std::string whole = bytes_of(fixture("arrays.npz"));
  // Cut anywhere: an error, never a crash or a table.
  for (std::size_t cut : {std::size_t{0}, std::size_t{10}, whole.size() / 3, whole.size() / 2, whole.size() - 30, whole.size() - 1}) {
    INFO("cut at ", cut);
    const std::string path = scratch_file("cut.npz", whole.substr(0, cut));
    CHECK(error_of(path).find("cut.npz") != std::string::npos);
  }
  // A byte of a stored member's values changed: its CRC-32 says so.
  std::string damaged = whole;
  const std::size_t values = damaged.find(std::string("\x07\0\0\0\x0c\0\0\0", 8), damaged.find("count.npy"));  // count's 7, 12
  REQUIRE(values != std::string::npos);
  damaged[values] ^= 0x55;
  CHECK(error_of(scratch_file("damaged.npz", damaged)).find("CRC-32") != std::string::npos);
  // The compressed archive with a byte of its deflated data changed.
  std::string deflated = bytes_of(fixture("compressed.npz"));
  deflated[deflated.find("count.npy") + 9 + 40] ^= 0x55;
  const std::string message = error_of(scratch_file("damaged_deflate.npz", deflated));
  CHECK((message.find("damaged") != std::string::npos || message.find("CRC-32") != std::string::npos));
  CHECK(error_of(fixture("complex.npy")).find("'<c16'") != std::string::npos);
  CHECK(error_of(fixture("big_endian.npy")).find("big-endian") != std::string::npos);
  CHECK(error_of(fixture("structured.npy")).find("structured") != std::string::npos);
  CHECK(error_of(fixture("infinite.npy")).find("infinite") != std::string::npos);
  CHECK(error_of(scratch_file("text.npy", "x,y\n1,2\n")).find("not an .npy array") != std::string::npos);
  // A shape that multiplies past any size, or past the values there are: refused before
  // anything is allocated.
  const auto npy = [](const std::string& dict, const std::string& values) {
    std::string header = dict + std::string((64 - (10 + dict.size() + 1) % 64) % 64, ' ') + "\n";
    return std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size() & 0xff) + static_cast<char>(header.size() >> 8) + header + values;
  };
  const std::string eight(8, '\0');
  CHECK(error_of(scratch_file("huge.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }", eight)))
            .find("more values than its 8 bytes hold") != std::string::npos);
  CHECK(error_of(scratch_file("short.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", eight))).find("more values") !=
        std::string::npos);
  CHECK(error_of(scratch_file("long.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", eight + eight)))
            .find("holds 8 bytes after the values") != std::string::npos);
  const data_table one = read_data_file(scratch_file("one.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", eight)));
  check_values(one, "one", {0}, false);
  CHECK(error_of(scratch_file("text.npz", "x,y\n1,2\n")).find("not a zip archive") != std::string::npos);
}

}  // namespace test_data_numpy
