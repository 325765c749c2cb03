// `gaussian_block`: unknowns with Normal priors whose every term is Normal with a mean (and
// value) affine in them jointly and a scale free of them, drawn together from their
// multivariate normal conditional, as JAGS's glm module and BUGS's block updates do. A
// regression's intercept and slope on an uncentred covariate are correlated almost -1 a
// posteriori; drawing each from its own conditional (conjugate Normal-Normal) then moves
// by steps of the conditional sd, far below the marginal one, and needs thousands of
// sweeps to cross the posterior; one joint draw crosses it at once.
//
// Every term, prior or observation, is y ~ Normal(m, s) with r = y - m = r0 + a'b affine
// in the block's elements b, so the conditional is N(Q^-1 c, Q^-1) with Q = sum a a' / s^2
// and c = -sum a r0 / s^2. Each term's instance holds few of the coordinates (a random
// effect b[j] enters its own prior and its group's observations, their mean mu every
// prior), known from the variables' blankets, so A is sparse: r0 and A are read by
// evaluating the terms with b = 0 and once per colour of coordinates that share no term
// (a random effects' block with its mean: three passes, whatever the number of effects),
// through the graph's batch path where a statement has one; Q is accumulated over the
// pairs each instance holds, and a sparse Cholesky factor (fill-reducing order found
// once) gives the draw. A regression's coefficients all share every instance: Q is dense
// and the passes one per coefficient, as a dense block. Affinity is checked once, when
// the sampler is made, by comparing the terms at a random point with r0 + A b.
#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <numbers>
#include <optional>
#include <stdexcept>

#include "model/blanket.hpp"
#include "samplers/gaussian_block.hpp"
#include "samplers/gaussian_block_shared.hpp"
#include "samplers/gaussian_block_structure.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers {

using lang::ir::role;
using lang::ir::statement;

namespace {

// A Normal (or MultiNormal) term's instances: each gives `dim` rows of whitened residuals,
// in instance order.
struct normal_term {
  const statement* s = nullptr;
  std::vector<ppl::index_t> loops;
  std::size_t count = 0;
  std::size_t dim = 1;    // the value's length: 1 for Normal
  int form = 0;           // 0 Normal(m, s), 1 MultiNormal(m, Sigma), 2 MultiNormalPrec(m, P)
  std::vector<ppl::index_t> value_offsets;
  std::size_t first_row = 0;
  std::vector<double> scales;  // a batch statement's scales, read once a sweep
  // Normal, its mean and value read nothing outside the block but data: the unwhitened
  // residual y - m = r0 + a'b has r0 and a fixed for the run, read once; a sweep reads only
  // the scales.
  bool fixed = false;
  // A fixed term whose scale (covariance, precision) is one for all its instances (no
  // loop variable in it): its sums, read once (samplers/gaussian_block_shared.hpp), and
  // this sweep's weight W.
  std::optional<shared_term> shared;
  std::vector<double> weight;
  bool weight_read = false;  // weight holds a scale of data only, the same every sweep
};

class gaussian_block_sampler final : public gaussian_block_base {
 public:
  gaussian_block_sampler(model::graph& g, const std::vector<int>& variables) : graph_(g) {
    if (std::string why = structure_of(g, variables, block_); !why.empty()) throw std::invalid_argument(why);
    list_elements(g, block_);
    std::vector<int> term_of(g.model().statements.size(), -1);
    for (const statement* s : block_.terms) {
      normal_term t;
      t.s = s;
      t.loops = model::instances(g).table(*s);
      t.count = s->loops.empty() ? 1 : t.loops.size() / s->loops.size();
      t.form = term_form(*s);
      t.first_row = rows_;
      for (std::size_t i = 0; i < t.count; ++i) {
        const auto [offset, size] = model::instances(g).target(*s, t.loops.data() + i * s->loops.size());
        t.value_offsets.push_back(offset);
        t.dim = static_cast<std::size_t>(size);
      }
      rows_ += t.count * t.dim;
      row_likelihood_.resize(rows_, g.likelihood(static_cast<int>(s - g.model().statements.data())));
      term_of[static_cast<std::size_t>(s - g.model().statements.data())] = static_cast<int>(terms_.size());
      terms_.push_back(std::move(t));
    }
    if (elements() > max_elements) throw std::invalid_argument("it has " + std::to_string(elements()) + " elements, above " + std::to_string(max_elements));
    index_pattern(term_of);
    colour_columns();
    if (colours_ > max_passes)
      throw std::invalid_argument("more than " + std::to_string(max_passes) + " of its elements enter one term together (" +
                                  std::to_string(colours_) + " passes over the terms a sweep); NUTS moves such a block for less");
    index_precision();
    if (std::string why = check_affine(); !why.empty()) throw std::invalid_argument(why);
    read_fixed_terms();
  }

  void step(ppl::rng& rng, bool) override {
    // The sweep's vectors are kept from one sweep to the next: a small block's step was a
    // quarter allocations.
    Eigen::VectorXd& b = now_;
    read_current(b);
    read_linear_form();
    change_ = 0;
    if (!factor_precision()) {
      write(b);  // not positive definite at these scales: leave the block where it was
      return;
    }
    // The factor is of P Q P': Q^-1 c = P' (P Q P')^-1 P c.
    permuted_ = order_ * c_;
    solved_ = llt_.solve(permuted_);
    centre_ = order_.transpose() * solved_;
    Eigen::VectorXd& z = permuted_;
    boost::random::normal_distribution<double> normal;
    for (Eigen::Index k = 0; k < z.size(); ++k) z[k] = normal(rng);
    // Q = P' L L' P: x = mean + P' L^-T z has covariance P' (L L')^-1 P = Q^-1.
    solved_ = llt_.matrixU().solve(z);
    next_ = order_.transpose() * solved_;
    next_ += centre_;
    const Eigen::VectorXd& next = next_;
    // lp__'s change: the terms are -r'r / 2 in the whitened residuals r = r0 + A b, plus
    // what the move leaves alone (the scales' normalising constants); r'r = r0'r0 - 2 b'c +
    // b'Q b, the rows weighted by their temperature as Q and c are.
    change_ = -0.5 * quadratic_change(next, b) + (next - b).dot(c_);
    write(next);
  }

  double last_change() const override { return change_; }

  double integrated_log_density() override {
    Eigen::VectorXd& b = now_;
    read_current(b);
    read_linear_form();
    write(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(elements())));
    double at_zero = 0;
    for (const statement* s : block_.terms) at_zero += model::instances(graph_).log_density(*s);
    double total = -INFINITY;
    if (factor_precision()) {
      permuted_ = order_ * c_;
      solved_ = llt_.solve(permuted_);
      total = at_zero + 0.5 * permuted_.dot(solved_) - 0.5 * log_det() +
              0.5 * static_cast<double>(elements()) * std::log(2 * std::numbers::pi);
    }
    write(b);
    return total;
  }

  const std::vector<const statement*>& terms() const override { return block_.terms; }

  void natural_parameters(std::vector<double>& q, Eigen::VectorXd& c) override {
    read_linear_form();
    fill_precision();
    q.assign(precision_.valuePtr(), precision_.valuePtr() + precision_.nonZeros());
    c = c_;
  }
  bool factorise(const std::vector<double>& q) override {
    std::copy(q.begin(), q.end(), precision_.valuePtr());
    llt_.factorize(precision_);
    return llt_.info() == Eigen::Success;
  }
  Eigen::VectorXd solve(const Eigen::VectorXd& c) override {
    permuted_ = order_ * c;
    solved_ = llt_.solve(permuted_);
    return order_.transpose() * solved_;
  }
  // Q = P' U'U P: P' U^-1 z has covariance P' (U'U)^-1 P = Q^-1.
  Eigen::VectorXd spread(const Eigen::VectorXd& z) override {
    solved_ = llt_.matrixU().solve(z);
    return order_.transpose() * solved_;
  }
  double log_det() const override { return 2 * llt_.matrixL().nestedExpression().diagonal().array().log().sum(); }
  const std::vector<std::pair<int, ppl::index_t>>& coordinates() const override { return block_.elements; }

 private:
  // Q and c from the linear form just read, and Q's factor: false where Q is not positive
  // definite. Residuals r = r0 + A b with rows scaled by 1 / s: Q = A'A, c = -A' r0, summed
  // row by row over the few coordinates each row holds.
  bool factor_precision() {
    fill_precision();
    llt_.factorize(precision_);
    return llt_.info() == Eigen::Success;
  }

  // Q and c alone, into precision_ and c_.
  void fill_precision() {
    std::fill(precision_.valuePtr(), precision_.valuePtr() + precision_.nonZeros(), 0.0);
    Eigen::VectorXd& c = c_;
    c.setZero(static_cast<Eigen::Index>(elements()));
    double* q = precision_.valuePtr();
    // Tempered (SMC at beta < 1): the likelihood's rows count beta times.
    const double beta = graph_.temperature();
    for (const auto& t : terms_) {
      const double w = beta != 1 && row_likelihood_[t.first_row] ? beta : 1.0;
      if (t.shared) {
        t.shared->add(q, c.data(), t.weight.data(), w);
        continue;
      }
      for (std::size_t row = t.first_row, end = row + t.count * t.dim; row < end; ++row) {
        const double r0 = w * passes_(static_cast<Eigen::Index>(row), 0);
        for (std::size_t i = row_start_[row], pair = row_pair_start_[row]; i < row_start_[row + 1]; ++i) {
          c[row_column_[i]] -= slope_[i] * r0;
          for (std::size_t j = row_start_[row]; j <= i; ++j) q[pair_slot_[pair++]] += w * slope_[i] * slope_[j];
        }
      }
    }
  }

  // Above this many elements the sparse factor's fill-in may grow past what a sweep should
  // cost; such blocks are refused (and left to single-site updates).
  static constexpr std::size_t max_elements = 20000;
  // Passes over the terms per sweep: one per coefficient of a dense regression.
  static constexpr int max_passes = 40;

  std::size_t elements() const { return block_.elements.size(); }

  // Which coordinates each row (a term's instance) holds, from the blankets of the block's
  // variables: rows by instance, columns by coordinate, in compressed form.
  void index_pattern(const std::vector<int>& term_of) {
    std::vector<std::vector<int>> columns(rows_);
    std::size_t column = 0;
    // Whitening mixes a MultiNormal instance's components: each of its rows holds what any does.
    auto add_instance = [&](const normal_term& t, std::size_t i, int k) {
      for (std::size_t d = 0; d < t.dim; ++d) columns[t.first_row + i * t.dim + d].push_back(k);
    };
    auto add_statement = [&](int si, int k) {
      const normal_term& t = terms_[static_cast<std::size_t>(term_of[static_cast<std::size_t>(si)])];
      for (std::size_t i = 0; i < t.count; ++i) add_instance(t, i, k);
    };
    for (int v : block_.variables) {
      const model::blanket b(graph_, v);
      for (ppl::index_t e = 0; e < graph_.value(v).size(); ++e, ++column) {
        const int k = static_cast<int>(column);
        b.for_each_term(e, [&](int si, ppl::index_t instance) {
          const int t = term_of[static_cast<std::size_t>(si)];
          if (t < 0 && graph_.model().statements[static_cast<std::size_t>(si)].dist_name == "Flat") return;  // a flat prior: no row
          if (t < 0) throw std::invalid_argument("a term of the block is not one of its Normal terms");
          add_instance(terms_[static_cast<std::size_t>(t)], static_cast<std::size_t>(instance), k);
        });
        for (int si : b.whole()) add_statement(si, k);
      }
    }
    row_start_.assign(1, 0);
    for (auto& list : columns) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
      row_column_.insert(row_column_.end(), list.begin(), list.end());
      row_start_.push_back(row_column_.size());
    }
    slope_.assign(row_column_.size(), 0.0);
  }

  // Columns that share no row get one colour, and one pass with all of a colour's
  // coordinates at 1 reads each of their columns of A (Curtis, Powell & Reid 1974): a
  // block of random effects and their mean takes three passes over the terms, not one per
  // effect.
  void colour_columns() {
    const std::size_t p = elements();
    std::vector<std::vector<std::size_t>> rows_of(p);
    for (std::size_t row = 0; row < rows_; ++row)
      for (std::size_t i = row_start_[row]; i < row_start_[row + 1]; ++i) rows_of[static_cast<std::size_t>(row_column_[i])].push_back(row);
    colour_.assign(p, -1);
    std::vector<std::size_t> taken;  // by colour: the column that last ruled it out
    for (std::size_t k = 0; k < p; ++k) {
      for (std::size_t row : rows_of[k])
        for (std::size_t i = row_start_[row]; i < row_start_[row + 1]; ++i)
          if (const int c = colour_[static_cast<std::size_t>(row_column_[i])]; c >= 0) taken[static_cast<std::size_t>(c)] = k + 1;
      int c = 0;
      while (static_cast<std::size_t>(c) < taken.size() && taken[static_cast<std::size_t>(c)] == k + 1) ++c;
      if (static_cast<std::size_t>(c) == taken.size()) taken.push_back(0);
      colour_[k] = c;
    }
    colours_ = static_cast<int>(taken.size());
    passes_.resize(static_cast<Eigen::Index>(rows_), colours_ + 1);
  }

  // The pattern of Q (every pair of coordinates some row holds, and the diagonal), a
  // fill-reducing order P for it (AMD), and the slot of each row's pair in the upper
  // triangle of P Q P', once. Q is accumulated straight into that triangle, which the
  // factor reads as it is: no permuted copy of Q a sweep.
  void index_precision() {
    const auto p = static_cast<Eigen::Index>(elements());
    std::vector<Eigen::Triplet<double>> entries;
    for (Eigen::Index k = 0; k < p; ++k) entries.emplace_back(k, k, 0.0);
    for (std::size_t row = 0; row < rows_; ++row)
      for (std::size_t i = row_start_[row]; i < row_start_[row + 1]; ++i)
        for (std::size_t j = row_start_[row]; j < i; ++j) entries.emplace_back(row_column_[i], row_column_[j], 0.0);
    Eigen::SparseMatrix<double> lower(p, p);
    lower.setFromTriplets(entries.begin(), entries.end());
    Eigen::SimplicialLLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::AMDOrdering<int>> ordered;
    ordered.analyzePattern(lower);
    order_ = ordered.permutationP();
    if (order_.size() != p) order_.setIdentity(p);
    const auto at = [&](int k) { return order_.indices()[k]; };
    for (auto& e : entries) {
      const int i = at(static_cast<int>(e.row())), j = at(static_cast<int>(e.col()));
      e = Eigen::Triplet<double>(std::min(i, j), std::max(i, j), 0.0);
    }
    precision_.resize(p, p);
    precision_.setFromTriplets(entries.begin(), entries.end());
    precision_.makeCompressed();
    auto slot = [&](int a, int b) {  // original coordinates: row min, column max of their places
      const int i = std::min(at(a), at(b)), j = std::max(at(a), at(b));
      const int* begin = precision_.innerIndexPtr() + precision_.outerIndexPtr()[j];
      const int* end = precision_.innerIndexPtr() + precision_.outerIndexPtr()[j + 1];
      return static_cast<std::size_t>(std::lower_bound(begin, end, i) - precision_.innerIndexPtr());
    };
    for (std::size_t row = 0; row < rows_; ++row) {
      row_pair_start_.push_back(pair_slot_.size());
      for (std::size_t i = row_start_[row]; i < row_start_[row + 1]; ++i)
        for (std::size_t j = row_start_[row]; j <= i; ++j) pair_slot_.push_back(slot(row_column_[i], row_column_[j]));
    }
    llt_.analyzePattern(precision_);
  }

  // The block's values, into `b` (a sweep's own vector, sized once).
  void read_current(Eigen::VectorXd& b) const {
    b.resize(static_cast<Eigen::Index>(elements()));
    for (std::size_t k = 0; k < elements(); ++k) {
      const auto [v, e] = block_.elements[k];
      b[static_cast<Eigen::Index>(k)] = graph_.value(v).data[static_cast<std::size_t>(e)];
    }
  }

  void write(const Eigen::VectorXd& b) {
    auto& values = graph_.values();
    for (std::size_t k = 0; k < elements(); ++k) {
      const auto [v, e] = block_.elements[k];
      values[static_cast<std::size_t>(v)].data[static_cast<std::size_t>(e)] = b[static_cast<Eigen::Index>(k)];
    }
    graph_.update_derived(block_.derived);
  }

  // The terms' residuals y - m divided by s at the block's current values, into `out`
  // (rows_ of them, terms in order); a MultiNormal's whitened, L^-1 (y - m) with Sigma = L L'
  // or L' (y - m) with P = L L', so that each row's square sums to the term's quadratic form.
  // The scales do not read the block: a batch statement's are read when `read_scales` is
  // set (the first pass of a sweep) and kept for the others. Without `whiten`, the
  // residuals are left as they are, y - m. Once the fixed terms' form is read (read_fixed_terms),
  // their rows are left alone.
  void residuals(Eigen::Ref<Eigen::VectorXd> out, bool read_scales = true, bool whiten = true) {
    Eigen::Index row = 0;
    for (auto& t : terms_) {
      const statement& s = *t.s;
      if (t.fixed && !fixed_r0_.empty()) {
        row += static_cast<Eigen::Index>(t.count * t.dim);
        continue;
      }
      const auto& y = graph_.value(s.target).data;
      if (t.form != 0) {
        const auto k = static_cast<Eigen::Index>(t.dim);
        for (std::size_t i = 0; i < t.count; ++i) {
          const auto& args = model::instances(graph_).args_at(s, t.loops.data() + i * s.loops.size());
          Eigen::VectorXd r(k);
          for (Eigen::Index d = 0; d < k; ++d) r[d] = y[static_cast<std::size_t>(t.value_offsets[i] + d)] - args[0][d];
          const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> m(args[1].data, k, k);
          const Eigen::LLT<Eigen::MatrixXd> llt(m);
          if (!whiten) out.segment(row, k) = r;
          else out.segment(row, k) = t.form == 1 ? Eigen::VectorXd(llt.matrixL().solve(r)) : Eigen::VectorXd(llt.matrixU() * r);
          row += k;
        }
        continue;
      }
      if (model::instances(graph_).batch_values(s, *s.args[0], mean_) && (!read_scales || model::instances(graph_).batch_values(s, *s.args[1], t.scales))) {
        for (std::size_t i = 0; i < t.count; ++i)
          out[row++] = (y[static_cast<std::size_t>(t.value_offsets[i])] - mean_[i]) / (whiten ? t.scales[i] : 1.0);
        continue;
      }
      for (std::size_t i = 0; i < t.count; ++i) {
        const auto& args = model::instances(graph_).args_at(s, t.loops.data() + i * s.loops.size());
        out[row++] = (y[static_cast<std::size_t>(t.value_offsets[i])] - args[0][0]) / (whiten ? args[1][0] : 1.0);
      }
    }
  }

  // Pass 0: r0 / s with the block at 0; pass c + 1: the residuals with colour c's
  // coordinates at 1, whose change in each row is the slope of the one coordinate of that
  // colour the row holds. Leaves the block at 0 (the caller writes it).
  //
  // The rows of fixed terms (once read_fixed_terms has read them) come from their fixed
  // form and this sweep's scales; the passes are made only when some term is not fixed,
  // and read only those.
  void read_linear_form(bool whiten = true) {
    const bool fixed_read = !fixed_r0_.empty();
    if (!fixed_read || !all_fixed_) {
      Eigen::VectorXd b = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(elements()));
      write(b);
      residuals(passes_.col(0), true, whiten);
      for (int c = 0; c < colours_; ++c) {
        for (std::size_t k = 0; k < elements(); ++k) b[static_cast<Eigen::Index>(k)] = colour_[k] == c;
        write(b);
        residuals(passes_.col(c + 1), false, whiten);
      }
      for (std::size_t row = 0; row < rows_; ++row) {
        if (fixed_read && row_fixed_[row]) continue;
        const auto r = static_cast<Eigen::Index>(row);
        for (std::size_t i = row_start_[row]; i < row_start_[row + 1]; ++i)
          slope_[i] = passes_(r, colour_[static_cast<std::size_t>(row_column_[i])] + 1) - passes_(r, 0);
      }
    }
    if (fixed_read) whiten_fixed_rows();
  }

  // Which terms are fixed (normal_term::fixed), and their unwhitened r0 and slopes, read
  // once with the scales left out; the block is left where it was.
  void read_fixed_terms() {
    const std::vector<char> fixed = fixed_terms(graph_.model(), block_);
    all_fixed_ = true;
    for (std::size_t k = 0; k < terms_.size(); ++k) {
      terms_[k].fixed = fixed[k] != 0;
      all_fixed_ = all_fixed_ && terms_[k].fixed;
    }
    if (std::none_of(terms_.begin(), terms_.end(), [](const normal_term& t) { return t.fixed; })) return;
    row_fixed_.assign(rows_, 0);
    for (const auto& t : terms_)
      if (t.fixed) std::fill(row_fixed_.begin() + static_cast<long>(t.first_row), row_fixed_.begin() + static_cast<long>(t.first_row + t.count * t.dim), 1);
    Eigen::VectorXd start;
    read_current(start);
    read_linear_form(false);
    fixed_r0_.assign(rows_, 0.0);
    fixed_slope_.assign(slope_.size(), 0.0);
    for (std::size_t row = 0; row < rows_; ++row) {
      if (!row_fixed_[row]) continue;
      fixed_r0_[row] = passes_(static_cast<Eigen::Index>(row), 0);
      for (std::size_t i = row_start_[row]; i < row_start_[row + 1]; ++i) fixed_slope_[i] = slope_[i];
    }
    write(start);
    for (auto& t : terms_) sum_shared_term(t);
  }

  // A fixed term with one scale (normal_term::shared): its sums of A' W A and -A' W r0.
  void sum_shared_term(normal_term& t) {
    if (!t.fixed || t.count == 0 || lang::ir::uses_loop_variable(*t.s->args[1])) return;
    const block_rows rows{row_start_, row_column_, row_pair_start_, pair_slot_, fixed_r0_, fixed_slope_};
    t.shared.emplace(rows, t.first_row, t.count, t.dim, static_cast<std::size_t>(precision_.nonZeros()), elements());
  }

  // The fixed terms' rows at this sweep's scales: r0 / s and a / s.
  void whiten_fixed_rows() {
    for (auto& t : terms_) {
      if (!t.fixed) continue;
      const statement& s = *t.s;
      if (t.shared) {  // one scale; its rows are not read
        if (t.weight_read) continue;
        if (!shared_weight(t.form, model::instances(graph_).eval_at(s, t.loops.data(), *s.args[1]), t.weight))
          std::fill(t.weight.begin(), t.weight.end(), NAN);
        t.weight_read = !s.args[1]->depends_on_unknown;  // a prior's fixed precision: read once
        continue;
      }
      if (!model::instances(graph_).batch_values(s, *s.args[1], t.scales)) {
        t.scales.resize(t.count);
        for (std::size_t i = 0; i < t.count; ++i) t.scales[i] = model::instances(graph_).args_at(s, t.loops.data() + i * s.loops.size())[1][0];
      }
      for (std::size_t i = 0; i < t.count; ++i) {
        const std::size_t row = t.first_row + i;
        const double inverse = 1 / t.scales[i];
        passes_(static_cast<Eigen::Index>(row), 0) = fixed_r0_[row] * inverse;
        for (std::size_t k = row_start_[row]; k < row_start_[row + 1]; ++k) slope_[k] = fixed_slope_[k] * inverse;
      }
    }
  }

  // x'Q x - b'Q b = (x - b)'Q (x + b), in one pass over the upper triangle of P Q P' with
  // both ordered by P.
  double quadratic_change(const Eigen::VectorXd& x, const Eigen::VectorXd& b) {
    solved_ = x - b;
    permuted_ = x + b;
    const Eigen::VectorXd& d = difference_ = order_ * solved_;
    const Eigen::VectorXd& s = sum_ = order_ * permuted_;
    const int* outer = precision_.outerIndexPtr();
    const int* inner = precision_.innerIndexPtr();
    const double* q = precision_.valuePtr();
    double total = 0;
    for (Eigen::Index j = 0; j < precision_.outerSize(); ++j)
      for (int k = outer[j]; k < outer[j + 1]; ++k) {
        const Eigen::Index i = inner[k];
        total += i == j ? q[k] * d[j] * s[j] : q[k] * (d[i] * s[j] + d[j] * s[i]);
      }
    return total;
  }

  // The terms at the current point and at a random one against r0 + A b; the point is
  // restored after.
  std::string check_affine() {
    Eigen::VectorXd start;
    read_current(start);
    read_linear_form();
    const Eigen::VectorXd at_zero = passes_.col(0);
    ppl::rng rng(20260717);
    boost::random::normal_distribution<double> normal;
    std::string why;
    for (int trial = 0; trial < 2 && why.empty(); ++trial) {
      Eigen::VectorXd b = start;
      if (trial == 1)
        for (Eigen::Index k = 0; k < b.size(); ++k) b[k] += 1 + normal(rng);
      write(b);
      Eigen::VectorXd r(static_cast<Eigen::Index>(rows_));
      residuals(r);
      for (std::size_t row = 0; row < rows_ && why.empty(); ++row) {
        double predicted = at_zero[static_cast<Eigen::Index>(row)];
        for (std::size_t i = row_start_[row]; i < row_start_[row + 1]; ++i) predicted += slope_[i] * b[row_column_[i]];
        const double actual = r[static_cast<Eigen::Index>(row)];
        if (!(std::abs(actual - predicted) <= 1e-7 * (1 + std::abs(actual) + std::abs(predicted))))
          why = "the Normal terms' means are not affine in the block's unknowns jointly";
      }
    }
    write(start);
    return why;
  }

  model::graph& graph_;
  block_structure block_;
  std::vector<normal_term> terms_;
  std::size_t rows_ = 0;
  std::vector<char> row_likelihood_;    // by row: a term of the likelihood (tempered by SMC)
  std::vector<std::size_t> row_start_;  // rows_ + 1 offsets into row_column_ and slope_
  std::vector<int> row_column_;         // the coordinates each row holds, sorted
  std::vector<double> slope_;           // d r / d b for each of them, read each sweep
  std::vector<int> colour_;             // by coordinate
  int colours_ = 0;
  Eigen::MatrixXd passes_;              // rows_ x (colours_ + 1): r0, then each colour's pass
  Eigen::SparseMatrix<double> precision_;  // P Q P', upper triangle
  std::vector<std::size_t> pair_slot_;  // for each row's pair (i >= j) of coordinates, its entry of P Q P'
  std::vector<std::size_t> row_pair_start_;  // by row: its first pair in pair_slot_
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> order_;  // P
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>, Eigen::Upper, Eigen::NaturalOrdering<int>> llt_;
  std::vector<double> mean_;
  Eigen::VectorXd now_, c_, permuted_, solved_, centre_, next_, difference_, sum_;  // step's working vectors
  double change_ = NAN;  // lp__'s change in the last step
  // The fixed terms (normal_term::fixed): by row whether it is one, their unwhitened r0 and
  // slopes (empty until read_fixed_terms, or when no term is fixed).
  std::vector<char> row_fixed_;
  std::vector<double> fixed_r0_, fixed_slope_;
  bool all_fixed_ = false;
};

}  // namespace

std::unique_ptr<gaussian_block_base> make_gaussian_block(model::graph& g, const std::vector<int>& variables) {
  return std::make_unique<gaussian_block_sampler>(g, variables);
}

}  // namespace ppl::samplers
