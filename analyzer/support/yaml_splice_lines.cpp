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

}  // namespace

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
