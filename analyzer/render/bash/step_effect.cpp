// What a firewall command does to the traffic (cleanup, deny, allow, other), read from its
// words: the observation behind the direction a swallowed failure fails in (a failed deny
// leaves traffic open, a failed allow leaves it blocked, a failed flush of a chain that is
// rebuilt next changes nothing).
#include <algorithm>
#include <cctype>
#include <sstream>

#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {
namespace {

StepEffect verdict(std::string_view target) {
  if (in(target, {"DROP", "REJECT", "drop", "reject"})) return StepEffect::Deny;
  if (in(target, {"ACCEPT", "RETURN", "accept"})) return StepEffect::Allow;
  return StepEffect::Other;
}

// A set whose name says it holds what is allowed (`allowed-hosts`, `agent_allowlist`).
bool allow_set(std::string_view name) {
  std::string low(name);
  std::transform(low.begin(), low.end(), low.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* p : {"allow", "permit", "white", "trust"})
    if (low.find(p) != std::string::npos) return true;
  return false;
}

// iptables, ip6tables, ebtables, arptables (and their -legacy / -nft variants).
StepEffect xtables_effect(const std::vector<std::string>& a) {
  for (size_t i = 1; i < a.size(); ++i) {
    const std::string& w = a[i];
    if (in(w, {"-F", "--flush", "-X", "--delete-chain", "-Z", "--zero", "-D", "--delete", "-N",
               "--new-chain", "--new"}))
      return StepEffect::Cleanup;
    if (w == "-P" || w == "--policy")
      return i + 2 < a.size() ? verdict(a[i + 2]) : StepEffect::Other;
    if (in(w, {"-A", "--append", "-I", "--insert", "-R", "--replace"})) {
      for (size_t j = i + 1; j + 1 < a.size(); ++j)
        if (a[j] == "-j" || a[j] == "--jump") return verdict(a[j + 1]);
      return StepEffect::Other;
    }
  }
  return StepEffect::Other;
}

// nft COMMAND...: the words re-split, since `nft 'add rule ...'` is one word.
StepEffect nft_effect(const std::vector<std::string>& a) {
  std::vector<std::string> t;
  for (size_t i = 1; i < a.size(); ++i) {
    if (a[i] == "-f" || a[i] == "--file") return StepEffect::Other;  // a ruleset: enforces
    std::istringstream in_words(a[i]);
    for (std::string w; in_words >> w;) t.push_back(w);
  }
  size_t v = 0;
  while (v < t.size() && starts(t[v], "-")) ++v;
  if (v >= t.size()) return StepEffect::Other;
  if (in(t[v], {"delete", "flush", "destroy"})) return StepEffect::Cleanup;
  if (!in(t[v], {"add", "insert", "create", "replace"}) || v + 1 >= t.size())
    return StepEffect::Other;
  const std::string& object = t[v + 1];
  if (object == "rule" || object == "chain") {
    for (size_t j = t.size(); j-- > v + 2;) {
      std::string w = t[j];
      while (!w.empty() && (w.back() == ';' || w.back() == '}')) w.pop_back();
      if (verdict(w) != StepEffect::Other) return verdict(w);
    }
    return StepEffect::Other;
  }
  if (object == "element") {
    for (size_t j = v + 2; j < t.size() && t[j] != "{"; ++j)
      if (allow_set(t[j])) return StepEffect::Allow;
  }
  return StepEffect::Other;
}

StepEffect ipset_effect(const std::vector<std::string>& a) {
  for (size_t i = 1; i < a.size(); ++i) {
    const std::string& w = a[i];
    if (starts(w, "-") && !in(w, {"-X", "-F", "-D", "-A"})) continue;
    if (in(w, {"destroy", "x", "-X", "flush", "-F", "del", "-D"})) return StepEffect::Cleanup;
    if (in(w, {"add", "-A"}))
      return i + 1 < a.size() && allow_set(a[i + 1]) ? StepEffect::Allow : StepEffect::Other;
    return StepEffect::Other;
  }
  return StepEffect::Other;
}

}  // namespace

StepEffect step_effect(const std::vector<std::string>& words) {
  if (words.empty()) return StepEffect::Other;
  std::string b = base_name(words[0]);
  if (b == "nft") return nft_effect(words);
  if (b == "ipset") return ipset_effect(words);
  bool xtables = b.find("tables") != std::string::npos && b.find("restore") == std::string::npos;
  return xtables ? xtables_effect(words) : StepEffect::Other;
}

}  // namespace sbr::bash
