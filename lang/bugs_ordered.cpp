// BUGS's ordered cut points written as a cycle of neighbours' bounds (bugs_rewrites.hpp).
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lang/bugs_nodes.hpp"
#include "lang/bugs_rewrites.hpp"

namespace ppl::lang::bugs_rewrites {

namespace {

using namespace bugs_nodes;

// One element's statement `a[k] ~ ...` as a density between two bounds.
struct link {
  std::size_t at = 0;                  // its place in the program's top level
  boost::optional<operand> lower, upper;
  bool uniform = false;                // dunif: 1 / (upper - lower); dflat()T(...): 1
};

// The element `name[k]` written with a literal index, or nothing.
std::optional<unsigned long long> element_of(const operand& o, const std::string& name) {
  const auto* p = boost::get<fwd<ast::postfix>>(&o);
  if (!p || p->get().suffixes.size() != 1) return std::nullopt;
  const auto* base = boost::get<ast::identifier>(&p->get().base);
  const auto* list = boost::get<ast::index_list>(&p->get().suffixes.front());
  if (!base || base->name != name || !list || list->items.size() != 1) return std::nullopt;
  const auto& ix = list->items.front();
  if (!ix.lo || ix.tail) return std::nullopt;
  const auto* n = boost::get<ast::int_literal>(&*ix.lo);
  return n ? std::optional(n->value) : std::nullopt;
}

bool reads(const operand& o, const std::string& name) {
  bool found = false;
  for_each_identifier(o, [&](const ast::identifier& id) { found = found || id.name == name; });
  return found;
}

std::optional<link> as_link(const ast::sample_stmt& s, std::size_t at) {
  link l;
  l.at = at;
  if (s.dist.callee.name == "Uniform" && s.dist.args.size() == 2 && !s.restricted) {
    l.uniform = true;
    l.lower = s.dist.args[0];
    l.upper = s.dist.args[1];
  } else if (s.dist.callee.name == "Flat" && s.dist.args.empty() && s.restricted && s.restricted->which == "T") {
    l.lower = s.restricted->lower;
    l.upper = s.restricted->upper;
  } else {
    return std::nullopt;
  }
  return l;
}

// Element k (from 1) of K: its inner bounds are its neighbours, its outer ones read nothing of it.
bool chained(const link& l, unsigned long long k, unsigned long long K, const std::string& name) {
  auto fits = [&](const boost::optional<operand>& b, bool inner, unsigned long long neighbour) {
    if (inner) return b && element_of(*b, name) == neighbour;
    return !b || !reads(*b, name);
  };
  return fits(l.lower, k > 1, k - 1) && fits(l.upper, k < K, k + 1);
}

class chains {
 public:
  explicit chains(std::vector<ast::statement>& body) : body_(body) {}

  void run() {
    std::map<std::string, std::map<unsigned long long, link>> found;
    std::map<std::string, int> definitions;
    count(body_, definitions);
    for (std::size_t at = 0; at < body_.size(); ++at) {
      const auto* s = boost::get<ast::sample_stmt>(&body_[at]);
      if (!s || s->lhs.indices.size() != 1) continue;
      const std::string& name = s->lhs.name.name;
      auto k = element_of(target_operand(s->lhs), name);
      auto l = as_link(*s, at);
      if (k && l) found[name].emplace(*k, *l);
    }
    std::vector<std::size_t> gone;
    for (auto& [name, links] : found) {
      const auto K = static_cast<unsigned long long>(links.size());
      if (K < 2 || definitions[name] != static_cast<int>(K) || links.rbegin()->first != K || links.begin()->first != 1) continue;
      bool whole = true;
      for (const auto& [k, l] : links) whole = whole && chained(l, k, K, name);
      if (!whole) continue;
      replace(links, gone);
    }
    std::sort(gone.rbegin(), gone.rend());
    for (std::size_t at : gone) body_.erase(body_.begin() + static_cast<std::ptrdiff_t>(at));
  }

 private:
  static void count(const std::vector<ast::statement>& body, std::map<std::string, int>& definitions) {
    for (const auto& s : body) {
      if (const auto* x = boost::get<ast::sample_stmt>(&s)) ++definitions[x->lhs.name.name];
      else if (const auto* a = boost::get<ast::assign_stmt>(&s)) ++definitions[a->lhs.name.name];
      else if (const auto* f = boost::get<fwd<ast::for_stmt>>(&s)) count(f->get().body, definitions);
      else if (const auto* c = boost::get<fwd<ast::if_stmt>>(&s)) {
        count(c->get().then_body, definitions);
        if (c->get().else_body) count(*c->get().else_body, definitions);
      }
    }
  }

  // `param a: ordered[K]` in the first element's place, then the factor of the elements'
  // densities and outer bounds; the elements' statements are left for run() to erase.
  void replace(const std::map<unsigned long long, link>& links, std::vector<std::size_t>& gone) {
    const auto& first = boost::get<ast::sample_stmt>(body_[links.begin()->second.at]);
    const std::size_t pos = first.pos, end = first.end;
    const auto K = links.size();
    ast::param_decl decl;
    decl = tagged_at(decl, pos, end);
    decl.name = first.lhs.name;
    decl.type = tagged_at(decl.type, pos, end);
    decl.type.scalar = "ordered";
    decl.type.dims.push_back(int_number(K, pos, end));
    std::vector<operand> terms;
    auto element = [&](unsigned long long k) {
      ast::target t = first.lhs;
      t.indices.front().lo = int_number(k, pos, end);
      return target_operand(t);
    };
    auto call = [&](const char* f, operand arg) { return operand(make_call(f, {std::move(arg)}, pos, end)); };
    for (const auto& [k, l] : links) {
      if (l.uniform) terms.push_back(call("log", chain_of(*l.upper, {{"-", *l.lower}}, pos, end)));
      gone.push_back(l.at);
    }
    const link& low = links.begin()->second;
    const link& high = links.rbegin()->second;
    std::vector<operand> inside;  // log(a[1] > L), log(a[K] < U): -inf outside the outer bounds
    if (low.lower) inside.push_back(call("log", chain_of(element(1), {{">", *low.lower}}, pos, end)));
    if (high.upper) inside.push_back(call("log", chain_of(element(K), {{"<", *high.upper}}, pos, end)));
    gone.erase(std::find(gone.begin(), gone.end(), low.at));
    body_[low.at] = ast::statement(std::move(decl));
    if (terms.empty() && inside.empty()) return;
    // -log(u1 - l1) - log(u2 - l2) ... + log(a[1] > L) + log(a[K] < U)
    operand lead;
    if (!terms.empty()) {
      ast::unary minus;
      minus = tagged_at(minus, pos, end);
      minus.rhs = std::move(terms.front());
      lead = operand(std::move(minus));
    } else {
      lead = std::move(inside.front());
    }
    std::vector<std::pair<std::string, operand>> rest;
    for (std::size_t t = 1; t < terms.size(); ++t) rest.emplace_back("-", std::move(terms[t]));
    for (std::size_t t = terms.empty() ? 1 : 0; t < inside.size(); ++t) rest.emplace_back("+", std::move(inside[t]));
    ast::factor_stmt f;
    f = tagged_at(f, pos, end);
    f.value = rest.empty() ? std::move(lead) : chain_of(std::move(lead), std::move(rest), pos, end);
    // After the last element's statement, which is erased: the factor takes its place.
    gone.erase(std::find(gone.begin(), gone.end(), high.at));
    body_[high.at] = ast::statement(std::move(f));
  }

  std::vector<ast::statement>& body_;
};

}  // namespace

void ordered_chains(std::vector<ast::statement>& body) { chains(body).run(); }

}  // namespace ppl::lang::bugs_rewrites
