// The deviance and DIC's penalties (inference/dic.hpp).
#include "inference/dic.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "model/instances.hpp"
#include "stdlib/moments.hpp"

namespace ppl::inference {

using lang::ir::role;
using lang::ir::statement;

namespace {

// Iterations whose parameters a chain stores for JAGS's pD, at most, and the doubles all
// chains' stores may hold together (128 MB): a model with many observations stores fewer
// iterations, never fewer than 2. pD's standard error is from this many batch means of
// the iterations' estimates (fewer when fewer are stored), which autocorrelation within a
// batch does not hide.
constexpr long se_batches = 20;
constexpr long max_stored_iterations = 1000;
constexpr double stored_budget = 16e6;

}  // namespace

deviance_record::deviance_record(model::graph& g, long draws, int chains) : g_(g), draws_(draws), chains_(chains) {
  const auto& m = g.model();
  for (std::size_t k = 0; k < m.statements.size(); ++k) {
    const statement& s = m.statements[k];
    if (s.which == statement::kind::sample && m.variables[static_cast<std::size_t>(s.target)].role != role::unknown &&
        m.variables[static_cast<std::size_t>(s.target)].observed)
      observed_.push_back(static_cast<int>(k));
  }
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].role == role::unknown) {
      unknowns_.push_back(static_cast<int>(v));
      sums_.emplace_back(g.value(static_cast<int>(v)).data.size(), 0.0);
    }
}

double deviance_record::deviance() {
  const auto& m = g_.model();
  double total = 0;
  for (int k : observed_) total += model::instances(g_).terms(m.statements[static_cast<std::size_t>(k)]);
  return -2 * total;
}

void deviance_record::record(long draw) {
  for (std::size_t u = 0; u < unknowns_.size(); ++u) {
    const auto& x = g_.value(unknowns_[u]).data;
    auto& sum = sums_[u];
    for (std::size_t e = 0; e < x.size(); ++e) sum[e] += x[e];
  }
  ++counted_;
  if ((draw - 1) % stride_ == 0) store_parameters();
}

void deviance_record::store_parameters() {
  const auto& m = g_.model();
  const bool first = stored_ == 0;
  for (int k : observed_) {
    const statement& s = m.statements[static_cast<std::size_t>(k)];
    model::instances(g_).visit(s, [&](const index_t* loops) {
      const std::vector<view>& args = model::instances(g_).args_at(s, loops);
      if (first) {
        instance_layout l{k, {}, s.dist->value_shape_at(args)};
        for (const view& a : args) l.params.push_back(a.shape);
        layout_.push_back(std::move(l));
      }
      for (const view& a : args) parameters_.insert(parameters_.end(), a.data, a.data + a.size());
    });
  }
  if (first) {
    // The stride from the size of one iteration's parameters, known from the first this
    // run records (stored, as the stride starts at 1).
    per_iteration_ = parameters_.size();
    const double per_chain = stored_budget / std::max(1, chains_) / static_cast<double>(std::max<std::size_t>(per_iteration_, 1));
    const long iterations = std::clamp(static_cast<long>(per_chain), 2L, max_stored_iterations);
    stride_ = std::max(1L, (draws_ + iterations - 1) / iterations);
  }
  ++stored_;
}

namespace {

// The parameters of each instance of one stored iteration, as views into a record.
std::vector<std::vector<view>> instance_views(const std::vector<double>& stored, std::size_t from,
                                              const std::vector<std::vector<shape>>& shapes) {
  std::vector<std::vector<view>> out(shapes.size());
  const double* p = stored.data() + from;
  for (std::size_t n = 0; n < shapes.size(); ++n)
    for (const shape& s : shapes[n]) {
      out[n].push_back(view{p, s});
      p += s.size();
    }
  return out;
}

// log p(y | a) - log p(y | b) for one replicate y drawn from p(. | a): an unbiased estimate
// of KL(p(. | a) || p(. | b)).
double kl_draw(const stdlib::distribution& d, std::span<const view> a, std::span<const view> b, const shape& value,
               std::vector<double>& y, ppl::rng& rng) {
  y.resize(static_cast<std::size_t>(value.size()));
  d.draw(a, rng, y.data());
  const view x{y.data(), value};
  return d.log_density(a, x, true) - d.log_density(b, x, true);
}

// The standard error of a mean from batch means: NaN with fewer than 2 batches.
double batch_means_se(const std::vector<double>& x) {
  const std::size_t batches = std::min<std::size_t>(static_cast<std::size_t>(se_batches), x.size());
  if (batches < 2) return NAN;
  const std::size_t length = x.size() / batches;
  std::vector<double> means;
  for (std::size_t b = 0; b < batches; ++b)
    means.push_back(std::accumulate(x.begin() + static_cast<std::ptrdiff_t>(b * length),
                                    x.begin() + static_cast<std::ptrdiff_t>((b + 1) * length), 0.0) / static_cast<double>(length));
  return stdlib::sample_sd(means.data(), static_cast<index_t>(means.size())) / std::sqrt(static_cast<double>(batches));
}

}  // namespace

dic_penalties penalties(std::vector<deviance_record*> chains, ppl::rng& rng) {
  dic_penalties out;
  if (chains.empty()) {
    out.jags_note = out.mean_note = "no chain ran here";
    return out;
  }
  deviance_record& lead = *chains.front();
  const auto& m = lead.g_.model();
  // Spiegelhalter et al.: the deviance at the pooled posterior means of the unknowns.
  long counted = 0;
  for (const auto* c : chains) counted += c->counted_;
  const auto discrete = std::find_if(lead.unknowns_.begin(), lead.unknowns_.end(), [&](int v) {
    return m.variables[static_cast<std::size_t>(v)].type.kind == stdlib::scalar_kind::integer;
  });
  if (counted == 0) {
    out.mean_note = "no draws made by this run: after --resume only the new draws count";
  } else if (discrete != lead.unknowns_.end()) {
    out.mean_note = "`" + m.variables[static_cast<std::size_t>(*discrete)].name + "` is discrete, and its posterior mean is not a value it takes";
  } else {
    for (std::size_t u = 0; u < lead.unknowns_.size(); ++u) {
      auto& x = lead.g_.values()[static_cast<std::size_t>(lead.unknowns_[u])].data;
      for (std::size_t e = 0; e < x.size(); ++e) {
        double total = 0;
        for (const auto* c : chains) total += c->sums_[u][e];
        x[e] = total / static_cast<double>(counted);
      }
    }
    lead.g_.update_derived();
    out.deviance_at_mean = lead.deviance();
    if (!std::isfinite(out.deviance_at_mean)) out.mean_note = "the deviance at the posterior means is not finite";
  }
  // JAGS's pD: pairs of chains at the same stored iteration.
  const long iterations = std::ranges::min(chains, {}, &deviance_record::stored_)->stored_;
  if (chains.size() < 2) {
    out.jags_note = "needs 2 or more chains";
    return out;
  }
  if (iterations == 0) {
    out.jags_note = "no draws made by this run: after --resume only the new draws count";
    return out;
  }
  std::vector<std::vector<shape>> shapes;
  for (const auto& l : lead.layout_) shapes.push_back(l.params);
  std::vector<double> y, per_iteration;
  const double pairs = static_cast<double>(chains.size() * (chains.size() - 1) / 2);
  for (long k = 0; k < iterations; ++k) {
    const std::size_t from = static_cast<std::size_t>(k) * lead.per_iteration_;
    std::vector<std::vector<std::vector<view>>> at;
    for (const auto* c : chains) at.push_back(instance_views(c->parameters_, from, shapes));
    double total = 0;
    for (std::size_t i = 0; i < chains.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        for (std::size_t n = 0; n < lead.layout_.size(); ++n) {
          const auto& l = lead.layout_[n];
          const stdlib::distribution& d = *m.statements[static_cast<std::size_t>(l.statement)].dist;
          total += 0.5 * (kl_draw(d, at[i][n], at[j][n], l.value, y, rng) + kl_draw(d, at[j][n], at[i][n], l.value, y, rng));
        }
    per_iteration.push_back(total / pairs);
  }
  out.pd_jags = stdlib::sample_mean(per_iteration.data(), static_cast<index_t>(per_iteration.size()));
  out.pd_jags_se = batch_means_se(per_iteration);
  if (!std::isfinite(out.pd_jags)) out.jags_note = "a replicate's log density is not finite under another chain's parameters";
  return out;
}

}  // namespace ppl::inference
