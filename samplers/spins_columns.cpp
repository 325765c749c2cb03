// A factor's instances read as columns (spins_internal.hpp): the factor's expression is
// compiled once into steps in post-order — loop variables, invariant sub-expressions
// (evaluated once), element reads of data (gathers) and of the spins, elementwise calls —
// and run over blocks of instances, one pass per step. The spin reads of an instance are
// set to each configuration of its distinct spins in turn, as the instance-by-instance
// reading sets the spins themselves; the steps that do not read spins run once per block.
// Each instance's values are those the evaluator gives (the same function on the same
// operands), so the model read is the same to the last bit.
#include <algorithm>
#include <array>

#include "samplers/spins_internal.hpp"

namespace ppl::samplers::spins::detail {

namespace {

using lang::ir::expr;
using lang::ir::index_item;
using lang::ir::statement;
using ppl::index_t;
using ppl::shape;
using ppl::view;

struct not_columns {};  // an instance the columns cannot take: read instance by instance

enum class step_kind { invariant, loop_var, data_read, spin_read, product, call };

struct step {
  const expr* e = nullptr;
  step_kind kind = step_kind::invariant;
  bool spins = false;       // depends on the spins: run at each configuration
  std::size_t loop = 0;     // loop_var: its position in the statement's loops
  std::size_t read = 0;     // spin_read: its number
  std::vector<int> inputs;  // call, product: the arguments' steps; reads: the indices' steps
  double constant = 0;      // invariant: its value
  std::vector<double> column;
  const double* values() const { return kind == step_kind::invariant ? &constant : column.data(); }
  bool varies() const { return kind != step_kind::invariant; }
};

class factor_columns {
 public:
  factor_columns(model::graph& g, const statement& s, int variable) : g_(g), s_(s), variable_(variable), depth_(s.loops.size()) {}

  // The instances streamed block by block (no table of them all), the steps compiled at
  // the first, where the invariant parts are evaluated.
  column_outcome run(term_sum& sum) {
    for (const auto& l : s_.loops)
      if (l.lo->depends_on_unknown || l.hi->depends_on_unknown) return column_outcome::declined;
    sum_ = &sum;
    instances_ = static_cast<std::size_t>(model::instances(g_).count(s_));
    try {
      model::instances(g_).visit(s_, [&](const index_t* loops) {
        if (steps_.empty() && !compile(loops)) throw not_columns{};
        table_.insert(table_.end(), loops, loops + depth_);
        if (++rows_ == block_) flush();
      });
      if (rows_ > 0) flush();
    } catch (const not_columns&) {
      return added_ ? column_outcome::abandoned : column_outcome::declined;
    }
    return column_outcome::done;
  }

 private:
  bool compile(const index_t* loops) {
    first_ = loops;
    try {
      if (add(*s_.value) < 0 || reads_ > max_spins_per_term) return false;
    } catch (const std::exception&) {
      return false;  // an invariant part that does not evaluate: the evaluator's message, instance by instance
    }
    block_ = std::max<std::size_t>(16, std::min<std::size_t>(4096, std::size_t{1} << 15 >> reads_));
    for (auto& st : steps_)
      if (st.varies()) st.column.resize(block_);
    table_.reserve(block_ * depth_);
    offsets_.resize(reads_ * block_);
    position_.resize(reads_ * block_);
    elements_.resize(reads_ * block_);
    count_.resize(block_);
    values_.resize(block_ << reads_);
    // Room for the pairs each instance may add (room never written costs no memory).
    sum_->pairs.reserve(sum_->pairs.size() + instances_ * std::min<std::size_t>(reads_ * (reads_ - (reads_ > 0)) / 2, 8));
    return true;
  }

  // The block of instances in table_: their values at each configuration, then their terms.
  void flush() {
    run_block(rows_);
    std::string reason;
    for (std::size_t r = 0; r < rows_; ++r) {
      if (!sum_->add(elements_.data() + r * reads_, count_[r], values_.data() + (r << reads_), reason)) throw not_columns{};
      added_ = true;
    }
    table_.clear();
    rows_ = 0;
  }

 private:
  // Appends the steps of `e` and returns its step, or -1 when it has another form.
  int add(const expr& e) {
    if (e.type.rank != 0) return -1;
    step st;
    st.e = &e;
    if (!e.depends_on_unknown && !lang::ir::uses_loop_variable(e)) {
      st.constant = model::instances(g_).eval_at(s_, first_, e).scalar();
      return push(std::move(st));
    }
    switch (e.which) {
      case expr::kind::loop_var: {
        st.kind = step_kind::loop_var;
        while (st.loop < depth_ && s_.loops[st.loop].slot != e.slot) ++st.loop;
        return st.loop < depth_ ? push(std::move(st)) : -1;
      }
      case expr::kind::index:
        return add_read(e, std::move(st));
      case expr::kind::call: {
        const bool product = e.fn->name() == "*" && e.args.size() == 2;
        if ((!product && !e.fn->elementwise()) || e.args.size() > 4) return -1;
        st.kind = product ? step_kind::product : step_kind::call;
        for (const auto& a : e.args) {
          const int at = add(*a);
          if (at < 0) return -1;
          st.inputs.push_back(at);
          st.spins = st.spins || steps_[static_cast<std::size_t>(at)].spins;
        }
        return push(std::move(st));
      }
      default:
        return -1;
    }
  }

  // An element of the spins or of data, at indices free of unknowns.
  int add_read(const expr& e, step st) {
    const expr& base = *e.args[0];
    if (base.which != expr::kind::variable || static_cast<int>(e.indices.size()) != base.type.rank) return -1;
    for (const auto& ix : e.indices) {
      if (ix.which != index_item::kind::single || ix.lo->depends_on_unknown) return -1;
      const int at = add(*ix.lo);
      if (at < 0) return -1;
      st.inputs.push_back(at);
    }
    st.spins = base.slot == variable_;
    if (!st.spins && base.depends_on_unknown) return -1;  // another unknown: not a pairwise model of these spins
    st.kind = st.spins ? step_kind::spin_read : step_kind::data_read;
    if (st.spins) st.read = reads_++;
    return push(std::move(st));
  }

  int push(step st) {
    steps_.push_back(std::move(st));
    return static_cast<int>(steps_.size()) - 1;
  }

  void run_block(std::size_t n) {
    for (auto& st : steps_)
      if (!st.spins || st.kind == step_kind::spin_read) compute(st, n);
    // Each instance's distinct spins, in increasing order, and where each read falls among them.
    std::size_t most = 0;
    for (std::size_t r = 0; r < n; ++r) {
      std::uint32_t* e = elements_.data() + r * reads_;
      std::copy_n(offsets_.data() + r * reads_, reads_, e);
      std::sort(e, e + reads_);
      count_[r] = static_cast<std::size_t>(std::unique(e, e + reads_) - e);
      for (std::size_t k = 0; k < reads_; ++k)
        position_[r * reads_ + k] = static_cast<std::uint8_t>(std::lower_bound(e, e + count_[r], offsets_[r * reads_ + k]) - e);
      most = std::max(most, count_[r]);
    }
    const step& root = steps_.back();
    for (std::size_t c = 0; c < std::size_t{1} << most; ++c) {
      for (auto& st : steps_) {
        if (st.kind == step_kind::spin_read)
          for (std::size_t r = 0; r < n; ++r) st.column[r] = (c >> position_[r * reads_ + st.read] & 1) ? 1.0 : -1.0;
        else if (st.spins) compute(st, n);
      }
      const double* v = root.values();
      for (std::size_t r = 0; r < n; ++r) values_[(r << reads_) + c] = v[root.varies() ? r : 0];
    }
  }

  // One step over the block's n rows; a spin read's step records its elements.
  void compute(step& st, std::size_t n) {
    switch (st.kind) {
      case step_kind::invariant:
        return;
      case step_kind::loop_var:
        for (std::size_t r = 0; r < n; ++r) st.column[r] = static_cast<double>(table_[r * depth_ + st.loop]);
        return;
      case step_kind::data_read:
      case step_kind::spin_read:
        return read(st, n);
      case step_kind::product: {
        const step &a = steps_[static_cast<std::size_t>(st.inputs[0])], &b = steps_[static_cast<std::size_t>(st.inputs[1])];
        const double *x = a.values(), *y = b.values();
        for (std::size_t r = 0; r < n; ++r) st.column[r] = x[a.varies() ? r : 0] * y[b.varies() ? r : 0];
        return;
      }
      case step_kind::call:
        return call(st, n);
    }
  }

  // An element read: row-major offsets from the index steps, checked against the extents.
  void read(step& st, std::size_t n) {
    const ppl::tensor& base = g_.value(st.e->args[0]->slot);
    for (std::size_t r = 0; r < n; ++r) {
      index_t offset = 0;
      for (std::size_t k = 0; k < st.inputs.size(); ++k) {
        const step& ix = steps_[static_cast<std::size_t>(st.inputs[k])];
        const double i = ix.values()[ix.varies() ? r : 0];
        const index_t extent = base.shape[static_cast<int>(k)];
        if (!(i >= 1 && i <= static_cast<double>(extent))) throw not_columns{};
        offset = offset * extent + static_cast<index_t>(i) - 1;
      }
      if (st.kind == step_kind::spin_read) offsets_[r * reads_ + st.read] = static_cast<std::uint32_t>(offset);
      else st.column[r] = base.data[static_cast<std::size_t>(offset)];
    }
  }

  void call(step& st, std::size_t n) {
    std::array<view, stdlib::max_params> args{};
    for (std::size_t i = 0; i < st.inputs.size(); ++i) {
      const step& a = steps_[static_cast<std::size_t>(st.inputs[i])];
      args[i] = a.varies() ? view{a.values(), shape::vector(static_cast<index_t>(n))} : view{a.values(), shape::scalar()};
    }
    const std::span<const view> in(args.data(), st.inputs.size());
    try {
      if (st.e->fn->result_shape(in).size() != static_cast<index_t>(n)) throw not_columns{};
      st.e->fn->eval(in, st.column.data());
    } catch (const stdlib::argument_error&) {
      throw not_columns{};
    }
  }

  model::graph& g_;
  const statement& s_;
  int variable_;
  std::size_t depth_;
  term_sum* sum_ = nullptr;
  bool added_ = false;             // some instance's terms are in sum_
  const index_t* first_ = nullptr;  // the first instance's loop values, while compiling
  std::vector<step> steps_;
  std::size_t instances_ = 0, reads_ = 0, block_ = 0, rows_ = 0;
  // Per block, per instance: its loop values, the elements its spin reads read, its
  // distinct spins in increasing order (count_ of them) and where each read falls among
  // them; its values at the configurations of its spins (2^reads_ slots).
  std::vector<index_t> table_;
  std::vector<std::uint32_t> offsets_, elements_;
  std::vector<std::uint8_t> position_;
  std::vector<std::size_t> count_;
  std::vector<double> values_;
};

}  // namespace

column_outcome add_factor_columns(model::graph& g, const statement& s, int variable, term_sum& sum) {
  return factor_columns(g, s, variable).run(sum);
}

}  // namespace ppl::samplers::spins::detail
