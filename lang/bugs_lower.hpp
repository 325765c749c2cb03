#pragma once
// A BUGS model (lang/bugs_ast.hpp) as a ppl program (lang/ast.hpp), which the checker then
// takes as it takes a .ppl file: every node keeps its offset in the BUGS text, so errors
// point there. What changes:
//   - names: dots become underscores (`alpha.c` is `alpha_c`, as the data readers name it);
//   - `<-` is `=`; `logit(p) <- e` is `p = inv_logit(e)` (likewise log, cloglog, probit);
//   - distributions and functions take ppl's names and parametrisations
//     (lang/bugs_names.hpp: `dnorm(mu, tau)` is `Normal(mu, 1 / sqrt(tau))`);
//   - `T(a, b)` is truncation `T[a, b]`; `I(a, b)` and `C(a, b)` are censoring `C[a, b]`;
//   - `x[]`, `x[, ]` are the whole of x; a range `1:K` on the left of `~` a whole dimension;
//   - the data: BUGS learns which nodes are data from the data file, ppl from `data`
//     declarations, which are written here, one per variable the model reads that the
//     data give (or, with no data, that the model never defines), with its kind and sizes.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "lang/ast.hpp"
#include "lang/bugs_ast.hpp"
#include "core/source_error.hpp"

namespace ppl::lang {

// What the lowering needs of one data variable (named with underscores for dots).
struct bugs_data_shape {
  std::vector<std::size_t> dims;  // empty for a scalar
  bool whole = true;              // every given value an integer
  double value = 0;               // a scalar's value
};
using bugs_data_shapes = std::map<std::string, bugs_data_shape, std::less<>>;

// With `data` null, the variables the model reads and never defines are the data, their
// sizes taken from the loops that index them (`ppl translate` without a data file).
// `dotted`, if given, receives the names spelt with dots in the BUGS text: ppl name ->
// BUGS spelling (alpha_c -> alpha.c), for output that keeps the model's own names.
ast::program lower_bugs(const source_file& src, const bugs::program& program, const bugs_data_shapes* data,
                        std::map<std::string, std::string>* dotted = nullptr);

}  // namespace ppl::lang
