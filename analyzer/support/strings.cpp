#include "analyzer/support/strings.h"

#include <cctype>

namespace sbr {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string base_name(std::string_view path) {
  size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string dir_of(std::string_view path) {
  size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? std::string_view() : path.substr(0, slash));
}

std::vector<std::string> path_components(std::string_view path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) out.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

std::string_view head_chars(std::string_view s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

std::string shorten(std::string_view s, std::size_t max) {
  if (s.size() <= max) return std::string(s);
  return std::string(head_chars(s, max > 3 ? max - 3 : 0)) + "...";
}

std::string at_lines(const std::vector<std::uint32_t>& lines) {
  constexpr std::size_t kShown = 6;
  std::string out = lines.size() == 1 ? "at line " : "at lines ";
  for (std::size_t i = 0; i < lines.size() && i < kShown; ++i)
    out += (i == 0 ? "" : ", ") + std::to_string(lines[i]);
  if (lines.size() > kShown) out += ", ...";
  return out;
}

}  // namespace sbr
