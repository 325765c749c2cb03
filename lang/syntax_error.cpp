#include "lang/syntax_error.hpp"

#include <array>
#include <cctype>
#include <vector>

#include "core/source_error.hpp"
#include "lang/habits.hpp"
#include "lang/suggest.hpp"

namespace ppl::lang {

namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

constexpr std::array<std::string_view, 13> two_char_tokens{"<-", "+=", "-=", "*=", "/=", "==", "!=",
                                                           "<=", ">=", "&&", "||", ".*", "./"};

// The token at an offset, as a message shows it: "'theta'", "'<-'", "end of line".
std::string found_at(std::string_view text, std::size_t offset) {
  if (offset >= text.size() || text.find_first_not_of(" \t\r\n\v\f", offset) == std::string_view::npos)
    return "end of input";
  const char c = text[offset];
  if (c == '\n' || c == '\r') return "end of line";
  std::size_t end = offset + 1;
  for (auto token : two_char_tokens)
    if (text.substr(offset, 2) == token) end = offset + 2;
  if (end == offset + 1 && (word_char(c) || c == '.'))
    while (end < text.size() && (word_char(text[end]) || text[end] == '.')) ++end;
  return "'" + printable(text.substr(offset, end - offset)) + "'";
}

// Our rules' names are phrases ("a statement") or quoted tokens ("'in'"); what X3 gives
// for a parser without a name is a mangled C++ type, never shown to a user.
bool readable(std::string_view what) {
  return what.starts_with("a ") || what.starts_with("an ") || what.starts_with("'");
}

// The words quoted in a rule's name: `in` of "'in'", `int` and `real` of "a type ('int' or
// 'real')", to suggest for a misspelt keyword.
std::vector<std::string> quoted_words(std::string_view what) {
  std::vector<std::string> words;
  for (std::size_t open = what.find('\''); open != std::string_view::npos; open = what.find('\'', open + 1)) {
    std::size_t close = what.find('\'', open + 1);
    if (close == std::string_view::npos) break;
    std::string_view w = what.substr(open + 1, close - open - 1);
    if (!w.empty() && std::isalpha(static_cast<unsigned char>(w[0]))) words.emplace_back(w);
    open = close;
  }
  return words;
}

// Stan's constrained and linear-algebra types at the start of a statement, and what ppl
// writes for each.
struct stan_type {
  std::string_view name, ppl;
};
constexpr stan_type stan_types[] = {
    {"vector", "`data v: real[N]` or `param v: real[N]` (ppl has one kind of vector; an unknown with a `~` needs no declaration)"},
    {"row_vector", "`data v: real[N]` or `param v: real[N]` (ppl has one kind of vector)"},
    {"matrix", "`data X: real[N, K]` or `param X: real[N, K]`"},
    {"array", "`data y: real[N]` (the sizes after the type: `int[N, M]`)"},
    {"simplex", "a Dirichlet prior, which makes a simplex: `theta ~ Dirichlet(rep(1, K))`"},
    {"ordered", "`param c: ordered[K]`"},
    {"positive_ordered", "`param c: positive_ordered[K]`"},
    {"unit_vector", "a vector divided by its norm: `u = v / sqrt(dot(v, v))` with `v ~ MultiNormal(...)`"},
    {"cholesky_factor_corr", "an LKJ prior on the factor, which makes one: `L ~ LKJCorrCholesky(K, eta)`"},
    {"corr_matrix", "an LKJ prior, which makes one: `Omega ~ LKJCorr(K, eta)`"},
    {"cov_matrix", "a Wishart or inverse Wishart prior, which makes one: `Sigma ~ InverseWishart(nu, S)`"},
    {"cholesky_factor_cov", "the Cholesky factor of a covariance with a prior: `L = cholesky(Sigma)`"},
};

std::string stan_type_habit(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  for (const auto& t : stan_types) {
    if (!line.starts_with(t.name)) continue;
    const std::string_view rest = line.substr(t.name.size());
    if (rest.empty() || (rest.front() != '[' && rest.front() != '<' && rest.front() != ' ')) continue;
    return "Stan's `" + std::string(t.name) + "` declaration: ppl writes " + std::string(t.ppl);
  }
  return "";
}

// Advice for a habit of BUGS, JAGS or Stan at the error, or an empty message.
syntax_error habit(std::string_view text, std::size_t after, std::size_t offset, std::string_view what) {
  const std::string_view next = text.substr(std::min(offset, text.size()));
  if (next.starts_with("<-"))
    return {offset, "ppl has no `<-`: write `=` for a deterministic statement and `~` for a stochastic one"};
  if (what == expected::tilde_or_equals) {
    const std::size_t line_start = text.rfind('\n', std::min(after, text.size()) - (after > 0)) + 1;
    if (std::string advice = stan_type_habit(text.substr(line_start)); !advice.empty()) return {line_start, advice};
    std::size_t start = std::min(after, text.size());
    while (start > 0 && word_char(text[start - 1])) --start;
    std::string advice = statement_habit(text.substr(start, after - start), next);
    if (!advice.empty()) return {start, advice};
  }
  if (what == expected::data_name && next.starts_with("{")) return {offset, statement_habit("data", next)};
  if (what == expected::statement && (next.starts_with("real") || next.starts_with("int")))
    return {offset, "Stan's declarations are written `data x: real` for data and `param x: real<lower=0>` for an unknown, one a line; an unknown with a `~` needs none: `x ~ Normal(0, 1)` makes `x` one"};
  return {offset, ""};
}

}  // namespace

syntax_error explain_syntax_error(std::string_view text, std::size_t after, std::size_t offset, std::string_view what) {
  if (syntax_error advice = habit(text, after, offset, what); !advice.message.empty()) return advice;
  syntax_error error = plain_syntax_error(text, offset, what);
  if (what == expected::loop_variable && text.substr(std::min(offset, text.size())).starts_with("("))
    error.message += "; ppl writes a loop without parentheses: `for i in 1:N { ... }`";
  return error;
}

syntax_error plain_syntax_error(std::string_view text, std::size_t offset, std::string_view what) {
  const std::string found = found_at(text, offset);
  if (!readable(what)) return {offset, "unexpected " + found};
  std::string message = "expected " + std::string(what) + " but found " + found;
  if (found.size() > 2 && std::isalpha(static_cast<unsigned char>(found[1])))
    message += did_you_mean(near_names(found.substr(1, found.size() - 2), quoted_words(what), 1));
  return {offset, message};
}

}  // namespace ppl::lang
