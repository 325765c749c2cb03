#pragma once
// Mean-field variational Bayes by coordinate ascent (CAVI: Bishop 2006, section 10.1;
// Winn & Bishop 2005's variational message passing; Blei, Kucukelbir & McAuliffe 2017) for
// conjugate-exponential models. The structure analysis that picks conjugate Gibbs updates
// picks the updates here: q(v) is the family of v's conjugate posterior, and its arguments
// are that posterior's with the statistics of the children and the prior averaged over q
// of every other unknown. An unknown without a conjugate pair whose terms are all Normal and
// affine in it (a regression's coefficient vector, random effects read through a linear
// predictor) is one multivariate normal factor instead: the Gaussian block's conditional
// N(Q^-1 c, Q^-1) with Q and c averaged the same way (samplers/gaussian_block.hpp); so are
// together the unknowns the planner draws as one Gaussian block (a structured mean field:
// a line's intercept and slope keep their correlation). A continuous scalar with neither
// update is a factor on a grid (inference/cavi_grid.cpp), discrete unknowns and Dirichlet
// weights have categorical and Dirichlet factors (inference/cavi_discrete.cpp), and a
// Wishart precision matrix a Wishart factor (inference/cavi_wishart.cpp).
//
// The average is taken without a rule per pair. In a conjugate-exponential model every
// statistic is multilinear in the sufficient statistics of the other unknowns' elements
// (x and x^2 of a Normal, x and log x of a Gamma, log x and log(1 - x) of a Beta), and each
// factor of q has two points of equal weight with the same expected sufficient statistics
// (m -+ s for a Normal). The statistics are computed by the pair's own code at the points
// of a design, one sign per element: every element of a variable has a code of its own
// with an odd number of bits, its sign in a row is the parity of the code's bits in the
// variable's slice of the row's bits, and the rows run over all slices. Over all rows the
// product of the signs of any one, two or three distinct elements averages to zero, so
// the average is the expectation exactly, for terms in up to three elements of one
// variable (and any number of variables). A multivariate normal factor N(m, S S') is set
// to m + S z, z of +-1 coded the same way by column. The cost is 2^bits evaluations of a
// term, bits being one for a variable of which each instance reads one element, and
// about log2 of its size plus one for another.
#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "model/graph.hpp"
#include "samplers/conjugate.hpp"

namespace ppl::inference {

// One scalar factor of q: the family of its conjugate posterior and that family's two
// arguments; before its first update a point at the start's value.
struct q_factor {
  const char* family = nullptr;  // "Normal" (mean, sd), "Gamma" (shape, rate), "InverseGamma" (shape, scale), "Beta"; null: a point
  double a = 0, b = 0;
  double mean() const;
  double sd() const;
  // The two points of equal weight with q's expected sufficient statistics.
  std::pair<double, double> points() const;
  double entropy() const;
  double log_density(double x) const;
  double draw(ppl::rng& rng) const;
};

class cavi {
 public:
  // The graph at its start. Throws std::invalid_argument naming an unknown that has no
  // update here, and why.
  explicit cavi(model::graph& g);
  ~cavi();
  // Each unknown's q updated in turn, in the model's order; returns the largest change of a
  // factor's mean in units of its sd.
  double sweep();
  // E_q log p(data, unknowns) + the entropy of q: the evidence's lower bound.
  double elbo();
  // A factor per element; a partly observed unknown's given elements are points at the
  // data (family null), and `free_elements` the others.
  const std::vector<q_factor>& factors(int variable) const;
  const std::vector<std::size_t>& free_elements(int variable) const { return free_[static_cast<std::size_t>(variable)]; }
  // Whether q holds the variable as one multivariate normal (its factors then being the
  // marginals).
  bool joint(int variable) const;
  // The variables of each multivariate normal factor.
  std::vector<std::vector<int>> blocks() const;
  // A line on the variable's q for the report: its factors' families and arguments (the
  // first `most` elements; a block's marginals, a discrete unknown's probabilities).
  std::string describe(int variable, std::size_t most) const;
  // The family of the variable's factors: Normal, Gamma, ..., MultiNormal (a block's),
  // Categorical (a discrete unknown's), Dirichlet.
  std::string family(int variable) const;
  // Every unknown set to its q's mean (a discrete one to its most probable value), or to a
  // draw from q (returning log q of it).
  void set_means();
  double draw(ppl::rng& rng);
  // The unknowns, by variable index, and the largest number of design rows an update or a
  // term takes.
  const std::vector<int>& unknowns() const { return unknowns_; }
  // The predictions (unknowns no evidence reaches): not in q; drawn given each draw of it.
  const std::vector<int>& predicted() const { return predicted_; }
  bool has_discrete() const { return !discretes_.empty(); }
  bool has_grid() const { return !grids_.empty(); }
  long widest_design() const { return widest_; }

 private:
  struct update;
  struct design;
  struct block;
  struct discrete;
  struct simplex;
  struct grid;
  struct wishart;
  void add_unknown(int v);
  void add_block(const std::vector<int>& variables, const std::string* why_not_conjugate);
  std::unique_ptr<update> pair_update(int v, const samplers::conjugate_pair* pair, std::vector<int> children);
  void hold(int v);
  void hold_free(int v);
  void write(const block& joint, const Eigen::VectorXd& x);
  design* make_design(const std::vector<int>& variables, const std::vector<int>& statements, const std::string& what);
  void set_row(const design& d, long row);
  void average_totals(update& u, std::vector<double>& sum);
  double update_factors(update& u);
  double update_block(update& u);
  // Discrete unknowns and Dirichlet ones (inference/cavi_discrete.cpp).
  bool add_discrete(int v);
  void add_simplex(int v, const samplers::conjugate_pair* pair, std::vector<int> children);
  void read_discrete_elements(const discrete& z);
  long discrete_value(const design& d, long row) const;
  long grid_point(const design& d, long row) const;
  double instance_weight(const design& d, long k, int statement, std::size_t instance) const;
  double update_discrete(update& u);
  double update_simplex(update& u);
  double weighted_term(const design& d, int statement);
  double simplex_correction(int statement) const;
  double discrete_entropy() const;
  double discrete_draw(ppl::rng& rng);
  // Scalars without a conjugate update, on a grid (inference/cavi_grid.cpp).
  bool add_grid(int v);
  double update_grid(update& u);
  double expected_terms(const design& d, long value, int statement);
  double row_weight(const design& d, long row) const;
  double grid_entropy() const;
  double grid_draw(ppl::rng& rng);
  // A Wishart precision matrix (inference/cavi_wishart.cpp).
  void add_wishart(int v, const samplers::conjugate_pair* pair, std::vector<int> children);
  double update_wishart(update& u);
  double wishart_entropy() const;
  double wishart_draw(ppl::rng& rng);
  std::vector<std::unique_ptr<wishart>> wisharts_;
  std::vector<wishart*> wishart_of_;  // by variable
  std::vector<std::unique_ptr<grid>> grids_;
  std::vector<grid*> grid_of_;  // by variable
  std::vector<std::unique_ptr<discrete>> discretes_;
  std::vector<discrete*> discrete_of_;  // by variable
  std::vector<std::unique_ptr<simplex>> simplexes_;
  std::vector<simplex*> simplex_of_;    // by variable
  // By statement: the element of a discrete unknown each instance reads (in the order of
  // model::instances::table), and which unknown (-1: none).
  std::vector<std::vector<ppl::index_t>> element_read_;
  std::vector<int> discrete_read_;
  model::graph& graph_;
  std::vector<char> predictive_;  // by statement
  std::vector<int> unknowns_, predicted_;
  std::vector<char> in_q_;        // by variable
  std::vector<std::vector<q_factor>> q_;  // by variable; a block's: each element's marginal
  std::vector<std::vector<std::pair<double, double>>> points_;  // each factor's two points
  std::vector<std::vector<std::size_t>> free_;  // the elements q holds (a partly observed unknown's imputed ones)
  std::vector<std::unique_ptr<block>> blocks_;  // the multivariate normal factors
  std::vector<block*> joint_;                   // by variable: the one holding it, if any
  std::vector<std::unique_ptr<update>> updates_;
  std::vector<std::pair<int, design*>> terms_;  // statements with a density, and the design over the unknowns each reads
  std::vector<std::unique_ptr<design>> designs_;
  long widest_ = 1;
};

}  // namespace ppl::inference
