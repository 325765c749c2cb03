#pragma once
// The REPL's expressions over posterior draws: mean(E), sd(E), median(E), quantile(E, p),
// or a bare E for its summary. E is compiled as `ppl_repl_value = E` added to the model
// the draws came from, and recomputed for every draw from the unknowns' values in it.
#include <string>

#include "data/data.hpp"
#include "draws/draws.hpp"

namespace ppl::cli::repl {

// What a line asks: the summary (mean, sd, median, quantile, or "summary" for a bare E)
// and E. Throws std::invalid_argument for a malformed call, such as quantile(E).
struct query {
  std::string line;
  std::string fn = "summary";
  std::string expression;
  double p = 0;  // quantile's probability
};
query parse_query(const std::string& line);

// Evaluates the query over the draws `d` of the model `model_text` with data `data`, and
// prints the answer (one line per element of E). Throws ppl::source_error for an error
// in E (pointing into the line), std::invalid_argument when E needs what `d` lacks.
void print_query(const query& q, const std::string& model_text, const data::data_table& data, const draws::table& d);

}  // namespace ppl::cli::repl
