#include "analyzer/check/implied.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>
#include <string_view>
#include <tuple>

#include "analyzer/check/group.h"

namespace sbr {
namespace {

// Both passes index the findings rather than copy keys: a map of copied keys held every
// finding's rule and fact a second time, about 25 MB at the end of a 10,000-workload stream
// (docs/robustness.md, "Memory").
auto place_fact(const Finding& f) {
  return std::tuple<FileId, std::uint32_t, std::uint32_t, RuleId, std::string_view>(
      f.at.file, f.at.line, f.at.column, f.rule_id, f.fact_path);
}

// Marks the members of one run (same place, rule and fact) that a weaker condition implies.
void mark_implied(const std::vector<Finding>& findings, const std::uint32_t* first,
                  const std::uint32_t* last, std::vector<bool>& drop) {
  for (const std::uint32_t* i = first; i != last; ++i) {
    const Condition& narrow = findings[*i].condition();
    if (narrow.always()) continue;
    for (const std::uint32_t* j = first; j != last; ++j) {
      const Condition& wide = findings[*j].condition();
      if (i != j && !(narrow == wide) && narrow.implies(wide)) {
        drop[*i] = true;
        break;
      }
    }
  }
}

}  // namespace

void drop_implied(std::vector<Finding>& findings) {
  bool any = std::any_of(findings.begin(), findings.end(),
                         [](const Finding& f) { return !f.condition().always(); });
  if (!any) return;  // only a conditional finding can be implied by another
  std::vector<std::uint32_t> order(findings.size());
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return place_fact(findings[a]) < place_fact(findings[b]);
  });
  std::vector<bool> drop(findings.size(), false);
  for (std::size_t begin = 0; begin < order.size();) {
    std::size_t end = begin + 1;
    while (end < order.size() &&
           place_fact(findings[order[end]]) == place_fact(findings[order[begin]])) {
      ++end;
    }
    if (end - begin > 1) mark_implied(findings, &order[begin], order.data() + end, drop);
    begin = end;
  }
  erase_marked(findings, drop);
}

void drop_switch_repeats(std::vector<Finding>& findings) {
  // The rule as a RuleId, not a view: its text is inside the finding, which remove_if moves.
  using Key = std::tuple<RuleId, std::string_view, std::string_view>;
  auto key = [](const Finding& f) {
    return Key{f.rule_id, f.identity.empty() ? f.subject.view() : f.identity.view(),
               f.fact_path.view()};
  };
  // The keys of the flipped renders' findings (few), then which of them the default render has.
  std::set<Key> flipped, repeated;
  for (const Finding& f : findings) {
    if (from_render_switch(f.condition())) flipped.insert(key(f));
  }
  if (flipped.empty()) return;
  for (const Finding& f : findings) {
    if (f.condition().always() && flipped.count(key(f)) > 0) repeated.insert(key(f));
  }
  auto repeat = [&](const Finding& f) {
    return from_render_switch(f.condition()) && repeated.count(key(f)) > 0;
  };
  findings.erase(std::remove_if(findings.begin(), findings.end(), repeat), findings.end());
}

}  // namespace sbr
