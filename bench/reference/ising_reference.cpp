// A plain hand-written checkerboard heat-bath sampler for the Ising model on an L x L
// torus (J = 1, no field), the reference for bench/ising.py: int8 spins, the two
// colours of the checkerboard in turn, p(s = +1) tabulated by the sum of the four
// neighbours, uniforms from std::mt19937_64. Seeds: the Ising notes.
//
//   ising_reference L BETA SWEEPS [SEED]
//
// Prints the site updates per second of the sweeps alone and |m| per site at the end.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: ising_reference L BETA SWEEPS [SEED]\n");
    return 2;
  }
  const int L = std::atoi(argv[1]);
  const double beta = std::atof(argv[2]);
  const long sweeps = std::atol(argv[3]);
  std::mt19937_64 rng(argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1);
  auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  std::vector<std::int8_t> s(static_cast<std::size_t>(L) * L);
  for (auto& x : s) x = uniform() < 0.5 ? 1 : -1;
  double table[5];  // by (neighbour sum + 4) / 2
  for (int k = 0; k < 5; ++k) table[k] = 1 / (1 + std::exp(-2 * beta * (2 * k - 4)));
  double absmag = 0;
  const auto start = std::chrono::steady_clock::now();
  for (long t = 0; t < sweeps; ++t) {
    for (int colour = 0; colour < 2; ++colour)
      for (int i = 0; i < L; ++i) {
        const int up = (i + L - 1) % L, down = (i + 1) % L;
        for (int j = (i + colour) % 2; j < L; j += 2) {
          const int left = (j + L - 1) % L, right = (j + 1) % L;
          const int sum = s[static_cast<std::size_t>(up) * L + j] + s[static_cast<std::size_t>(down) * L + j] +
                          s[static_cast<std::size_t>(i) * L + left] + s[static_cast<std::size_t>(i) * L + right];
          s[static_cast<std::size_t>(i) * L + j] = uniform() < table[(sum + 4) / 2] ? 1 : -1;
        }
      }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  long m = 0;
  for (auto x : s) m += x;
  absmag = std::fabs(static_cast<double>(m)) / (static_cast<double>(L) * L);
  std::printf("site_updates_per_second %.4g\nabsmag %.5f\n", static_cast<double>(sweeps) * L * L / seconds, absmag);
  return 0;
}
