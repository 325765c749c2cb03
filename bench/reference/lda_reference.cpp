// A plain hand-written collapsed Gibbs sampler for LDA, the reference for bench/lda.py:
// the textbook algorithm of Griffiths & Steyvers (2004) (seeds: the LDA notes), O(K) per
// token, one thread, integer counts, word-major word-topic counts as in GibbsLDA++.
//
//   lda_reference TOKENS.csv[.gz] K SWEEPS [SEED] [ALPHA] [ETA]
//
// TOKENS has a header and columns doc,word (1-based ids), like the corpus in
// ../shared/data/debian-descriptions. Prints the sweeps per second of the sampling loop
// alone (reading and initialising excluded), and log p(w | z) and log p(w, z) (theta and
// phi integrated out; what ppl reports as lp__) after the last sweep.
#include <zlib.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

struct corpus {
  std::vector<int> doc, word;  // 0-based
  int documents = 0, words = 0;
};

corpus read_tokens(const char* path) {
  gzFile f = gzopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "cannot open %s\n", path);
    std::exit(1);
  }
  corpus c;
  char line[256];
  gzgets(f, line, sizeof line);  // header
  while (gzgets(f, line, sizeof line)) {
    char* end = nullptr;
    long d = std::strtol(line, &end, 10);
    long w = std::strtol(end + 1, nullptr, 10);
    c.doc.push_back(static_cast<int>(d - 1));
    c.word.push_back(static_cast<int>(w - 1));
    if (d > c.documents) c.documents = static_cast<int>(d);
    if (w > c.words) c.words = static_cast<int>(w);
  }
  gzclose(f);
  return c;
}

double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: lda_reference TOKENS.csv[.gz] K SWEEPS [SEED] [ALPHA] [ETA]\n");
    return 2;
  }
  const corpus c = read_tokens(argv[1]);
  const int K = std::atoi(argv[2]);
  const long sweeps = std::atol(argv[3]);
  std::mt19937_64 rng(argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1);
  const double alpha = argc > 5 ? std::atof(argv[5]) : 0.1, eta = argc > 6 ? std::atof(argv[6]) : 0.01;
  const double v_eta = c.words * eta;
  const std::size_t N = c.doc.size();

  std::vector<int> z(N), ndk(static_cast<std::size_t>(c.documents) * K), nwk(static_cast<std::size_t>(c.words) * K), nk(K);
  for (std::size_t i = 0; i < N; ++i) {
    const int k = static_cast<int>(uniform(rng) * K);
    z[i] = k;
    ++ndk[static_cast<std::size_t>(c.doc[i]) * K + k];
    ++nwk[static_cast<std::size_t>(c.word[i]) * K + k];
    ++nk[k];
  }

  std::vector<double> p(K);
  const auto start = std::chrono::steady_clock::now();
  for (long s = 0; s < sweeps; ++s) {
    for (std::size_t i = 0; i < N; ++i) {
      int* nd = &ndk[static_cast<std::size_t>(c.doc[i]) * K];
      int* nw = &nwk[static_cast<std::size_t>(c.word[i]) * K];
      int k = z[i];
      --nd[k], --nw[k], --nk[k];
      double total = 0;
      for (int t = 0; t < K; ++t) p[t] = total += (nd[t] + alpha) * (nw[t] + eta) / (nk[t] + v_eta);
      const double u = uniform(rng) * total;
      k = 0;
      while (k + 1 < K && p[k] <= u) ++k;
      z[i] = k;
      ++nd[k], ++nw[k], ++nk[k];
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // log p(w | z) with phi integrated out (Griffiths & Steyvers 2004, eq. 2).
  double ll = K * (std::lgamma(v_eta) - c.words * std::lgamma(eta));
  for (int k = 0; k < K; ++k) ll -= std::lgamma(nk[k] + v_eta);
  for (int w = 0; w < c.words; ++w)
    for (int k = 0; k < K; ++k) ll += std::lgamma(nwk[static_cast<std::size_t>(w) * K + k] + eta);
  // log p(z) with theta integrated out.
  double lz = c.documents * (std::lgamma(K * alpha) - K * std::lgamma(alpha));
  std::vector<int> length(static_cast<std::size_t>(c.documents));
  for (int d : c.doc) ++length[static_cast<std::size_t>(d)];
  for (int d = 0; d < c.documents; ++d) {
    lz -= std::lgamma(length[static_cast<std::size_t>(d)] + K * alpha);
    for (int k = 0; k < K; ++k) lz += std::lgamma(ndk[static_cast<std::size_t>(d) * K + k] + alpha);
  }
  std::printf("sweeps_per_second %.4f\nloglik %.1f\nlog_joint %.1f\ntokens %zu\n", static_cast<double>(sweeps) / seconds, ll,
              ll + lz, N);
  return 0;
}
