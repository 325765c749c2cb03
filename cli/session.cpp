#include "cli/session.hpp"

#include "cli/progress.hpp"

#include "model/graph.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fmt/core.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <iostream>
#include <sstream>

#include "lang/bugs_lower.hpp"
#include "lang/bugs_parser.hpp"
#include "lang/checker.hpp"
#include "lang/parser.hpp"
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
void note_unread_text(const lang::ir::model& m, const data::data_table& data) {
  for (const auto& [name, column] : data.text_columns()) {
    if (column.matrix || reads_data(m, name)) continue;
    const auto dot = name.rfind('.');
    const std::string matrix = dot == std::string::npos ? "" : name.substr(0, dot);
    if (!matrix.empty() && data.text(matrix) && reads_data(m, matrix)) continue;
    std::cerr << "note: " << column.problem.file << ": column `" << ppl::printable(name) << "` " << column.reason
              << " and the model does not use it; ignored\n";
  }
}

// What the BUGS front end needs of the data: each value's shape and whether it is whole.
lang::bugs_data_shapes shapes_of(const data::data_table& data) {
  lang::bugs_data_shapes shapes;
  for (const auto& [name, v] : data.values()) {
    lang::bugs_data_shape& s = shapes[name];
    for (int k = 0; k < v.value.shape.rank; ++k) s.dims.push_back(static_cast<std::size_t>(v.value.shape[k]));
    const auto& values = v.value.data;
    s.whole = std::all_of(values.begin(), values.end(), [](double x) { return std::isnan(x) || x == std::floor(x); });
    if (s.dims.empty() && !values.empty()) s.value = values[0];
  }
  return shapes;
}

}  // namespace

source_model read_model(const model_inputs& in) {
  std::ifstream f(in.model_path, std::ios::binary);
  if (!f) throw ppl::source_error({in.model_path, {}, std::string("cannot open the model file: ") + std::strerror(errno), "", ""});
  std::ostringstream os;
  os << f.rdbuf();
  source_model out{{in.model_path, os.str()}, false};
  out.bugs = in.dialect == "bugs" || (in.dialect == "auto" && lang::looks_like_bugs(in.model_path, out.src.text));
  return out;
}

lang::ast::program program_of(const source_model& m, const data::data_table* data, std::map<std::string, std::string>* dotted) {
  if (!m.bugs) return lang::parse(m.src);
  const auto bugs = lang::parse_bugs(m.src);
  if (!data) return lang::lower_bugs(m.src, bugs, nullptr, dotted);
  const auto shapes = shapes_of(*data);
  return lang::lower_bugs(m.src, bugs, &shapes, dotted);
}

void fit_length_one(const lang::ir::model& model, data::data_table& data) {
  for (const auto& var : model.variables) {
    data::data_value* v = var.role == lang::ir::role::data ? data.find(var.name) : nullptr;
    if (!v || !v->length_one || v->value.shape.rank != 0 || var.type.rank == 0) continue;
    v->value.shape.rank = var.type.rank;
    for (int k = 0; k < var.type.rank; ++k) v->value.shape.dims[static_cast<std::size_t>(k)] = 1;
  }
}

loaded load(const model_inputs& in) {
  const source_model m = read_model(in);
  loaded out;
  // A BUGS model learns from the data which of its nodes are data, so they are read first;
  // a ppl model is checked first, so that an error in it is found without the data.
  std::optional<lang::ast::program> program;
  if (!m.bugs) program = program_of(m, nullptr), out.model = std::make_unique<lang::ir::model>(lang::check(m.src, *program, stdlib::library()));
  if (!in.data_path.empty()) {
    const reading_display shown(in.data_path, in.quiet);  // a large file's status line on a terminal
    out.data = data::read_data_file(in.data_path);
  }
  for (const auto& s : in.sets) data::apply_set(out.data, s);
  const bool no_data = in.data_path.empty() && in.sets.empty();  // then the names the model never defines are its data
  if (m.bugs) program = program_of(m, no_data ? nullptr : &out.data, &out.bugs_names), out.model = std::make_unique<lang::ir::model>(lang::check(m.src, *program, stdlib::library()));
  fit_length_one(*out.model, out.data);
  if (auto options = model::missing_values(*out.model, out.data); !options.partly_observed.empty())
    out.model = std::make_unique<lang::ir::model>(lang::check(m.src, *program, stdlib::library(), std::move(options)));
  note_unread_text(*out.model, out.data);
  return out;
}

void print_warnings(const std::vector<std::string>& warnings) {
  if (warnings.empty()) return;
  std::fflush(stdout);
  for (const auto& w : warnings) fmt::print(stderr, "warning: {}\n", w);
}

std::string usage_error_line(const std::string& what) {
  std::string text = what;
  if (text.size() > 1 && std::isupper(static_cast<unsigned char>(text[0])) && std::islower(static_cast<unsigned char>(text[1])))
    text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return "error: " + text + "\n";
}

std::map<std::string, std::string> parse_overrides(const std::vector<std::string>& specs, const std::string& example) {
  std::map<std::string, std::string> out;
  for (const auto& spec : specs) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
      throw std::invalid_argument("--sampler " + spec + ": expected NAME=KIND, e.g. --sampler " + example + "=slice");
    out[spec.substr(0, eq)] = spec.substr(eq + 1);
  }
  return out;
}

void refuse_improper_priors(const lang::ir::model& m, const std::string& what) {
  for (const auto& s : m.statements) {
    if (s.which != lang::ir::statement::kind::sample || !stdlib::improper(*s.dist)) continue;
    const auto& var = m.variables[static_cast<std::size_t>(s.target)];
    if (var.role != lang::ir::role::unknown) continue;
    ppl::fail_at(m.source, s.pos, "`" + var.name + "` has an improper flat prior (a `param` without `~`, or Flat()), which has no draws, so " +
                                       what + " cannot draw it; give it a proper prior with `~` (a wide Uniform or Normal)");
  }
}

int guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const ppl::source_error& e) {
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

void print_plan(const std::vector<inference::plan_line>& lines, std::string_view prefix, std::size_t label_width) {
  std::size_t kind_width = 10;
  for (const auto& p : lines) label_width = std::max(label_width, p.variable.size()), kind_width = std::max(kind_width, p.kind.size());
  for (const auto& p : lines) fmt::print("{}{:<{}} {:<{}} {}\n", prefix, p.variable, label_width, p.kind, kind_width, p.reason);
}

namespace {

// --init: `prior`, `pathfinder` (the default start, then a path: run_options::start_path),
// a jitter radius, or a file of values (read into `values`).
model::start_options start_from(const std::string& spec, data::data_table& values) {
  model::start_options out;
  double radius = 0;
  const auto parsed = std::from_chars(spec.data(), spec.data() + spec.size(), radius);
  if (spec == "prior") {
    out.from_prior = true;
  } else if (spec == "pathfinder") {
    // the default start, which run_options::start_path then moves
  } else if (parsed.ec == std::errc() && parsed.ptr == spec.data() + spec.size()) {
    out.radius = radius;
  } else {
    values = data::read_data_file(spec);
    out.init = &values;
  }
  return out;
}

// What an --init file gives that the model has no unknown for is left out with a note, as
// JAGS leaves it: its `.RNG.name` and `.RNG.seed` (read as _RNG_name, _RNG_seed), which
// ppl's --seed replaces, and names that are data, derived or not in the model (an inits
// file written for another version of it).
void keep_unknowns(const lang::ir::model& m, const std::string& path, data::data_table& init) {
  data::data_table kept;
  for (const auto& [name, value] : init.values()) {
    const int v = m.find(name);
    if (v >= 0 && m.variables[static_cast<std::size_t>(v)].role == lang::ir::role::unknown) {
      kept.set(name, value);
    } else if (name.starts_with("_RNG_")) {
      fmt::print(stderr, "note: {}: `.RNG.{}` is JAGS's random-number setting; ppl's chains take theirs from --seed; ignored\n", path,
                 name.substr(5));
    } else {
      fmt::print(stderr, "note: {}: `{}` is {} of the model; ignored\n", path, ppl::printable(name),
                 v < 0 ? "not a variable" : "not an unknown");
    }
  }
  for (const auto& [name, column] : init.text_columns()) {
    if (name.starts_with("_RNG_"))
      fmt::print(stderr, "note: {}: `.RNG.{}` is JAGS's random-number setting; ppl's chains take theirs from --seed; ignored\n", path,
                 name.substr(5));
    else kept.set_text(name, column);
  }
  init = std::move(kept);
}

}  // namespace

model::start_options start_of(const lang::ir::model& m, const std::string& init, data::data_table& values) {
  model::start_options start = start_from(init, values);
  if (start.init) keep_unknowns(m, init, values);
  return start;
}

}  // namespace ppl::cli
