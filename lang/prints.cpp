// `print(...)` as definitions of derived variables (lang/prints.hpp).
#include "lang/prints.hpp"

#include <algorithm>

#include "lang/printer.hpp"

namespace ppl::lang {

namespace {

using ast::x3::forward_ast;

class writer {
 public:
  writer(const source_file& src, std::vector<printed>& out) : lines_(src.text), out_(out) {}

  void body(std::vector<ast::statement>& statements) {
    std::vector<ast::statement> next;
    for (auto& s : statements) {
      if (auto* l = boost::get<forward_ast<ast::for_stmt>>(&s)) {
        const std::size_t depth = loops_.size();
        for (const auto& r : l->get().ranges) loops_.push_back(r.var);
        body(l->get().body);
        loops_.resize(depth);
      } else if (auto* i = boost::get<forward_ast<ast::if_stmt>>(&s)) {
        body(i->get().then_body);
        if (i->get().else_body) body(*i->get().else_body);
      } else if (const auto* p = boost::get<ast::print_stmt>(&s)) {
        write(*p, next);
        continue;
      }
      next.push_back(std::move(s));
    }
    statements = std::move(next);
  }

 private:
  // print(a, b) -> print__lineL_1[loops] = a; print__lineL_2[loops] = b
  void write(const ast::print_stmt& p, std::vector<ast::statement>& into) {
    const std::size_t line = lines_.locate(p.pos).line;
    std::string around;
    for (const auto& l : loops_) around += (around.empty() ? "" : ", ") + l.name;
    for (std::size_t k = 0; k < p.args.size(); ++k) {
      ast::assign_stmt a;
      a.pos = p.pos;
      a.end = p.end;
      a.lhs.pos = p.pos;
      a.lhs.end = p.end;
      a.lhs.name.pos = p.pos;
      a.lhs.name.end = p.end;
      a.lhs.name.name = "print__line" + std::to_string(line) + "_" + std::to_string(k + 1);
      while (std::any_of(out_.begin(), out_.end(), [&](const printed& x) { return x.variable == a.lhs.name.name; }))
        a.lhs.name.name += "_";  // two prints on one line
      for (const auto& l : loops_) {
        ast::index_item ix;
        ix.pos = p.pos;
        ix.end = p.end;
        ix.lo = ast::operand(l);
        a.lhs.indices.push_back(std::move(ix));
      }
      a.value = p.args[k];
      out_.push_back({a.lhs.name.name, print_expression(p.args[k]), around, p.pos});
      into.emplace_back(std::move(a));
    }
  }

  line_index lines_;
  std::vector<printed>& out_;
  std::vector<ast::identifier> loops_;
};

}  // namespace

void write_prints(const source_file& src, ast::program& program, std::vector<printed>& out) {
  writer(src, out).body(program.statements);
}

}  // namespace ppl::lang
