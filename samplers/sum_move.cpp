// `sum_move`: unknowns whose sum is observed (`y ~ Sum([a, b, c])` with y data; JAGS's
// dsum). Their values live on the set where the sum is y, on which no single-site update
// can move: changing one summand alone leaves it. Each move shifts an amount d from one
// summand to another of the same sum, which keeps it, and is accepted by Metropolis-
// Hastings on the whole joint (the shift is symmetric: d and -d are equally likely); an
// integer summand shifts by a whole number. Every summand of every sum is moved once per
// sweep, with a partner drawn at random. The shift's scale adapts in warmup towards an
// acceptance rate of 0.4 (Robbins-Monro on its log) and is fixed after. The graph starts
// the summands on the sum (model::start_on_sums), and refuses a summand computed from
// unknowns or one in two sums (model::observed_sums).
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <algorithm>
#include <cmath>

#include "core/archive.hpp"
#include "model/sums.hpp"
#include "samplers/factories.hpp"

namespace ppl::samplers {

namespace {

constexpr double target_acceptance = 0.4;

class sum_move_sampler final : public sampler {
 public:
  sum_move_sampler(model::graph& g, const std::vector<int>& variables) : graph_(g) {
    for (auto& o : model::observed_sums(g)) {
      std::vector<model::summand> mine;
      for (const auto& u : o.unknowns)
        if (std::find(variables.begin(), variables.end(), u.variable) != variables.end()) mine.push_back(u);
      if (mine.size() >= 2) groups_.push_back(std::move(mine));
    }
    scale_.assign(groups_.size(), 1.0);
  }

  void step(ppl::rng& rng, bool warmup) override {
    auto& values = graph_.values();
    const double start = graph_.log_density();
    double lp = start;
    boost::random::uniform_01<double> uniform;
    boost::random::normal_distribution<double> normal;
    if (warmup) ++adaptations_;
    for (std::size_t k = 0; k < groups_.size(); ++k) {
      const auto& group = groups_[k];
      for (std::size_t i = 0; i < group.size(); ++i) {
        std::size_t j = boost::random::uniform_int_distribution<std::size_t>(0, group.size() - 2)(rng);
        if (j >= i) ++j;
        double& a = values[static_cast<std::size_t>(group[i].variable)].data[static_cast<std::size_t>(group[i].element)];
        double& b = values[static_cast<std::size_t>(group[j].variable)].data[static_cast<std::size_t>(group[j].element)];
        double d = normal(rng) * scale_[k];
        if (group[i].integer || group[j].integer) d = (d < 0 ? -1 : 1) * std::max(1.0, std::round(std::abs(d)));
        const double old_a = a, old_b = b;
        a += d;
        b -= d;
        graph_.update_derived();
        const double proposed = graph_.log_density();
        const bool accept = std::log(uniform(rng)) < proposed - lp;  // false for a NaN
        if (accept) {
          lp = proposed;
        } else {
          a = old_a;
          b = old_b;
          graph_.update_derived();
        }
        if (warmup)  // Robbins-Monro on log(scale), steps shrinking with the warmup's length
          scale_[k] *= std::exp(((accept ? 1.0 : 0.0) - target_acceptance) / std::sqrt(static_cast<double>(adaptations_)));
        ++(accept ? accepted_ : rejected_);
      }
    }
    change_ = lp - start;
  }

  double last_change() const override { return change_; }

  std::string report() const override {
    const double total = static_cast<double>(accepted_ + rejected_);
    return total > 0 ? "acceptance " + std::to_string(static_cast<double>(accepted_) / total).substr(0, 4) : std::string();
  }

  void persist(ppl::archive& a) override {
    a(adaptations_, accepted_, rejected_);
    for (double& s : scale_) a(s);
  }

 private:
  model::graph& graph_;
  std::vector<std::vector<model::summand>> groups_;
  std::vector<double> scale_;  // by group: the shift's scale
  long adaptations_ = 0, accepted_ = 0, rejected_ = 0;
  double change_ = 0;
};

class sum_move_factory final : public factory {
 public:
  std::string_view kind() const override { return "sum_move"; }
  claim can_sample(model::graph& g, int v) const override {
    const auto sums = model::observed_sums(g);
    std::vector<char> in_sum(static_cast<std::size_t>(g.value(v).size()), 0);
    for (const auto& o : sums)
      for (const auto& u : o.unknowns)
        if (u.variable == v) in_sum[static_cast<std::size_t>(u.element)] = 1;
    const auto covered = std::count(in_sum.begin(), in_sum.end(), 1);
    if (covered == 0) return {false, "not a summand of an observed Sum"};
    if (covered < static_cast<long>(in_sum.size()))
      return {false, "only some of its elements are summands of an observed Sum; ppl moves a variable's elements by one kind"};
    return {true, "a summand of an observed Sum: shifted to and from another summand, which keeps the sum"};
  }
  bool joins_block() const override { return true; }
  std::unique_ptr<sampler> make(model::graph& g, int v) const override { return make_block(g, {v}); }
  std::unique_ptr<sampler> make_block(model::graph& g, const std::vector<int>& variables) const override {
    return std::make_unique<sum_move_sampler>(g, variables);
  }
};

}  // namespace

std::unique_ptr<factory> make_sum_move_factory() { return std::make_unique<sum_move_factory>(); }

}  // namespace ppl::samplers
