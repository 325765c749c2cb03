// Draws files written and read back: every layout, Stan's column order, reading in
// batches when the values do not fit the budget, and a failed write that leaves whole
// rows behind.
#include <doctest/doctest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/source_error.hpp"
#include "draws/diagnostics.hpp"
#include "draws/reader.hpp"
#include "draws/writer.hpp"

namespace test_draws {

namespace fs = std::filesystem;

namespace {

struct scratch {
  fs::path dir = fs::temp_directory_path() / ("ppl_test_draws_" + std::to_string(::getpid()));
  scratch() { fs::create_directories(dir); }
  ~scratch() { fs::remove_all(dir); }
  std::string path(const std::string& name) const { return (dir / name).string(); }
};

const std::vector<std::string> columns = {"lp__", "a", "m[1,1]", "m[1,2]", "m[1,3]", "m[2,1]", "m[2,2]", "m[2,3]"};

// Row r of chain c: a value that says where it belongs (column k: 1000 c + 10 r + k).
std::vector<double> row(int c, int r) {
  std::vector<double> out;
  for (std::size_t k = 0; k < columns.size(); ++k) out.push_back(1000.0 * c + 10.0 * r + static_cast<double>(k));
  return out;
}

void write_run(const std::string& path, ppl::draws::draws_format format, int chains, int rows) {
  ppl::draws::draws_writer w(path, format, chains, {{"a comment"}}, columns);
  for (int r = 1; r <= rows; ++r)
    for (int c = 1; c <= chains; ++c) w.write(c, r, row(c, r).data());
  w.close();
}

void check_values(const ppl::draws::draws_source& d, int chains, int rows) {
  REQUIRE(d.columns() == columns);
  REQUIRE(d.chains() == static_cast<std::size_t>(chains));
  const auto all = d.read(0, columns.size());
  for (int c = 0; c < chains; ++c) {
    REQUIRE(d.rows(static_cast<std::size_t>(c)) == static_cast<std::size_t>(rows));
    for (std::size_t k = 0; k < columns.size(); ++k)
      for (int r = 0; r < rows; ++r) CHECK(all[k][static_cast<std::size_t>(c)][static_cast<std::size_t>(r)] == row(c + 1, r + 1)[k]);
  }
}

}  // namespace

TEST_CASE("draws: Stan's column order is column-major within each variable") {
  const auto order = ppl::draws::stan_column_order(columns);
  std::vector<std::string> written;
  for (auto k : order) written.push_back(ppl::draws::stan_column(columns[k]));
  CHECK(written == std::vector<std::string>{"lp__", "a", "m.1.1", "m.2.1", "m.1.2", "m.2.2", "m.1.3", "m.2.3"});
  CHECK(ppl::draws::from_stan_column("m.2.3") == "m[2,3]");
  CHECK(ppl::draws::from_stan_column("accept_stat__") == "accept_stat__");
}

TEST_CASE("draws: every layout reads back the values written, in ppl's order") {
  scratch s;
  write_run(s.path("p.csv"), ppl::draws::draws_format::ppl, 3, 7);
  check_values(ppl::draws::draws_source({s.path("p.csv")}), 3, 7);
  write_run(s.path("s.csv"), ppl::draws::draws_format::stan, 2, 5);
  CHECK(fs::exists(s.path("s_1.csv")));
  check_values(ppl::draws::draws_source({s.path("s.csv")}), 2, 5);                          // the stem stands for the files
  check_values(ppl::draws::draws_source({s.path("s_1.csv"), s.path("s_2.csv")}), 2, 5);  // or each named
  write_run(s.path("plain.csv"), ppl::draws::draws_format::plain, 1, 4);
  check_values(ppl::draws::draws_source({s.path("plain.csv")}), 1, 4);
  CHECK(ppl::draws::draws_source({s.path("p.csv")}).metadata().front() == "a comment");
}

TEST_CASE("draws: a file larger than the budget is read in batches, thinned on request") {
  scratch s;
  write_run(s.path("p.csv"), ppl::draws::draws_format::ppl, 2, 50);
  const ppl::draws::draws_source small({s.path("p.csv")}, 10);  // 10 values held at most: 2 x 50 x 8 do not fit
  check_values(small, 2, 50);
  const auto thinned = small.read(2, 4, 7);  // columns m[1,1], m[1,2]; rows 1, 8, 15, ...
  REQUIRE(thinned.size() == 2);
  REQUIRE(thinned[1][1].size() == 8);
  CHECK(thinned[1][1][3] == row(2, 22)[3]);
  const ppl::draws::table all = small.read_all();
  CHECK(all.chains[1].size() == 50 * columns.size());
  // Reading into the vectors of an earlier batch gives what a fresh read gives, held in
  // memory or not.
  const ppl::draws::draws_source held({s.path("p.csv")});
  REQUIRE(held.held());
  REQUIRE(!small.held());
  for (const ppl::draws::draws_source* d : {&held, &small}) {
    std::vector<ppl::draws::draws_source::column_draws> reused;
    d->read(0, 5, 1, reused);
    d->read(2, 4, 7, reused);
    CHECK(reused == thinned);
    d->read(1, 2, 1, reused);
    CHECK(reused == d->read(1, 2));
  }
}

TEST_CASE("draws: a row cut short at the end is left out with a note; a bad cell is an error at its place") {
  scratch s;
  write_run(s.path("p.csv"), ppl::draws::draws_format::ppl, 1, 3);
  { std::ofstream(s.path("p.csv"), std::ios::app) << "1,4,5.5,6"; }
  const ppl::draws::draws_source d({s.path("p.csv")});
  CHECK(d.rows(0) == 3);
  REQUIRE(d.notes().size() == 1);
  CHECK(d.notes()[0].find("the last row has no line end") != std::string::npos);
  { std::ofstream(s.path("bad.csv")) << "chain,iteration,lp__,x\n1,1,0.5,2\n1,2,0.5,oops\n"; }
  try {
    ppl::draws::draws_source({s.path("bad.csv")});
    FAIL("a bad cell was read");
  } catch (const ppl::source_error& e) {
    CHECK(e.diag().where.line == 3);
    CHECK(e.diag().where.column == 9);
    CHECK(e.diag().message == "\"oops\" is not a number (column x)");
  }
}

TEST_CASE("draws: a failed write is an error, and the file keeps only whole rows") {
  scratch s;
  // A file size limit makes write() fail with EFBIG part way, as a full disk fails.
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit old{};
  getrlimit(RLIMIT_FSIZE, &old);
  rlimit limit = old;
  limit.rlim_cur = 20000;  // rows are flushed 200 at a time, about 8 KB: the third flush fails
  REQUIRE(setrlimit(RLIMIT_FSIZE, &limit) == 0);
  bool threw = false;
  long rows = 0;
  try {
    ppl::draws::draws_writer w(s.path("full.csv"), ppl::draws::draws_format::ppl, 1, {}, columns);
    for (int r = 1; r <= 1000; ++r) w.write(1, r, row(1, r).data());
    w.close();
  } catch (const ppl::draws::write_error& e) {
    threw = std::string(e.what()).find("cannot write the draws file " + s.path("full.csv")) == 0;
  }
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, SIG_DFL);
  CHECK(threw);
  const ppl::draws::draws_source d({s.path("full.csv")});
  REQUIRE(d.chains() == 1);
  rows = static_cast<long>(d.rows(0));
  CHECK(rows >= 400);
  CHECK(d.notes().empty());  // no half row at the end
  CHECK(fs::file_size(s.path("full.csv")) <= 20000);
}

TEST_CASE("draws: a row's cells are printf's %.9g, and read back as the nine digits say") {
  // Values at the edges of the notation: signed zeros and non-finite values, subnormal and
  // largest doubles, the switch to exponents at 1e-5 and 1e9, rounding up to a new digit.
  const std::vector<double> values = {0.0,     -0.0,         INFINITY,  -INFINITY, NAN,         -NAN,       5e-324,  -2.2250738585072014e-308,
                                      1.7976931348623157e308, 1e-5, 9.99999999e-6, 123456789, 1234567890, 999999999.5, 9.9999999995,
                                      0.1,     -1.0 / 3,     2.0 / 3e200};
  std::vector<std::string> names;
  for (std::size_t k = 0; k < values.size(); ++k) names.push_back("v[" + std::to_string(k + 1) + "]");
  scratch s;
  {
    ppl::draws::draws_writer w(s.path("cells.csv"), ppl::draws::draws_format::ppl, 1, {}, names);
    w.write(1, 123456789012L, values.data());
    w.close();
  }
  std::ifstream in(s.path("cells.csv"));
  std::string header, line;
  std::getline(in, header);
  std::getline(in, line);
  char expected[64];
  std::string want = "1,123456789012";
  for (double v : values) std::snprintf(expected, sizeof expected, ",%.9g", v), want += expected;
  CHECK(line == want);
  const auto back = ppl::draws::draws_source({s.path("cells.csv")}).read(0, values.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    CAPTURE(k);
    std::snprintf(expected, sizeof expected, "%.9g", values[k]);
    const double nine = std::strtod(expected, nullptr);
    if (std::isnan(nine)) CHECK(std::isnan(back[k][0][0]));
    else CHECK(back[k][0][0] == nine);
  }
}

TEST_CASE("draws: rows longer than the reader's block (64 KB) read back whole") {
  std::vector<std::string> names;
  std::vector<double> values;
  for (int k = 0; k < 20000; ++k) names.push_back("w[" + std::to_string(k + 1) + "]"), values.push_back(1.0 / (k + 3));
  scratch s;
  {
    ppl::draws::draws_writer w(s.path("wide.csv"), ppl::draws::draws_format::ppl, 2, {}, names);
    for (int r = 1; r <= 3; ++r) w.write(1 + r % 2, r, values.data());
    w.close();
  }
  REQUIRE(fs::file_size(s.path("wide.csv")) > 3 * (1 << 16));
  const ppl::draws::draws_source d({s.path("wide.csv")});
  REQUIRE(d.rows(0) == 1);
  REQUIRE(d.rows(1) == 2);
  const auto last = d.read(19999, 20000);
  CHECK(last[0][1][1] == doctest::Approx(1.0 / 20002).epsilon(1e-8));
}

TEST_CASE("diagnostics: E-BFMI of independent and of slowly moving energies") {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> normal;
  std::vector<double> iid, walk;
  double x = 0;
  for (int i = 0; i < 20000; ++i) {
    iid.push_back(normal(rng));
    x = 0.99 * x + 0.1 * normal(rng);  // AR(1) with rho 0.99: E-BFMI = 2 (1 - rho) = 0.02
    walk.push_back(x);
  }
  // Independent energies: E[(E_n - E_n-1)^2] = 2 var, so E-BFMI is 2 (sd of the estimate
  // about 0.02 at n = 20000).
  CHECK(ppl::draws::energy_bfmi(iid) == doctest::Approx(2).epsilon(0.05));
  CHECK(ppl::draws::energy_bfmi(walk) == doctest::Approx(0.02).epsilon(0.3));
  CHECK(std::isnan(ppl::draws::energy_bfmi({1, 1, 1, 1})));
  CHECK(std::isnan(ppl::draws::energy_bfmi({1, NAN})));
}

}  // namespace test_draws
