#pragma once
// "did you mean ...?" for misspelt names.
#include <string>
#include <string_view>
#include <vector>

namespace ppl::lang {

// The candidates that `name` may be a typo of, nearest first and at most `limit`: those
// within an edit distance of a third of its letters, at least one (a swap of two
// neighbours is one edit, case is ignored; a one-letter name has none), and those that
// contain it or that it contains, both of three letters or more (`Norm`: Normal,
// LogNormal, HalfNormal). A candidate that differs from it only in case comes alone
// (`normal`: Normal).
std::vector<std::string> near_names(std::string_view name, const std::vector<std::string>& candidates,
                                    std::size_t limit = 3);

// The nearest of them; empty if there is none.
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates);

// "; did you mean `A`?", "; did you mean `A` or `B`?", "; did you mean `A`, `B` or `C`?",
// or empty for no names: the tail of a message.
std::string did_you_mean(const std::vector<std::string>& names);

}  // namespace ppl::lang
