#include "analyzer/check/fingerprint.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sbr {
namespace {

// FNV-1a, 64-bit: small, stable across platforms and releases.
std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

std::string condition_key(const Condition& c) {
  if (c.always()) return "";
  // The renderer joins path conditions as "when A and B"; a term itself never contains " and "
  // outside a parenthesised "not (...)", which stays one term.
  std::string_view s = c.text;
  if (s.rfind("when ", 0) == 0) s.remove_prefix(5);
  std::vector<std::string> terms;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')') --depth;
    if (depth == 0 && s.compare(i, 5, " and ") == 0) {
      terms.emplace_back(s.substr(start, i - start));
      start = i + 5;
      i += 4;
    }
  }
  terms.emplace_back(s.substr(start));
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  std::string key = c.needs_switch ? "switch" : "default";
  for (const auto& t : terms) key += '\x1e' + t;
  return key;
}

std::string fingerprint(const Finding& f) {
  const std::string condition = condition_key(f.condition());
  const std::string& identity = f.identity.empty() ? f.subject : f.identity;
  std::uint64_t h = fnv1a(kFingerprintVersion);
  for (std::string_view part : {f.rule_id.str(), std::string_view(identity),
                                std::string_view(condition), std::string_view(f.fact_path)}) {
    h = fnv1a("\x1f", h);
    h = fnv1a(part, h);
  }
  return fmt::format("{:016x}", h);
}

std::vector<std::string> finding_keys(const Finding& f) {
  std::vector<std::string> keys{f.fingerprint};
  for (const SharedWith& s : f.shared_with) keys.push_back(s.fingerprint);
  for (const Reason& r : f.reasons) keys.push_back(r.fingerprint);
  return keys;
}

std::set<std::string> finding_keys(const std::vector<Finding>& findings) {
  std::set<std::string> out;
  for (const Finding& f : findings) {
    for (auto& k : finding_keys(f)) out.insert(std::move(k));
  }
  return out;
}

bool known_by(const Finding& f, const std::set<std::string>& keys) {
  for (const auto& k : finding_keys(f)) {
    if (!keys.count(k)) return false;
  }
  return true;
}

}  // namespace sbr
