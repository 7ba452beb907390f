// Small word helpers shared by the bash evaluator's translation units.
#pragma once

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string>
#include <string_view>

namespace sbr::bash {

inline std::string base_name(const std::string& s) {
  auto p = s.rfind('/');
  return p == std::string::npos ? s : s.substr(p + 1);
}

inline bool starts(std::string_view s, std::string_view p) {
  return s.rfind(p, 0) == 0;
}

inline bool in(std::string_view x, std::initializer_list<std::string_view> xs) {
  return std::find(xs.begin(), xs.end(), x) != xs.end();
}

// The first variable named in `s` (`"$NAME"`, `${NAME}` -> NAME), or "".
inline std::string var_in(std::string_view s) {
  size_t p = s.find('$');
  if (p == std::string_view::npos) return {};
  size_t b = p + 1;
  if (b < s.size() && s[b] == '{') ++b;
  size_t e = b;
  while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '_')) ++e;
  return std::string(s.substr(b, e - b));
}

// A decimal integer as bash's `-eq` and `$(( ))` read it (conditions.cpp, arith.cpp).
inline bool numeric(const std::string& s, long long& v) {
  if (s.empty()) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (size_t j = i; j < s.size(); ++j)
    if (!std::isdigit(static_cast<unsigned char>(s[j]))) return false;
  try {
    v = std::stoll(s);
  } catch (...) {
    return false;
  }
  return true;
}

// Text tools that only rearrange what they read (awk, sed, cut, grep, jq...).
inline bool is_text_filter(std::string_view b) {
  return in(b, {"awk", "gawk", "mawk", "sed", "cut", "tr", "grep", "egrep", "fgrep", "head", "tail",
                "sort", "uniq", "wc", "paste", "column", "rev", "jq"});
}

}  // namespace sbr::bash
