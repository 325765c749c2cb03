#pragma once
// A block of continuous unknowns seen on the unconstrained scale, as gradient-based samplers
// (and rwmh) need it: a point y in R^d, the block's values x = f(y) element by element (log for a
// lower bound, logit for an interval; stdlib/transform.hpp) or block by block (stick-breaking
// for a simplex, Stan's ordered and cov_matrix transforms; stdlib/block_transform.hpp),
// and the target log p(x) + log |det df/dy| with its gradient in y, from the graph's
// reverse-mode pass (graph::log_density_gradient) and the transforms' chain rule.
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "core/archive.hpp"
#include "model/graph.hpp"
#include "stdlib/block_transform.hpp"
#include "stdlib/transform.hpp"

namespace ppl::samplers {

using stdlib::block_transform;
using stdlib::transform;

class unconstrained_target {
 public:
  unconstrained_target(model::graph& g, std::vector<int> variables);

  long dimension() const { return dimension_; }
  const std::vector<int>& variables() const { return variables_; }
  const model::graph& graph() const { return graph_; }
  // The block's current values, unconstrained (the second form into y's storage).
  Eigen::VectorXd position() const;
  void position(Eigen::VectorXd& y) const;
  // Sets the block to f(y) and returns the target at y (-inf outside the support or when
  // the density is NaN); `gradient` gets its gradient in y.
  double log_density(const Eigen::VectorXd& y, Eigen::VectorXd& gradient);
  // Sets the block to f(y) and brings the derived variables computed from it that a
  // density reads up to date, without differentiating: how a sampler leaves the graph at
  // the point it chose. (log_density leaves them so too; a derived variable only recorded
  // is the chain's to recompute at the iterations it keeps.)
  void set(const Eigen::VectorXd& y);
  // The same; returns log |det df/dy|. For samplers that evaluate the whole joint (rwmh).
  double set_with_jacobian(const Eigen::VectorXd& y);
  // log |det df/dy| at the point last set or evaluated.
  double log_jacobian() const { return log_jacobian_; }
  // Without the Jacobian, log_density is log p(f(y)) alone: its maximum is the mode on the
  // constrained scale (--method optimize --jacobian false). Refused (std::invalid_argument)
  // where some element's bounds follow other unknowns.
  void drop_jacobian();
  // Reads the supports of the block's elements again where their bounds follow other
  // unknowns (x ~ Uniform(0, theta), theta updated elsewhere): the transforms then fit the
  // current bounds. Samplers call it before each update; otherwise it does nothing.
  void refresh_supports();
  // Keeps a copy of the values the block's density reads that can change (the block's own
  // and the other unknowns its terms read, directly or through derived variables);
  // `inputs_unchanged` says whether they are all still the same. A sampler that remembers the
  // density and gradient at the state it left reuses them at its next step only then:
  // another sampler may have moved an unknown its terms read in between, or SMC changed
  // the temperature (the graph's; MCMC's is always 1, which a saved state need not hold).
  void remember_inputs();
  bool inputs_unchanged() const;
  void persist_inputs(ppl::archive& a) { a(remembered_); }
  // "W1[2, 3]" for coordinate i of y (a block's coordinate names the element it sets last:
  // a simplex's first K - 1, a covariance matrix's lower triangle).
  std::string coordinate_label(long i) const;
  // Each coordinate's (variable, element): a scalar's own element, a block's offset plus
  // the coordinate's index in it. Another target over some of the same variables finds a
  // coordinate's counterpart by it (a path's variances given to a NUTS block's metric).
  std::vector<std::pair<int, ppl::index_t>> coordinate_keys() const;

 private:
  double write(const Eigen::VectorXd& y);  // sets the values; returns log |J|
  void pass_through_bounds();

  struct scalar_block {
    int variable;
    ppl::index_t element;
    transform t;
    long position;
    double slope = 1, jacobian_slope = 0;  // dx/dy and d/dy log |dx/dy| at the y last written
    // Bounds that follow other unknowns of the block (supports::follows_bounds): the transform
    // is made from them at each write, after those unknowns, and the gradient passes
    // through them; `fraction` is (x - lower) / (upper - lower) at the y last written.
    bool follows = false;
    double fraction = 0;
  };
  struct vector_block {
    int variable;
    ppl::index_t offset, size;
    long position;
    block_transform t;
  };
  model::graph& graph_;
  std::vector<int> variables_;
  std::vector<char> wrt_;
  std::vector<char> derived_;  // derived variables that read the block and feed a density (kept up to date by set)
  std::vector<int> inputs_;    // the variables remember_inputs copies
  std::vector<double> remembered_;
  double remembered_temperature_ = 1;
  std::vector<scalar_block> scalars_;
  std::vector<vector_block> blocks_;
  long dimension_ = 0;
  bool moving_ = false;   // some element's support follows other unknowns
  bool follows_ = false;  // some element's bounds follow unknowns of this block
  bool jacobian_ = true;  // log_density includes log |det df/dy|
  std::vector<double*> bound_slots_;
  double log_jacobian_ = 0;
  std::vector<std::vector<double>> gradient_;  // by variable, in x
  std::vector<double> block_work_;             // block_transform::backward's working storage
  std::vector<double> zeros_;                  // a block's dx of 0: backward then gives d log |J| / dy alone
};

// Whether every element of the variable is continuous (an interval, a real vector, a
// simplex, an ordered vector or a covariance matrix), and the variable reaches every term
// through differentiable functions only; sets `reason` either way (for `ppl plan`).
bool smooth_block(model::graph& g, int variable, std::string& reason);

// Whether a support is one a block on the unconstrained scale can hold: every continuous kind.
bool continuous_support(const stdlib::support& s);

}  // namespace ppl::samplers
