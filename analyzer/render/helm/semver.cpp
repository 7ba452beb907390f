#include "analyzer/render/helm/semver.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <vector>

namespace sbr::render::helm {

namespace {

struct Version {
  std::array<long, 3> n{0, 0, 0};
  int given = 0;  // parts written; "1.x" has 1 and a wildcard
  bool wildcard = false;
  std::string pre;
};

std::string trim_spaces(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(0, 1);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

bool parse(std::string s, Version& v) {
  s = trim_spaces(s);
  if (!s.empty() && (s[0] == 'v' || s[0] == 'V')) s.erase(0, 1);
  auto plus = s.find('+');
  if (plus != std::string::npos) s.resize(plus);
  auto dash = s.find('-');
  if (dash != std::string::npos) {
    v.pre = s.substr(dash + 1);
    s.resize(dash);
  }
  std::size_t start = 0;
  for (int k = 0; k < 3 && start <= s.size(); ++k) {
    std::size_t dot = s.find('.', start);
    std::string part = s.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part == "x" || part == "X" || part == "*") {
      v.wildcard = true;
      return true;
    }
    auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v.n[k]);
    if (ec != std::errc() || p != part.data() + part.size()) return false;
    v.given = k + 1;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return v.given > 0 || v.wildcard;
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// Masterminds' comparePrePart: numbers compare as numbers and below words, a missing part
// below any.
int compare_part(const std::string& a, const std::string& b) {
  if (a == b) return 0;
  if (a.empty() || b.empty()) return a.empty() ? -1 : 1;
  const bool na = all_digits(a) && a.size() <= 19, nb = all_digits(b) && b.size() <= 19;
  if (na && nb) return std::stoull(a) > std::stoull(b) ? 1 : -1;
  if (na != nb) return na ? -1 : 1;
  return a > b ? 1 : -1;
}

std::vector<std::string> dot_parts(const std::string& s) {
  std::vector<std::string> parts;
  for (std::size_t k = 0;; ++k) {
    std::size_t dot = s.find('.', k);
    parts.push_back(s.substr(k, dot - k));
    if (dot == std::string::npos) return parts;
    k = dot;
  }
}

// Masterminds' comparePrerelease: dot-separated parts in turn.
int compare_prerelease(const std::string& a, const std::string& b) {
  const std::vector<std::string> pa = dot_parts(a), pb = dot_parts(b);
  for (std::size_t k = 0; k < std::max(pa.size(), pb.size()); ++k) {
    int d = compare_part(k < pa.size() ? pa[k] : "", k < pb.size() ? pb[k] : "");
    if (d != 0) return d;
  }
  return 0;
}

int compare(const Version& a, const Version& b) {
  for (int k = 0; k < 3; ++k) {
    if (a.n[k] != b.n[k]) return a.n[k] < b.n[k] ? -1 : 1;
  }
  if (a.pre == b.pre) return 0;
  if (a.pre.empty()) return 1;
  if (b.pre.empty()) return -1;
  return compare_prerelease(a.pre, b.pre);
}

Version bump(const Version& v, int part) {
  Version r;
  for (int k = 0; k < part; ++k) r.n[k] = v.n[k];
  r.n[part] = v.n[part] + 1;
  r.pre = "0";  // the lowest version above: prereleases of the next count as above
  return r;
}

bool one(std::string c, const Version& v, std::string& error) {
  c = trim_spaces(c);
  std::string op;
  while (!c.empty() && std::string("<>=!~^").find(c[0]) != std::string::npos) {
    op += c[0];
    c.erase(0, 1);
  }
  Version want;
  if (!parse(c, want)) {
    error = "improper constraint: " + op + c;
    return false;
  }
  // Without a prerelease in the constraint, prerelease versions do not match.
  if (!v.pre.empty() && want.pre.empty()) return false;
  int parts = want.wildcard ? want.given : want.given;
  if (op.empty() || op == "=") {
    if (want.wildcard || want.given < 3) {
      for (int k = 0; k < parts; ++k) {
        if (v.n[k] != want.n[k]) return false;
      }
      return true;
    }
    return compare(v, want) == 0;
  }
  if (op == "!=") return compare(v, want) != 0;
  if (op == ">")
    return want.wildcard || want.given < 3 ? compare(v, bump(want, std::max(0, parts - 1))) >= 0
                                           : compare(v, want) > 0;
  if (op == ">=") return compare(v, want) >= 0;
  if (op == "<") return compare(v, want) < 0;
  if (op == "<=")
    return want.given < 3 ? compare(v, bump(want, std::max(0, parts - 1))) < 0
                          : compare(v, want) <= 0;
  if (op == "~" || op == "~>")
    return compare(v, want) >= 0 && compare(v, bump(want, want.given >= 2 ? 1 : 0)) < 0;
  if (op == "^") {
    int part = want.n[0] > 0 || want.given < 2 ? 0 : (want.n[1] > 0 || want.given < 3 ? 1 : 2);
    return compare(v, want) >= 0 && compare(v, bump(want, part)) < 0;
  }
  error = "improper constraint operator: " + op;
  return false;
}

std::vector<std::string> split_on(const std::string& s, const std::string& sep) {
  std::vector<std::string> out;
  std::size_t k = 0;
  for (std::size_t f; (f = s.find(sep, k)) != std::string::npos; k = f + sep.size())
    out.push_back(s.substr(k, f - k));
  out.push_back(s.substr(k));
  return out;
}

}  // namespace

bool semver_satisfies(const std::string& constraint, const std::string& version,
                      std::string& error) {
  Version v;
  if (!parse(version, v) || v.wildcard) {
    error = "invalid semantic version: " + version;
    return false;
  }
  for (const std::string& alt : split_on(constraint, "||")) {
    bool all = true;
    std::string spaced = alt;
    for (char& c : spaced) {
      if (c == ',') c = ' ';
    }
    // "a b" and "a, b" both mean and; an operator is joined to its version.
    std::vector<std::string> parts;
    std::string cur;
    for (char c : spaced) {
      if (c == ' ' && !cur.empty() && std::string("<>=!~^").find(cur.back()) == std::string::npos) {
        parts.push_back(cur);
        cur.clear();
      } else if (c != ' ') {
        cur += c;
      }
    }
    if (!cur.empty()) parts.push_back(cur);
    for (const std::string& p : parts) all = all && one(p, v, error);
    if (!error.empty()) return false;
    if (all && !parts.empty()) return true;
  }
  return false;
}

bool semver_normalize(const std::string& text, std::string& out) {
  Version v;
  std::string meta;
  if (auto plus = text.find('+'); plus != std::string::npos) meta = text.substr(plus);
  if (!parse(text, v) || v.wildcard) return false;
  out = std::to_string(v.n[0]) + "." + std::to_string(v.n[1]) + "." + std::to_string(v.n[2]) +
        (v.pre.empty() ? "" : "-" + v.pre) + meta;
  return true;
}

bool semver_order(const std::string& a, const std::string& b, int& order) {
  Version va, vb;
  if (!parse(a, va) || !parse(b, vb) || va.wildcard || vb.wildcard) return false;
  order = compare(va, vb);
  return true;
}

}  // namespace sbr::render::helm
