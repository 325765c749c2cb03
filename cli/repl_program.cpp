#include "cli/repl_program.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "lang/parser.hpp"

namespace ppl::cli::repl {

namespace {

std::string with_line_feed(std::string s) {
  if (!s.empty() && s.back() != '\n') s += '\n';
  return s;
}

// Where each top-level statement of `text` starts and ends, in bytes.
std::vector<lang::ast::tagged> statement_spans(const std::string& name, const std::string& text) {
  std::vector<lang::ast::tagged> spans;
  for (const auto& s : lang::parse({name, text}).statements)
    spans.push_back(boost::apply_visitor([](const auto& node) -> lang::ast::tagged {
      if constexpr (std::is_base_of_v<lang::ast::tagged, std::decay_t<decltype(node)>>) return node;
      else return node.get();  // x3::forward_ast<for_stmt>
    }, s));
  return spans;
}

}  // namespace

program program::from_file(const std::string& name, const std::string& text) {
  program p;
  std::vector<lang::ast::tagged> spans;
  try {
    spans = statement_spans(name, text);
  } catch (const std::exception&) {  // the caller compiled it, so only a front end of another syntax
    spans.clear();
  }
  if (spans.empty()) {
    if (text.find_first_not_of(" \t\r\n") != std::string::npos) p.add(text);
    return p;
  }
  // A statement's text runs from the start of its first line, so that the comments above
  // it go with it, or from the end of the one before when they share the line; the
  // first's from the top of the file.
  std::vector<std::size_t> cuts = {0};
  for (std::size_t k = 1; k < spans.size(); ++k) {
    const std::size_t line = text.rfind('\n', spans[k].pos);
    cuts.push_back(std::max(spans[k - 1].end, line == std::string::npos ? 0 : line + 1));
  }
  cuts.push_back(text.size());
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) p.add(text.substr(cuts[k], cuts[k + 1] - cuts[k]));
  return p;
}

std::string program::text() const {
  std::string out;
  for (const auto& s : statements_) out += s.text;
  return out;
}

std::string program::listing() const {
  if (statements_.empty()) return "(no model yet)\n";
  const std::size_t width = fmt::format("[{}] ", statements_.back().number).size();
  std::string out;
  for (const auto& s : statements_) {
    const std::string tag = fmt::format("[{}] ", s.number);
    // The number goes on the statement's first line, after any comment lines above it.
    bool numbered = false;
    std::size_t at = 0;
    while (at < s.text.size()) {
      const std::size_t end = s.text.find('\n', at);
      const std::string line = s.text.substr(at, end - at);
      const auto first = line.find_first_not_of(" \t\r");
      const bool code = !numbered && first != std::string::npos && line[first] != '#';
      out += fmt::format("{:<{}}{}\n", code ? tag : "", width, line);
      numbered = numbered || code;
      at = end == std::string::npos ? s.text.size() : end + 1;
    }
  }
  return out;
}

int program::add(const std::string& statement) {
  statements_.push_back({next_, with_line_feed(statement)});
  return next_++;
}

std::vector<program::statement>::iterator program::find(const std::string& number, const char* command) {
  std::size_t used = 0;
  int n = 0;
  try {
    n = std::stoi(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != number.size())
    throw std::invalid_argument(fmt::format("{}: expected a statement's number (`model` lists them), got `{}`", command, number));
  const auto it = std::find_if(statements_.begin(), statements_.end(), [&](const statement& s) { return s.number == n; });
  if (it == statements_.end()) throw std::invalid_argument(fmt::format("{}: there is no statement {} (`model` lists them)", command, n));
  return it;
}

int program::drop(const std::string& number) {
  const auto it = find(number, "drop");
  const int n = it->number;
  statements_.erase(it);
  return n;
}

int program::replace(const std::string& number, const std::string& statement) {
  const auto it = find(number, "replace");
  it->text = with_line_feed(statement);
  return it->number;
}

}  // namespace ppl::cli::repl
