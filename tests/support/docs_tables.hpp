#pragma once
// Helpers shared by the tests that check docs/deck.md and fuzz/deck.dict against the descriptor
// tables of the source (contact laws, material models, option names): the rows of a markdown table
// and the words of the fuzz dictionary. TRIBO_SOURCE_DIR is defined by tests/CMakeLists.txt.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace tribo::test_support {

inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// prefix + word + suffix, built by appending (GCC 12 warns, falsely, on "x" + std::string(...)).
inline std::string wrapped(std::string_view prefix, std::string_view word, std::string_view suffix) {
  std::string out(prefix);
  out.append(word);
  out.append(suffix);
  return out;
}

// The rows of the markdown table that follows `heading` in docs/deck.md, as cells (trimmed).
inline std::vector<std::vector<std::string>> deck_doc_table_after(const std::string& heading) {
  const std::string doc = read_text(std::filesystem::path(TRIBO_SOURCE_DIR) / "docs" / "deck.md");
  std::size_t at = doc.find(heading);
  EXPECT_NE(at, std::string::npos) << heading;
  std::vector<std::vector<std::string>> rows;
  if (at == std::string::npos) return rows;
  at = doc.find("\n|", at);
  std::istringstream lines(doc.substr(at + 1));
  std::string line;
  while (std::getline(lines, line) && !line.empty() && line[0] == '|') {
    std::vector<std::string> cells;
    // Cells split at '|' not escaped as '\|'.
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '|' && line[i - 1] != '\\') {
        const std::size_t b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
        cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
        cell.clear();
      } else {
        cell += line[i];
      }
    }
    rows.push_back(cells);
  }
  return rows;
}

// The row whose first cell is `key` in backticks, or nullptr.
inline const std::vector<std::string>* row_of(const std::vector<std::vector<std::string>>& rows,
                                              std::string_view key) {
  const std::string quoted = wrapped("`", key, "`");
  for (const auto& row : rows)
    if (!row.empty() && row[0] == quoted) return &row;
  return nullptr;
}

// Whether fuzz/deck.dict holds "word" on a line of its own.
inline bool fuzz_dictionary_has(std::string_view word) {
  static const std::string dict = read_text(std::filesystem::path(TRIBO_SOURCE_DIR) / "fuzz" / "deck.dict");
  return dict.find(wrapped("\n\"", word, "\"\n")) != std::string::npos;
}

// "`a`, `b`, `c`": names in backticks joined by `separator`.
template <class Range>
std::string quoted_list(const Range& names, std::string_view separator) {
  std::string out;
  for (std::string_view name : names) {
    if (!out.empty()) out.append(separator);
    out += wrapped("`", name, "`");
  }
  return out;
}

}  // namespace tribo::test_support
