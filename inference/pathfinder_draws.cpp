// `ppl infer --method pathfinder`: Pathfinder as a method of its own (Zhang, Carpenter,
// Gelman & Vehtari 2022, JMLR 23(306)), on the path inference/pathfinder.cpp follows.
// Each of --paths paths starts as a chain of that number would (its own stream), climbs
// log p by L-BFGS, and keeps the normal approximation along it whose ELBO is largest;
// --draws draws are made from each. With one path those draws are the result (the
// paper's single-path Pathfinder). With several, the draws of all paths are weighted by
// their importance ratios p / q_k, the ratios smoothed by PSIS, and --draws of them
// resampled (the paper's multi-path Pathfinder, Algorithm 2): paths that ended in a minor
// mode or a poor approximation then give few draws. Either way the ratios' Pareto k-hat says
// whether the approximation can be trusted (above 0.7: no).
#include <fmt/core.h>

#include <boost/random/uniform_01.hpp>
#include <chrono>
#include <cmath>

#include "core/interrupt.hpp"
#include "inference/mode.hpp"
#include "inference/pathfinder.hpp"

namespace ppl::inference {

namespace {

constexpr std::uint32_t path_purpose = 0x70617468u;

// One path's draws from its best approximation: rows and their log ratios p / q.
struct path_draws {
  std::vector<double> rows, log_ratios;
  path_result path;
  weighted_result summed;  // its report: the discrete unknowns summed out, if any
};

path_draws run_path(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o, std::size_t k,
                    std::vector<std::string>& columns) {
  mode_problem problem(m, data, o, "pathfinder", k);
  auto& target = problem.target();
  ppl::rng rng = particles::item_stream(o.seed, k, path_purpose);
  pathfinder_options po;
  po.max_iterations = iteration_limit(o, 1000);
  po.elbo_draws = 25;  // Stan's num_elbo_draws
  path_draws out;
  out.path = find_path(target, rng, po);
  if (columns.empty()) columns = approximation_columns(problem);
  report_summed(problem, out.summed);
  if (out.path.chosen == 0) return out;
  out.path.covariance.factor();
  draw_approximation(problem, o.particles, rng, [&out](ppl::rng& stream, Eigen::VectorXd& y) {
    return out.path.covariance.draw(stream, out.path.mean, y);
  }, out.rows, out.log_ratios);
  return out;
}

// The report's line of one path.
std::string path_line(std::size_t k, const path_draws& d) {
  const path_result& p = d.path;
  return fmt::format("path {}: {} iterations, {} gradients, stopped: {}; {}", k + 1, p.iterations, p.evaluations, p.stopped,
                     p.chosen > 0 ? fmt::format("approximation of iterate {} (ELBO {:.6g})", p.chosen, p.elbo)
                                  : std::string("no approximation had a finite ELBO: no draws"));
}

}  // namespace

weighted_result pathfinder_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o) {
  const auto start = std::chrono::steady_clock::now();
  if (!o.jacobian)
    throw std::invalid_argument("--jacobian false: Pathfinder's approximations are densities on the unconstrained scale, which need the "
                                "Jacobian; without it only --method optimize applies");
  weighted_result r;
  std::vector<path_draws> paths(static_cast<std::size_t>(o.paths));
  std::vector<std::vector<std::string>> columns(paths.size());
  particles::for_each_index(o.threads, paths.size(), [&](int, std::size_t k) { paths[k] = run_path(m, data, o, k, columns[k]); });
  r.columns = columns[0];
  const std::size_t width = r.columns.size();
  std::vector<double> rows, log_ratios;
  for (std::size_t k = 0; k < paths.size(); ++k) {
    r.report.push_back(path_line(k, paths[k]));
    rows.insert(rows.end(), paths[k].rows.begin(), paths[k].rows.end());
    log_ratios.insert(log_ratios.end(), paths[k].log_ratios.begin(), paths[k].log_ratios.end());
  }
  r.report.insert(r.report.end(), paths[0].summed.report.begin(), paths[0].summed.report.end());
  if (log_ratios.empty())
    throw std::invalid_argument("--method pathfinder: no path found a normal approximation with a finite ELBO (each path's line "
                                "above says where it stopped); use --method mcmc");
  if (ppl::interrupted()) {
    r.interrupted = true;
    r.stopped = fmt::format("{} draws made of {}", log_ratios.size(), paths.size() * static_cast<std::size_t>(o.particles));
  }
  r.report.push_back(paths.size() == 1 ? "draws: approximate, from the path's best normal approximation, mapped to the constrained scale"
                                       : fmt::format("draws: approximate, {} resampled by Pareto smoothed importance weights from the {} "
                                                     "paths' {} draws, mapped to the constrained scale", o.particles, paths.size(),
                                                     log_ratios.size()));
  // Each path's mean ratio estimates p(data) without bias, and so does their mean.
  std::vector<double> smoothed;
  r.evidence = judge_ratios(r, log_ratios, paths.size() == 1 ? "Pathfinder's normal approximation" : "the mixture of Pathfinder's normal approximations",
                            &smoothed);
  if (paths.size() == 1) {
    r.rows = std::move(rows);
  } else {
    // Systematic resampling of --draws rows by the PSIS weights.
    ppl::rng rng = particles::item_stream(o.seed, paths.size(), path_purpose);
    const auto picks = particles::systematic_resample(smoothed, static_cast<std::size_t>(o.particles), boost::random::uniform_01<double>()(rng));
    for (std::size_t i : picks)
      r.rows.insert(r.rows.end(), rows.begin() + static_cast<std::ptrdiff_t>(i * width), rows.begin() + static_cast<std::ptrdiff_t>((i + 1) * width));
  }
  r.row_count = r.rows.size() / width;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ppl::inference
