// Hand-written conjugate Gibbs samplers, the reference for bench/conjugate.py.
//   conjugate_reference beta_bernoulli SWEEPS DATA_CSV
//   conjugate_reference gamma_poisson SWEEPS DATA_CSV
// Writes the benchmark's data to DATA_CSV (so that ppl reads exactly the same data), then
// times SWEEPS sweeps of the textbook updates and prints "sweeps_per_second <x>".
#include <boost/random/beta_distribution.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/poisson_distribution.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

constexpr int N = 100000;
constexpr int J = 1000;

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double beta_bernoulli(long sweeps, const char* path) {
  std::mt19937_64 rng(1);
  std::vector<int> y(N);
  std::FILE* f = std::fopen(path, "w");
  std::fprintf(f, "y\n");
  for (int& v : y) std::fprintf(f, "%d\n", v = boost::random::bernoulli_distribution<double>(0.3)(rng));
  std::fclose(f);
  double p = 0.5, sink = 0;
  auto start = std::chrono::steady_clock::now();
  for (long s = 0; s < sweeps; ++s) {
    long heads = 0;
    for (int v : y) heads += v;  // the sufficient statistic, recomputed each sweep as a sampler must
    p = boost::random::beta_distribution<double>(1.0 + static_cast<double>(heads), 1.0 + static_cast<double>(N - heads))(rng);
    sink += p;
  }
  double t = seconds_since(start);
  std::fprintf(stderr, "mean p %.4f\n", sink / static_cast<double>(sweeps));
  return static_cast<double>(sweeps) / t;
}

double gamma_poisson(long sweeps, const char* path) {
  std::mt19937_64 rng(2);
  std::vector<int> y(N), g(N);
  std::FILE* f = std::fopen(path, "w");
  std::fprintf(f, "g,y\n");
  for (int n = 0; n < N; ++n) {
    g[static_cast<std::size_t>(n)] = n % J;
    double rate = 1 + (n % J) % 7;
    y[static_cast<std::size_t>(n)] = boost::random::poisson_distribution<int, double>(rate)(rng);
    std::fprintf(f, "%d,%d\n", g[static_cast<std::size_t>(n)] + 1, y[static_cast<std::size_t>(n)]);
  }
  std::fclose(f);
  const double alpha = 2, a0 = 1, b0 = 1;
  double beta = 1, sink = 0;
  std::vector<double> lambda(J, 1.0), sum(J), count(J);
  auto start = std::chrono::steady_clock::now();
  for (long s = 0; s < sweeps; ++s) {
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(count.begin(), count.end(), 0.0);
    for (int n = 0; n < N; ++n) sum[static_cast<std::size_t>(g[static_cast<std::size_t>(n)])] += y[static_cast<std::size_t>(n)],
                                count[static_cast<std::size_t>(g[static_cast<std::size_t>(n)])] += 1;
    double total = 0;
    for (int j = 0; j < J; ++j)
      total += lambda[static_cast<std::size_t>(j)] =
          boost::random::gamma_distribution<double>(alpha + sum[static_cast<std::size_t>(j)], 1 / (beta + count[static_cast<std::size_t>(j)]))(rng);
    beta = boost::random::gamma_distribution<double>(a0 + J * alpha, 1 / (b0 + total))(rng);
    sink += beta;
  }
  double t = seconds_since(start);
  std::fprintf(stderr, "mean beta %.4f\n", sink / static_cast<double>(sweeps));
  return static_cast<double>(sweeps) / t;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: conjugate_reference beta_bernoulli|gamma_poisson SWEEPS DATA_CSV\n");
    return 2;
  }
  long sweeps = std::atol(argv[2]);
  double rate = std::strcmp(argv[1], "beta_bernoulli") == 0 ? beta_bernoulli(sweeps, argv[3]) : gamma_poisson(sweeps, argv[3]);
  std::printf("sweeps_per_second %.2f\n", rate);
  return 0;
}
