#pragma once
// The REPL's model as numbered statements. A statement keeps its number while it lives
// (dropping statement 2 leaves 1 and 3), a new one takes the next number, and loading a
// file numbers its statements from 1; `model` lists them with their numbers, and `drop N`
// and `replace N STATEMENT` name them by it.
#include <string>
#include <vector>

namespace ppl::cli::repl {

class program {
 public:
  // The statements of a model file, each with the comment lines above it; text that does
  // not parse is kept as one statement.
  static program from_file(const std::string& name, const std::string& text);

  // The model's source: every statement's text, in order.
  std::string text() const;
  // Every statement under its number: "[2] p ~ Beta(1, 1)".
  std::string listing() const;
  std::size_t size() const { return statements_.size(); }
  bool empty() const { return statements_.empty(); }

  // Each returns the number of the statement it changed; drop and replace throw
  // std::invalid_argument for a number that is no statement.
  int add(const std::string& statement);
  int drop(const std::string& number);
  int replace(const std::string& number, const std::string& statement);

 private:
  struct statement {
    int number;
    std::string text;  // the comment lines above it, then the statement, ending in a line feed
  };
  std::vector<statement>::iterator find(const std::string& number, const char* command);

  std::vector<statement> statements_;
  int next_ = 1;
};

}  // namespace ppl::cli::repl
