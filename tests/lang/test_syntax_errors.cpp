// Syntax errors in words: what was expected, never a C++ type name, and advice for the
// habits of BUGS, JAGS and Stan users.
#include <doctest/doctest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lang/checker.hpp"
#include "lang/parser.hpp"
#include "lang/syntax_error.hpp"
#include "stdlib/registry.hpp"

namespace test_syntax_errors {

using namespace ppl;

namespace {

std::string first_line_of_error(const std::string& text) {
  try {
    lang::compile({"m.ppl", text}, stdlib::library());
  } catch (const ppl::source_error& e) {
    std::string s = e.what();
    return s.substr(0, s.find('\n'));
  }
  return "";
}

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// What a mangled C++ type name or a Spirit parser's name would contain.
bool reads_like_cpp(const std::string& message) {
  for (const char* mark : {"boost", "spirit", "x3", "N3ppl", "ppl::", "St6vector", "_class"})
    if (message.find(mark) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("no syntax error names a C++ type: every example and error case cut short, or with a token inserted") {
  std::vector<std::pair<std::string, bool>> models;  // text, and whether to insert tokens too
  for (const char* name : {"coin", "mark", "lda", "ising", "bnn", "nmixture", "eight_schools"})
    models.emplace_back(read(std::string(PPL_SOURCE_DIR) + "/examples/" + name + "/" + name + ".ppl"), true);
  for (const auto& entry : std::filesystem::directory_iterator(std::string(PPL_SOURCE_DIR) + "/tests/errors"))
    if (entry.path().extension() == ".ppl") models.emplace_back(read(entry.path()), false);
  std::size_t errors = 0;
  auto check = [&](const std::string& text) {
    std::string message = first_line_of_error(text);
    errors += !message.empty();
    INFO(text);
    CHECK_MESSAGE(!reads_like_cpp(message), message);
  };
  for (const auto& [model, insert] : models) {
    REQUIRE(!model.empty());
    for (std::size_t cut = 0; cut <= model.size(); ++cut) {
      check(model.substr(0, cut));
      // Tokens go in where one token ends and another begins.
      const bool boundary = cut == 0 || !std::isalnum(static_cast<unsigned char>(model[cut - 1]));
      if (insert && boundary)
        for (const char* token : {")", "]", "[", "(", ",", "{", "}", ":", "~", "<"})
          check(model.substr(0, cut) + token + model.substr(cut));
    }
  }
  CHECK(errors > 10000);  // the cuts and insertions did reach the parser's failures
}

TEST_CASE("a parser without a name is reported by what was found") {
  CHECK(lang::explain_syntax_error("x ~ )", 4, 4, "N5boost6spirit2x34listI...").message == "unexpected ')'");
  CHECK(lang::explain_syntax_error("x ~ \x01", 4, 4, "N5boost6spirit2x34listI...").message == "unexpected '\\x01'");
}

TEST_CASE("syntax errors say what was expected, in words") {
  CHECK(first_line_of_error("data x: real[]\n") == "m.ppl:1:14: error: expected a size (`real[N]`) but found ']'");
  CHECK(first_line_of_error("x[] ~ Normal(0, 1)\n") == "m.ppl:1:3: error: `x[]` has an empty index: write `x` for the whole array");
  CHECK(first_line_of_error("data 1x: real\n") ==
        "m.ppl:1:6: error: expected a name for the data (`data y: real[N]`) but found '1x'");
  CHECK(first_line_of_error("x ~ Normal\n") == "m.ppl:1:11: error: expected '(' but found end of input");
}

TEST_CASE("JAGS and BUGS habits get advice") {
  CHECK(first_line_of_error("for (i in 1:3) { x[i] ~ Normal(0, 1) }\n") ==
        "m.ppl:1:5: error: expected a loop variable (`for i in 1:N`) but found '('; ppl writes a loop without "
        "parentheses: `for i in 1:N { ... }`");
  CHECK(first_line_of_error("mu <- 2\n") ==
        "m.ppl:1:4: error: ppl has no `<-`: write `=` for a deterministic statement and `~` for a stochastic one");
  CHECK(first_line_of_error("model {\n  x ~ Normal(0, 1)\n}\n") ==
        "m.ppl:1:1: error: ppl has no `model { ... }` block: write the statements themselves, at the top level");
  CHECK(first_line_of_error("x ~ Normal(0, 1) T(0, )\n") ==
        "m.ppl:1:18: error: truncation and censoring take square brackets after the distribution: `y ~ Normal(0, 1) T[a, b]` (JAGS's `T(a, b)`), `y ~ Weibull(r, s) C[a, ]` (BUGS's `C(a, )` and `I(a, )`); either bound may be left out");
  CHECK(first_line_of_error("y ~ dnorm(0, 0.01)\n") ==
        "m.ppl:1:5: error: unknown distribution `dnorm`: BUGS's dnorm(mu, tau) is Normal(mu, 1 / sqrt(tau)) here: ppl "
        "takes a standard deviation, not a precision");
  CHECK(first_line_of_error("y ~ dbin(0.5, 10)\n").find("Binomial(n, p) here: the arguments are the other way round") !=
        std::string::npos);
  CHECK(first_line_of_error("W ~ dwish(R, 4)\n") ==
        "m.ppl:1:5: error: unknown distribution `dwish`: BUGS's dwish(R, k) is Wishart(k, inverse(R)) here: Stan's scale "
        "matrix, the inverse of BUGS's R");
  CHECK(first_line_of_error("y ~ dmnorm(mu, Omega)\n").find("MultiNormalPrec(mu, Omega)") != std::string::npos);
  CHECK(first_line_of_error("p = ilogit(0.3)\n") == "m.ppl:1:5: error: unknown function `ilogit`: BUGS's ilogit(x) is inv_logit(x) here");
}

TEST_CASE("Stan habits get advice") {
  CHECK(first_line_of_error("real x;\n") ==
        "m.ppl:1:1: error: Stan's declarations are written `data x: real` for data and `param x: real<lower=0>` for an "
        "unknown, one a line; an unknown with a `~` needs none: `x ~ Normal(0, 1)` makes `x` one");
  CHECK(first_line_of_error("x ~ Normal(0, 1)\ntarget += -x\n") == "m.ppl:2:1: error: Stan's `target += E` is `factor E` here");
  CHECK(first_line_of_error("x ~ normal(0, 1)\n") == "m.ppl:1:5: error: unknown distribution `normal`; did you mean `Normal`?");
}

TEST_CASE("a misspelt keyword is named") {
  CHECK(first_line_of_error("fro i in 1:3 { x[i] ~ Normal(0, 1) }\n") == "m.ppl:1:1: error: `fro` is not a keyword; did you mean `for`?");
  CHECK(first_line_of_error("dat y: real\n") == "m.ppl:1:1: error: `dat` is not a keyword; did you mean `data`?");
  CHECK(first_line_of_error("x ~ Normal(0, 1)\nfactr -x * x\n") == "m.ppl:2:1: error: `factr` is not a keyword; did you mean `factor`?");
  CHECK(first_line_of_error("for i inn 1:3 { x[i] ~ Normal(0, 1) }\n") == "m.ppl:1:7: error: expected 'in' but found 'inn'; did you mean `in`?");
  CHECK(first_line_of_error("data y: rael\n") == "m.ppl:1:9: error: expected a type ('int' or 'real') but found 'rael'; did you mean `real`?");
  CHECK(first_line_of_error("data y: real<lowr=0>\n").find("but found 'lowr'; did you mean `lower`?") != std::string::npos);
  // A name followed by a name that is no keyword's typo gets no advice.
  CHECK(first_line_of_error("information x\n") == "m.ppl:1:13: error: expected '~' or '=' but found 'x'");
}

TEST_CASE("an unknown distribution or function lists the near ones") {
  CHECK(first_line_of_error("x ~ Norm(0, 1)\n") ==
        "m.ppl:1:5: error: unknown distribution `Norm`; did you mean `Normal`, `LogNormal` or `HalfNormal`?");
  CHECK(first_line_of_error("x ~ Gamm(1, 1)\n").find("did you mean `Gamma`") != std::string::npos);
  CHECK(first_line_of_error("x ~ Normal(0, 1)\ny = lgo(x)\n") == "m.ppl:2:5: error: unknown function `lgo`; did you mean `log`?");
  CHECK(first_line_of_error("x ~ Normal(0, 1)\ny = frobnicate(x)\n") == "m.ppl:2:5: error: unknown function `frobnicate`");
}

TEST_CASE("powers: a chain of `^` over many lines is refused; many statements with a `^` each are not") {
  auto parses = [](const std::string& text) {
    try {
      ppl::lang::parse({"m.ppl", text});
      return std::string();
    } catch (const ppl::source_error& e) {
      std::string s = e.what();
      return s.substr(0, s.find('\n'));
    }
  };
  std::string many, chained, leading;
  for (int i = 0; i < 400; ++i) many += "y" + std::to_string(i) + " = x^2  # squared\n";
  CHECK(parses(many).empty());
  chained = "x = a";
  for (int i = 0; i < 300; ++i) chained += "^\na";
  CHECK(parses(chained).find("nested more than 256 levels deep") != std::string::npos);
  leading = "x = a";
  for (int i = 0; i < 300; ++i) leading += "\n^a";
  CHECK(parses(leading).find("nested more than 256 levels deep") != std::string::npos);
}

}  // namespace test_syntax_errors
