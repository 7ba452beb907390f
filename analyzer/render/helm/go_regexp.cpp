#include "analyzer/render/helm/go_regexp.h"

#include <algorithm>
#include <cctype>

namespace sbr::render::helm {

namespace go_regexp {  // named, not anonymous: the build joins .cpp files in unity batches

// The first match of `re` in `s` at or after `pos` (the text before `pos` is context for `^`
// and `\b`, as in Go), or an empty vector.
GoMatch match_at(const RE2& re, std::string_view s, std::size_t pos) {
  const int groups = re.NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> found(static_cast<std::size_t>(groups));
  if (!re.Match(re2::StringPiece(s.data(), s.size()), pos, s.size(), RE2::UNANCHORED, found.data(),
                groups))
    return {};
  GoMatch m;
  for (const re2::StringPiece& g : found) {
    const bool took_part = g.data() != nullptr;
    m.push_back(took_part ? g.data() - s.data() : -1);
    m.push_back(took_part ? g.data() - s.data() + static_cast<std::int64_t>(g.size()) : -1);
  }
  return m;
}

// The width of the UTF-8 character at `pos` as Go's decoder steps over it (1 for an invalid
// byte), 0 at the end.
std::size_t rune_width(std::string_view s, std::size_t pos) {
  if (pos >= s.size()) return 0;
  const auto lead = static_cast<unsigned char>(s[pos]);
  const std::size_t n = lead < 0x80       ? 1
                        : lead >> 5 == 6  ? 2
                        : lead >> 4 == 14 ? 3
                        : lead >> 3 == 30 ? 4
                                          : 1;
  if (pos + n > s.size()) return 1;
  for (std::size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[pos + k]) & 0xC0) != 0x80) return 1;
  }
  return n;
}

bool name_char(unsigned char c) {
  return std::isalnum(c) || c == '_';
}

// Go's extract: the group a `$` reference at the start of `t` names ("1", "name", "{1}"), and
// its length; false when malformed (the `$` is then text).
bool reference(std::string_view t, std::string& name, std::size_t& length) {
  const bool brace = !t.empty() && t[0] == '{';
  std::size_t k = brace ? 1 : 0, start = k;
  while (k < t.size() && name_char(static_cast<unsigned char>(t[k]))) ++k;
  if (k == start) return false;
  name = std::string(t.substr(start, k - start));
  if (brace) {
    if (k >= t.size() || t[k] != '}') return false;
    ++k;
  }
  length = k;
  return true;
}

// The group index of `name`: a number without leading zeros, else a named group; -1 if none.
int group_of(const RE2& re, const std::string& name) {
  bool digits = name.size() <= 8 && (name == "0" || name[0] != '0');
  for (char c : name) digits = digits && c >= '0' && c <= '9';
  if (digits) return std::stoi(name);
  auto named = re.NamedCapturingGroups().find(name);
  return named == re.NamedCapturingGroups().end() ? -1 : named->second;
}

// Go's Regexp.expand of `tmpl` for the match `m`.
void expand(const RE2& re, std::string_view tmpl, std::string_view s, const GoMatch& m,
            std::string& out) {
  for (std::size_t dollar; (dollar = tmpl.find('$')) != std::string_view::npos;) {
    out += tmpl.substr(0, dollar);
    tmpl.remove_prefix(dollar + 1);
    if (!tmpl.empty() && tmpl[0] == '$') {
      out += '$';
      tmpl.remove_prefix(1);
      continue;
    }
    std::string name;
    std::size_t length = 0;
    if (!reference(tmpl, name, length)) {
      out += '$';
      continue;
    }
    tmpl.remove_prefix(length);
    const int g = group_of(re, name);
    if (g < 0) continue;
    const std::size_t start = 2 * static_cast<std::size_t>(g);  // the group's bounds in `m`
    if (start + 1 < m.size() && m[start] >= 0)
      out += s.substr(static_cast<std::size_t>(m[start]),
                      static_cast<std::size_t>(m[start + 1] - m[start]));
  }
  out += tmpl;
}

}  // namespace go_regexp

std::vector<GoMatch> go_find_all(const RE2& re, std::string_view s, std::int64_t n) {
  using namespace go_regexp;
  if (n < 0) n = static_cast<std::int64_t>(s.size()) + 1;
  std::vector<GoMatch> all;
  std::int64_t previous_end = -1;
  for (std::size_t pos = 0; static_cast<std::int64_t>(all.size()) < n && pos <= s.size();) {
    GoMatch m = match_at(re, s, pos);
    if (m.empty()) break;
    bool accept = true;
    if (m[1] == static_cast<std::int64_t>(pos)) {  // an empty match
      accept = m[0] != previous_end;
      const std::size_t width = rune_width(s, pos);
      pos += width > 0 ? width : 1;
    } else {
      pos = static_cast<std::size_t>(m[1]);
    }
    previous_end = m[1];
    if (accept) all.push_back(std::move(m));
  }
  return all;
}

std::string go_replace_all(const RE2& re, std::string_view s, std::string_view repl, bool literal) {
  using namespace go_regexp;
  std::string out;
  std::size_t last_end = 0, pos = 0;
  while (pos <= s.size()) {
    GoMatch m = match_at(re, s, pos);
    if (m.empty()) break;
    const auto begin = static_cast<std::size_t>(m[0]), end = static_cast<std::size_t>(m[1]);
    out += s.substr(last_end, begin - last_end);
    // No replacement for an empty match right after another match (Go's replaceAll).
    if (end > last_end || begin == 0) {
      if (literal) {
        out += repl;
      } else {
        expand(re, repl, s, m, out);
      }
    }
    last_end = end;
    const std::size_t width = rune_width(s, pos);
    pos = pos + width > end ? pos + width : pos + 1 > end ? pos + 1 : end;
  }
  out += s.substr(std::min(last_end, s.size()));
  return out;
}

std::vector<std::string> go_split(const RE2& re, std::string_view s, std::int64_t n) {
  if (n == 0) return {};
  if (!re.pattern().empty() && s.empty()) return {""};
  std::vector<std::string> out;
  std::size_t begin = 0, end = 0;
  for (const GoMatch& m : go_find_all(re, s, n)) {
    if (n > 0 && static_cast<std::int64_t>(out.size()) == n - 1) break;
    end = static_cast<std::size_t>(m[0]);
    if (m[1] != 0) out.emplace_back(s.substr(begin, end - begin));
    begin = static_cast<std::size_t>(m[1]);
  }
  if (end != s.size()) out.emplace_back(s.substr(begin));
  return out;
}

}  // namespace sbr::render::helm
