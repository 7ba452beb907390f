// The text side of yaml_splice: which lines changed, and the region of whole entries of one
// block collection around them. Internal to yaml_splice.cpp and its tests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbr::yaml::splice {

inline constexpr std::uint32_t kNone = ~std::uint32_t{0};

// The lines of a text without their '\n' (a final '\n' ends the last line, it does not start
// an empty one), with each line's start offset.
struct Lines {
  std::vector<std::string_view> text;
  std::vector<std::size_t> start;
  std::size_t size() const { return text.size(); }
};

Lines split_lines(std::string_view t);

// Leading spaces of a line; kNone for a line that is blank or only a comment.
std::uint32_t indent_of(std::string_view line);

// The changed lines: old [p, old.size() - s) and new [p, new.size() - s).
struct Change {
  std::size_t p = 0, s = 0;
};

Change changed_lines(const Lines& o, const Lines& n);

// The smallest indentation of the changed lines that are not blank or comments (kNone: none).
std::uint32_t changed_indent(const Lines& o, const Lines& n, const Change& c);

// The indentation of the nearest line above the change indented less than k: the entries of
// the collection that holds the region's; kNone at the top.
std::uint32_t enclosing_indent(const Lines& o, const Change& c, std::uint32_t k);

// Where the changed lines sit: old lines [a, old_end) and new lines [a, new_end) are replaced;
// `b_indent` is the indentation of the line after them (kNone at the end of the text).
struct Region {
  std::uint32_t k = 0;
  std::size_t a = 0, old_end = 0, new_end = 0;
  std::uint32_t b_indent = kNone;
};

// The region of whole entries at indentation k around the change, or nullopt.
std::optional<Region> region_at(const Lines& o, const Lines& n, const Change& c, std::uint32_t k);

// The 1-based lines of the region's entries: its lines indented exactly k. A sequence's entry
// line must hold its item after "- " (so that the item node sits on it).
std::optional<std::vector<std::uint32_t>> entry_lines(const Lines& l, std::size_t from,
                                                      std::size_t to, std::uint32_t k, bool seq);

bool has_directive(const Lines& l);

// When the change is several hunks apart (lines aligned by their longest common subsequence),
// the texts from `ot` to `nt` with one more hunk applied each (the last is `nt`); empty for one
// hunk, or when the changed lines are too many to align cheaply.
std::vector<std::string> hunk_steps(std::string_view ot, const Lines& o, std::string_view nt,
                                    const Lines& n, const Change& c);

}  // namespace sbr::yaml::splice
