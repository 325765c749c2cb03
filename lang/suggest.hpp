#pragma once
// "did you mean ...?" for misspelt names.
#include <string>
#include <string_view>
#include <vector>

namespace ppl::lang {

// The candidate closest to `name` by edit distance, if it is close enough to be a likely
// typo (at most a third of the name's letters differ); empty otherwise.
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace ppl::lang
