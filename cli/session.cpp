#include "cli/session.hpp"

#include "runtime/graph.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <fmt/core.h>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

#include "lang/checker.hpp"
#include "stdlib/flat.hpp"
#include "stdlib/registry.hpp"

namespace ppl::cli {

namespace {

// Whether the model reads a value of that name as data.
bool reads_data(const lang::ir::model& m, std::string_view name) {
  const int v = m.find(name);
  return v >= 0 && m.variables[static_cast<std::size_t>(v)].role == lang::ir::role::data;
}

// A column of text that the model reads is an error when the graph binds the data; one it
// does not read (names, dates, notes beside the numbers) is left out, with a note. A column
// X.k is read when the matrix X is.
void note_unread_text(const lang::ir::model& m, const runtime::data_table& data) {
  for (const auto& [name, column] : data.text_columns()) {
    if (column.matrix || reads_data(m, name)) continue;
    const auto dot = name.rfind('.');
    const std::string matrix = dot == std::string::npos ? "" : name.substr(0, dot);
    if (!matrix.empty() && data.text(matrix) && reads_data(m, matrix)) continue;
    std::cerr << "note: " << column.problem.file << ": column `" << lang::printable(name) << "` " << column.reason
              << " and the model does not use it; ignored\n";
  }
}

}  // namespace

loaded load(const model_inputs& in) {
  std::ifstream f(in.model_path, std::ios::binary);
  if (!f) throw lang::source_error({in.model_path, {}, std::string("cannot open the model file: ") + std::strerror(errno), "", ""});
  std::ostringstream os;
  os << f.rdbuf();
  lang::source_file src{in.model_path, os.str()};
  loaded out;
  out.model = std::make_unique<lang::ir::model>(lang::compile(src, stdlib::library()));
  if (!in.data_path.empty()) out.data = runtime::read_data_file(in.data_path);
  for (const auto& s : in.sets) runtime::apply_set(out.data, s);
  if (auto options = runtime::missing_values(*out.model, out.data); !options.partly_observed.empty())
    out.model = std::make_unique<lang::ir::model>(lang::compile(src, stdlib::library(), std::move(options)));
  note_unread_text(*out.model, out.data);
  return out;
}

std::string usage_error_line(const std::string& what) {
  std::string text = what;
  if (text.size() > 1 && std::isupper(static_cast<unsigned char>(text[0])) && std::islower(static_cast<unsigned char>(text[1])))
    text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return "error: " + text + "\n";
}

void refuse_improper_priors(const lang::ir::model& m, const std::string& what) {
  for (const auto& s : m.statements) {
    if (s.which != lang::ir::statement::kind::sample || !stdlib::improper(*s.dist)) continue;
    const auto& var = m.variables[static_cast<std::size_t>(s.target)];
    if (var.role != lang::ir::role::unknown) continue;
    lang::fail_at(m.source, s.pos, "`" + var.name + "` has an improper flat prior (a `param` without `~`, or Flat()), which has no draws, so " +
                                       what + " cannot draw it; give it a proper prior with `~` (a wide Uniform or Normal)");
  }
}

int guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const lang::source_error& e) {
    std::cerr << e.what();
    return 1;
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "error: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

void print_plan(const std::vector<samplers::plan_line>& lines, std::string_view prefix, std::size_t label_width) {
  std::size_t kind_width = 10;
  for (const auto& p : lines) label_width = std::max(label_width, p.variable.size()), kind_width = std::max(kind_width, p.kind.size());
  for (const auto& p : lines) fmt::print("{}{:<{}} {:<{}} {}\n", prefix, p.variable, label_width, p.kind, kind_width, p.reason);
}

}  // namespace ppl::cli
