#include "lang/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace ppl::lang {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Edit distance with case ignored, counting a swap of two neighbouring letters as one
// edit (`fro` is one edit from `for`): the optimal string alignment distance.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> before(b.size() + 1), row(b.size() + 1), next(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    next[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = lower(a[i - 1]) == lower(b[j - 1]);
      next[j] = std::min({row[j] + 1, next[j - 1] + 1, row[j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        next[j] = std::min(next[j], before[j - 2] + 1);
    }
    before.swap(row);
    row.swap(next);
  }
  return row[b.size()];
}

bool contains(std::string_view outer, std::string_view inner) {
  return std::search(outer.begin(), outer.end(), inner.begin(), inner.end(),
                     [](char x, char y) { return lower(x) == lower(y); }) != outer.end();
}

}  // namespace

std::vector<std::string> near_names(std::string_view name, const std::vector<std::string>& candidates,
                                    std::size_t limit) {
  // Every one-letter name is one edit from every other: nothing says which was meant.
  const std::size_t allowed = name.size() < 2 ? 0 : std::max<std::size_t>(1, name.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> near;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(name, c);
    if (d == 0 && c != name) return {c};
    const bool inside = std::min(name.size(), c.size()) >= 3 && (contains(c, name) || contains(name, c));
    if (c != name && (d <= allowed || inside)) near.emplace_back(d, c);
  }
  std::sort(near.begin(), near.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < near.size() && i < limit; ++i) out.push_back(std::move(near[i].second));
  return out;
}

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  auto near = near_names(name, candidates, 1);
  return near.empty() ? "" : near.front();
}

std::string did_you_mean(const std::vector<std::string>& names) {
  if (names.empty()) return "";
  std::string out = "; did you mean ";
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + ("`" + names[i] + "`");
  return out + "?";
}

}  // namespace ppl::lang
