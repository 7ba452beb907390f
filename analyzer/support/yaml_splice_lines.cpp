// Lines of two texts: the changed ones, and the block-collection entries around them.
#include "analyzer/support/yaml_splice_lines.h"

#include <algorithm>

namespace sbr::yaml::splice {

namespace {

bool is_marker(std::string_view line) {
  if (line.empty()) return false;
  if (line[0] == '%') return true;  // a directive
  std::string_view head = line.substr(0, 3);
  return (head == "---" || head == "...") && (line.size() == 3 || line[3] == ' ');
}

// The first line of the entry at indentation k that holds old line `p`, or p itself when p
// starts the collection's first entry; kNone when the lines above do not read that way.
std::size_t region_start(const Lines& o, std::size_t p, std::uint32_t k) {
  bool deeper = false;
  for (std::size_t i = p; i-- > 0;) {
    std::uint32_t ind = indent_of(o.text[i]);
    if (ind == kNone) continue;
    if (k == 0 && is_marker(o.text[i])) return deeper ? kNone : p;
    if (ind > k) {
      deeper = true;
      continue;
    }
    if (ind == k) return i;
    return deeper ? kNone : p;
  }
  return deeper ? kNone : p;
}

bool clean_lines(const Lines& l, std::size_t from, std::size_t to, std::uint32_t k) {
  for (std::size_t i = from; i < to; ++i) {
    std::string_view t = l.text[i];
    if (t.find_first_of("\t\r") != std::string_view::npos) return false;
    std::uint32_t ind = indent_of(t);
    if (ind == kNone) continue;
    if (ind < k || (k == 0 && is_marker(t))) return false;
  }
  return true;
}

// A region that starts with an entry line: the first line, when there is one, is indented k.
bool starts_entry(const Lines& l, std::size_t a, std::size_t end, std::uint32_t k) {
  return a == end || indent_of(l.text[a]) == k;
}

struct Hunk {
  std::size_t o_end, n_end;  // where the hunk ends in each text (line indexes)
};

// The ends of the hunks of the changed lines, from the longest common subsequence of
// o[c.p, o.size() - c.s) and n[c.p, n.size() - c.s).
std::vector<Hunk> hunk_ends(const Lines& o, const Lines& n, const Change& c) {
  const std::size_t rows = o.size() - c.s - c.p, cols = n.size() - c.s - c.p;
  // lcs[i][j]: of the suffixes from o[c.p + i] and n[c.p + j].
  std::vector<std::uint32_t> lcs((rows + 1) * (cols + 1), 0);
  auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lcs[i * (cols + 1) + j]; };
  for (std::size_t i = rows; i-- > 0;) {
    for (std::size_t j = cols; j-- > 0;) {
      at(i, j) = o.text[c.p + i] == n.text[c.p + j] ? at(i + 1, j + 1) + 1
                                                    : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  std::vector<Hunk> out;
  std::size_t i = 0, j = 0;
  bool open = false;
  while (i < rows || j < cols) {
    if (i < rows && j < cols && o.text[c.p + i] == n.text[c.p + j] &&
        at(i, j) == at(i + 1, j + 1) + 1) {
      if (open) out.push_back({c.p + i, c.p + j});
      open = false;
      ++i, ++j;
    } else {
      open = true;
      (j == cols || (i < rows && at(i + 1, j) >= at(i, j + 1))) ? ++i : ++j;
    }
  }
  if (open) out.push_back({c.p + rows, c.p + cols});
  return out;
}

}  // namespace

std::vector<std::string> hunk_steps(std::string_view ot, const Lines& o, std::string_view nt,
                                    const Lines& n, const Change& c) {
  constexpr std::size_t kMaxCells = 1 << 18;
  const std::size_t rows = o.size() - c.s - c.p, cols = n.size() - c.s - c.p;
  if (ot.empty() || nt.empty() || ot.back() != '\n' || nt.back() != '\n' ||
      (rows + 1) * (cols + 1) > kMaxCells) {
    return {};
  }
  std::vector<Hunk> hunks = hunk_ends(o, n, c);
  if (hunks.size() < 2) return {};
  std::vector<std::string> steps;
  auto start = [](const Lines& l, std::string_view t, std::size_t i) {
    return i < l.size() ? l.start[i] : t.size();
  };
  for (std::size_t h = 0; h + 1 < hunks.size(); ++h) {
    steps.push_back(std::string(nt.substr(0, start(n, nt, hunks[h].n_end))) +
                    std::string(ot.substr(start(o, ot, hunks[h].o_end))));
  }
  steps.emplace_back(nt);
  return steps;
}

Lines split_lines(std::string_view t) {
  Lines l;
  std::size_t k = 0;
  while (k < t.size()) {
    std::size_t nl = t.find('\n', k);
    std::size_t end = nl == std::string_view::npos ? t.size() : nl;
    l.text.push_back(t.substr(k, end - k));
    l.start.push_back(k);
    k = end + 1;
  }
  return l;
}

std::uint32_t indent_of(std::string_view line) {
  std::size_t first = line.find_first_not_of(' ');
  if (first == std::string_view::npos || line[first] == '#') return kNone;
  return static_cast<std::uint32_t>(first);
}

Change changed_lines(const Lines& o, const Lines& n) {
  Change c;
  while (c.p < o.size() && c.p < n.size() && o.text[c.p] == n.text[c.p]) ++c.p;
  while (c.s + c.p < o.size() && c.s + c.p < n.size() &&
         o.text[o.size() - 1 - c.s] == n.text[n.size() - 1 - c.s]) {
    ++c.s;
  }
  return c;
}

std::uint32_t changed_indent(const Lines& o, const Lines& n, const Change& c) {
  std::uint32_t k = kNone;
  for (const Lines* l : {&o, &n}) {
    for (std::size_t i = c.p; i + c.s < l->size(); ++i) k = std::min(k, indent_of(l->text[i]));
  }
  return k;
}

std::uint32_t enclosing_indent(const Lines& o, const Change& c, std::uint32_t k) {
  for (std::size_t i = c.p; i-- > 0;) {
    std::uint32_t ind = indent_of(o.text[i]);
    if (ind < k) return ind;
  }
  return kNone;
}

std::optional<Region> region_at(const Lines& o, const Lines& n, const Change& c, std::uint32_t k) {
  Region r;
  r.k = k;
  r.a = region_start(o, c.p, k);
  if (r.a == kNone) return std::nullopt;
  r.old_end = o.size();
  for (std::size_t j = o.size() - c.s; j < o.size(); ++j) {
    std::uint32_t ind = indent_of(o.text[j]);
    if (ind != kNone && ind <= k) {
      if (o.text[j].find('\t') != std::string_view::npos) return std::nullopt;
      r.old_end = j;
      r.b_indent = ind;
      break;
    }
  }
  r.new_end = r.old_end + n.size() - o.size();
  if (!clean_lines(o, r.a, r.old_end, k) || !clean_lines(n, r.a, r.new_end, k) ||
      !starts_entry(o, r.a, r.old_end, k) || !starts_entry(n, r.a, r.new_end, k)) {
    return std::nullopt;
  }
  return r;
}

std::optional<std::vector<std::uint32_t>> entry_lines(const Lines& l, std::size_t from,
                                                      std::size_t to, std::uint32_t k, bool seq) {
  std::vector<std::uint32_t> out;
  for (std::size_t i = from; i < to; ++i) {
    std::string_view t = l.text[i];
    if (indent_of(t) != k) continue;
    if (seq) {
      std::string_view rest = t.substr(k);
      if (rest.size() < 3 || rest[0] != '-' || rest[1] != ' ') return std::nullopt;
      std::uint32_t item = indent_of(rest.substr(1));
      if (item == kNone) return std::nullopt;
    }
    out.push_back(static_cast<std::uint32_t>(i + 1));
  }
  return out;
}

bool has_directive(const Lines& l) {
  return std::any_of(l.text.begin(), l.text.end(),
                     [](std::string_view t) { return !t.empty() && t[0] == '%'; });
}

}  // namespace sbr::yaml::splice
