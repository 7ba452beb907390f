// Shell pattern matching (bash `case`, `[[ == ]]`, `${x#pat}`, the configuration's selectors) in
// time linear in the text times the pattern. glibc's fnmatch backtracks at every `*`, and a
// pattern of forty `*a` in a pull request's launcher took minutes on a 200-byte word; here only
// the last `*` is ever retried, which is all a pattern of single-character tokens needs.
#include <cctype>
#include <cstring>

#include "analyzer/support/strings.h"

namespace sbr {
namespace {

bool in_named_class(std::string_view name, unsigned char c) {
  if (name == "alpha") return std::isalpha(c) != 0;
  if (name == "digit") return std::isdigit(c) != 0;
  if (name == "alnum") return std::isalnum(c) != 0;
  if (name == "upper") return std::isupper(c) != 0;
  if (name == "lower") return std::islower(c) != 0;
  if (name == "space") return std::isspace(c) != 0;
  if (name == "blank") return c == ' ' || c == '\t';
  if (name == "punct") return std::ispunct(c) != 0;
  if (name == "xdigit") return std::isxdigit(c) != 0;
  if (name == "cntrl") return std::iscntrl(c) != 0;
  if (name == "print") return std::isprint(c) != 0;
  if (name == "graph") return std::isgraph(c) != 0;
  return false;
}

// The bracket expression at p[k] == '[': whether `c` is in it, and its length in `len`.
// Returns false with len 0 when the bracket does not close (then `[` is an ordinary character).
bool bracket(std::string_view p, std::size_t k, unsigned char c, std::size_t& len) {
  std::size_t i = k + 1;
  bool negate = i < p.size() && (p[i] == '!' || p[i] == '^');
  if (negate) ++i;
  bool hit = false;
  for (bool first = true; i < p.size() && (first || p[i] != ']'); first = false) {
    if (p.compare(i, 2, "[:") == 0) {
      std::size_t close = p.find(":]", i + 2);
      if (close != std::string_view::npos) {
        hit = hit || in_named_class(p.substr(i + 2, close - i - 2), c);
        i = close + 2;
        continue;
      }
    }
    unsigned char lo = static_cast<unsigned char>(p[i]);
    if (lo == '\\' && i + 1 < p.size()) lo = static_cast<unsigned char>(p[++i]);
    ++i;
    unsigned char hi = lo;
    if (i + 1 < p.size() && p[i] == '-' && p[i + 1] != ']') {
      hi = static_cast<unsigned char>(p[i + 1]);
      if (hi == '\\' && i + 2 < p.size()) hi = static_cast<unsigned char>(p[++i + 1]);
      i += 2;
    }
    hit = hit || (lo <= c && c <= hi);
  }
  if (i >= p.size()) {
    len = 0;
    return false;
  }
  len = i + 1 - k;
  return hit != negate;
}

// Whether the single-character token at p[k] matches `c`; its length in `len`.
bool token(std::string_view p, std::size_t k, char c, std::size_t& len) {
  if (p[k] == '?') {
    len = 1;
    return true;
  }
  if (p[k] == '[') {
    bool hit = bracket(p, k, static_cast<unsigned char>(c), len);
    if (len != 0) return hit;
  }
  if (p[k] == '\\' && k + 1 < p.size()) {
    len = 2;
    return p[k + 1] == c;
  }
  len = 1;
  return p[k] == c;
}

}  // namespace

bool glob_match(std::string_view p, std::string_view s) {
  std::size_t pi = 0, si = 0;
  std::size_t star_p = std::string_view::npos, star_s = 0;
  while (si < s.size()) {
    std::size_t len = 0;
    if (pi < p.size() && p[pi] == '*') {
      while (pi < p.size() && p[pi] == '*') ++pi;
      star_p = pi;
      star_s = si;
    } else if (pi < p.size() && token(p, pi, s[si], len)) {
      pi += len;
      ++si;
    } else if (star_p != std::string_view::npos) {
      pi = star_p;
      si = ++star_s;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

}  // namespace sbr
