#include "analyzer/check/implied.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace sbr {

void drop_implied(std::vector<Finding>& findings) {
  using Key = std::tuple<FileId, std::uint32_t, std::uint32_t, std::string, std::string>;
  std::map<Key, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    groups[{f.at.file, f.at.line, f.at.column, std::string(f.rule_id.str()), f.fact_path}]
        .push_back(i);
  }
  std::vector<bool> drop(findings.size(), false);
  for (const auto& [key, members] : groups) {
    if (members.size() < 2) continue;
    for (std::size_t i : members) {
      const Condition& narrow = findings[i].condition();
      if (narrow.always()) continue;
      for (std::size_t j : members) {
        const Condition& wide = findings[j].condition();
        if (i != j && !(narrow == wide) && narrow.implies(wide)) {
          drop[i] = true;
          break;
        }
      }
    }
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (drop[i]) continue;
    if (kept != i) findings[kept] = std::move(findings[i]);
    ++kept;
  }
  findings.resize(kept);
}

void drop_switch_repeats(std::vector<Finding>& findings) {
  using Key = std::tuple<std::string, std::string, std::string>;
  auto key = [](const Finding& f) {
    return Key{std::string(f.rule_id.str()), f.identity.empty() ? f.subject : f.identity,
               f.fact_path};
  };
  std::set<Key> always;
  for (const Finding& f : findings) {
    if (f.condition().always()) always.insert(key(f));
  }
  auto repeat = [&](const Finding& f) {
    return from_render_switch(f.condition()) && always.count(key(f)) > 0;
  };
  findings.erase(std::remove_if(findings.begin(), findings.end(), repeat), findings.end());
}

}  // namespace sbr
