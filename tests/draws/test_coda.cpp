// JAGS's CODA files: written from a ppl-layout table (variable-major, arrays column-major,
// JAGS's iteration numbers, lp__ left out), in slices when the values exceed the budget,
// and read back by draws_source, held or a batch of columns at a time.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/source_error.hpp"
#include "draws/coda_writer.hpp"
#include "draws/reader.hpp"
#include "draws/writer.hpp"

namespace test_coda {

namespace fs = std::filesystem;

namespace {

struct scratch {
  fs::path dir = fs::temp_directory_path() / ("ppl_test_coda_" + std::to_string(::getpid()));
  scratch() { fs::create_directories(dir); }
  ~scratch() { fs::remove_all(dir); }
  std::string path(const std::string& name) const { return (dir / name).string(); }
};

const std::vector<std::string> columns = {"lp__", "a", "m[1,1]", "m[1,2]", "m[1,3]", "m[2,1]", "m[2,2]", "m[2,3]", "b"};

// Column k of row r in chain c: 1000 c + 10 r + k, with a NaN and an infinity in column b.
double value(int c, int r, std::size_t k) {
  if (k == 8 && r == 2) return c == 1 ? std::numeric_limits<double>::quiet_NaN() : -INFINITY;
  return 1000.0 * c + 10.0 * r + static_cast<double>(k);
}

std::string write_table(const scratch& s, int chains, int rows) {
  const std::string path = s.path("run.csv");
  ppl::draws::draws_writer w(path, ppl::draws::draws_format::ppl, chains, {}, columns);
  std::vector<double> row(columns.size());
  for (int r = 1; r <= rows; ++r)
    for (int c = 1; c <= chains; ++c) {
      for (std::size_t k = 0; k < columns.size(); ++k) row[k] = value(c, r, k);
      w.write(c, r, row.data());
    }
  w.close();
  return path;
}

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

bool same(double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); }

}  // namespace

TEST_CASE("coda: the index, the chain files and JAGS's iteration numbers") {
  scratch s;
  const ppl::draws::draws_source table({write_table(s, 2, 3)});
  // A budget of 7 values holds one column of 2 x 3 draws at a time: every column a slice.
  for (std::size_t budget : {ppl::draws::draws_budget, std::size_t{7}}) {
    CAPTURE(budget);
    REQUIRE(ppl::draws::write_coda(table, s.path("CODA"), {100, 5}, [] { return false; }, budget));
    // No lp__; the matrix column-major, as JAGS names its elements.
    CHECK(text_of(s.path("CODAindex.txt")) ==
          "a 1 3\nm[1,1] 4 6\nm[2,1] 7 9\nm[1,2] 10 12\nm[2,2] 13 15\nm[1,3] 16 18\nm[2,3] 19 21\nb 22 24\n");
    const std::string chain2 = text_of(s.path("CODAchain2.txt"));
    // Draw k was made at iteration warmup + k * thin: 105, 110, 115.
    CHECK(chain2.starts_with("105  2011\n110  2021\n115  2031\n105  2012\n"));
    CHECK(chain2.ends_with("105  2018\n110  -Inf\n115  2038\n"));
    CHECK(text_of(s.path("CODAchain1.txt")).ends_with("110  NaN\n115  1038\n"));
    CHECK(!fs::exists(s.path("CODAchain3.txt")));
    CHECK(!fs::exists(s.path("CODAindex.txt.tmp")));
  }
}

TEST_CASE("coda: read back, held or by batches of columns, as the table without lp__") {
  scratch s;
  const ppl::draws::draws_source table({write_table(s, 3, 5)});
  REQUIRE(ppl::draws::write_coda(table, s.path("CODA"), {0, 1}));
  for (std::size_t budget : {ppl::draws::draws_budget, std::size_t{10}}) {
    CAPTURE(budget);
    for (const std::string& given : {s.path("CODAindex.txt"), s.path("CODA")}) {
      const ppl::draws::draws_source coda({given}, budget);
      CHECK(coda.held() == (budget == ppl::draws::draws_budget));
      REQUIRE(coda.columns() == std::vector<std::string>(columns.begin() + 1, columns.end()));
      REQUIRE(coda.chains() == 3);
      const auto all = coda.read_all();
      const auto strided = coda.read(2, 5, 2);  // m[1,2], m[1,3], m[2,1]: draws 1, 3, 5
      for (int c = 0; c < 3; ++c) {
        REQUIRE(coda.rows(static_cast<std::size_t>(c)) == 5);
        for (int r = 0; r < 5; ++r)
          for (std::size_t k = 0; k + 1 < columns.size(); ++k)
            CHECK(same(all.chains[static_cast<std::size_t>(c)][static_cast<std::size_t>(r) * 8 + k], value(c + 1, r + 1, k + 1)));
        for (std::size_t k = 0; k < 3; ++k) {
          REQUIRE(strided[k][static_cast<std::size_t>(c)].size() == 3);
          for (int j = 0; j < 3; ++j) CHECK(strided[k][static_cast<std::size_t>(c)][static_cast<std::size_t>(j)] == value(c + 1, 2 * j + 1, k + 3));
        }
      }
    }
  }
}

TEST_CASE("coda: stopped or failing, no file of the stem is left") {
  scratch s;
  const ppl::draws::draws_source table({write_table(s, 2, 3)});
  CHECK_FALSE(ppl::draws::write_coda(table, s.path("CODA"), {0, 1}, [] { return true; }));
  for (const char* name : {"CODAindex.txt", "CODAchain1.txt", "CODAindex.txt.tmp", "CODAchain1.txt.tmp"}) CHECK(!fs::exists(s.path(name)));
  // A chain file whose temporary is /dev/full: the write fails, the error names the file.
  fs::create_symlink("/dev/full", s.path("CODAchain2.txt.tmp"));
  try {
    ppl::draws::write_coda(table, s.path("CODA"), {0, 1});
    FAIL("no error");
  } catch (const ppl::draws::write_error& e) {
    CHECK(std::string(e.what()) == "cannot write the CODA file " + s.path("CODAchain2.txt") + ": No space left on device");
  }
  for (const char* name : {"CODAindex.txt", "CODAchain1.txt", "CODAchain2.txt", "CODAindex.txt.tmp", "CODAchain1.txt.tmp"})
    CHECK(!fs::exists(s.path(name)));
  // Files of an earlier run, more chains than this one's: all removed.
  for (const char* name : {"OLDindex.txt", "OLDchain1.txt", "OLDchain2.txt", "OLDchain3.txt"}) std::ofstream(s.path(name)) << "x\n";
  ppl::draws::remove_coda(s.path("OLD"));
  for (const char* name : {"OLDindex.txt", "OLDchain1.txt", "OLDchain2.txt", "OLDchain3.txt"}) CHECK(!fs::exists(s.path(name)));
}

TEST_CASE("coda: malformed files are errors that name the file and line") {
  scratch s;
  auto write = [&](const std::string& name, const std::string& text) { std::ofstream(s.path(name)) << text; };
  auto message = [&](const std::string& name) {
    try {
      ppl::draws::draws_source d({s.path(name)});
    } catch (const ppl::source_error& e) {
      return e.diag().message;
    }
    return std::string("no error");
  };
  write("Xindex.txt", "a 1 2\nb 3 4\n");
  CHECK(message("Xindex.txt") == "no chain file " + s.path("X") + "chain1.txt beside this CODA index");
  write("Xchain1.txt", "1 0.5\n2 0.25\n3 1\n");
  CHECK(message("Xindex.txt") == "this chain file ends after 3 lines, but its index names lines up to 4");
  write("Xchain1.txt", "1 0.5\n2 0.25\n1 x\n2 1\n");
  CHECK(message("Xindex.txt") == "expected `iteration value`, two numbers");
  CHECK(message("Xchain1.txt") == "this is a CODA chain file (`iteration value` lines): read it through its index, " + s.path("X") + "index.txt");
  write("Yindex.txt", "a 1 2\nb 3 5\n");
  CHECK(message("Yindex.txt") == "b has 3 draws but a has 2: columns thinned differently cannot be read as one table");
  write("Zindex.txt", "a 1 2\nb 2 3\n");
  CHECK(message("Zindex.txt") == "the lines of a and b overlap");
  write("index.data", "a 1 2\n");
  CHECK(message("index.data").starts_with("a CODA index is named STEMindex.txt"));
}

TEST_CASE("coda: chains of different lengths cannot share an index") {
  scratch s;
  const std::string path = s.path("ragged.csv");
  {
    ppl::draws::draws_writer w(path, ppl::draws::draws_format::ppl, 2, {}, {"lp__", "a"});
    const double row[] = {0, 1};
    w.write(1, 1, row), w.write(1, 2, row), w.write(2, 1, row);
  }
  CHECK_THROWS_AS(ppl::draws::write_coda(ppl::draws::draws_source({path}), s.path("R"), {0, 1}), std::invalid_argument);
}

}  // namespace test_coda
