// Elements without a value. As in BUGS, an array may hold elements that nothing defines
// (Dogs' y[i, 1] beside y[i, j] <- 1 - Y[i, j] for j >= 2; Bones' ragged Q[i, j, k]) and
// data may hold missing values that nothing observes (Bones' NA thresholds past each
// item's last): harmless while nothing reads them. Each such element is a hole, left NaN;
// before a statement is first run (and for `factor`s after the build), its instances'
// reads are checked against the holes, so a model that reads one fails at the statement
// that reads it, naming the element. Reads whose indices follow unknowns are checked at
// the start's values only.
#include <algorithm>
#include <cmath>

#include "model/graph.hpp"

namespace ppl::model {

using lang::ir::role;
using lang::ir::statement;

void graph::note_missing(int v, const data::data_value* given) {
  const tensor& t = values_[static_cast<std::size_t>(v)];
  auto& holes = holes_[static_cast<std::size_t>(v)];
  for (index_t e = 0; e < t.size(); ++e) {
    if (!std::isnan(t.data[static_cast<std::size_t>(e)])) continue;
    if (holes.empty()) holes.assign(static_cast<std::size_t>(t.size()), 0);
    holes[static_cast<std::size_t>(e)] = 1;
  }
  if (holes.empty()) return;
  has_holes_ = true;
  hole_origin_[static_cast<std::size_t>(v)] = given ? given->origin : "its default";
  // Where the file says where its first missing value is, and that is the first element
  // missing (a column, a vector), an error about it points there.
  if (given && given->first_missing && t.shape.rank <= 1) missing_cell_.emplace(v, *given->first_missing);
}

void graph::note_undefined(int v, const std::vector<char>& defined) {
  auto& holes = holes_[static_cast<std::size_t>(v)];
  for (std::size_t e = 0; e < defined.size(); ++e) {
    if (defined[e]) continue;
    if (holes.empty()) holes.assign(defined.size(), 0);
    holes[e] = 1;
  }
  if (holes.empty()) return;
  has_holes_ = true;
  auto& valued = valued_[static_cast<std::size_t>(v)];
  for (std::size_t e = 0; e < defined.size(); ++e)
    if (defined[e]) valued.push_back(static_cast<index_t>(e));
}

void graph::check_hole_reads(const statement& s) {
  read_log log;
  eval_.log = &log;
  eval_.exact_log = true;
  struct restore {
    evaluator& e;
    ~restore() {
      e.log = nullptr;
      e.exact_log = false;
    }
  } restored{eval_};
  const auto& target = model_.variables[static_cast<std::size_t>(s.target >= 0 ? s.target : 0)];
  // The target of an observation is read too (y[i] ~ ... on a y computed element by element).
  const bool observes = s.which == statement::kind::sample && s.target >= 0 &&
                        (target.role == role::data || target.role == role::transformed_data) &&
                        !holes_[static_cast<std::size_t>(s.target)].empty();
  for_each_instance(s, [&] {
    log.clear();
    try {
      for (const auto& ix : s.target_indices) eval_.eval(*ix, frame_);
      if (s.value) eval_.eval(*s.value, frame_);
      for (const auto& a : s.args) eval_.eval(*a, frame_);
      if (observes) {
        const index_t size = value_shape_of(s, eval_args(s)).size();
        log.push_back({s.target, target_offset(s, size), size});
      }
    } catch (const eval_error&) {
      // An index out of range and the like: the statement's own run reports it, unless a
      // hole read on the way there is the cause.
    }
    for (const read_record& r : log) {
      const auto& holes = holes_[static_cast<std::size_t>(r.variable)];
      if (holes.empty()) continue;
      for (index_t e = r.offset; e < r.offset + r.size; ++e) {
        if (!holes[static_cast<std::size_t>(e)]) continue;
        const auto& var = model_.variables[static_cast<std::size_t>(r.variable)];
        const std::string element = "`" + element_name(var.name, values_[static_cast<std::size_t>(r.variable)].shape, e) + "`";
        const std::string& origin = hole_origin_[static_cast<std::size_t>(r.variable)];
        if (origin.empty()) fail_in(s, s.pos, element + " is read here, but no statement defines it");
        const std::string advice = "no `~` observes `" + var.name + "`, so nothing says how to impute it; give `" + var.name +
                                   "` a distribution to impute it, or leave that value out of what the model reads";
        const auto cell = missing_cell_.find(r.variable);
        if (cell != missing_cell_.end() && std::find(holes.begin(), holes.end(), 1) - holes.begin() == e) {
          const auto at = model_.lines.locate(s.pos);
          ppl::diagnostic d = cell->second;
          d.note = element + " is read at " + model_.source.name + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                   ", and " + advice;
          throw ppl::source_error(std::move(d));
        }
        fail_in(s, s.pos, element + " is read here, but it is missing (" + origin + ") and " + advice);
      }
    }
  });
}

}  // namespace ppl::model
