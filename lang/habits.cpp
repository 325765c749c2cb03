#include "lang/habits.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "lang/bugs_names.hpp"
#include "lang/suggest.hpp"

namespace ppl::lang {

namespace {

std::string advice(const bugs_name* e) {
  if (!e) return "";
  std::string text = "BUGS's " + std::string(e->bugs) + " is " + std::string(e->ppl) + " here";
  return e->note.empty() ? text : text + ": " + std::string(e->note);
}

// A program's sections in Stan (`model {`, `parameters {`) and BUGS (`model {`, `data {`).
constexpr std::array<std::string_view, 7> blocks{"data", "functions", "generated", "model", "parameters", "quantities", "transformed"};

}  // namespace

std::string bugs_distribution(std::string_view name) { return advice(find_bugs_distribution(name)); }

std::string bugs_function(std::string_view name) { return advice(find_bugs_function(name)); }

std::string statement_habit(std::string_view word, std::string_view next) {
  if (word == "data" && next.substr(0, 1) == "{")
    return "ppl has no `data { ... }` block: declare each data variable on a line of its own, as `data y: real[N]`";
  if (word == "functions" && next.substr(0, 1) == "{")
    return "ppl has no `functions { ... }` block: define each function at the top level as `function f(x, y) = expression`, "
           "which each call is written out from";
  if (next.substr(0, 1) == "{" && std::find(blocks.begin(), blocks.end(), word) != blocks.end())
    return "ppl has no `" + std::string(word) + " { ... }` block: write the statements themselves, at the top level";
  if (word == "target" && next.substr(0, 2) == "+=")
    return "Stan's `target += E` is `factor E` here";
  if ((word == "T" || word == "C" || word == "I") && next.substr(0, 1) == "(")
    return "truncation and censoring take square brackets after the distribution: `y ~ Normal(0, 1) T[a, b]` (JAGS's `T(a, b)`), "
           "`y ~ Weibull(r, s) C[a, ]` (BUGS's `C(a, )` and `I(a, )`); either bound may be left out";
  // Near a keyword, and not a longer word that happens to contain one (`information`).
  std::string keyword = closest_name(word, {"data", "factor", "for"});
  if (!keyword.empty() && keyword != word && word.size() <= keyword.size() + 1)
    return "`" + std::string(word) + "` is not a keyword; did you mean `" + keyword + "`?";
  return "";
}

}  // namespace ppl::lang
