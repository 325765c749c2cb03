#include "cli/repl_input.hpp"

#include <cctype>
#include <cstring>
#include <sstream>

namespace ppl::cli::repl {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

bool is_word_start(const std::string& line, const char* word) {
  const std::size_t n = std::strlen(word);
  return line.compare(0, n, word) == 0 && (line.size() == n || std::isspace(static_cast<unsigned char>(line[n])));
}

bool is_command(const std::string& line, const char* word) {
  if (!is_word_start(line, word)) return false;
  const std::string rest = trim(line.substr(std::strlen(word)));
  return rest.empty() || (rest[0] != '~' && rest[0] != '=');
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

int open_brackets(const std::string& text) {
  int depth = 0;
  bool comment = false;
  for (char c : text) {
    if (comment) {
      comment = c != '\n';
      continue;
    }
    if (c == '#') comment = true;
    else if (c == '{' || c == '(' || c == '[') ++depth;
    else if (c == '}' || c == ')' || c == ']') --depth;
  }
  return depth;
}

bool is_statement(const std::string& line) {
  if (is_word_start(line, "data") || is_word_start(line, "param") || is_word_start(line, "for") || is_word_start(line, "if") ||
      line.rfind("factor", 0) == 0)
    return true;
  int depth = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (depth == 0 && c == '~') return true;
    else if (depth == 0 && c == '=' && (i + 1 >= line.size() || line[i + 1] != '=') &&
             (i == 0 || std::string("=<>!").find(line[i - 1]) == std::string::npos))
      return true;
  }
  return false;
}

bool summary_call(const std::string& e, std::string& fn, std::vector<std::string>& args) {
  const auto open = e.find('(');
  if (open == std::string::npos || e.back() != ')') return false;
  fn = trim(e.substr(0, open));
  if (fn != "mean" && fn != "sd" && fn != "median" && fn != "quantile") return false;
  int depth = 0;
  std::string current;
  for (std::size_t i = open + 1; i + 1 < e.size(); ++i) {
    const char c = e[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) return false;  // the first parenthesis closes before the end: f(a) + g(b)
    }
    if (c == ',' && depth == 0) {
      args.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  args.push_back(trim(current));
  return depth == 0;
}

}  // namespace ppl::cli::repl
