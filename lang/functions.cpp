// User functions written into their calls (lang/functions.hpp).
#include "lang/functions.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "lang/ast_rewrite.hpp"

namespace ppl::lang {

namespace {

using ast::x3::forward_ast;

class expansion {
 public:
  expansion(const source_file& src, const stdlib::registry& lib) : src_(src), lib_(lib) {}

  // A definition at the top level: checked, its own calls written out, kept for later calls.
  void define(ast::function_def f) {
    const std::string& name = f.name.name;
    if (lib_.find_function(name) || lib_.find_distribution(name))
      fail_at(src_, f.name.pos, "`" + name + "` is a built-in " + (lib_.find_function(name) ? "function" : "distribution") +
                                    "; give the function another name");
    if (functions_.count(name)) fail_at(src_, f.name.pos, "the function `" + name + "` is defined twice");
    for (std::size_t k = 0; k < f.params.size(); ++k)
      for (std::size_t j = 0; j < k; ++j)
        if (f.params[k].name == f.params[j].name)
          fail_at(src_, f.params[k].pos, "`" + name + "` has two parameters named `" + f.params[k].name + "`");
    rewrite(f.value, [&](ast::operand& o) {
      const auto* id = boost::get<ast::identifier>(&o);
      if (id && std::none_of(f.params.begin(), f.params.end(), [&](const ast::identifier& p) { return p.name == id->name; }))
        fail_at(src_, id->pos, "the function `" + name + "` reads `" + id->name + "`, which is not one of its parameters (" +
                                   parameter_list(f) + "): a function sees only its arguments; pass `" + id->name + "` as one");
      return false;
    });
    expand(f.value);
    rewrite(f.value, [&](ast::operand& o) {
      const auto* c = boost::get<forward_ast<ast::call>>(&o);
      if (c && all_.count(c->get().callee.name))
        fail_at(src_, c->get().callee.pos, "`" + name + "` calls `" + c->get().callee.name + "`, " +
                                               (c->get().callee.name == name ? std::string("itself") : "which is defined below it") +
                                               ": a function calls only the functions defined above it, so none is recursive");
      return false;
    });
    functions_.emplace(name, std::move(f));
  }

  // The names of every function the program defines, before any is defined.
  void announce(const std::string& name) { all_.insert(name); }

  // Every call of a defined function in `o` written out.
  void expand(ast::operand& o) {
    rewrite(o, [&](ast::operand& x) {
      auto* c = boost::get<forward_ast<ast::call>>(&x);
      if (!c) return false;
      const auto found = functions_.find(c->get().callee.name);
      if (found == functions_.end()) return false;
      ast::call call = c->get();
      for (auto& a : call.args) expand(a);
      x = written_out(found->second, call);
      return true;
    });
  }

 private:
  static std::string parameter_list(const ast::function_def& f) {
    std::string out;
    for (const auto& p : f.params) out += (out.empty() ? "" : ", ") + p.name;
    return out.empty() ? "none" : out;
  }

  // The body with each parameter replaced by the call's argument.
  ast::operand written_out(const ast::function_def& f, const ast::call& call) const {
    if (call.args.size() != f.params.size())
      fail_at(src_, call.callee.pos, "`" + f.name.name + "` takes " + std::to_string(f.params.size()) + " argument" +
                                         (f.params.size() == 1 ? "" : "s") + " (" + parameter_list(f) + "), not " +
                                         std::to_string(call.args.size()));
    ast::operand body = f.value;
    rewrite(body, [&](ast::operand& o) {
      const auto* id = boost::get<ast::identifier>(&o);
      if (!id) return false;
      for (std::size_t k = 0; k < f.params.size(); ++k)
        if (f.params[k].name == id->name) {
          o = call.args[k];
          return true;
        }
      return false;
    });
    return body;
  }

  const source_file& src_;
  const stdlib::registry& lib_;
  std::map<std::string, ast::function_def> functions_;
  std::set<std::string> all_;
};

// A definition anywhere but the top level (`top`) is an error at its place.
void refuse_nested(const source_file& src, const std::vector<ast::statement>& body, bool top) {
  for (const auto& s : body) {
    if (const auto* f = boost::get<ast::function_def>(&s); f && !top)
      fail_at(src, f->pos, "a function is defined at the top level of the model, not inside a loop or an `if`");
    if (const auto* l = boost::get<forward_ast<ast::for_stmt>>(&s)) refuse_nested(src, l->get().body, false);
    if (const auto* i = boost::get<forward_ast<ast::if_stmt>>(&s)) {
      refuse_nested(src, i->get().then_body, false);
      if (i->get().else_body) refuse_nested(src, *i->get().else_body, false);
    }
  }
}

}  // namespace

void expand_functions(const source_file& src, ast::program& program, const stdlib::registry& lib) {
  refuse_nested(src, program.statements, true);
  // Every definition first, so a call may come before its function's text; a body calls
  // only the functions above it.
  expansion e(src, lib);
  for (const auto& s : program.statements)
    if (const auto* f = boost::get<ast::function_def>(&s)) e.announce(f->name.name);
  for (const auto& s : program.statements)
    if (const auto* f = boost::get<ast::function_def>(&s)) e.define(*f);
  std::erase_if(program.statements, [](const ast::statement& s) { return boost::get<ast::function_def>(&s) != nullptr; });
  for (auto& s : program.statements)
    rewrite_statement(s, [&](ast::operand& o) {
      e.expand(o);
      return true;  // expand() walked it whole
    });
}

}  // namespace ppl::lang
