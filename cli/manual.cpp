// `ppl man` and `ppl completion bash`: the manual page and the shell completion, both
// written from the CLI11 definitions that `ppl COMMAND --help` prints, so that neither can
// drift from the program. The build runs them to make the installed ppl.1 and completion
// file (CMakeLists.txt); tests/cli/run_help.sh checks them against --help.
#include "cli/manual.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "core/version.hpp"

namespace ppl::cli {

namespace {

// Text as roff reads it: a backslash is \e, a hyphen \- (so that options copy as typed),
// and a line must not begin with a control character.
std::string roff(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

// The options of a command as written in its help, positionals and --help aside.
std::vector<const CLI::Option*> named_options(const CLI::App& cmd) {
  return cmd.get_options([&cmd](const CLI::Option* o) { return !o->get_positional() && o != cmd.get_help_ptr(); });
}

std::vector<const CLI::Option*> positionals(const CLI::App& cmd) {
  return cmd.get_options([](const CLI::Option* o) { return o->get_positional(); });
}

// "--output,-o" as "--output, -o".
std::string spellings(const CLI::Option& o) {
  std::string out;
  for (const auto& l : o.get_lnames()) out += (out.empty() ? "--" : ", --") + l;
  for (const auto& s : o.get_snames()) out += (out.empty() ? "-" : ", -") + s;
  return out;
}

// What an option's value is, without CLI11's type word: "INT in [1 - 256]", "FILE",
// "{mcmc,importance}"; empty for a flag.
std::string value_text(const CLI::Option& o) {
  if (o.get_items_expected_max() == 0) return "";
  const std::string type = o.get_type_name();
  const auto colon = type.find(':');
  return colon == std::string::npos ? type : type.substr(colon + 1);
}

// The choices an option's value is checked against ("{a,b}" in its type), if any.
std::vector<std::string> choices(const CLI::Option& o) {
  const std::string type = o.get_type_name();
  const auto open = type.find('{'), close = type.rfind('}');
  std::vector<std::string> out;
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  std::string word;
  for (const char c : type.substr(open + 1, close - open - 1)) {
    if (c == ',') out.push_back(std::exchange(word, {}));
    else word += c;
  }
  out.push_back(word);
  return out;
}

std::string synopsis(const CLI::App& cmd) {
  std::string out = "ppl " + cmd.get_name() + " [OPTIONS]";
  for (const CLI::Option* p : positionals(cmd)) {
    const std::string name = p->get_name() + (p->get_items_expected_max() > 1 ? "..." : "");
    out += p->get_required() ? " " + name : " [" + name + "]";
  }
  return out;
}

void write_option(std::string& page, const CLI::Option& o, const std::string& name) {
  const std::string value = value_text(o), fallback = o.get_default_str();
  page += ".TP\n\\fB" + roff(name) + "\\fR";
  if (!value.empty()) page += " \\fI" + roff(value) + "\\fR";
  page += "\n" + roff(o.get_description());
  if (!fallback.empty()) page += " (default: " + roff(fallback) + ")";
  page += "\n";
}

constexpr std::string_view page_head = R"(.SH DESCRIPTION
ppl reads a generative model written in its own small language (a .ppl file) or in the
BUGS language of JAGS and OpenBUGS, binds it to data (CSV, JSON, R's dump format or
\-\-set), builds a graph that can draw from the prior and evaluate log densities,
chooses a sampler for every unknown from the model's structure (conjugate and collapsed
Gibbs, enumeration, NUTS, slice, Metropolis\-Hastings and others), runs parallel chains
and reports the posterior with convergence diagnostics. Draws are written in ppl's own
CSV, in CmdStan's format or as JAGS's CODA files.
.PP
Every command below is run as \fBppl\fR \fIcommand\fR [\fIoptions\fR] [\fIarguments\fR];
\fBppl\fR \fIcommand\fR \fB\-\-help\fR prints the same list of options.
)";

constexpr std::string_view page_tail = R"(.SH EXIT STATUS
0 on success; 1 for an error in the model or the data, printed as
\fIfile\fR:\fIline\fR:\fIcolumn\fR with the line and a caret; 2 for a usage error (an
unknown command or option, a value out of range); 3 when an evidence's standard error
cannot be trusted (\fB\-\-allow\-unreliable\fR exits 0); 130 when a run was interrupted by
Ctrl\-C or SIGTERM, after writing every finished draw.
.SH EXAMPLES
.nf
ppl check /usr/share/ppl/examples/coin/coin.ppl /usr/share/ppl/examples/coin/data.csv
ppl infer /usr/share/ppl/examples/coin/coin.ppl /usr/share/ppl/examples/coin/data.csv
ppl infer model.ppl data.json \-\-chains 4 \-\-draws 2000 \-o draws.csv
ppl summary draws.csv
ppl plot draws.csv mu tau \-o trace.svg
.fi
.SH FILES
.TP
.I /usr/share/ppl/examples
example models, each with its data and a README.
.TP
.I /usr/share/doc/ppl
the documentation: a tutorial, the language, distributions and functions, data formats,
samplers, output formats, BUGS models, the REPL, running on a cluster.
.SH SEE ALSO
\fBjags\fR(1), \fBR\fR(1)
)";

}  // namespace

std::string manual_page(const CLI::App& app) {
  std::string page = fmt::format(".TH PPL 1 \"\" \"ppl {}\" \"User Commands\"\n", ppl::version());
  page += ".SH NAME\nppl \\- a probabilistic programming language: models, data, posterior draws\n";
  page += ".SH SYNOPSIS\n\\fBppl\\fR \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]\n.br\n\\fBppl\\fR \\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR\n";
  page += page_head;
  page += ".SH COMMANDS\n";
  for (const CLI::App* cmd : app.get_subcommands({})) {
    page += ".SS \"" + roff(synopsis(*cmd)) + "\"\n" + roff(cmd->get_description()) + "\n";
    for (const CLI::Option* p : positionals(*cmd)) write_option(page, *p, p->get_name());
    for (const CLI::Option* o : named_options(*cmd)) write_option(page, *o, spellings(*o));
  }
  page += page_tail;
  return page;
}

std::string bash_completion(const CLI::App& app) {
  std::string commands, cases;
  for (const CLI::App* cmd : app.get_subcommands({})) {
    commands += (commands.empty() ? "" : " ") + cmd->get_name();
    std::string options, values;
    for (const CLI::Option* o : named_options(*cmd)) {
      std::string names;
      for (const auto& l : o->get_lnames()) names += (names.empty() ? "--" : "|--") + l;
      for (const auto& s : o->get_snames()) names += (names.empty() ? "-" : "|-") + s;
      options += (options.empty() ? "" : " ") + spellings(*o).substr(0, spellings(*o).find(','));
      if (o->get_items_expected_max() == 0) continue;
      // A value: one of its choices; a file name where it is one (FILE in its type: a file
      // read, or ->type_name("FILE") for one written); else nothing (a number, a name).
      const auto listed = choices(*o);
      if (!listed.empty()) {
        std::string words;
        for (const auto& w : listed) words += (words.empty() ? "" : " ") + w;
        values += fmt::format("        {}) COMPREPLY=($(compgen -W '{}' -- \"$cur\")); return ;;\n", names, words);
      } else if (o->get_type_name().find("FILE") != std::string::npos) {
        values += fmt::format("        {}) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", names);
      } else {
        values += fmt::format("        {}) return ;;\n", names);
      }
    }
    // Arguments: the choices of a positional that has them (the shell of `completion`),
    // else file names.
    std::string arguments;
    for (const CLI::Option* p : positionals(*cmd))
      for (const auto& w : choices(*p)) arguments += (arguments.empty() ? "" : " ") + w;
    cases += fmt::format("    {})\n      case $prev in\n{}      esac\n      options='{}' arguments='{}' ;;\n", cmd->get_name(), values,
                         options, arguments);
  }
  return fmt::format(R"(# bash completion for ppl {0}, written by `ppl completion bash`: commands, each
# command's options, the choices of options that have them, and file names.
_ppl() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} options arguments
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W '{1} --help --version' -- "$cur"))
    return
  fi
  case ${{COMP_WORDS[1]}} in
{2}    *) return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$options --help" -- "$cur"))
  elif [ -n "$arguments" ]; then
    COMPREPLY=($(compgen -W "$arguments" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o filenames -o bashdefault -F _ppl ppl
)",
                     ppl::version(), commands, cases);
}

int print_text(const std::string& text) {
  errno = 0;
  std::cout << text << std::flush;
  if (std::cout) return 0;
  std::cerr << "error: cannot write to standard output: " << (errno ? std::strerror(errno) : "write failed") << "\n";
  return 1;
}

}  // namespace ppl::cli
