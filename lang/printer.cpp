#include "lang/printer.hpp"

#include <fmt/core.h>
#include <set>
#include <stdexcept>
#include <vector>

#include "core/source_error.hpp"

namespace ppl::lang {

namespace {

template <typename T>
using fwd = ast::x3::forward_ast<T>;

// Binding strength, as grammar_def.hpp nests its rules.
enum level : int { conditional = 0, or_ = 1, and_ = 2, equality = 3, relational = 4, additive = 5, multiplicative = 6,
                   unary = 7, power = 8, postfix = 9, primary = 10 };

int level_of(std::string_view op) {
  if (op == "||") return or_;
  if (op == "&&") return and_;
  if (op == "==" || op == "!=") return equality;
  if (op == "<" || op == "<=" || op == ">" || op == ">=") return relational;
  if (op == "+" || op == "-") return additive;
  if (op == "^") return power;
  return multiplicative;
}

// Shortest digits that read back as the same double, always with a point or an exponent
// after one (ppl reads `1e-06` as no number, and `2` as an integer).
std::string real_text(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of("ni") != std::string::npos) return s;  // inf, nan: not from a parse
  const auto e = s.find('e');
  if (s.find('.') == std::string::npos) s.insert(e == std::string::npos ? s.size() : e, ".0");
  return s;
}

// A name ppl's grammar reads as a keyword cannot be printed as a name (a BUGS node called
// `data` or `factor`).
const std::string& name_text(const std::string& name) {
  static const std::set<std::string, std::less<>> keywords{"data", "else", "factor", "for", "if", "in", "int", "param", "real"};
  if (keywords.count(name))
    throw std::runtime_error("`" + name + "` is a keyword of ppl's language, so no variable can be named so in ppl; rename it");
  return name;
}

struct printer {
  std::string text(const ast::operand& o, int min) const {
    int own = primary;
    std::string s = body(o, own);
    return own < min ? "(" + s + ")" : s;
  }

  std::string body(const ast::operand& o, int& own) const {
    if (const auto* i = boost::get<ast::int_literal>(&o)) return std::to_string(i->value);
    if (const auto* r = boost::get<ast::real_literal>(&o)) {
      if (r->value < 0) own = unary;
      return real_text(r->value);
    }
    if (const auto* id = boost::get<ast::identifier>(&o)) return name_text(id->name);
    if (const auto* c = boost::get<fwd<ast::call>>(&o)) return call(c->get());
    if (const auto* v = boost::get<fwd<ast::vector_literal>>(&o)) return "[" + list(v->get().elements) + "]";
    if (const auto* p = boost::get<fwd<ast::postfix>>(&o)) {
      own = postfix;
      std::string s = text(p->get().base, postfix);
      for (const auto& suffix : p->get().suffixes) {
        if (const auto* l = boost::get<ast::index_list>(&suffix)) s += "[" + indices(l->items) + "]";
        else s += "'";
      }
      return s;
    }
    if (const auto* u = boost::get<fwd<ast::unary>>(&o)) {
      own = unary;
      const bool nested = boost::get<fwd<ast::unary>>(&u->get().rhs) != nullptr;
      return std::string(1, u->get().op) + text(u->get().rhs, nested ? primary : unary);
    }
    if (const auto* ch = boost::get<fwd<ast::chain>>(&o)) {
      const auto& c = ch->get();
      own = level_of(c.rest.front().op);
      std::string s = text(c.first, own == power ? postfix : own);
      for (const auto& op : c.rest) {
        // JAGS's matrix product has no operator in ppl: matmul(a, b), which reads back as it.
        if (op.op == "%*%") s = "matmul(" + s + ", " + text(op.rhs, conditional) + ")";
        else s += " " + op.op + " " + text(op.rhs, own == power ? unary : own + 1);
      }
      return s;
    }
    if (const auto* k = boost::get<fwd<ast::conditional>>(&o)) {
      own = conditional;
      return text(k->get().cond, or_) + " ? " + text(k->get().tail.yes, conditional) + " : " + text(k->get().tail.no, conditional);
    }
    if (const auto* g = boost::get<fwd<ast::conditioned>>(&o))
      return text(g->get().value, or_) + " | " + text(g->get().tail.given, or_);
    return "";
  }

  std::string call(const ast::call& c) const { return c.callee.name + "(" + list(c.args) + ")"; }

  std::string list(const std::vector<ast::operand>& items) const {
    std::string s;
    for (const auto& e : items) s += (s.empty() ? "" : ", ") + text(e, conditional);
    return s;
  }

  std::string indices(const std::vector<ast::index_item>& items) const {
    std::string s;
    for (std::size_t k = 0; k < items.size(); ++k) {
      if (k) s += ", ";
      if (items[k].lo) s += text(*items[k].lo, or_);
      if (items[k].tail) s += ":" + (items[k].tail->hi ? text(*items[k].tail->hi, or_) : "");
    }
    return s;
  }

  std::string target(const ast::target& t) const {
    return t.indices.empty() ? name_text(t.name.name) : name_text(t.name.name) + "[" + indices(t.indices) + "]";
  }

  std::string type(const ast::type_spec& t) const {
    std::string s = t.scalar;
    if (!t.bounds.empty()) {
      s += "<";
      for (std::size_t k = 0; k < t.bounds.size(); ++k) s += (k ? ", " : "") + t.bounds[k].which + "=" + text(t.bounds[k].value, additive);
      s += ">";
    }
    if (!t.dims.empty()) s += "[" + list(t.dims) + "]";
    return s;
  }
};

// The comments of a text with their offsets, and which have been written: `#` comments,
// and JAGS's `/* ... */` written as `#` comments, one a line.
class comment_list {
 public:
  explicit comment_list(std::string_view text) : lines_(text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') continue;
      if (text.compare(i, 2, "/*") == 0) {
        const auto close = std::min(text.find("*/", i + 2), text.size());
        std::size_t from = i + 2;
        for (std::size_t k = 0; from <= close; ++k) {
          const auto stop = std::min(text.find('\n', from), close);
          std::string_view line = text.substr(from, stop - from);
          while (!line.empty() && (line.front() == ' ' || line.front() == '\t' || line.front() == '*')) line.remove_prefix(1);
          while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
          if (!line.empty()) items_.push_back({i + k, "# " + std::string(line)});
          from = stop + 1;
        }
        i = close + 1;
        continue;
      }
      if (text[i] != '#') continue;
      const auto end = text.find('\n', i);
      std::string c(text.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i));
      while (!c.empty() && (c.back() == ' ' || c.back() == '\t' || c.back() == '\r')) c.pop_back();
      items_.push_back({i, std::move(c)});
      if (end == std::string_view::npos) break;
      i = end;
    }
  }

  // Each comment before `pos` not yet written, on lines of its own.
  void before(std::size_t pos, const std::string& indent, std::string& out) {
    while (next_ < items_.size() && items_[next_].first < pos) out += indent + items_[next_++].second + "\n";
  }

  // A comment after `end` on the same line, for the end of the statement's line.
  std::string trailing(std::size_t end) {
    if (next_ >= items_.size() || end == 0) return "";
    const auto& [pos, c] = items_[next_];
    if (pos < end || lines_.locate(pos).line != lines_.locate(end - 1).line) return "";
    ++next_;
    return "  " + c;
  }

  bool any() const { return !items_.empty(); }

 private:
  line_index lines_;
  std::vector<std::pair<std::size_t, std::string>> items_;
  std::size_t next_ = 0;
};

struct program_printer {
  printer p;
  comment_list* comments = nullptr;
  std::string out;

  void statements(const std::vector<ast::statement>& body, const std::string& indent) {
    for (const auto& s : body) statement(s, indent);
  }

  void line(std::size_t pos, std::size_t end, const std::string& indent, const std::string& text) {
    if (comments) comments->before(pos, indent, out);
    out += indent + text;
    if (comments) out += comments->trailing(end);
    out += "\n";
  }

  void statement(const ast::statement& s, const std::string& indent) {
    if (const auto* d = boost::get<ast::data_decl>(&s)) {
      out += indent + "data " + name_text(d->name.name) + ": " + p.type(d->type) + (d->default_value ? " = " + p.text(*d->default_value, conditional) : "") + "\n";
    } else if (const auto* d = boost::get<ast::param_decl>(&s)) {
      line(d->pos, d->end, indent, "param " + d->name.name + ": " + p.type(d->type));
    } else if (const auto* x = boost::get<ast::sample_stmt>(&s)) {
      std::string t = p.target(x->lhs) + " ~ " + p.call(x->dist);
      if (const auto& r = x->restricted)
        t += " " + r->which + "[" + (r->lower ? p.text(*r->lower, or_) : "") + ", " + (r->upper ? p.text(*r->upper, or_) : "") + "]";
      line(x->pos, x->end, indent, t);
    } else if (const auto* a = boost::get<ast::assign_stmt>(&s)) {
      line(a->pos, a->end, indent, p.target(a->lhs) + " = " + p.text(a->value, conditional));
    } else if (const auto* f = boost::get<ast::factor_stmt>(&s)) {
      line(f->pos, f->end, indent, "factor " + p.text(f->value, conditional));
    } else if (const auto* pr = boost::get<ast::print_stmt>(&s)) {
      std::string args;
      for (const auto& a : pr->args) args += (args.empty() ? "" : ", ") + p.text(a, conditional);
      line(pr->pos, pr->end, indent, "print(" + args + ")");
    } else if (const auto* d = boost::get<ast::function_def>(&s)) {
      std::string params;
      for (const auto& x : d->params) params += (params.empty() ? "" : ", ") + name_text(x.name);
      line(d->pos, d->end, indent, "function " + name_text(d->name.name) + "(" + params + ") = " + p.text(d->value, conditional));
    } else if (const auto* l = boost::get<fwd<ast::for_stmt>>(&s)) {
      std::string head = "for ";
      for (std::size_t k = 0; k < l->get().ranges.size(); ++k) {
        const auto& r = l->get().ranges[k];
        head += (k ? ", " : "") + name_text(r.var.name) + " in " + p.text(r.lo, additive) + ":" + p.text(r.hi, additive);
      }
      block(l->get().pos, l->get().end, head, l->get().body, indent);
    } else if (const auto* i = boost::get<fwd<ast::if_stmt>>(&s)) {
      const auto& c = i->get();
      block(c.pos, c.end, "if (" + p.text(c.cond, conditional) + ")", c.then_body, indent);
      if (c.else_body) {
        out.pop_back();  // "}\n" -> "} else {"
        out += " else {\n";
        statements(*c.else_body, indent + "  ");
        out += indent + "}\n";
      }
    }
  }

  void block(std::size_t pos, std::size_t end, const std::string& head, const std::vector<ast::statement>& body, const std::string& indent) {
    if (comments) comments->before(pos, indent, out);
    out += indent + head + " {\n";
    statements(body, indent + "  ");
    if (comments) comments->before(end, indent + "  ", out);
    out += indent + "}\n";
  }
};

}  // namespace

std::string print_expression(const ast::operand& e) { return printer{}.text(e, conditional); }

std::string print_program(const ast::program& program, std::string_view comments_from) {
  comment_list comments(comments_from);
  program_printer pp;
  if (comments.any()) pp.comments = &comments;
  for (const auto& s : program.statements)
    if (boost::get<ast::data_decl>(&s)) pp.statement(s, "");
  for (const auto& s : program.statements)
    if (!boost::get<ast::data_decl>(&s)) pp.statement(s, "");
  if (pp.comments) pp.comments->before(std::string_view::npos, "", pp.out);
  return pp.out;
}

}  // namespace ppl::lang
