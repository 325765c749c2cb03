#include "lang/bugs_template.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fmt/core.h>
#include <string>

#include "lang/bugs_nodes.hpp"
#include "lang/parser.hpp"

namespace ppl::lang {

namespace {

using namespace bugs_nodes;

// A template of lang/bugs_names.hpp with its parameters replaced by the call's arguments
// (copies), every node of its own placed at the call. A template's arithmetic on literal
// arguments is done here, rounded to 15 digits, so that `dnorm(0, 1.0E-6)` reads
// `Normal(0, 1000.0)`, not `Normal(0, 1 / sqrt(1.0E-6))`.
class instantiation {
 public:
  instantiation(std::string_view bugs_call, std::vector<operand> args, std::size_t pos, std::size_t end)
      : args_(std::move(args)), pos_(pos), end_(end) {
    std::string_view list = bugs_call.substr(bugs_call.find('(') + 1);
    list = list.substr(0, list.find(')'));
    while (!list.empty()) {
      const auto comma = list.find(',');
      std::string_view p = list.substr(0, comma);
      while (!p.empty() && p.front() == ' ') p.remove_prefix(1);
      params_.push_back(p);
      list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    }
  }

  std::size_t arity() const { return params_.size(); }

  // Once: an argument is moved into its parameter's last use, so that nested calls
  // (`ilogit(ilogit(...))`) are not copied once per level.
  operand make(std::string_view ppl_text) {
    ast::program p = parse({"<the BUGS table>", "bugs_template = " + std::string(ppl_text) + "\n"});
    operand o = boost::get<ast::assign_stmt>(p.statements.at(0)).value;
    uses_.assign(params_.size(), 0);
    count_uses(o);
    place(o);
    return o;
  }

 private:
  template <typename Node>
  void at_call(Node& n) const {
    n.pos = pos_;
    n.end = end_;
  }

  void count_uses(const operand& o) {
    if (const auto* id = boost::get<ast::identifier>(&o)) {
      for (std::size_t i = 0; i < params_.size(); ++i) uses_[i] += params_[i] == id->name;
    } else if (const auto* c = boost::get<fwd<ast::call>>(&o)) {
      for (const auto& a : c->get().args) count_uses(a);
    } else if (const auto* g = boost::get<fwd<ast::conditioned>>(&o)) {
      count_uses(g->get().value);
      count_uses(g->get().tail.given);
    } else if (const auto* u = boost::get<fwd<ast::unary>>(&o)) {
      count_uses(u->get().rhs);
    } else if (const auto* ch = boost::get<fwd<ast::chain>>(&o)) {
      count_uses(ch->get().first);
      for (const auto& op : ch->get().rest) count_uses(op.rhs);
    }
  }

  void place(operand& o) {
    if (auto* id = boost::get<ast::identifier>(&o)) {
      for (std::size_t i = 0; i < params_.size(); ++i)
        if (params_[i] == id->name) {
          o = --uses_[i] == 0 ? std::move(args_[i]) : args_[i];
          return;
        }
      at_call(*id);
    } else if (auto* i = boost::get<ast::int_literal>(&o)) {
      at_call(*i);
    } else if (auto* r = boost::get<ast::real_literal>(&o)) {
      at_call(*r);
    } else if (auto* c = boost::get<fwd<ast::call>>(&o)) {
      at_call(c->get());
      at_call(c->get().callee);
      for (auto& a : c->get().args) place(a);
      if (c->get().callee.name == "sqrt" && c->get().args.size() == 1)
        if (auto v = literal_value(c->get().args[0]); v && *v >= 0) o = folded(std::sqrt(*v));
    } else if (auto* g = boost::get<fwd<ast::conditioned>>(&o)) {
      at_call(g->get().tail);
      place(g->get().value);
      place(g->get().tail.given);
    } else if (auto* u = boost::get<fwd<ast::unary>>(&o)) {
      at_call(u->get());
      place(u->get().rhs);
    } else if (auto* ch = boost::get<fwd<ast::chain>>(&o)) {
      place(ch->get().first);
      for (auto& op : ch->get().rest) {
        at_call(op);
        place(op.rhs);
      }
      fold(o);
    }
  }

  // A chain of literals and + - * / as one literal.
  void fold(operand& o) const {
    const auto& ch = boost::get<fwd<ast::chain>>(o).get();
    auto v = literal_value(ch.first);
    for (const auto& op : ch.rest) {
      auto r = literal_value(op.rhs);
      if (!v || !r || op.op.size() != 1) return;
      switch (op.op[0]) {
        case '+': *v += *r; break;
        case '-': *v -= *r; break;
        case '*': *v *= *r; break;
        case '/': *v /= *r; break;
        default: return;
      }
    }
    if (v && std::isfinite(*v)) o = folded(*v);
  }

  // Rounded to 15 digits unless the rounding leaves the normal doubles: `dlogis(0, 1e308)`'s
  // scale 1e-308 is subnormal, and std::stod throws std::out_of_range on those as on overflow.
  operand folded(double v) const {
    const std::string digits = fmt::format("{:.15g}", v);
    errno = 0;
    const double rounded = std::strtod(digits.c_str(), nullptr);
    return real_number(errno == ERANGE ? v : rounded, pos_, end_);
  }

  std::vector<std::string_view> params_;
  std::vector<operand> args_;
  std::vector<int> uses_;  // per parameter, its uses in the template not yet placed
  std::size_t pos_, end_;
};

}  // namespace

std::size_t template_arity(std::string_view bugs_call) {
  return instantiation(bugs_call, {}, 0, 0).arity();
}

ast::operand instantiate(std::string_view bugs_call, std::string_view ppl_text, std::vector<ast::operand> args, std::size_t pos,
                         std::size_t end) {
  return instantiation(bugs_call, std::move(args), pos, end).make(ppl_text);
}

}  // namespace ppl::lang
