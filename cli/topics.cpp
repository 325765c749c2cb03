// `ppl topics DRAWS.csv`: the largest entries of each row of a monitored matrix (LDA's
// phi: a topic's word probabilities), averaged over the draws and named by a labels file
// (one label per line, line k for value k: LDA's vocab.txt).
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <numeric>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "draws/draws.hpp"

namespace ppl::cli {

namespace {

struct topics_arguments {
  std::string draws_path, variable = "phi", labels_path;
  int top = 10;
};

std::vector<std::string> read_labels(const std::string& path) {
  std::vector<std::string> labels;
  if (path.empty()) return labels;
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("--labels: cannot open " + path);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    labels.push_back(line);
  }
  return labels;
}

// Posterior means of `name[r, c]`, by row and column (1-based indices as in the file).
std::map<long, std::map<long, double>> row_means(const draws::table& d, const std::string& name) {
  std::map<long, std::map<long, double>> rows;
  for (std::size_t c = 0; c < d.columns.size(); ++c) {
    const std::string& col = d.columns[c];
    if (col.rfind(name + "[", 0) != 0) continue;
    long r = 0, k = 0;
    if (std::sscanf(col.c_str() + name.size(), "[%ld,%ld]", &r, &k) != 2) continue;
    double sum = 0;
    std::size_t count = 0;
    for (const auto& chain : d.column(c)) {
      for (double x : chain) sum += x;
      count += chain.size();
    }
    rows[r][k] = count ? sum / static_cast<double>(count) : 0;
  }
  return rows;
}

int run_topics(const std::string& draws_path, const std::string& variable, const std::string& labels_path, int top) {
  return guarded([&] {
    std::vector<std::string> meta;
    draws::table d = draws::read_draws(draws_path, meta);
    auto rows = row_means(d, variable);
    if (rows.empty())
      throw std::invalid_argument("topics: the draws have no matrix `" + variable + "` (columns " + variable + "[i,j]); monitor it with --monitor " +
                                  variable + ", or name another with --variable");
    std::vector<std::string> labels = read_labels(labels_path);
    for (const auto& [r, row] : rows) {
      std::vector<std::pair<double, long>> entries;
      for (const auto& [k, p] : row) entries.push_back({p, k});
      std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(top), entries.size());
      std::partial_sort(entries.begin(), entries.begin() + static_cast<long>(n), entries.end(), std::greater<>());
      std::string line;
      for (std::size_t i = 0; i < n; ++i) {
        auto k = static_cast<std::size_t>(entries[i].second);
        line += (i ? " " : "") + (k >= 1 && k <= labels.size() ? labels[k - 1] : std::to_string(k));
      }
      fmt::print("{}[{}]  {}\n", variable, r, line);
    }
    return 0;
  });
}

}  // namespace

command add_topics_command(CLI::App& app) {
  auto a = std::make_shared<topics_arguments>();
  auto* cmd = app.add_subcommand("topics", "the largest entries of each row of a matrix in a draws file (LDA's topics), named by labels");
  cmd->add_option("DRAWS", a->draws_path, "a draws file from ppl infer that monitors the matrix (any format)")->required();
  cmd->add_option("--variable", a->variable, "the matrix: one distribution per row")->capture_default_str();
  cmd->add_option("--labels", a->labels_path, "labels of the columns, one per line (LDA: vocab.txt; default: column numbers)")->check(CLI::ExistingFile);
  cmd->add_option("--top", a->top, "entries shown per row")->capture_default_str()->check(whole(1, 1000));
  return {cmd, [a] { return run_topics(a->draws_path, a->variable, a->labels_path, a->top); }};
}

}  // namespace ppl::cli
