#pragma once
// Questions about the graph's structure that several factories ask.
#include <string>
#include <vector>

#include "lang/ir.hpp"
#include "model/graph.hpp"

namespace ppl::samplers {

// Whether some observation or `factor` depends on the variable (through any path of
// statements); an unknown that none does is drawn exactly from its prior. Found for every
// variable once per graph (lang::informed_variables).
bool informed(model::graph& g, int variable);

// The marked variables (by index) and every variable they reach through `=` definitions.
// Statements come parents first, so one pass carries a mark down every chain.
std::vector<char> reaching(const lang::ir::model& m, std::vector<char> marked);

// The variable an expression reads as `v` or `v[i, ...]` with single indices free of
// unknowns (one block at a place fixed for the run); -1 otherwise.
int direct_variable(const lang::ir::expr& e);

// The marked variables and every variable their definitions read, back through chains of
// `=` (what must be current to evaluate them). The reverse of `reaching`: one pass from the
// last statement back.
std::vector<char> with_inputs(const lang::ir::model& m, std::vector<char> marked);

// Whether the block's geometry changes with one of its unknowns, so that no one metric
// fits it all (a funnel): a prior of the variables reads an unknown in an argument after
// its first (the scale or shape of a location-scale family: b ~ Normal(0, sigma) with
// sigma unknown), directly or through derived variables; or a product or quotient, in a
// definition or a term, has factors on both sides that read the variables (a non-centred
// scale, theta = mu + tau * eta; a latent GP, f = cholesky(K(alpha, rho)) * f_tilde).
bool funnel_shaped(const lang::ir::model& m, const std::vector<int>& variables);

// Whether a term or a definition multiplies two values that both read the variables
// (directly or through derived variables): a product, a quotient or a dot product, such as
// BPMF's dot(U[user[r]], V[item[r]]). No Gaussian block of them is then affine in them
// all, which this says from the model's text, before a block is built to find out.
bool multiplies_them(const lang::ir::model& m, const std::vector<int>& variables);

// Whether an expression reads a marked variable.
bool reads_marked(const lang::ir::expr* e, const std::vector<char>& marked);

// By variable: whether some `~` or `factor` depends on a derived variable (else it is
// output only, recomputed once per iteration, and no sampler needs to care about it); 0
// for data and unknowns. The `~` of predictions (lang::predictive_statements) do not
// count: their sampler recomputes what they read itself. One pass over the statements;
// with a graph, computed once and kept with the graph's analyses.
std::vector<char> feeding_density(const lang::ir::model& m);
const std::vector<char>& feeding_density(model::graph& g);

// The statements other than its own prior that read the variable, leaving out the
// definitions of output-only derived variables and the `~` of predictions.
std::vector<int> reading_statements(const lang::ir::model& m, int variable);

// How a conjugate prior's variable v appears in a child's argument.
enum class link {
  direct,           // v (or an element or block of it)
  sqrt_of,          // sqrt(v): v is a variance and the argument a standard deviation
  inverse_sqrt_of,  // 1 / sqrt(v) or v ^ -0.5: v is a precision
  linear,           // an expression linear in v, with v appearing once (a + b * x[n])
  odds,             // v / (1 - v): v is a probability and the argument its odds
  scaled,           // v * c or c * v, c not reading v: a rate times an exposure (or a hazard)
  inverse_sqrt_scaled,  // 1 / sqrt(v * c) or (v * c) ^ -0.5: a precision times a known weight
  sqrt_scaled,          // sqrt(v * c): a variance times a known factor
};

// Whether the form carries a known factor c (scale_in finds it).
inline bool is_scaled(link form) { return form == link::scaled || form == link::inverse_sqrt_scaled || form == link::sqrt_scaled; }

// How the form reads a variable named `name`, for messages: "1 / sqrt(tau)".
std::string describe_link(link form, const std::string& name);

// A distribution and the argument through which a conjugate prior's variable enters it.
struct likelihood {
  std::string dist;
  std::size_t arg;
  link form = link::direct;
};

// The reference to `variable` (v or v[i, ...], indices not mentioning v) inside an
// argument of the given form, or null.
const lang::ir::expr* reference_in(const lang::ir::expr& arg, link form, int variable);
// For the scaled forms, the factor c of an argument reference_in accepts.
const lang::ir::expr& scale_in(const lang::ir::expr& arg, link form, int variable);

// A conjugate link: `~` statements, each of a listed distribution whose listed argument is
// the variable, or one element or leading-index block of it selected by indices that do
// not mention it, and that read it nowhere else. Fills `children` and returns ""
// on success, else the reason.
// `unlisted`, when given, is set when the reason is a child whose distribution `allowed`
// does not list (the reason then names the child and its distribution only).
std::string direct_children(const lang::ir::model& m, int variable, const std::vector<likelihood>& allowed,
                            std::vector<int>& children, bool* unlisted = nullptr);

// A derived variable `d` whose every definition gives one scalar element from one element
// of `variable` through `form`, indices and bounds free of unknowns, any factor not reading
// the variable:
// lambda[i] <- theta[i] * t[i] (scaled), sigma[j] <- 1 / sqrt(tau[j]) (inverse_sqrt_of),
// a[k] <- alpha[k] (direct). A child taking d[...] in an argument where a pair takes that
// form reads the variable's element through d as if the definition were written in its
// place (JAGS's conjugate updates through deterministic nodes). Sets `form`.
bool alias_form(const lang::ir::model& m, int d, int variable, link& form);

// The variable's prior distribution name if all its `~` statements use the same one.
std::string prior_name(const lang::ir::model& m, int variable);

// Whether every element's support is finite and small enough to enumerate; sets `reason`.
bool finite_support(model::graph& g, int variable, std::string& reason);

}  // namespace ppl::samplers
