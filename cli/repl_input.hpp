#pragma once
// Reading the REPL's input: where a line ends (brackets still open), whether it is a
// command, a statement of the language or an expression, and its words.
#include <string>
#include <vector>

namespace ppl::cli::repl {

std::string trim(const std::string& s);

// Whether `line` starts with the word `word` (followed by white space or the end).
bool is_word_start(const std::string& line, const char* word);

// Whether `line` is the command `word`: it starts with the word, and what follows is not
// `~` or `=` (`sample ~ Normal(0, 1)` is a statement about a variable named sample).
bool is_command(const std::string& line, const char* word);

// Words of a command line, for CLI11 (no quoting needed by any option).
std::vector<std::string> words(const std::string& line);

// Open brackets left by `text`, comments aside: the input continues while > 0.
int open_brackets(const std::string& text);

// A statement of the language, as opposed to an expression: a declaration, a loop, a
// factor, or a `~` or `=` outside brackets (not ==, <=, >=, !=).
bool is_statement(const std::string& line);

// f(args) with f one of the posterior summaries (mean, sd, median, quantile): the name
// and the top-level arguments. False for anything else, such as f(a) + g(b).
bool summary_call(const std::string& e, std::string& fn, std::vector<std::string>& args);

}  // namespace ppl::cli::repl
