// Synthetic ratings at the Netflix prize's shape for the BPMF benchmark (issue 39, item 3):
// 480,189 users, 17,770 items and 100,480,507 ratings in Salakhutdinov & Mnih 2008; any size
// here. The truth is examples/bpmf/make_data.py's: mu_u, mu_v ~ Normal(0, 0.3^2 I),
// u_i ~ Normal(mu_u, I), v_j ~ Normal(mu_v, I) in D dimensions, a rating u_i . v_j plus
// Normal(0, 0.5^2) noise. make_data.py, plain Python, takes minutes for a million ratings;
// this writes a hundred million in about a minute, streaming, in constant memory beyond the
// features.
//
//   bpmf_generate --users 480189 --items 17770 --rank 10 --ratings 100000000
//       --heldout 1000000 --seed 1 --out DIR      (one line)
//
// Each user gets an equal share of the ratings and of the held-out pairs (the remainders
// to the first users), on distinct items drawn uniformly: the held-out pairs are none of the
// user's observed ones. Writes, with 1-based indices, sorted by user and then item:
//   DIR/ratings.csv, DIR/heldout.csv   user,item,rating
//   DIR/priors.json                    N, M, D and the hyperpriors of examples/bpmf
//                                      (mu0 = 0, W0 = I, nu0 = D, beta0 = 2, alpha = 4)
// and prints the held-out RMSE of the noise-free truth (the floor a prediction approaches).
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

struct options {
  long users = 480189, items = 17770, rank = 10, ratings = 100000000, heldout = 1000000;
  unsigned long long seed = 1;
  std::string out;
};

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: bpmf_generate --out DIR [--users 480189] [--items 17770] [--rank 10] [--ratings 100000000] "
               "[--heldout 1000000] [--seed 1]\n");
  std::exit(2);
}

options parse(int argc, char** argv) {
  options o;
  for (int a = 1; a < argc; a += 2) {
    if (a + 1 >= argc) usage();
    const std::string key = argv[a], value = argv[a + 1];
    if (key == "--out") o.out = value;
    else if (key == "--users") o.users = std::stol(value);
    else if (key == "--items") o.items = std::stol(value);
    else if (key == "--rank") o.rank = std::stol(value);
    else if (key == "--ratings") o.ratings = std::stol(value);
    else if (key == "--heldout") o.heldout = std::stol(value);
    else if (key == "--seed") o.seed = std::stoull(value);
    else usage();
  }
  if (o.out.empty() || o.users < 1 || o.items < 1 || o.rank < 1 || o.ratings < 0 || o.heldout < 0) usage();
  if ((o.ratings + o.heldout + o.users - 1) / o.users > o.items) {
    std::fprintf(stderr, "bpmf_generate: more pairs per user than there are items\n");
    std::exit(2);
  }
  return o;
}

// A CSV written through one buffer, numbers by to_chars.
class csv_out {
 public:
  explicit csv_out(const std::string& path) : f_(std::fopen(path.c_str(), "wb")) {
    if (!f_) {
      std::perror(path.c_str());
      std::exit(1);
    }
    buffer_.reserve(1 << 22);
    buffer_ = "user,item,rating\n";
  }
  ~csv_out() {
    flush();
    std::fclose(f_);
  }
  void row(long user, long item, double rating) {
    // At most 20 + 1 + 20 + 1 + 15 + 1 characters.
    std::array<char, 96> cell{};
    char* const end = cell.data() + cell.size() - 1;
    char* p = std::to_chars(cell.data(), end, user).ptr;
    *p++ = ',';
    p = std::to_chars(p, end, item).ptr;
    *p++ = ',';
    p = std::to_chars(p, end, rating, std::chars_format::general, 7).ptr;
    *p++ = '\n';
    buffer_.append(cell.data(), p);
    if (buffer_.size() > (1 << 22) - 64) flush();
  }

 private:
  void flush() {
    if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), f_) != buffer_.size()) {
      std::perror("bpmf_generate: write");
      std::exit(1);
    }
    buffer_.clear();
  }
  std::FILE* f_;
  std::string buffer_;
};

// k distinct items of M, sorted: rejection among few, a partial shuffle among many.
void distinct_items(long k, long M, std::mt19937_64& rng, std::vector<long>& out, std::vector<long>& all) {
  out.clear();
  if (4 * k > M) {
    if (static_cast<long>(all.size()) != M) {
      all.resize(static_cast<std::size_t>(M));
      for (long j = 0; j < M; ++j) all[static_cast<std::size_t>(j)] = j;
    }
    for (long n = 0; n < k; ++n) std::swap(all[static_cast<std::size_t>(n)], all[static_cast<std::size_t>(std::uniform_int_distribution<long>(n, M - 1)(rng))]);
    out.assign(all.begin(), all.begin() + k);
  } else {
    std::uniform_int_distribution<long> item(0, M - 1);
    while (static_cast<long>(out.size()) < k) {
      while (static_cast<long>(out.size()) < k) out.push_back(item(rng));
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end()), out.end());
    }
  }
  std::sort(out.begin(), out.end());
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  std::mt19937_64 rng(o.seed);
  std::normal_distribution<double> normal;
  const long D = o.rank;
  std::vector<double> mu_u(static_cast<std::size_t>(D)), mu_v(static_cast<std::size_t>(D));
  for (auto* mu : {&mu_u, &mu_v})
    for (double& x : *mu) x = 0.3 * normal(rng);
  std::vector<double> U(static_cast<std::size_t>(o.users * D)), V(static_cast<std::size_t>(o.items * D));
  for (long i = 0; i < o.users; ++i)
    for (long d = 0; d < D; ++d) U[static_cast<std::size_t>(i * D + d)] = mu_u[static_cast<std::size_t>(d)] + normal(rng);
  for (long j = 0; j < o.items; ++j)
    for (long d = 0; d < D; ++d) V[static_cast<std::size_t>(j * D + d)] = mu_v[static_cast<std::size_t>(d)] + normal(rng);
  const auto mean = [&](long i, long j) {
    double s = 0;
    for (long d = 0; d < D; ++d) s += U[static_cast<std::size_t>(i * D + d)] * V[static_cast<std::size_t>(j * D + d)];
    return s;
  };
  csv_out train(o.out + "/ratings.csv"), held(o.out + "/heldout.csv");
  std::vector<long> items, all, observed;
  double squares = 0;
  for (long i = 0; i < o.users; ++i) {
    const long k = o.ratings / o.users + (i < o.ratings % o.users), h = o.heldout / o.users + (i < o.heldout % o.users);
    distinct_items(k + h, o.items, rng, items, all);
    // Which of the user's items are held out: h of them, chosen uniformly.
    std::vector<char> out(items.size(), 0);
    for (long n = 0, chosen = 0; n < static_cast<long>(items.size()) && chosen < h; ++n)
      if (std::uniform_int_distribution<long>(0, static_cast<long>(items.size()) - n - 1)(rng) < h - chosen) out[static_cast<std::size_t>(n)] = 1, ++chosen;
    for (std::size_t n = 0; n < items.size(); ++n) {
      const long j = items[n];
      const double m = mean(i, j), r = m + 0.5 * normal(rng);
      if (out[n]) {
        held.row(i + 1, j + 1, r);
        squares += (r - m) * (r - m);
      } else {
        train.row(i + 1, j + 1, r);
      }
    }
  }
  std::FILE* p = std::fopen((o.out + "/priors.json").c_str(), "wb");
  if (!p) {
    std::perror("bpmf_generate: priors.json");
    return 1;
  }
  std::string mu0, W0;
  for (long d = 0; d < D; ++d) {
    mu0 += (d ? ", " : "") + std::string("0");
    W0 += d ? ", [" : "[";
    for (long e = 0; e < D; ++e) W0 += (e ? ", " : "") + std::string(d == e ? "1" : "0");
    W0 += "]";
  }
  std::fprintf(p, "{\"N\": %ld, \"M\": %ld, \"D\": %ld, \"mu0\": [%s], \"W0\": [%s], \"nu0\": %ld, \"beta0\": 2, \"alpha\": 4}\n", o.users, o.items,
               D, mu0.c_str(), W0.c_str(), D);
  std::fclose(p);
  std::printf("bpmf_generate: %ld users, %ld items, rank %ld, %ld ratings, %ld held out, seed %llu; truth's held-out RMSE %.4f -> %s\n",
              o.users, o.items, D, o.ratings, o.heldout, o.seed, o.heldout ? std::sqrt(squares / static_cast<double>(o.heldout)) : 0.0,
              o.out.c_str());
  return 0;
}
