// `ppl loo DRAWS...`: leave-one-out cross-validation by Pareto smoothed importance sampling
// from the pointwise log-likelihoods a model records (`log_lik[n] = normal_lpdf(y[n] | ...)`),
// printed as R's loo package prints it: elpd_loo, p_loo and looic with their standard
// errors, the MCSE of elpd_loo and the table of Pareto k (draws/loo.hpp). Observations
// are read a batch of columns at a time, so memory stays bounded as in `ppl summary`.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/run_output.hpp"
#include "cli/session.hpp"
#include "draws/reader.hpp"
#include "draws/loo.hpp"
#include "draws/psis.hpp"

namespace ppl::cli {

namespace {

struct loo_options {
  std::vector<std::string> draws_paths;  // as for `ppl summary`
  std::string variable = "log_lik";
  std::string pointwise;                 // a CSV of each observation's figures (default: none)
  bool waic = false;                     // WAIC beside PSIS-LOO
};

using column_draws = draws::draws_source::column_draws;

// Fewer draws leave the threshold of k below 0.5 and the tail fit on a dozen ratios.
constexpr std::size_t min_draws = 100;

struct observations {
  std::vector<std::string> names;  // their columns, log_lik[1], ...
  std::vector<draws::loo_point> points;
  std::vector<draws::waic_point> waic;
};

// The columns of `name` (a scalar, or an array's elements), or a usage error that lists
// the variables the draws do have.
std::vector<std::size_t> observation_columns(const draws::draws_source& d, const std::string& name) {
  std::vector<std::size_t> found;
  std::vector<std::string> variables;
  for (std::size_t k = 0; k < d.columns().size(); ++k) {
    const std::string variable = draws::column_variable(d.columns()[k]);
    if (variable == name) found.push_back(k);
    else if (!draws::sampler_column(variable) && std::find(variables.begin(), variables.end(), variable) == variables.end())
      variables.push_back(variable);
  }
  if (found.empty()) {
    std::string list;
    for (std::size_t i = 0; i < variables.size() && i < 12; ++i) list += (i ? ", " : "") + variables[i];
    if (variables.size() > 12) list += fmt::format(" and {} more", variables.size() - 12);
    throw std::invalid_argument(fmt::format(
        "loo: the draws have no column `{}` (the pointwise log-likelihoods); they have {}. Record them in the model "
        "(`log_lik[n] = normal_lpdf(y[n] | mu, sigma)`) or name them with --var",
        name, list.empty() ? "no variables" : list));
  }
  return found;
}

// The draws of every chain used: all of them, or as many as the shortest chain has (an
// interrupted run), as the summary does.
std::size_t common_length(const draws::draws_source& d, std::vector<std::string>& notes) {
  std::size_t shortest = d.chains() ? d.rows(0) : 0, longest = shortest;
  for (std::size_t c = 0; c < d.chains(); ++c) shortest = std::min(shortest, d.rows(c)), longest = std::max(longest, d.rows(c));
  if (shortest < longest)
    notes.push_back(fmt::format("the chains have from {} to {} draws; each is cut to its first {}, so that r_eff sees chains of one length",
                                shortest, longest, shortest));
  return shortest;
}

void check_finite(const std::string& column, const column_draws& chains) {
  for (std::size_t c = 0; c < chains.size(); ++c)
    for (std::size_t i = 0; i < chains[c].size(); ++i)
      if (!std::isfinite(chains[c][i]))
        throw std::runtime_error(fmt::format("loo: {} is {} in draw {} of chain {}; every pointwise log-likelihood must be finite (-inf "
                                             "is an observation impossible under that draw: check the model's statement for it)",
                                             column, chains[c][i], i + 1, c + 1));
}

// PSIS-LOO of every column, a batch of columns per read.
observations compute(const draws::draws_source& d, const std::vector<std::size_t>& columns, std::size_t length) {
  observations out;
  const std::size_t per_column = length * d.chains() + 1;
  const std::size_t batch = std::max<std::size_t>(1, draws::draws_budget / per_column);
  std::vector<column_draws> values;
  for (std::size_t at = 0; at < columns.size();) {
    // A run of adjacent columns (an array's elements are), at most a batch.
    std::size_t n = 1;
    while (n < batch && at + n < columns.size() && columns[at + n] == columns[at] + n) ++n;
    d.read(columns[at], columns[at] + n, 1, values);
    for (std::size_t j = 0; j < n; ++j) {
      const std::string& name = d.columns()[columns[at + j]];
      for (auto& c : values[j]) c.resize(length);
      check_finite(name, values[j]);
      out.names.push_back(name);
      out.points.push_back(draws::loo_observation(values[j]));
      out.waic.push_back(draws::waic_observation(values[j]));
    }
    at += n;
  }
  return out;
}

std::string figure(double x, int decimals) { return std::isnan(x) ? "n/a" : fmt::format("{:.{}f}", x, decimals); }

void print_estimates(const draws::loo_result& r, const observations& obs, std::size_t draws, std::size_t chains) {
  fmt::print("Computed from {} by {} log-likelihood matrix ({} chain{} of {} draws).\n\n", draws, obs.points.size(), chains,
             chains == 1 ? "" : "s", draws / chains);
  fmt::print("{:<8} {:>9} {:>7}\n", "", "Estimate", "SE");
  const std::pair<const char*, const draws::loo_estimate*> rows[] = {{"elpd_loo", &r.elpd_loo}, {"p_loo", &r.p_loo}, {"looic", &r.looic}};
  for (const auto& [name, e] : rows) fmt::print("{:<8} {:>9} {:>7}\n", name, figure(e->estimate, 1), figure(e->se, 1));
  fmt::print("------\n");
  const double threshold = draws::pareto_k_threshold(draws);
  if (std::isnan(r.mcse_elpd_loo)) fmt::print("MCSE of elpd_loo is n/a: some Pareto k are above {:.2f}.\n", threshold);
  else fmt::print("MCSE of elpd_loo is {}.\n", figure(r.mcse_elpd_loo, 1));
  double low = INFINITY, high = -INFINITY;
  for (const auto& p : obs.points) low = std::min(low, p.r_eff), high = std::max(high, p.r_eff);
  fmt::print("MCSE and ESS estimates assume MCMC draws (r_eff in [{}, {}]).\n\n", figure(low, 1), figure(high, 1));
}

// WAIC's table, as loo's print of waic() lays it out; returns the warning loo gives for a
// p_waic above 0.4, if any.
std::vector<std::string> print_waic(const observations& obs) {
  const draws::waic_result r = draws::waic(obs.waic);
  fmt::print("{:<9} {:>9} {:>7}\n", "", "Estimate", "SE");
  const std::pair<const char*, const draws::loo_estimate*> rows[] = {{"elpd_waic", &r.elpd_waic}, {"p_waic", &r.p_waic}, {"waic", &r.waic}};
  for (const auto& [name, e] : rows) fmt::print("{:<9} {:>9} {:>7}\n", name, figure(e->estimate, 1), figure(e->se, 1));
  fmt::print("\n");
  const auto high = static_cast<std::size_t>(std::count_if(obs.waic.begin(), obs.waic.end(), [](const draws::waic_point& p) { return p.p_waic > 0.4; }));
  if (!high) return {};
  return {fmt::format("{} of {} observations have a p_waic above 0.4: WAIC's approximation does not hold there, so elpd_waic is "
                      "unreliable; PSIS-LOO's elpd_loo, with its Pareto k, is the estimate to use",
                      high, obs.waic.size())};
}

void print_k_table(const observations& obs, std::size_t draws) {
  const double t = draws::pareto_k_threshold(draws);
  fmt::print("Pareto k diagnostic values (threshold min(1 - 1/log10(S), 0.7) = {:.2f} for S = {}):\n", t, draws);
  fmt::print("{:>12}  {:<10} {:>5} {:>7}  {:>10}\n", "", "", "Count", "Pct.", "Min. n_eff");
  const auto bins = draws::pareto_k_table(obs.points, t);
  const std::string labels[] = {fmt::format("(-Inf, {:.2f}]", t), fmt::format("({:.2f}, 1]", t), "(1, Inf)"};
  const char* verdicts[] = {"(good)", "(bad)", "(very bad)"};
  for (std::size_t b = 0; b < bins.size(); ++b) {
    const double share = 100.0 * static_cast<double>(bins[b].count) / static_cast<double>(obs.points.size());
    fmt::print("{:>12}  {:<10} {:>5} {:>6.1f}%  {:>10}\n", labels[b], verdicts[b], bins[b].count, share,
               std::isnan(bins[b].min_n_eff) ? "-" : fmt::format("{:.0f}", bins[b].min_n_eff));
  }
}

// A CSV cell: a name with a comma (log_lik[2,3]) is quoted; NA where there is no figure.
std::string csv_name(const std::string& name) { return name.find(',') == std::string::npos ? name : "\"" + name + "\""; }
std::string csv_number(double x) { return std::isnan(x) ? "NA" : fmt::format("{}", x); }

void write_pointwise(const std::string& path, const observations& obs, bool waic) {
  std::ofstream out(path);
  if (!out) throw std::invalid_argument("cannot write " + path + ": " + std::strerror(errno));
  out << "observation,elpd_loo,mcse_elpd_loo,p_loo,looic,pareto_k,n_eff,r_eff" << (waic ? ",elpd_waic,p_waic,waic" : "") << "\n";
  for (std::size_t i = 0; i < obs.points.size(); ++i) {
    const auto& p = obs.points[i];
    out << csv_name(obs.names[i]);
    for (double x : {p.elpd_loo, p.mcse_elpd_loo, p.p_loo, p.looic, p.pareto_k, p.n_eff, p.r_eff}) out << ',' << csv_number(x);
    if (waic)
      for (double x : {obs.waic[i].elpd_waic, obs.waic[i].p_waic, obs.waic[i].waic}) out << ',' << csv_number(x);
    out << '\n';
  }
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

// The warning for k above the threshold, naming the worst observations.
std::vector<std::string> k_warnings(const observations& obs, std::size_t draws) {
  const double t = draws::pareto_k_threshold(draws);
  std::vector<std::size_t> high;
  for (std::size_t i = 0; i < obs.points.size(); ++i)
    if (obs.points[i].pareto_k > t) high.push_back(i);
  if (high.empty()) return {};
  std::stable_sort(high.begin(), high.end(), [&](std::size_t a, std::size_t b) { return obs.points[a].pareto_k > obs.points[b].pareto_k; });
  std::string worst;
  for (std::size_t j = 0; j < high.size() && j < 5; ++j)
    worst += fmt::format("{}{:.2f} for {}", j ? ", " : "k = ", obs.points[high[j]].pareto_k, obs.names[high[j]]);
  if (high.size() > 5) worst += fmt::format(" and {} more", high.size() - 5);
  std::string more_draws;
  if (t < 0.7 && obs.points[high.back()].pareto_k <= 0.7)
    more_draws = "; a k up to 0.7 may pass with more draws (the threshold is 0.7 from S = 2200)";
  if (high.size() == 1)
    return {fmt::format("1 of {} observations has a Pareto k above {:.2f} ({}): importance sampling cannot stand in for leaving "
                        "it out, so its elpd_loo, and the total, are unreliable{}. Look at this observation (an outlier?), try a "
                        "model less surprised by it (e.g. StudentT errors for Normal ones), or leave it out and refit (exact LOO)",
                        obs.points.size(), t, worst, more_draws)};
  return {fmt::format("{} of {} observations have a Pareto k above {:.2f} ({}): importance sampling cannot stand in for leaving "
                      "them out, so their elpd_loo, and the total, are unreliable{}. Look at these observations (outliers?), try "
                      "a model less surprised by them (e.g. StudentT errors for Normal ones), or leave them out and refit (exact "
                      "LOO, or K-fold cross-validation)",
                      high.size(), obs.points.size(), t, worst, more_draws)};
}

int run_loo(const loo_options& o) {
  return guarded([&] {
    if (!o.pointwise.empty()) refuse_overwriting_inputs("--pointwise", {o.pointwise}, draws::expand_draws_paths(o.draws_paths));
    const draws::draws_source d(o.draws_paths);
    std::vector<std::string> notes = d.notes();
    const std::vector<std::size_t> columns = observation_columns(d, o.variable);
    const std::size_t length = common_length(d, notes), draws = length * d.chains();
    for (const auto& n : notes) fmt::print(stderr, "note: {}\n", n);
    if (draws < min_draws)
      throw std::invalid_argument(fmt::format("loo: the draws hold {} draws of {} ({} chain{}); PSIS-LOO needs at least {} (with fewer, "
                                              "the Pareto k threshold 1 - 1/log10(S) falls below 0.5); run more draws",
                                              draws, o.variable, d.chains(), d.chains() == 1 ? "" : "s", min_draws));
    const observations obs = compute(d, columns, length);
    if (!o.pointwise.empty()) write_pointwise(o.pointwise, obs, o.waic);
    print_estimates(draws::loo(obs.points, draws), obs, draws, d.chains());
    std::vector<std::string> warnings;
    if (o.waic) warnings = print_waic(obs);
    print_k_table(obs, draws);
    for (auto& w : k_warnings(obs, draws)) warnings.push_back(std::move(w));
    print_warnings(warnings);
    return 0;
  });
}

}  // namespace

command add_loo_command(CLI::App& app) {
  auto o = std::make_shared<loo_options>();
  auto* cmd = app.add_subcommand("loo", "leave-one-out cross-validation (PSIS-LOO) from pointwise log-likelihoods in a draws file, with Pareto k diagnostics");
  cmd->add_option("DRAWS", o->draws_paths,
                  "draws file(s), as for summary: written by ppl infer (any format), ppl simulate, CmdStan or JAGS (CODA)")
      ->required();
  cmd->add_option("--var", o->variable, "the variable holding the pointwise log-likelihoods, one element per observation")
      ->capture_default_str();
  cmd->add_option("--pointwise", o->pointwise,
                  "write each observation's elpd_loo, mcse_elpd_loo, p_loo, looic, pareto_k, n_eff and r_eff to this CSV file (default: none)")->type_name("FILE");
  cmd->add_flag("--waic", o->waic,
                "also WAIC (elpd_waic, p_waic, waic with their SEs, as R's loo::waic), and its columns in --pointwise (default: off)");
  return {cmd, [o] { return run_loo(*o); }};
}

}  // namespace ppl::cli
