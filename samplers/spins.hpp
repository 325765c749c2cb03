#pragma once
// Pairwise ±1 models (Ising, Boltzmann machines, binary MRFs), recognised from the graph
// and run by dedicated engines: the `gibbs` kind's chromatic heat-bath sweep and the
// `cluster` kind's Swendsen–Wang sweep. No Ising keyword: a variable qualifies when its
// elements are Spin() unknowns and every term that reads it is a `factor` of those spins
// and data alone whose value, as a function of the spins it reads, has no terms of three
// or more spins. The factors are then summed into
//   log p(s) = sum_i h_i s_i + sum_{i<j} J_ij s_i s_j + const,
// found numerically: an instance reading k spins is evaluated at its 2^k configurations
// and the Walsh–Hadamard transform of those values gives the constant, h and J terms
// (and shows any higher ones); a factor of the usual forms is evaluated at them for all
// its instances at once (spins_columns.cpp). Seeds: the Ising and sampling notes.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/graph.hpp"
#include "core/thread_pool.hpp"

namespace ppl::samplers::spins {

struct pairwise_model {
  std::size_t sites = 0;
  std::vector<double> field;              // h_i
  std::vector<std::uint64_t> start;       // site i's neighbours: [start[i], start[i + 1])
  std::vector<std::uint32_t> neighbour;   // both directions of every coupling
  std::vector<double> coupling;           // J for each entry of `neighbour`; empty when all are equal_coupling
  double equal_coupling = 0;              // the one J of a model whose couplings are all equal (a torus)
  double constant = 0;                    // the rest of log p(s): terms free of spins, and the Spin() priors
  std::vector<int> statements;            // the statements these terms replace (factors and priors)
  double min_coupling = 0;                // the smallest J (the cluster sampler needs J >= 0)
  std::string min_coupling_between;       // "s[1, 2] and s[1, 3]", for messages
  double coupling_at(std::uint64_t e) const { return coupling.empty() ? equal_coupling : coupling[e]; }
};

// The model of unknown `variable` when it has that form (null otherwise, and `reason` says
// why not), read once per graph (spins_read.cpp) and shared by the factories that ask and
// the sampler made.
std::shared_ptr<const pairwise_model> find_pairwise(model::graph& g, int variable, std::string& reason);

// log p(s) at spins x: constant + sum_i h_i x_i + sum_{i<j} J_ij x_i x_j, in O(couplings).
double log_density(const pairwise_model& m, const double* x);
// lp__ for a sampler of such a model: marks the statements the model replaces in `skip`.
double marginal_log_density(const pairwise_model& m, const double* x, std::vector<char>& skip, std::size_t statements);

// A greedy colouring: sites of one colour share no coupling (a checkerboard on a grid
// with even sides). Returns the sites of each colour.
std::vector<std::vector<std::uint32_t>> colour_classes(const pairwise_model& m);

// Heat-bath (Gibbs) sweeps over the colour classes in turn; within a class every site is
// independent of the others given the rest, so a class is split between threads. Each
// site's uniform comes from a counter-based hash of (the sweep's key, the site), so a seed
// gives the same draws whatever the number of threads.
class heat_bath {
 public:
  heat_bath(std::shared_ptr<const pairwise_model> m, double* spins);
  heat_bath(pairwise_model m, double* spins) : heat_bath(std::make_shared<const pairwise_model>(std::move(m)), spins) {}
  void sweep(ppl::rng& rng, int threads);
  std::size_t colours() const { return classes_.size(); }
  const pairwise_model& model() const { return *m_; }

 private:
  void update(const std::vector<std::uint32_t>& sites, std::size_t first, std::size_t last, std::uint64_t key);

  std::shared_ptr<const pairwise_model> m_;
  double* x_;
  std::vector<std::vector<std::uint32_t>> classes_;
  // When every site has the same field, degree and coupling (a torus), p(s_i = +1) takes
  // degree + 1 values, tabulated by the neighbours' sum.
  bool uniform_ = false;
  std::uint64_t degree_ = 0;
  std::vector<double> table_;
  std::unique_ptr<ppl::thread_pool> pool_;
};

// Swendsen–Wang (1987) for couplings J_ij >= 0: bonds between equal neighbours with
// probability 1 - exp(-2 J_ij), then each cluster C takes +1 with probability
// 1 / (1 + exp(-2 sum_{i in C} h_i)) — the field enters as a cluster's weight, so the
// update is exact with or without one (Edwards & Sokal 1988).
class swendsen_wang {
 public:
  swendsen_wang(std::shared_ptr<const pairwise_model> m, double* spins);
  swendsen_wang(pairwise_model m, double* spins) : swendsen_wang(std::make_shared<const pairwise_model>(std::move(m)), spins) {}
  void sweep(ppl::rng& rng);
  // Mean cluster size of the last sweep, for the report.
  double mean_cluster_size() const { return mean_size_; }
  const pairwise_model& model() const { return *m_; }

 private:
  std::uint32_t root(std::uint32_t i);

  std::shared_ptr<const pairwise_model> m_;
  double* x_;
  std::vector<double> bond_probability_;  // per entry of m_->neighbour; empty when all are bond_uniform_
  double bond_uniform_ = 0;
  std::vector<std::uint32_t> parent_;
  std::vector<double> cluster_field_;
  double mean_size_ = 0;
};

}  // namespace ppl::samplers::spins
