// A hand-written Eigen implementation of the log density of examples/bnn/bnn.ppl and its
// gradient, the reference for bench/bnn.py: one hidden layer of H tanh units, standard
// normal priors on the weights, a half-normal noise scale on the log scale (with its
// Jacobian), inputs and target standardised with the training moments. The forward pass
// is two matrix products and a tanh; the backward pass the textbook one.
//
//   bnn_reference DATA.json EVALUATIONS [H]
//
// Checks its gradient against central finite differences, then prints the gradient
// evaluations per second.
#include <Eigen/Dense>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

using Eigen::ArrayXXd;
using Eigen::MatrixXd;
using Eigen::VectorXd;

struct network {
  MatrixXd Z;  // N x P, standardised inputs
  VectorXd y;  // standardised target
  long P, H;

  long dimension() const { return P * H + 2 * H + 2; }

  // theta = (W1 column-major P x H, b1, w2, b2, log sigma).
  double log_density(const VectorXd& theta, VectorXd& grad) const {
    const long N = Z.rows();
    Eigen::Map<const MatrixXd> W1(theta.data(), P, H);
    Eigen::Map<const VectorXd> b1(theta.data() + P * H, H), w2(theta.data() + P * H + H, H);
    const double b2 = theta[P * H + 2 * H], s = theta[P * H + 2 * H + 1], sigma = std::exp(s);
    MatrixXd A = Z * W1;
    A.rowwise() += b1.transpose();
    const MatrixXd T = A.array().tanh().matrix();
    const VectorXd r = y - (T * w2).array().matrix() - VectorXd::Constant(N, b2);
    const double rss = r.squaredNorm();
    const double half_log_2pi = 0.5 * std::log(2 * M_PI);
    double lp = -0.5 * rss / (sigma * sigma) - static_cast<double>(N) * (s + half_log_2pi);
    lp += -0.5 * (W1.squaredNorm() + b1.squaredNorm() + w2.squaredNorm() + b2 * b2) -
          static_cast<double>(P * H + 2 * H + 1) * half_log_2pi;
    lp += -0.5 * sigma * sigma + 0.5 * std::log(2 / M_PI) + s;  // HalfNormal(1) and the Jacobian
    grad.resize(theta.size());
    const VectorXd df = r / (sigma * sigma);
    const MatrixXd dA = ((df * w2.transpose()).array() * (1 - T.array().square())).matrix();
    Eigen::Map<MatrixXd>(grad.data(), P, H) = Z.transpose() * dA - W1;
    grad.segment(P * H, H) = dA.colwise().sum().transpose() - b1;
    grad.segment(P * H + H, H) = T.transpose() * df - w2;
    grad[P * H + 2 * H] = df.sum() - b2;
    grad[P * H + 2 * H + 1] = (rss / (sigma * sigma) - static_cast<double>(N)) - sigma * sigma + 1;
    return lp;
  }
};

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bnn_reference DATA.json EVALUATIONS [H]\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  const nlohmann::json data = nlohmann::json::parse(in);
  const long evaluations = std::atol(argv[2]);
  network net;
  net.H = argc > 3 ? std::atol(argv[3]) : 50;
  const auto& X = data["X"];
  const long N = static_cast<long>(X.size());
  net.P = static_cast<long>(X[0].size());
  net.Z.resize(N, net.P);
  net.y.resize(N);
  for (long n = 0; n < N; ++n) {
    for (long p = 0; p < net.P; ++p) net.Z(n, p) = X[static_cast<std::size_t>(n)][static_cast<std::size_t>(p)].get<double>();
    net.y[n] = data["y"][static_cast<std::size_t>(n)].get<double>();
  }
  // Standardise with the sample moments (sd with n - 1), as the model does.
  auto standardise = [&](auto col) {
    const double mean = col.mean();
    const double sd = std::sqrt((col.array() - mean).square().sum() / static_cast<double>(N - 1));
    col = (col.array() - mean) / sd;
  };
  for (long p = 0; p < net.P; ++p) standardise(net.Z.col(p));
  standardise(net.y.col(0));

  std::mt19937_64 rng(1);
  std::normal_distribution<double> normal;
  VectorXd theta(net.dimension()), grad, ignored;
  for (long i = 0; i < theta.size(); ++i) theta[i] = normal(rng);
  const double lp = net.log_density(theta, grad);
  double worst = 0;
  for (long i = 0; i < theta.size(); i += 7) {
    const double h = 1e-4;
    VectorXd up = theta, down = theta;
    up[i] += h;
    down[i] -= h;
    const double fd = (net.log_density(up, ignored) - net.log_density(down, ignored)) / (2 * h);
    worst = std::max(worst, std::fabs(fd - grad[i]) / std::max(1.0, std::fabs(fd)));
  }
  std::printf("dimension %ld, log density %.10g, gradient vs finite differences: largest relative error %.2e\n",
              theta.size(), lp, worst);
  const auto start = std::chrono::steady_clock::now();
  double sink = 0;
  for (long e = 0; e < evaluations; ++e) sink += net.log_density(theta, grad);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%ld gradient evaluations in %.3f s: %.1f per second (checksum %.6g)\n", evaluations, seconds,
              static_cast<double>(evaluations) / seconds, sink / static_cast<double>(evaluations));
  return worst < 1e-4 ? 0 : 1;
}
