#include "cli/resume.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "cli/run_output.hpp"
#include "core/archive.hpp"

namespace ppl::cli {

namespace {

// The format's number follows the words: 2 stores integers compact and leaves out values
// no chain needs (inference/chain.cpp).
constexpr std::string_view magic_words = "ppl saved run ";
constexpr std::string_view magic = "ppl saved run 2\n";

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
  // The small fields through an archive; the chains' states (LDA's: tens of MB each)
  // straight from where they are held.
  ppl::archive a;
  a.write(s.args, s.directory, s.model_hash, s.data_hash, s.warmup, s.thin, s.completed);
  write_replacing(path, "the saved state ", [&](std::ostream& out) {
    out << magic << a.bytes();
    ppl::archive::write_strings(out, s.chains);
  });
}

saved_run read_saved_run(const std::string& path) {
  std::ifstream probe(path, std::ios::binary);
  if (!probe)
    throw std::invalid_argument("--resume: there is no saved state " + path +
                                " (a run saves one beside its draws file when it writes one with --output)");
  const std::string bytes = read_file(path);
  if (bytes.compare(0, magic_words.size(), magic_words) != 0) throw std::invalid_argument("--resume: " + path + " is not a saved run of ppl");
  if (bytes.compare(0, magic.size(), magic) != 0)
    throw std::invalid_argument("--resume: " + path + " was saved by another version of ppl, whose saved runs this one cannot read; " +
                                "start the run again without --resume");
  saved_run s;
  try {
    ppl::archive a(bytes.substr(magic.size()));
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

// A note about a chain's iteration, "# chain C iteration I: ..." (held-out scores): its
// chain and iteration, or false.
bool iteration_note(std::string_view line, long& chain, long& iteration) {
  std::size_t at = 8;
  if (!line.starts_with("# chain ") || !integer_at(line, at, chain) || !line.substr(at).starts_with(" iteration ")) return false;
  at += 11;
  return integer_at(line, at, iteration);
}

// Cuts one draws file back to the rows the state counts. In ppl's layout (`chain` 0)
// each row starts with its chain and draw number, and notes about iterations not counted
// go. In Stan's, the file is chain `chain`'s and rows are its draws in order; no comment
// may stand among its rows, so only the adaptation block before the first row stays, and
// the notes of counted iterations are returned, to be written again at the end.
std::vector<std::string> cut_file(const std::string& path, const saved_run& s, long chain) {
  const std::string text = read_file(path);
  if (text.empty()) throw std::invalid_argument("--resume: cannot read the draws file " + path);
  auto counted = [&](long c, long iteration) {
    return c >= 1 && static_cast<std::size_t>(c) <= s.completed.size() && iteration <= s.completed[static_cast<std::size_t>(c - 1)];
  };
  auto kept = [&](long c) -> long {
    if (c < 1 || static_cast<std::size_t>(c) > s.completed.size()) return -1;
    const long done = s.completed[static_cast<std::size_t>(c - 1)];
    return done > s.warmup ? (done - s.warmup) / s.thin : 0;
  };
  std::string out;
  out.reserve(text.size());
  std::vector<std::string> notes;
  bool header = false, adaptation = false;
  long rows = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) break;  // a row cut short by a kill: not counted
    const std::string_view line(text.data() + pos, end - pos);
    const bool comment = !line.empty() && line[0] == '#';
    long c = chain, iteration = 0;
    bool keep = true;
    if (!header) {
      header = !line.empty() && !comment;
    } else if (comment && iteration_note(line, c, iteration)) {
      keep = chain == 0 && counted(c, iteration);
      if (chain != 0 && counted(c, iteration)) notes.emplace_back(line.substr(2));
    } else if (comment) {
      adaptation = adaptation || line.find("Adaptation terminated") != std::string_view::npos;
      // The block is written just before draw 1: a state saved before that draw is
      // resumed into warmup, which writes the block again.
      keep = chain == 0 || (adaptation && rows == 0 && kept(chain) >= 1);
    } else if (!line.empty()) {
      std::size_t at = 0;
      iteration = rows + 1;
      if (chain == 0)
        keep = integer_at(line, at, c) && at < line.size() && line[at++] == ',' && integer_at(line, at, iteration);
      keep = keep && iteration >= 1 && iteration <= kept(c);
      rows += keep && chain != 0;
    }
    if (keep) out.append(text, pos, end - pos + 1);
    pos = end + 1;
  }
  write_replacing(path, "", [&](std::ostream& f) { f << out; });
  return notes;
}

}  // namespace

std::vector<std::vector<std::string>> cut_draws(const std::string& path, const saved_run& s, draws::draws_format format) {
  if (format != draws::draws_format::stan) {
    cut_file(path, s, 0);
    return {};
  }
  std::vector<std::vector<std::string>> notes;
  const std::vector<std::string> paths = draws::draws_paths(path, format, static_cast<int>(s.completed.size()));
  for (std::size_t c = 0; c < paths.size(); ++c) notes.push_back(cut_file(paths[c], s, static_cast<long>(c) + 1));
  return notes;
}

}  // namespace ppl::cli
