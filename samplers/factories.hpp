#pragma once
// The sampler factories, one file each, and the planner that assigns them.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "samplers/sampler.hpp"

namespace ppl::samplers {

std::unique_ptr<factory> make_ancestral_factory();
std::unique_ptr<factory> make_collapsed_factory();
std::unique_ptr<factory> make_conjugate_factory();
std::unique_ptr<factory> make_cluster_factory();
std::unique_ptr<factory> make_gibbs_factory();
std::unique_ptr<factory> make_nuts_factory();
std::unique_ptr<factory> make_slice_factory();
std::unique_ptr<factory> make_rwmh_factory();
std::unique_ptr<factory> make_hmc_factory();
std::unique_ptr<factory> make_gaussian_block_factory();
std::unique_ptr<factory> make_sum_move_factory();

// Whether `variables` can be drawn together by gaussian_block (samplers/gaussian_block.cpp):
// Normal priors and terms, jointly affine in them; `why` says why not.
bool gaussian_block_possible(model::graph& g, const std::vector<int>& variables, std::string& why);

// All factories in priority order: the first that can sample a variable claims it.
const std::vector<std::unique_ptr<factory>>& factories();
const factory* find_factory(std::string_view kind);

struct assignment {
  int variable = -1;
  const factory* chosen = nullptr;
  std::string reason;
  bool forced = false;  // the kind was given with --sampler
};

// The sampler of every unknown. `overrides` maps a variable name to a kind (--sampler);
// an impossible override or an unclaimable unknown throws std::invalid_argument saying
// why (a usage error) — or ppl::source_error for an unknown no factory can claim.
std::vector<assignment> plan(model::graph& g, const std::map<std::string, std::string>& overrides);
// Revises the planner's own choices for ESS per CPU second (samplers/plan_efficiency.cpp):
// a NUTS block of one scalar goes to slice; a conjugate unknown combined with the NUTS
// block inside one argument of a term joins it. Kinds given in `overrides` stay.
// Pairs (theta, b) for the non-centred scale move (samplers/scale_move.cpp): theta a
// positive scalar, b unknowns with Normal priors whose scale reads theta, neither with a
// kind given by --sampler; and the move, run after the sweep.
std::vector<std::pair<int, int>> find_scale_moves(model::graph& g, const std::vector<assignment>& plan);
std::unique_ptr<sampler> make_scale_move(model::graph& g, int theta, int b);
// A companion of the Gaussian block (samplers/gaussian_block_companions.cpp): a scalar
// given `slice`, neither with a kind given by --sampler (assignment::forced), whose terms are not
// differentiable in it, that a term's mean in the block reads outside its affine form; and its move, run after the sweep: slice sampling
// with the block integrated out, then the block drawn at the new value.
struct companion_move {
  int companion;
  std::vector<int> block;
};
std::vector<companion_move> find_companion_moves(model::graph& g, const std::vector<assignment>& plan);
std::unique_ptr<sampler> make_companion_move(model::graph& g, const companion_move& move);

void choose_by_efficiency(model::graph& g, const std::map<std::string, std::string>& overrides, std::vector<assignment>& plan);

}  // namespace ppl::samplers
