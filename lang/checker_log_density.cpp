// Log-density calls: `normal_lpdf(y | mu, sigma)` and `poisson_lpmf(k | lambda)` for every
// distribution of the library (its name in snake case, or Stan's spelling of it), and
// `logpdf(Normal(mu, sigma), y)`; and distribution functions, `normal_lcdf(y | mu, sigma)`,
// `weibull_lccdf(t | alpha, sigma)`, `poisson_cdf(k | lambda)`, for the distributions that
// have one (distribution::has_cdf). Each becomes a call of a function made from the
// distribution (stdlib/log_density_function.hpp), one per distribution and model.
#include <algorithm>
#include <cctype>
#include <map>

#include "lang/checker_impl.hpp"
#include "lang/suggest.hpp"
#include "stdlib/log_density_function.hpp"

namespace ppl::lang::detail {

using ir::expr_ptr;

namespace {

// NegativeBinomial2 -> negative_binomial_2, HalfStudentT -> half_student_t.
std::string snake_case(std::string_view name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    const bool boundary = i > 0 && (std::isupper(c) || (std::isdigit(c) && !std::isdigit(static_cast<unsigned char>(name[i - 1]))));
    if (boundary) out += '_';
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

// Stan's names where they differ from ours.
constexpr std::pair<std::string_view, std::string_view> stan_names[] = {
    {"discrete_range", "DiscreteUniform"}, {"inv_chi_square", "InverseChiSquare"}, {"inv_gamma", "InverseGamma"},
    {"inv_wishart", "InverseWishart"},    {"lkj_corr", "LKJCorr"},                {"lkj_corr_cholesky", "LKJCorrCholesky"},
    {"lognormal", "LogNormal"},           {"neg_binomial", "NegativeBinomial"},   {"neg_binomial_2", "NegativeBinomial2"},
    {"scaled_inv_chi_square", "ScaledInverseChiSquare"}};

// The suffixes that make a call of a distribution's function, and what it computes.
constexpr std::pair<std::string_view, stdlib::density_kind> suffixes[] = {
    {"_lpdf", stdlib::density_kind::log_density}, {"_lpmf", stdlib::density_kind::log_density},
    {"_lcdf", stdlib::density_kind::log_cdf},     {"_lccdf", stdlib::density_kind::log_ccdf},
    {"_cdf", stdlib::density_kind::cdf}};

const std::pair<std::string_view, stdlib::density_kind>* suffix_of(const std::string& name) {
  for (const auto& s : suffixes)
    if (name.ends_with(s.first) && name.size() > s.first.size()) return &s;
  return nullptr;
}

}  // namespace

// The distribution a `NAME_lpdf`, `NAME_lpmf`, `NAME_lcdf`, `NAME_lccdf` or `NAME_cdf` names,
// with its suffix checked; null when the name has none of these suffixes.
const stdlib::distribution* checker::log_density_distribution(const std::string& name, std::size_t pos) {
  const auto* suffix = suffix_of(name);
  if (!suffix) return nullptr;
  const bool pmf = suffix->first == "_lpmf", density = suffix->second == stdlib::density_kind::log_density;
  const std::size_t cut = suffix->first.size();
  const std::string stem = name.substr(0, name.size() - cut);
  std::map<std::string, std::string> by_stem;
  for (const auto& d : lib_.distribution_names()) by_stem.emplace(snake_case(d), d);
  for (const auto& [stan, ours] : stan_names) by_stem.emplace(std::string(stan), std::string(ours));
  auto it = by_stem.find(stem);
  if (it == by_stem.end()) {
    std::vector<std::string> names;
    for (const auto& [s, d] : by_stem) names.push_back(s + name.substr(name.size() - cut));
    fail(pos, "unknown distribution `" + stem + "` in `" + name + "`" + did_you_mean(near_names(name, names)));
  }
  const stdlib::distribution* d = lib_.find_distribution(it->second);
  if (!density) {
    if (!d->has_cdf())
      fail(pos, it->second + " has no distribution function yet: `" + name + "` is not available" +
                    (d->value_rank() == 0 ? "" : " (only scalar distributions have one)"));
    return d;
  }
  const bool discrete = d->value_kind() == stdlib::scalar_kind::integer;
  if (discrete != pmf)
    fail(pos, it->second + " is " + (discrete ? "discrete: its log probability is " + stem + "_lpmf" : "continuous: its log density is " + stem + "_lpdf") +
                  ", not " + name);
  return d;
}

const stdlib::function* checker::log_density_function(const stdlib::distribution& d, const std::string& name) {
  auto [it, fresh] = log_density_functions_.try_emplace(name, nullptr);
  if (fresh) {
    const auto* suffix = suffix_of(name);
    const auto kind = suffix ? suffix->second : stdlib::density_kind::log_density;
    model_.lowered_functions.push_back(stdlib::make_log_density_function(d, name, kind));
    it->second = model_.lowered_functions.back().get();
  }
  return it->second;
}

expr_ptr checker::log_density_call(const stdlib::function& fn, std::vector<expr_ptr> args, std::size_t pos) {
  std::vector<stdlib::type_sig> types;
  for (const auto& a : args) types.push_back(a->type);
  stdlib::type_result r = fn.result_type(types);
  if (auto* msg = std::get_if<std::string>(&r)) fail(pos, *msg);
  auto e = new_expr(ir::expr::kind::call, pos);
  for (const auto& a : args) e->depth = std::max(e->depth, a->depth + 1);
  e->fn = &fn;
  e->type = std::get<stdlib::type_sig>(r);
  e->args = std::move(args);
  return e;
}

// normal_lpdf(y | mu, sigma)
expr_ptr checker::convert_log_density(const ast::call& c, const stdlib::distribution& d) {
  std::vector<expr_ptr> args;
  const auto* first = c.args.empty() ? nullptr : boost::get<ast::x3::forward_ast<ast::conditioned>>(&c.args.front());
  if (!first && !d.params().empty())
    fail(c.callee.pos, "write " + c.callee.name + "(y | ...): a `|` separates the value from the parameters of " + std::string(d.name()));
  for (std::size_t k = 0; k < c.args.size(); ++k) {
    if (k == 0 && first) {
      args.push_back(convert(first->get().value));
      args.push_back(convert(first->get().tail.given));
    } else {
      args.push_back(convert(c.args[k]));
    }
  }
  return log_density_call(*log_density_function(d, c.callee.name), std::move(args), c.callee.pos);
}

// logpdf(Normal(mu, sigma), y)
expr_ptr checker::convert_logpdf(const ast::call& c) {
  const auto* dist = c.args.size() == 2 ? boost::get<ast::x3::forward_ast<ast::call>>(&c.args[0]) : nullptr;
  const stdlib::distribution* d = dist ? lib_.find_distribution(dist->get().callee.name) : nullptr;
  if (!d) fail(c.callee.pos, c.callee.name + " takes a distribution and a value: " + c.callee.name + "(Normal(mu, sigma), y)");
  std::vector<expr_ptr> args;
  args.push_back(convert(c.args[1]));
  for (const auto& a : dist->get().args) args.push_back(convert(a));
  const std::string name = snake_case(d->name()) + (d->value_kind() == stdlib::scalar_kind::integer ? "_lpmf" : "_lpdf");
  return log_density_call(*log_density_function(*d, name), std::move(args), c.callee.pos);
}

}  // namespace ppl::lang::detail

namespace ppl::lang::detail {

// y[i, j] ~ D(args) as the call D_lpdf(y[i, j] | args): the same term, with constants, in a
// form a tape records (model/tape.hpp), for the statements whose rows a gradient cannot
// take as a batch (a categorical of a ragged slice, Bones' grade[i, j] ~ dcat(p[i, j,
// 1:ncat[j]])). Only in a loop, where there are instances to replay, and only where the
// term reads an unknown; one function per distribution (a truncated one is its own).
void checker::attach_density(ir::statement& s) {
  if (s.which != ir::statement::kind::sample || s.loops.empty() || s.target_from || !s.dist) return;
  const auto& var = model_.variables[static_cast<std::size_t>(s.target)];
  const bool target_moves = var.role == ir::role::unknown || var.role == ir::role::derived;
  if (!target_moves && std::none_of(s.args.begin(), s.args.end(), [](const expr_ptr& a) { return a->depends_on_unknown; })) return;
  auto base = new_expr(ir::expr::kind::variable, s.pos);
  base->slot = s.target;
  base->type = var.type;
  expr_ptr value = std::move(base);
  if (!s.target_indices.empty()) {
    auto ix = new_expr(ir::expr::kind::index, s.pos);
    ix->type = {var.type.kind, var.type.rank - static_cast<int>(s.target_indices.size())};
    for (const auto& i : s.target_indices) {
      ir::index_item item;
      item.lo = clone(*i);
      ix->indices.push_back(std::move(item));
    }
    ix->depth = value->depth + 1;
    ix->args.push_back(std::move(value));
    value = std::move(ix);
  }
  std::vector<expr_ptr> args;
  args.push_back(std::move(value));
  for (const auto& a : s.args) args.push_back(clone(*a));
  auto [it, fresh] = density_functions_.try_emplace(s.dist, nullptr);
  if (fresh) {
    model_.lowered_functions.push_back(stdlib::make_log_density_function(*s.dist, s.dist_name + " density"));
    it->second = model_.lowered_functions.back().get();
  }
  std::vector<stdlib::type_sig> types;
  for (const auto& a : args) types.push_back(a->type);
  const stdlib::type_result r = it->second->result_type(types);
  if (!std::holds_alternative<stdlib::type_sig>(r)) return;  // a form the function does not take: no tape
  auto call = new_expr(ir::expr::kind::call, s.pos);
  for (const auto& a : args) call->depth = std::max(call->depth, a->depth + 1);
  call->fn = it->second;
  call->type = std::get<stdlib::type_sig>(r);
  call->args = std::move(args);
  s.density = std::move(call);
}

}  // namespace ppl::lang::detail
