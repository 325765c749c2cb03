// The functions of R's dump format, one builder each, in one sorted table: those R's
// dump(), rjags and OpenBUGS write (c, structure, list, integer(0), ...), and as.integer,
// which hand-written files put around a .Dim. Anything else is R code to run, not data.
#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/core.h>

#include "data/r_parser.hpp"

namespace ppl::data::r_dump {

namespace {

using kind = value::kind;

[[noreturn]] void fail(const call_site& c, std::size_t at, std::string message) { ppl::fail_at(c.src, at, std::move(message)); }

std::string function_name(const call_site& c) { return std::string(c.name.text); }

// Appends from's numbers to to's; from's are moved, not copied, when to has none yet (a
// data file's c(...) of ten million numbers is one argument, parsed straight into it).
void append(value& to, value& from) {
  if (from.first_na != std::string::npos && to.first_na == std::string::npos) {
    to.first_na = from.first_na;
    to.first_na_index = to.x.size() + from.first_na_index;
  }
  to.integer = to.integer && from.integer;
  if (to.x.empty()) to.x = std::move(from.x);
  else to.x.insert(to.x.end(), from.x.begin(), from.x.end());
}

// c -> 'c' '(' [value (',' value)*] ')': the values one after another, dimensions and
// names (c(a = 1)) dropped, as R drops them. One string makes it all text, as in R.
value concatenate(call_site& c) {
  value v;
  v.at = c.name.at;
  for (argument& a : c.args) {
    if (a.v.what == kind::list) fail(c, a.at, "a list inside c(...) is not data");
    if (a.v.what == kind::text && v.what != kind::text) {
      v.what = kind::text;
      v.first_text = a.v.first_text;
    }
    if (a.v.what == kind::numbers) append(v, a.v);
  }
  return v;
}

// A dimension as messages write it: 15, not 15.000000.
std::string shown(double x) { return fmt::format("{}", x); }

constexpr double max_dimension = 2147483647;

// `.Dim`'s values: whole numbers, one to four of them, whose product is the data's length.
void check_dims(const call_site& c, const argument& dims, std::size_t length) {
  const value& d = dims.v;
  const std::string& name = dims.name;
  if (d.what != kind::numbers) fail(c, dims.at, "`" + name + "` must be numbers, the array's dimensions");
  if (d.x.empty()) fail(c, dims.at, "`" + name + "` is empty; an array has one dimension or more");
  if (d.x.size() > static_cast<std::size_t>(max_rank))
    fail(c, dims.at, "`" + name + "` gives " + std::to_string(d.x.size()) + " dimensions; ppl's arrays have at most " + std::to_string(max_rank));
  double product = 1;
  std::string product_text;
  for (double n : d.x) {
    if (!(n >= 0) || n != std::floor(n))
      fail(c, dims.at, "`" + name + "` holds " + (std::isnan(n) ? std::string("NA") : shown(n)) + "; a dimension is a whole number, 0 or more");
    // R's dimensions are its integers; the bound also keeps 1e300 x 0 from passing.
    if (n > max_dimension) fail(c, dims.at, "`" + name + "` holds " + shown(n) + "; a dimension is at most 2^31 - 1, as in R");
    product *= n;
    product_text += (product_text.empty() ? "" : " x ") + shown(n);
  }
  if (product != static_cast<double>(length))
    fail(c, dims.at, "`" + name + "` = " + product_text + (d.x.size() > 1 ? " = " + shown(product) : "") + " elements, but the data hold " +
                         std::to_string(length));
}

// structure -> 'structure' '(' ['.Data' '='] value (',' target '=' value)* ')'
// The data may come anywhere, named or not; of the attributes only the dimensions matter
// (dimnames, names, class and the rest say nothing ppl reads).
value structure(call_site& c) {
  argument* data = nullptr;
  const argument* dims = nullptr;
  for (argument& a : c.args) {
    if (!a.named || a.name == ".Data") {
      if (data) fail(c, a.at, "structure(...) takes one value, its data; the others are attributes written name = value (.Dim = c(2, 3))");
      data = &a;
    } else if (a.name == ".Dim" || a.name == "dim") {
      if (dims) fail(c, a.at, "the dimensions are given twice");
      dims = &a;
    }
  }
  if (!data) fail(c, c.name.at, "structure(...) without its data: write structure(.Data = c(...), .Dim = c(...))");
  value v = std::move(data->v);
  if (!dims || v.what != kind::numbers) return v;
  check_dims(c, *dims, v.x.size());
  v.has_dims = true;
  v.dims = dims->v.x;
  v.dims_at = dims->at;
  // BUGS knows only .Dim, filled row by row; R's dput() writes `dim`, column by column.
  v.row_major = c.bugs && dims->name == ".Dim";
  v.scalar = false;
  return v;
}

// list -> 'list' '(' [[target '='] value (',' [target '='] value)*] ')'
// Unnamed elements are for attributes (dimnames = list(NULL, c("a", "b"))); the parser
// refuses them where a list's elements become variables.
value make_list(call_site& c) {
  value v;
  v.what = kind::list;
  v.at = c.name.at;
  for (argument& a : c.args) v.fields.push_back({a.name, a.named, a.at, std::move(a.v)});
  return v;
}

// integer -> 'integer' '(' [count] ')', and numeric, double and logical: count zeros, as
// R makes them (dump() writes integer(0) and numeric(0) for empty vectors).
value zeros(call_site& c, bool integer) {
  double n = 0;
  if (c.args.size() > 1) fail(c, c.args[1].at, function_name(c) + "(n) takes one argument, a count");
  if (!c.args.empty()) {
    const value& a = c.args[0].v;
    if (a.what != kind::numbers || a.x.size() != 1 || !(a.x[0] >= 0) || a.x[0] != std::floor(a.x[0]))
      fail(c, c.args[0].at, function_name(c) + "(n) needs a count n, a whole number 0 or more");
    n = a.x[0];
  }
  if (n > static_cast<double>(max_generated - c.generated))
    fail(c, c.name.at, function_name(c) + "(" + shown(n) + ") makes more values than ranges and integer(n) may make in one file (" +
                           std::to_string(max_generated) + ")");
  c.generated += static_cast<index_t>(n);
  value v;
  v.at = c.name.at;
  v.x.assign(static_cast<std::size_t>(n), 0.0);
  v.integer = integer;
  return v;
}

value integer_zeros(call_site& c) { return zeros(c, true); }
value double_zeros(call_site& c) { return zeros(c, false); }

// as.integer -> 'as.integer' '(' value ')', and as.numeric, as.double: the numbers
// without their dimensions, as R drops them.
value& only_numbers(call_site& c) {
  if (c.args.size() != 1 || c.args[0].named) fail(c, c.name.at, function_name(c) + "(...) takes one value");
  value& v = c.args[0].v;
  if (v.what != kind::numbers) fail(c, c.args[0].at, function_name(c) + "(...) of something that is not numbers");
  v.has_dims = false;
  v.row_major = false;
  return v;
}

value as_integer(call_site& c) {
  value v = std::move(only_numbers(c));
  for (double& x : v.x) x = std::trunc(x);  // R's as.integer truncates; NA stays NA
  v.integer = true;
  return v;
}

value as_numeric(call_site& c) { return std::move(only_numbers(c)); }

struct entry {
  std::string_view name;
  function_builder build;
};

constexpr std::array<entry, 10> functions{{
    {"as.double", as_numeric},
    {"as.integer", as_integer},
    {"as.numeric", as_numeric},
    {"c", concatenate},
    {"double", double_zeros},
    {"integer", integer_zeros},
    {"list", make_list},
    {"logical", integer_zeros},
    {"numeric", double_zeros},
    {"structure", structure},
}};
static_assert(std::is_sorted(functions.begin(), functions.end(), [](const entry& a, const entry& b) { return a.name < b.name; }));

}  // namespace

function_builder find_function(std::string_view name) {
  auto it = std::lower_bound(functions.begin(), functions.end(), name, [](const entry& e, std::string_view n) { return e.name < n; });
  return it != functions.end() && it->name == name ? it->build : nullptr;
}

}  // namespace ppl::data::r_dump
