#include "cli/resume.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "runtime/archive.hpp"

namespace ppl::cli {

namespace {

constexpr std::string_view magic = "ppl saved run 1\n";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// The leading integer of `text` at `pos` (advanced past it), or false.
bool integer_at(std::string_view text, std::size_t& pos, long& value) {
  auto r = std::from_chars(text.data() + pos, text.data() + text.size(), value);
  if (r.ec != std::errc()) return false;
  pos = static_cast<std::size_t>(r.ptr - text.data());
  return true;
}

}  // namespace

std::string state_path(const std::string& draws_path) { return draws_path + ".state"; }

void write_saved_run(const std::string& path, const saved_run& s) {
  runtime::archive a;
  saved_run copy = s;
  a(copy.args, copy.directory, copy.model_hash, copy.data_hash, copy.warmup, copy.thin, copy.completed, copy.chains);
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << magic << a.bytes();
    out.flush();
    if (!out) throw std::runtime_error("cannot write the saved state " + temporary);
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) throw std::runtime_error("cannot write the saved state " + path + ": " + ec.message());
}

saved_run read_saved_run(const std::string& path) {
  std::ifstream probe(path, std::ios::binary);
  if (!probe)
    throw std::invalid_argument("--resume: there is no saved state " + path +
                                " (a run saves one beside its draws file when it writes one with --output)");
  const std::string bytes = read_file(path);
  if (bytes.compare(0, magic.size(), magic) != 0) throw std::invalid_argument("--resume: " + path + " is not a saved run of ppl");
  saved_run s;
  try {
    runtime::archive a(bytes.substr(magic.size()));
    a(s.args, s.directory, s.model_hash, s.data_hash, s.warmup, s.thin, s.completed, s.chains);
    if (!a.done() || s.completed.size() != s.chains.size()) throw std::runtime_error("");
  } catch (const std::runtime_error&) {
    throw std::invalid_argument("--resume: the saved state " + path + " is truncated or corrupt");
  }
  return s;
}

std::uint64_t file_fingerprint(const std::string& path) {
  if (path.empty()) return 0;
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : read_file(path)) h = (h ^ ch) * 1099511628211ull;
  return h;
}

namespace {

// A header's names, unquoted.
std::vector<std::string> header_names(std::string_view line) {
  std::vector<std::string> names(1);
  bool quoted = false;
  for (char ch : line) {
    if (ch == '"') quoted = !quoted;
    else if (ch == ',' && !quoted) names.emplace_back();
    else names.back() += ch;
  }
  return names;
}

// Stan's column name back to ppl's: theta.1.2 -> theta[1,2] (names have no dots).
std::string from_stan(std::string name) {
  const std::size_t dot = name.find('.');
  if (dot == std::string::npos) return name;
  name[dot] = '[';
  std::replace(name.begin() + static_cast<std::ptrdiff_t>(dot), name.end(), '.', ',');
  return name + "]";
}

// Cuts one draws file back to the rows the state counts and adds them to `into`. In the
// ppl format (`chain` 0) each row starts with its chain and draw number; in Stan's, the
// file is chain `chain`'s and rows are its draws in order.
void cut_file(const std::string& path, const saved_run& s, long chain, runtime::draws& into) {
  const std::string text = read_file(path);
  if (text.empty()) throw std::invalid_argument("--resume: cannot read the draws file " + path);
  auto kept = [&](long c) -> long {
    if (c < 1 || static_cast<std::size_t>(c) > s.completed.size()) return -1;
    const long done = s.completed[static_cast<std::size_t>(c - 1)];
    return done > s.warmup ? (done - s.warmup) / s.thin : 0;
  };
  std::string out;
  out.reserve(text.size());
  bool header = false;
  long ordinal = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) break;  // a row cut short by a kill: not counted
    const std::string_view line(text.data() + pos, end - pos);
    bool keep = true;
    if (!header) {
      header = !line.empty() && line[0] != '#';
      if (header) {
        std::vector<std::string> names = header_names(line);
        if (chain == 0) names.erase(names.begin(), names.begin() + std::min<std::ptrdiff_t>(2, static_cast<std::ptrdiff_t>(names.size())));
        else
          for (auto& n : names) n = from_stan(n);
        if (into.columns.empty()) into.columns = names;
        else if (names != into.columns) throw std::invalid_argument("--resume: the draws files' headers differ");
      }
    } else if (!line.empty() && line[0] == '#') {
      // "# chain C iteration I: ..." notes (held-out scores) about iterations not counted go.
      std::size_t at = 8;
      long c = 0, iteration = 0;
      if (line.starts_with("# chain ") && integer_at(line, at, c) && line.substr(at).starts_with(" iteration ")) {
        at += 11;
        if (integer_at(line, at, iteration) && c >= 1 && static_cast<std::size_t>(c) <= s.completed.size())
          keep = iteration <= s.completed[static_cast<std::size_t>(c - 1)];
      }
    } else {
      std::size_t at = 0;
      long c = chain, iteration = ++ordinal;
      if (chain == 0)
        keep = integer_at(line, at, c) && at < line.size() && line[at++] == ',' && integer_at(line, at, iteration) &&
               at < line.size() && line[at++] == ',';
      keep = keep && iteration >= 1 && iteration <= kept(c);
      std::vector<double> row;
      while (keep && at <= line.size()) {
        double x = 0;
        auto r = std::from_chars(line.data() + at, line.data() + line.size(), x);
        keep = r.ec == std::errc();
        row.push_back(x);
        at = static_cast<std::size_t>(r.ptr - line.data()) + 1;
      }
      keep = keep && row.size() == into.columns.size();
      if (keep) {
        if (into.chains.size() < static_cast<std::size_t>(c)) into.chains.resize(static_cast<std::size_t>(c));
        auto& values = into.chains[static_cast<std::size_t>(c - 1)];
        values.insert(values.end(), row.begin(), row.end());
      }
    }
    if (keep) out.append(text, pos, end - pos + 1);
    pos = end + 1;
  }
  const std::string temporary = path + ".tmp";
  {
    std::ofstream f(temporary, std::ios::binary | std::ios::trunc);
    f << out;
    f.flush();
    if (!f) throw std::runtime_error("cannot write " + temporary);
  }
  std::filesystem::rename(temporary, path);
}

}  // namespace

runtime::draws cut_draws(const std::string& path, const saved_run& s, runtime::draws_format format) {
  runtime::draws d;
  if (format == runtime::draws_format::ppl) {
    cut_file(path, s, 0, d);
  } else {
    const std::vector<std::string> paths = runtime::draws_paths(path, format, static_cast<int>(s.completed.size()));
    for (std::size_t c = 0; c < paths.size(); ++c) cut_file(paths[c], s, static_cast<long>(c) + 1, d);
  }
  d.chains.resize(s.completed.size());
  return d;
}

}  // namespace ppl::cli
