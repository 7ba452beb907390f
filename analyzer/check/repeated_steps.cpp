#include "analyzer/check/repeated_steps.h"

#include <fmt/format.h>

#include <map>
#include <string>
#include <tuple>

#include "analyzer/check/group.h"
#include "analyzer/support/strings.h"

namespace sbr {
namespace {

std::string kind_words(RepeatedStep s, std::size_t n) {
  if (s == RepeatedStep::Test) return n == 1 ? "test launch" : "test launches";
  return n == 1 ? "helper step" : "helper steps";
}

}  // namespace

void fold_repeated_steps(std::vector<Finding>& findings) {
  using Key = std::tuple<RuleId, FileId, Severity, RepeatedStep>;
  std::map<Key, std::size_t> first;  // the finding the others of its key join
  std::map<std::size_t, std::vector<std::uint32_t>> joined;  // the lines each one took in
  std::vector<bool> drop(findings.size(), false);
  for (std::size_t i = 0; i < findings.size(); ++i) {
    Finding& f = findings[i];
    if (f.step == RepeatedStep::None || !f.accepted_reason.empty()) continue;
    auto [it, fresh] = first.emplace(Key{f.rule_id, f.at.file, f.severity, f.step}, i);
    if (fresh) continue;
    Finding& into = findings[it->second];
    into.related.push_back({f.at, fmt::format("the same for {}", std::string(f.label))});
    into.shared_with.push_back({f.subject, f.label, f.fingerprint});
    joined[it->second].push_back(f.at.line);
    drop[i] = true;
  }
  for (const auto& [i, lines] : joined) {
    Finding& f = findings[i];
    f.message += fmt::format(" (the same in {} more {} of this file, {})", lines.size(),
                             kind_words(f.step, lines.size()), at_lines(lines));
  }
  erase_marked(findings, drop);
}

}  // namespace sbr
