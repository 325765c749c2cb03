#pragma once
// Errors that point at the source (DESIGN.md, requirement 6). Every phase — parser,
// checker, data loaders, graph builder — reports through `source_error`, so all of them
// print the same way:
//
//   model.ppl:3:14: error: undefined name `thta`
//      3 | z[n] ~ Categorical(thta[doc[n]])
//        |                    ^
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ppl {

// A source text and the name it is reported under.
struct source_file {
  std::string name;
  std::string text;
};

// A source text held elsewhere (a source_file, or a file mapped into memory), for the
// readers and messages that only read it.
struct source_view {
  std::string_view name;
  std::string_view text;
  source_view(std::string_view n, std::string_view t) : name(n), text(t) {}
  source_view(const source_file& f) : name(f.name), text(f.text) {}  // NOLINT: a file is a view of itself
};

struct location {
  std::size_t line = 0;    // 1-based; 0 when there is no position
  std::size_t column = 0;  // 1-based, in bytes
};

// Line and column of a byte offset (counts the line feeds before it: for one message).
location locate(std::string_view text, std::size_t offset);

// The starts of a text's lines, found once: for many offsets into the same text (a line
// number for every statement of a large model), each then a binary search rather than a
// scan from the start of the file.
class line_index {
 public:
  line_index() = default;
  explicit line_index(std::string_view text);
  location locate(std::size_t offset) const;
  // The offset of the first byte of a line (1-based; past the last line: the text's size).
  std::size_t start_of(std::size_t line) const;

 private:
  std::vector<std::size_t> starts_{0};  // offset of the first byte of each line
  std::size_t size_ = 0;                // of the text
};

// The text as a message may show it: printable ASCII, tabs and well-formed UTF-8 as they
// are, and any other byte (a control character, a NUL, a byte of binary data) as \xNN, so
// that no message puts raw bytes on a terminal.
std::string printable(std::string_view text);

struct diagnostic {
  std::string file;
  location where;           // line 0: the message is about the whole file
  std::string message;
  std::string source_line;  // the text of line `where.line`, empty if none
  std::string note;         // an optional second line of advice

  // "file:line:col: error: message", then the source line and a caret.
  std::string str() const;
};

diagnostic make_diagnostic(source_view src, std::size_t offset, std::string message);
// The same with the file's lines indexed, for many diagnostics in one large file.
diagnostic make_diagnostic(source_view src, const line_index& lines, std::size_t offset, std::string message);

// A user's error in a model or data file: exit status 1.
class source_error : public std::runtime_error {
 public:
  explicit source_error(diagnostic d);
  const diagnostic& diag() const { return diag_; }

 private:
  diagnostic diag_;
};

// Shorthand: throw a source_error at an offset of a file.
[[noreturn]] void fail_at(source_view src, std::size_t offset, std::string message);

}  // namespace ppl
