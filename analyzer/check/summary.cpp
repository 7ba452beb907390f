#include "analyzer/check/summary.h"

#include <fmt/args.h>
#include <fmt/format.h>

#include <algorithm>

#include "analyzer/check/catalog.h"

namespace sbr {

Result<std::vector<std::string>> summary_parameters(std::string_view s) {
  std::vector<std::string> names;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '}') {
      if (i + 1 < s.size() && s[i + 1] == '}') {
        ++i;
        continue;
      }
      return Error{fmt::format("unmatched `}}` at offset {}", i)};
    }
    if (s[i] != '{') continue;
    if (i + 1 < s.size() && s[i + 1] == '{') {
      ++i;
      continue;
    }
    size_t end = s.find('}', i);
    std::string_view name =
        end == std::string_view::npos ? s.substr(i + 1) : s.substr(i + 1, end - i - 1);
    bool valid = end != std::string_view::npos && !name.empty() &&
                 std::all_of(name.begin(), name.end(), [](char c) {
                   return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
                 });
    if (!valid) return Error{fmt::format("`{{{}` at offset {} is not a {{parameter}}", name, i)};
    names.emplace_back(name);
    i = end;
  }
  return names;
}

std::string render_summary(const Rule& rule, const MessageArgs& args) {
  if (rule.summary.empty()) {
    throw CatalogError(
        fmt::format("rule {} ({}) has no summary, but its check supplies only "
                    "parameters",
                    rule.id, rule.slug));
  }
  fmt::dynamic_format_arg_store<fmt::format_context> store;
  for (const std::string& name : rule.summary_params) {
    auto it =
        std::find_if(args.begin(), args.end(), [&](const MessageArg& a) { return name == a.name; });
    if (it == args.end()) {
      throw CatalogError(
          fmt::format("rule {} ({}): its summary names {{{}}}, which the check "
                      "does not supply",
                      rule.id, rule.slug, name));
    }
  }
  for (const MessageArg& a : args) store.push_back(fmt::arg(a.name, a.value));
  return fmt::vformat(rule.summary, store);
}

std::string rule_message(RuleId id, const MessageArgs& args) {
  const Rule* rule = Catalog::embedded().find(id);
  if (rule == nullptr) {
    throw CatalogError(fmt::format("rule {} is not in the catalog", id));
  }
  return render_summary(*rule, args);
}

}  // namespace sbr
