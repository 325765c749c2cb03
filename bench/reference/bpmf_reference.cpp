// A hand-written Gibbs sampler for Bayesian probabilistic matrix factorisation (BPMF;
// Salakhutdinov & Mnih 2008, "Bayesian probabilistic matrix factorization using MCMC",
// ICML, section 3.3), the reference for the BPMF benchmark in bench/ (the ppl model is
// examples/bpmf/bpmf.ppl, its data from examples/bpmf/make_data.py). Single-threaded,
// Eigen 3.
//
//   bpmf_reference TRAIN.json HELDOUT.json [--sweeps 200] [--burnin 50] [--seed 1] [--report K]
//   bpmf_reference TRAIN.csv HELDOUT.csv --priors PRIORS.json [...]
//
// The second form reads the ratings as bench/reference/bpmf_generate writes them (CSV,
// user,item,rating) a block at a time, with no document of the file, and N, M, D and the
// hyperpriors from PRIORS.json: the memory is the ratings' arrays and their two groupings,
// as a sampler written for a hundred million ratings would hold them.
//
// Model: Lambda_u ~ Wishart(nu0, W0) (mean nu0 W0), mu_u ~ Normal(mu0, (beta0 Lambda_u)^-1),
// u_i ~ Normal(mu_u, Lambda_u^-1); the same for the items; r_ij ~ Normal(u_i . v_j, alpha^-1)
// with alpha known. A sweep draws (mu_u, Lambda_u) | U from their Normal-Wishart conditional
// (Wishart by Bartlett's decomposition), then every u_i | V, mu_u, Lambda_u (one Cholesky
// factor of its conditional precision, accumulated by rank-1 updates over the user's
// ratings), then (mu_v, Lambda_v) | V and every v_j | U the same way.
// Start: U and V drawn once from Normal(0, I); mu = 0 and Lambda = I (which the first sweep
// replaces before reading them).
//
// Prints "key value" lines: sweeps, seconds (CPU time of the Gibbs updates alone; reading
// the data and scoring the held-out pairs excluded), sweeps_per_second, heldout_rmse (of the
// posterior-mean prediction, u_i . v_j averaged over the sweeps after burn-in) and
// heldout_rmse_last (the last sweep's prediction). Every --report sweeps (default a tenth of
// the run) "sweep S rmse R" goes to stderr: the running posterior-mean RMSE, or during
// burn-in the current sweep's.
#include <Eigen/Dense>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

namespace {

using Eigen::Lower;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using rng_type = std::mt19937_64;

struct ratings {
  std::vector<int> user, item;  // 0-based
  std::vector<double> value;
};

// The ratings of each user (or item) k, CSR-like: other[start[k] .. start[k + 1]) with value.
struct rating_lists {
  std::vector<long> start;
  std::vector<int> other;
  std::vector<double> value;
};

struct normal_wishart_prior {
  VectorXd mu0;
  MatrixXd W0_inverse;
  double nu0, beta0;
};

struct hyper {
  VectorXd mu;
  MatrixXd Lambda;
};

struct options {
  long sweeps = 200, burnin = 50, report = 0;
  unsigned long long seed = 1;
  std::string priors;
};

nlohmann::json read_json(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "bpmf_reference: cannot open %s\n", path);
    std::exit(1);
  }
  return nlohmann::json::parse(in);
}

ratings read_ratings(const nlohmann::json& j, long N, long M) {
  ratings r;
  for (const auto& u : j.at("user")) r.user.push_back(u.get<int>() - 1);
  for (const auto& i : j.at("item")) r.item.push_back(i.get<int>() - 1);
  for (const auto& v : j.at("rating")) r.value.push_back(v.get<double>());
  bool ok = r.user.size() == r.item.size() && r.user.size() == r.value.size();
  for (std::size_t n = 0; ok && n < r.user.size(); ++n)
    ok = r.user[n] >= 0 && r.user[n] < N && r.item[n] >= 0 && r.item[n] < M;
  if (!ok) {
    std::fprintf(stderr, "bpmf_reference: user, item and rating must have one length and 1-based indices within N, M\n");
    std::exit(1);
  }
  return r;
}

// user,item,rating rows after a header, 16 MB at a time.
ratings read_ratings_csv(const char* path, long N, long M) {
  std::FILE* f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "bpmf_reference: cannot open %s\n", path);
    std::exit(1);
  }
  ratings r;
  std::string block, rest;
  std::vector<char> buffer(std::size_t{1} << 24);
  bool header = true;
  std::fseek(f, 0, SEEK_END);
  const long size = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  for (std::size_t got; (got = std::fread(buffer.data(), 1, buffer.size(), f)) > 0 || !rest.empty();) {
    block.assign(rest);
    block.append(buffer.data(), got);
    const std::size_t end = got > 0 ? block.rfind('\n') + 1 : block.size();
    rest.assign(block, end, std::string::npos);
    const char* p = block.data();
    const char* stop = block.data() + end;
    if (header) p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(stop - p))) + 1, header = false;
    while (p < stop) {
      long u = 0, i = 0;
      double v = 0;
      p = std::from_chars(p, stop, u).ptr + 1;
      p = std::from_chars(p, stop, i).ptr + 1;
      p = std::from_chars(p, stop, v).ptr;
      while (p < stop && (*p == '\r' || *p == '\n')) ++p;
      if (u < 1 || u > N || i < 1 || i > M) {
        std::fprintf(stderr, "bpmf_reference: %s: a row with user %ld, item %ld outside 1..N, 1..M\n", path, u, i);
        std::exit(1);
      }
      r.user.push_back(static_cast<int>(u - 1));
      r.item.push_back(static_cast<int>(i - 1));
      r.value.push_back(v);
    }
    if (r.value.size() == r.value.capacity() || r.value.capacity() == 0) {  // sized from the first block's rows per byte
      const auto rows = static_cast<std::size_t>(static_cast<double>(r.value.size()) * static_cast<double>(size) / static_cast<double>(end) * 1.02) + 64;
      r.user.reserve(rows), r.item.reserve(rows), r.value.reserve(rows);
    }
    if (got == 0) break;
  }
  std::fclose(f);
  return r;
}

// A counting sort of the ratings by `by`.
rating_lists group(const std::vector<int>& by, const std::vector<int>& other, const std::vector<double>& value,
                   long rows) {
  rating_lists g;
  g.start.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (int k : by) ++g.start[static_cast<std::size_t>(k) + 1];
  for (long k = 0; k < rows; ++k) g.start[k + 1] += g.start[k];
  g.other.resize(by.size());
  g.value.resize(by.size());
  std::vector<long> next(g.start.begin(), g.start.end() - 1);
  for (std::size_t n = 0; n < by.size(); ++n) {
    const long at = next[static_cast<std::size_t>(by[n])]++;
    g.other[at] = other[n];
    g.value[at] = value[n];
  }
  return g;
}

void fill_normal(VectorXd& z, rng_type& rng) {
  std::normal_distribution<double> normal;
  for (long d = 0; d < z.size(); ++d) z[d] = normal(rng);
}

// Bartlett's decomposition: with W = L L' and A lower triangular, A_kk^2 ~ chi^2(nu - k)
// (k from 0), A_kl ~ Normal(0, 1) below the diagonal, L A A' L' ~ Wishart(nu, W).
MatrixXd wishart(double nu, const MatrixXd& W, rng_type& rng) {
  const long D = W.rows();
  std::normal_distribution<double> normal;
  MatrixXd A = MatrixXd::Zero(D, D);
  for (long k = 0; k < D; ++k) {
    A(k, k) = std::sqrt(std::chi_squared_distribution<double>(nu - static_cast<double>(k))(rng));
    for (long l = 0; l < k; ++l) A(k, l) = normal(rng);
  }
  const MatrixXd LA = W.llt().matrixL() * A;
  return LA * LA.transpose();
}

// (mu, Lambda) | X, the Normal-Wishart posterior given the columns of X (Bishop 2006, 2.3.6).
void draw_hyper(const MatrixXd& X, const normal_wishart_prior& p, hyper& h, rng_type& rng) {
  const double K = static_cast<double>(X.cols()), beta_n = p.beta0 + K;
  const VectorXd mean = X.rowwise().mean();
  const MatrixXd centred = X.colwise() - mean;
  const VectorXd offset = mean - p.mu0;
  MatrixXd W_inverse = p.W0_inverse + centred * centred.transpose();
  W_inverse += (p.beta0 * K / beta_n) * offset * offset.transpose();
  MatrixXd W = W_inverse.llt().solve(MatrixXd::Identity(X.rows(), X.rows()));
  W = 0.5 * (W + W.transpose());
  h.Lambda = wishart(p.nu0 + K, W, rng);
  // mu = mu_n + L^-T z / sqrt(beta_n) with Lambda = L L' has covariance (beta_n Lambda)^-1.
  VectorXd z(X.rows());
  fill_normal(z, rng);
  h.Lambda.llt().matrixU().solveInPlace(z);
  h.mu = (p.beta0 * p.mu0 + K * mean) / beta_n + z / std::sqrt(beta_n);
}

// Every column x_k of X from Normal(Q^-1 b, Q^-1), Q = Lambda + alpha sum y_j y_j',
// b = Lambda mu + alpha sum r_kj y_j over k's ratings; as x_k = L^-T (L^-1 b + z), Q = L L'.
void draw_factors(MatrixXd& X, const MatrixXd& Y, const rating_lists& lists, const hyper& h, double alpha,
                  rng_type& rng) {
  const long D = X.rows();
  const VectorXd prior_b = h.Lambda * h.mu;
  MatrixXd Q(D, D);
  VectorXd b(D), z(D);
  for (long k = 0; k < X.cols(); ++k) {
    Q.triangularView<Lower>() = h.Lambda;
    b = prior_b;
    for (long n = lists.start[k]; n < lists.start[k + 1]; ++n) {
      const auto y = Y.col(lists.other[n]);
      Q.selfadjointView<Lower>().rankUpdate(y, alpha);
      b.noalias() += (alpha * lists.value[n]) * y;
    }
    Eigen::LLT<Eigen::Ref<MatrixXd>, Lower> llt(Q);  // in place
    if (llt.info() != Eigen::Success) {
      std::fprintf(stderr, "bpmf_reference: conditional precision not positive definite\n");
      std::exit(1);
    }
    fill_normal(z, rng);
    llt.matrixL().solveInPlace(b);
    b += z;
    llt.matrixU().solveInPlace(b);
    X.col(k) = b;
  }
}

double rmse(const VectorXd& prediction, const ratings& heldout) {
  double sum = 0;
  for (long n = 0; n < prediction.size(); ++n) {
    const double e = prediction[n] - heldout.value[static_cast<std::size_t>(n)];
    sum += e * e;
  }
  return std::sqrt(sum / static_cast<double>(prediction.size()));
}

void predict(const MatrixXd& U, const MatrixXd& V, const ratings& heldout, VectorXd& prediction) {
  for (long n = 0; n < prediction.size(); ++n)
    prediction[n] = U.col(heldout.user[static_cast<std::size_t>(n)]).dot(V.col(heldout.item[static_cast<std::size_t>(n)]));
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: bpmf_reference TRAIN.json HELDOUT.json [--sweeps 200] [--burnin 50] [--seed 1] [--report K]\n"
               "       bpmf_reference TRAIN.csv HELDOUT.csv --priors PRIORS.json [...]\n");
  std::exit(2);
}

options parse_options(int argc, char** argv) {
  options o;
  for (int a = 3; a < argc; a += 2) {
    if (a + 1 >= argc) usage();
    const std::string key = argv[a];
    const char* value = argv[a + 1];
    if (key == "--sweeps") o.sweeps = std::atol(value);
    else if (key == "--burnin") o.burnin = std::atol(value);
    else if (key == "--seed") o.seed = std::strtoull(value, nullptr, 10);
    else if (key == "--report") o.report = std::atol(value);
    else if (key == "--priors") o.priors = value;
    else usage();
  }
  if (o.sweeps <= 0 || o.burnin < 0 || o.burnin >= o.sweeps) {
    std::fprintf(stderr, "bpmf_reference: need 0 <= burnin < sweeps\n");
    std::exit(2);
  }
  if (o.report <= 0) o.report = std::max(1L, o.sweeps / 10);
  return o;
}

normal_wishart_prior read_prior(const nlohmann::json& data, long D) {
  normal_wishart_prior p;
  p.mu0.resize(D);
  MatrixXd W0(D, D);
  for (long d = 0; d < D; ++d) {
    p.mu0[d] = data.at("mu0").at(static_cast<std::size_t>(d)).get<double>();
    for (long e = 0; e < D; ++e)
      W0(d, e) = data.at("W0").at(static_cast<std::size_t>(d)).at(static_cast<std::size_t>(e)).get<double>();
  }
  p.W0_inverse = W0.llt().solve(MatrixXd::Identity(D, D));
  p.nu0 = data.at("nu0").get<double>();
  p.beta0 = data.at("beta0").get<double>();
  if (p.nu0 <= static_cast<double>(D - 1) || p.beta0 <= 0) {
    std::fprintf(stderr, "bpmf_reference: need nu0 > D - 1 and beta0 > 0\n");
    std::exit(1);
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) usage();
  const options opt = parse_options(argc, argv);
  const bool csv = std::string(argv[1]).ends_with(".csv");
  if (csv && opt.priors.empty()) usage();
  const nlohmann::json data = read_json(csv ? opt.priors.c_str() : argv[1]);
  const long N = data.at("N").get<long>(), M = data.at("M").get<long>(), D = data.at("D").get<long>();
  const double alpha = data.at("alpha").get<double>();
  const normal_wishart_prior prior = read_prior(data, D);
  const ratings train = csv ? read_ratings_csv(argv[1], N, M) : read_ratings(data, N, M);
  const ratings heldout = csv ? read_ratings_csv(argv[2], N, M) : read_ratings(read_json(argv[2]), N, M);
  const rating_lists by_user = group(train.user, train.item, train.value, N);
  const rating_lists by_item = group(train.item, train.user, train.value, M);

  rng_type rng(opt.seed);
  std::normal_distribution<double> normal;
  MatrixXd U(D, N), V(D, M);  // one column per user, per item
  for (long n = 0; n < U.size(); ++n) U.data()[n] = normal(rng);
  for (long n = 0; n < V.size(); ++n) V.data()[n] = normal(rng);
  hyper hu{VectorXd::Zero(D), MatrixXd::Identity(D, D)}, hv = hu;

  const long H = static_cast<long>(heldout.value.size());
  VectorXd prediction(H), sum = VectorXd::Zero(H);
  std::clock_t ticks = 0;
  for (long s = 1; s <= opt.sweeps; ++s) {
    const std::clock_t start = std::clock();
    draw_hyper(U, prior, hu, rng);
    draw_factors(U, V, by_user, hu, alpha, rng);
    draw_hyper(V, prior, hv, rng);
    draw_factors(V, U, by_item, hv, alpha, rng);
    ticks += std::clock() - start;
    predict(U, V, heldout, prediction);
    if (s > opt.burnin) sum += prediction;
    if (s % opt.report == 0 || s == opt.sweeps) {
      const double r = s > opt.burnin ? rmse(sum / static_cast<double>(s - opt.burnin), heldout) : rmse(prediction, heldout);
      std::fprintf(stderr, "sweep %ld rmse %.6f\n", s, r);
    }
  }
  const double seconds = static_cast<double>(ticks) / CLOCKS_PER_SEC;
  std::printf("sweeps %ld\n", opt.sweeps);
  std::printf("seconds %.6f\n", seconds);
  std::printf("sweeps_per_second %.3f\n", static_cast<double>(opt.sweeps) / seconds);
  std::printf("heldout_rmse %.6f\n", rmse(sum / static_cast<double>(opt.sweeps - opt.burnin), heldout));
  std::printf("heldout_rmse_last %.6f\n", rmse(prediction, heldout));
  return 0;
}
