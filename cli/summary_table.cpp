#include "cli/summary_table.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <stdexcept>

#include "draws/diagnostics.hpp"
#include "draws/weighted.hpp"
#include "stdlib/moments.hpp"

namespace ppl::cli {

std::size_t histogram_bin(double v, double lo, double hi, int bins) {
  // Halves keep hi - lo finite for any finite bounds (-1e308..1e308), so that the cast
  // never sees NaN or infinity, which it could not convert.
  const double t = hi > lo ? (v / 2 - lo / 2) / (hi / 2 - lo / 2) * bins : bins / 2;
  return static_cast<std::size_t>(std::clamp(t, 0.0, bins - 1.0));
}

bool want_histograms(bool asked) { return asked || isatty(STDOUT_FILENO) != 0; }

std::string text_histogram(std::vector<double> draws) {
  static const char* const blocks[] = {" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"};
  constexpr int bins = 10;
  draws.erase(std::remove_if(draws.begin(), draws.end(), [](double v) { return !std::isfinite(v); }), draws.end());
  if (draws.empty()) return std::string(bins, ' ');
  std::sort(draws.begin(), draws.end());
  const double lo = draws[draws.size() / 100], hi = draws[draws.size() - 1 - draws.size() / 100];
  std::vector<double> counts(bins, 0.0);
  for (double v : draws) {
    if (v < lo || v > hi) continue;
    counts[histogram_bin(v, lo, hi, bins)] += 1;
  }
  const double top = *std::max_element(counts.begin(), counts.end());
  std::string out;
  for (double c : counts) out += blocks[c > 0 ? std::max(1L, std::lround(8 * c / top)) : 0];
  return out;
}

namespace {

using column_draws = draws::draws_source::column_draws;

// What the Hamiltonian columns say, per chain.
struct hamiltonian_record {
  bool present = false;
  std::vector<long> transitions, divergent, at_max_depth;
  std::vector<double> bfmi;
};

// The tree depth limit the run had, from its comment lines ("max_depth: 10" in ppl's
// layout, "max_depth = 10" in Stan's); 0 when not given.
long max_depth_of(const std::vector<std::string>& metadata) {
  for (const auto& line : metadata) {
    const std::size_t at = line.find("max_depth");
    if (at == std::string::npos) continue;
    std::size_t p = line.find_first_of(":=", at);
    if (p == std::string::npos) continue;
    p = line.find_first_not_of(" ", p + 1);
    long depth = 0;
    if (p != std::string::npos && std::from_chars(line.data() + p, line.data() + line.size(), depth).ec == std::errc()) return depth;
  }
  return 0;
}

void record_hamiltonian(hamiltonian_record& h, const std::string& name, const column_draws& chains, long max_depth) {
  h.present = true;
  h.transitions.resize(chains.size());
  h.divergent.resize(chains.size());
  h.at_max_depth.resize(chains.size());
  h.bfmi.resize(chains.size(), NAN);
  for (std::size_t c = 0; c < chains.size(); ++c) {
    h.transitions[c] = static_cast<long>(chains[c].size());
    if (name == "divergent__") h.divergent[c] = std::count_if(chains[c].begin(), chains[c].end(), [](double x) { return x > 0; });
    if (name == "treedepth__" && max_depth > 0)
      h.at_max_depth[c] = std::count(chains[c].begin(), chains[c].end(), static_cast<double>(max_depth));
    if (name == "energy__") h.bfmi[c] = draws::energy_bfmi(chains[c]);
  }
}

std::string per_chain(const std::vector<long>& counts) {
  std::string out;
  for (std::size_t c = 0; c < counts.size(); ++c) out += fmt::format("{}chain {}: {}", c ? ", " : "", c + 1, counts[c]);
  return out;
}

long total(const std::vector<long>& v) {
  long sum = 0;
  for (long x : v) sum += x;
  return sum;
}

// CmdStan's three checks of a Hamiltonian run, in words that say what to do.
void hamiltonian_warnings(const hamiltonian_record& h, long max_depth, std::vector<std::string>& out) {
  if (!h.present) return;
  const long n = total(h.transitions);
  if (long d = total(h.divergent); d > 0)
    out.push_back(fmt::format("{} of {} transitions after warmup were divergent ({}): nuts could not follow the posterior's "
                              "curvature there, so the draws may miss part of it; raise --target-accept (e.g. 0.95), and if "
                              "divergences remain, reparameterise (e.g. a non-centred form for a hierarchical scale)",
                              d, n, per_chain(h.divergent)));
  if (long t = total(h.at_max_depth); t > 0)
    out.push_back(fmt::format("{} of {} transitions after warmup stopped at the maximum tree depth {} ({}): their trajectories "
                              "were cut short, which slows exploration; raise --max-depth, or reparameterise to remove strong "
                              "correlations",
                              t, n, max_depth, per_chain(h.at_max_depth)));
  std::string low;
  for (std::size_t c = 0; c < h.bfmi.size(); ++c)
    if (h.bfmi[c] < 0.3) low += fmt::format("{}chain {}: {:.2f}", low.empty() ? "" : ", ", c + 1, h.bfmi[c]);
  if (!low.empty())
    out.push_back("E-BFMI below 0.3 (" + low + "): resampling the momentum moves poorly between energy levels, a sign of "
                  "heavy tails or a funnel the sampler cannot cross; reparameterise the model");
}

// A statistic, or n/a where it is not defined (a note after the table says why).
// Chains whose lp__ averages more than two of its standard deviations below the highest
// chain's: they sample another region than that chain (a tail or a start they have not
// left, or a minor mode). R-hat says that chains disagree; this says which.
void left_behind(const column_draws& lp, std::vector<std::string>& warnings) {
  if (lp.size() < 2) return;
  std::vector<double> mean(lp.size(), NAN), sd(lp.size(), NAN);
  std::size_t best = lp.size();
  for (std::size_t c = 0; c < lp.size(); ++c) {
    if (lp[c].size() < 2) continue;
    const auto n = static_cast<ppl::index_t>(lp[c].size());
    mean[c] = stdlib::sample_mean(lp[c].data(), n);
    sd[c] = stdlib::sample_sd(lp[c].data(), n);
    if (std::isfinite(mean[c]) && (best == lp.size() || mean[c] > mean[best])) best = c;
  }
  if (best == lp.size()) return;
  std::vector<std::string> behind, means;
  for (std::size_t c = 0; c < lp.size(); ++c) {
    const double gap = mean[best] - mean[c], spread = std::max(sd[best], sd[c]);
    if (c == best || !(gap > 2 * spread) || !(gap > 1e-9 * (1 + std::abs(mean[best])))) continue;
    behind.push_back(fmt::format("chain {}", c + 1));
    means.push_back(fmt::format("{:.6g}", mean[c]));
  }
  if (behind.empty()) return;
  auto join = [](const std::vector<std::string>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) out += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + v[i];
    return out;
  };
  warnings.push_back(fmt::format(
      "{} {} left behind: lp__ averages {} against {:.6g} for chain {}, more than two of its standard deviations below, so {} "
      "another region (a tail or a start not left, or a minor mode) and the draws do not yet describe one posterior; start "
      "elsewhere (--init FILE or --init pathfinder), warm up longer, or reparameterise",
      join(behind), behind.size() == 1 ? "was" : "were", join(means), mean[best], best + 1, behind.size() == 1 ? "it samples" : "they sample"));
}

std::string cell(double x, const char* format) { return std::isnan(x) ? "n/a" : fmt::format(fmt::runtime(format), x); }

// Why a column's statistics are n/a, if they are: one note per kind, naming the columns.
struct undefined_columns {
  std::vector<std::string> non_finite, constant, no_tail;
  void add(const std::string& name, const column_draws& chains, const draws::scalar_summary& s) {
    const bool finite = std::all_of(chains.begin(), chains.end(),
                                    [](const auto& c) { return std::all_of(c.begin(), c.end(), [](double x) { return std::isfinite(x); }); });
    if (!finite) non_finite.push_back(name);
    else if (s.sd == 0) constant.push_back(name);
    else if (std::isnan(s.ess_tail) && !std::isnan(s.ess_bulk)) no_tail.push_back(name);
  }
  static std::string list(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < 5; ++i) out += (i ? ", " : "") + names[i];
    return names.size() > 5 ? out + fmt::format(" and {} more", names.size() - 5) : out;
  }
  void notes(std::vector<std::string>& out) const {
    if (!non_finite.empty())
      out.push_back(list(non_finite) + ": some draws are infinite or NaN, so every statistic is n/a; read the draws file to see where");
    if (!constant.empty()) out.push_back(list(constant) + ": the same value in every draw, so R-hat and ESS are n/a (the mean is exact)");
    if (!no_tail.empty())
      out.push_back("ess_tail of " + list(no_tail) + " is n/a: 95% or more of the draws equal the largest value, so the indicators "
                    "of lying below the 5% and 95% quantiles never vary (a discrete quantity nearly always at its top value); "
                    "ess_bulk measures its precision");
  }
};

// A column's draws of every chain, one after another.
std::vector<double> pooled(const column_draws& chains) {
  std::vector<double> out;
  for (const auto& chain : chains) out.insert(out.end(), chain.begin(), chain.end());
  return out;
}

// A quantile's column: "5%" in the table, q5 in CSV (q2.5 for 0.025).
std::string quantile_label(double p, bool csv) { return csv ? fmt::format("q{:g}", 100 * p) : fmt::format("{:g}%", 100 * p); }

// The quantiles a summary lists: those asked for, or 5%, 50% and 95%.
std::vector<double> quantiles_of(const table_options& o) { return o.quantiles.empty() ? std::vector<double>{0.05, 0.5, 0.95} : o.quantiles; }

// The row's quantiles: the summary's three, or those asked for from the pooled draws (NaN
// where a draw is not finite, as the summary's are).
std::vector<double> row_quantiles(const table_options& o, const column_draws& chains, const draws::scalar_summary& s) {
  if (o.quantiles.empty()) return {s.q5, s.q50, s.q95};
  std::vector<double> all = pooled(chains);
  const bool finite = std::all_of(all.begin(), all.end(), [](double x) { return std::isfinite(x); });
  std::sort(all.begin(), all.end());
  std::vector<double> out;
  for (double p : o.quantiles) out.push_back(finite ? draws::quantile_type7(all, p) : NAN);
  return out;
}

void print_csv_header(const table_options& o) {
  std::string q;
  for (double p : quantiles_of(o)) q += quantile_label(p, true) + ",";
  fmt::print("name,mean,sd,{}mcse_mean,ess_bulk,ess_tail,rhat\n", q);
}

// A name with a comma or a quote is quoted as RFC 4180 says; ppl's own column names never
// are, but a CmdStan file's may hold anything.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void print_csv_row(const std::string& name, const draws::scalar_summary& s, const std::vector<double>& q) {
  auto number = [](double x) { return std::isnan(x) ? std::string("NA") : fmt::format("{}", x); };
  std::string quantiles;
  for (double x : q) quantiles += number(x) + ",";
  fmt::print("{},{},{},{}{},{},{},{}\n", csv_field(name), number(s.mean), number(s.sd), quantiles, number(s.mcse_mean),
             number(s.ess_bulk), number(s.ess_tail), number(s.rhat));
}

void print_header(const table_options& o) {
  std::string q;
  for (double p : quantiles_of(o)) q += fmt::format(" {:>10}", quantile_label(p, false));
  fmt::print("{:<18} {:>10} {:>10}{} {:>9} {:>8} {:>8} {:>7} {:>6}{}\n", "name", "mean", "sd", q, "mcse", "ess_bulk", "ess_tail", "iat",
             "rhat", o.histograms ? "  distribution" : "");
}

void print_row(const std::string& name, const column_draws& chains, const draws::scalar_summary& s, const std::vector<double>& q,
               bool histograms) {
  // The integrated autocorrelation time, in draws: how many draws one effective draw costs.
  std::size_t draws = 0;
  for (const auto& chain : chains) draws += chain.size();
  const double iat = static_cast<double>(draws) / s.ess_bulk;
  std::string histogram;
  if (histograms) histogram = "  " + text_histogram(pooled(chains));
  // R-hat with three decimals near 1, where they matter; a chain stuck at one value gives
  // an enormous one, shown in exponent form rather than as a row of digits.
  const std::string rhat = cell(s.rhat, s.rhat < 1000 ? "{:.3f}" : "{:.2g}");
  std::string quantiles;
  for (double x : q) quantiles += fmt::format(" {:>10}", cell(x, "{:.4g}"));
  fmt::print("{:<18} {:>10} {:>10}{} {:>9} {:>8} {:>8} {:>7} {:>6}{}\n", name, cell(s.mean, "{:.4g}"), cell(s.sd, "{:.4g}"), quantiles,
             cell(s.mcse_mean, "{:.2g}"), cell(s.ess_bulk, "{:.0f}"), cell(s.ess_tail, "{:.0f}"), cell(iat, "{:.3g}"), rhat, histogram);
}

// --show and --variables name variables the draws hold (`count`: each one's columns).
void refuse_absent(const std::map<std::string, std::size_t>& count, const table_options& o) {
  for (const auto& [option, names] : {std::pair{"--show", &o.show}, std::pair{"--variables", &o.variables}})
    for (const auto& name : *names)
      if (!count.contains(name)) throw std::invalid_argument(std::string(option) + ": `" + name + "` is not in the draws");
}

// Weighted draws (importance sampling, SMC): every statistic is weighted by weight__, whose
// values these are (none: unweighted draws), with the note that says so.
std::vector<double> read_weights(const draws::draws_source& d, const table_options& o, std::size_t stride, std::vector<std::string>& notes) {
  const auto& columns = d.columns();
  const auto weight_at = std::find(columns.begin(), columns.end(), "weight__");
  if (weight_at == columns.end()) return {};
  const auto k = static_cast<std::size_t>(weight_at - columns.begin());
  if (!o.quantiles.empty())
    throw std::invalid_argument("--percentiles: the draws are weighted (weight__), and their summary has the weighted 5%, 50% and 95% "
                                "only");
  notes.push_back("the draws are weighted (weight__): means, sds and quantiles are weighted, ess is Kish's (sum w)^2 / sum w^2 "
                  "for every column (for smc, whose resampled particles share ancestors, an upper bound), and R-hat is n/a (one set of weighted draws, no chains "
                  "to compare)");
  return pooled(d.read(k, k + 1, stride)[0]);
}

}  // namespace

summary_messages print_summary(const draws::draws_source& d, const table_options& o) {
  const auto& columns = d.columns();
  auto in_table = [](const std::string& c) { return c == "lp__" || !draws::sampler_column(c); };
  std::map<std::string, std::size_t> count, shown;
  for (const auto& c : columns)
    if (in_table(c)) ++count[draws::column_variable(c)];
  refuse_absent(count, o);
  const auto chosen = [&](const std::string& base) {
    return o.variables.empty() || std::find(o.variables.begin(), o.variables.end(), base) != o.variables.end();
  };
  if (o.csv) print_csv_header(o);
  else print_header(o);
  summary_messages out;
  std::size_t rows = 0;
  for (std::size_t c = 0; c < d.chains(); ++c) rows += d.rows(c);
  if (rows == 0) out.warnings.push_back("there are no draws to summarise");
  // Bounded memory: every k-th draw of a column past the cap.
  const std::size_t stride = std::max<std::size_t>(1, (rows + o.column_cap - 1) / o.column_cap);
  const std::size_t per_column = std::max<std::size_t>(1, rows / stride + d.chains());
  // Values held in memory are copied out a few columns at a time, into the memory of the
  // batch before, instead of all at once into fresh pages; from a file, a batch is a pass
  // over it, and is as large as the budget allows.
  const std::size_t most = std::max<std::size_t>(1, o.budget / per_column);
  const std::size_t batch = d.held() ? std::min<std::size_t>(4, most) : most;
  const long max_depth = max_depth_of(d.metadata());
  hamiltonian_record hamiltonian;
  undefined_columns undefined;
  std::size_t bad_rhat = 0, low_ess = 0;
  std::string worst;
  draws::summariser summarize;
  const std::vector<double> weights = read_weights(d, o, stride, out.notes);
  std::vector<column_draws> values;
  for (std::size_t first = 0; first < columns.size(); first += batch) {
    d.read(first, first + batch, stride, values);
    for (std::size_t k = 0; k < values.size(); ++k) {
      const std::string& name = columns[first + k];
      if (name == "lp__" && weights.empty()) left_behind(values[k], out.warnings);
      if (!in_table(name)) {
        if (name != "weight__") record_hamiltonian(hamiltonian, name, values[k], max_depth);
        continue;
      }
      const std::string base = draws::column_variable(name);
      if (!chosen(base)) continue;
      const bool listed = o.csv || count[base] <= o.max_rows_per_variable || std::find(o.show.begin(), o.show.end(), base) != o.show.end();
      const draws::scalar_summary s = weights.empty() ? summarize(values[k]) : draws::weighted_summary(pooled(values[k]), weights);
      if (s.rhat > 1.01) ++bad_rhat, worst = name;
      if (s.ess_bulk < 400 || s.ess_tail < 400) ++low_ess;
      if (weights.empty() || std::isnan(s.mean)) undefined.add(name, values[k], s);
      // Large arrays: the first three elements, then a note on how to see the rest.
      if (!listed && shown[base]++ >= 3) {
        if (shown[base] == 4)
          fmt::print("{:<18} ... {} more elements of {} (list them with --show {}, or read the draws file)\n", "", count[base] - 3, base,
                     base);
        continue;
      }
      const std::vector<double> q = row_quantiles(o, values[k], s);
      if (o.csv) print_csv_row(name, s, q);
      else print_row(name, values[k], s, q, o.histograms);
    }
  }
  if (stride > 1)
    out.notes.push_back(fmt::format("the chains hold {} draws in all, more than a column's summary reads at once ({}); every "
                                    "statistic uses one draw in every {}",
                                    rows, o.column_cap, stride));
  undefined.notes(out.notes);
  if (bad_rhat && !o.independent)
    out.warnings.push_back(fmt::format("{} {} R-hat above 1.01 (e.g. {}): the chains have not mixed; run longer", bad_rhat,
                                       bad_rhat == 1 ? "quantity has" : "quantities have", worst));
  if (low_ess)
    out.warnings.push_back(fmt::format("{} {} a bulk or tail ESS below 400: estimates are imprecise", low_ess,
                                       low_ess == 1 ? "quantity has" : "quantities have"));
  hamiltonian_warnings(hamiltonian, max_depth, out.warnings);
  return out;
}

void print_dic(const draws::draws_source& draws, const inference::dic_penalties* penalties) {
  const auto& columns = draws.columns();
  const auto at = std::find(columns.begin(), columns.end(), "deviance");
  if (at == columns.end()) return;
  const auto k = static_cast<std::size_t>(at - columns.begin());
  std::vector<double> d;
  const auto column = draws.read(k, k + 1);
  for (const auto& chain : column.front()) d.insert(d.end(), chain.begin(), chain.end());
  if (d.size() < 2) return;
  const auto n = static_cast<index_t>(d.size());
  const double mean = stdlib::sample_mean(d.data(), n), pv = stdlib::sample_variance(d.data(), n) / 2;
  auto line = [&](std::string_view what, double penalty, const std::string& why, double se = NAN) {
    const std::string error = std::isfinite(se) ? fmt::format("  (se {:.2g})", se) : "";
    if (std::isfinite(penalty)) fmt::print("#   {:<46} {:>10.6g}   DIC {:.6g}{}\n", what, penalty, mean + penalty, error);
    else fmt::print("#   {:<46} {:>10}   ({})\n", what, "n/a", why);
  };
  // From a draws file alone (ppl summary) the penalties that need the model are n/a.
  const std::string no_model = "needs the model: ppl infer --dic";
  const inference::dic_penalties p = penalties ? *penalties : inference::dic_penalties{NAN, NAN, NAN, no_model, no_model};
  fmt::print("# DIC: mean deviance {:.6g} over {} draws\n", mean, d.size());
  line("pD, JAGS's (Plummer 2008)", p.pd_jags, p.jags_note, p.pd_jags_se);
  line("pD, Dbar - D(mean) (Spiegelhalter et al. 2002)", mean - p.deviance_at_mean, p.mean_note);
  line("pV = var(deviance) / 2", pv, "");
}

}  // namespace ppl::cli
