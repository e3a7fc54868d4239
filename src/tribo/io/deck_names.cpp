#include "tribo/io/deck_names.hpp"

#include <algorithm>
#include <cctype>

namespace tribo::io {

namespace {
// Levenshtein distance (insert, delete, substitute), case-insensitive: `Method` is a typo of
// `method`, not a different key.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      const std::size_t next = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = row[j];
      row[j] = next;
    }
  }
  return row[b.size()];
}
}  // namespace

std::string join_choices(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += (i + 1 == names.size()) ? " or " : ", ";
    out += names[i];
  }
  return out;
}

std::string closest_name(std::string_view word, const std::vector<std::string_view>& candidates) {
  if (word.size() > 64) return {};  // not a typo of any key; keeps the distance table small
  const std::size_t limit = word.size() <= 4 ? 1 : (word.size() <= 10 ? 2 : 3);
  std::string best;
  std::size_t best_distance = limit + 1;
  for (std::string_view candidate : candidates) {
    const std::size_t d = edit_distance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = std::string(candidate);
    }
  }
  return best;
}

}  // namespace tribo::io
