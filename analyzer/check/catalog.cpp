#include "analyzer/check/catalog.h"

#include <fmt/format.h>

#include <algorithm>

#include "analyzer/support/yaml_tree.h"

namespace sbr {
namespace embedded {
const std::vector<std::pair<std::string_view, std::string_view>>& rule_files();
}

Result<Rule> Catalog::parse_rule(std::string_view text, std::string_view origin) {
  yaml::DocumentReader reader(text);
  yaml::Document doc;
  yaml::ParseFailure fail;
  auto st = reader.next(doc, fail);
  if (st == yaml::DocumentReader::Status::Error) {
    return Error{fmt::format("{}:{}:{}: {}", origin, fail.line, fail.column, fail.message)};
  }
  if (st != yaml::DocumentReader::Status::Document || doc.root == nullptr || !doc.root->is_map()) {
    return Error{fmt::format("{}:1:1: a rule file holds one mapping", origin)};
  }
  const yaml::Node& r = *doc.root;
  auto text_of = [&](std::string_view key, bool required) -> Result<std::string> {
    const yaml::Node* n = r.get(key);
    if (n == nullptr || !n->is_scalar()) {
      if (!required) return std::string();
      return Error{fmt::format("{}:{}:{}: missing string `{}`", origin, r.line, r.column, key)};
    }
    return n->scalar;
  };
  Rule rule;
  static const char* const kKnown[] = {"id",         "slug",    "title",       "invariant",
                                       "severity",   "message", "remediation", "references",
                                       "applies_to", "origin"};
  for (const auto& [k, v] : r.entries) {
    bool known = false;
    for (const char* name : kKnown) known = known || k->scalar == name;
    if (!known) {
      return Error{
          fmt::format("{}:{}:{}: unknown key `{}`", origin, k->line, k->column, k->scalar)};
    }
  }
  for (auto [key, field] : {std::pair{"id", &rule.id},
                            {"slug", &rule.slug},
                            {"title", &rule.title},
                            {"message", &rule.message},
                            {"remediation", &rule.remediation}}) {
    auto v = text_of(key, true);
    if (!v) return v.error();
    *field = *v;
  }
  const yaml::Node* inv = r.get("invariant");
  if (inv == nullptr || !inv->as_int() || *inv->as_int() < 0 || *inv->as_int() > 7) {
    return Error{fmt::format("{}:{}:{}: `invariant` must be 0-7", origin, r.line, r.column)};
  }
  rule.invariant = static_cast<int>(*inv->as_int());
  auto sev = text_of("severity", true);
  if (!sev) return sev.error();
  auto parsed = parse_severity(*sev);
  if (!parsed) {
    return Error{
        fmt::format("{}: severity `{}` is not critical|high|medium|low|note", origin, *sev)};
  }
  rule.severity = *parsed;
  if (rule.id.size() != 6 || rule.id.substr(0, 2) != "SB" || rule.id[2] - '0' != rule.invariant) {
    return Error{fmt::format("{}: id `{}` must be SB<invariant><nnn>", origin, rule.id)};
  }
  for (const char* list : {"references", "applies_to"}) {
    if (const yaml::Node* n = r.get(list); n != nullptr && n->is_seq()) {
      for (const yaml::Node* item : n->items) {
        if (item->is_scalar()) {
          (std::string_view(list) == "references" ? rule.references : rule.engines)
              .push_back(item->scalar);
        }
      }
    }
  }
  return rule;
}

void Catalog::add(Rule r) {
  auto pos = std::lower_bound(rules_.begin(), rules_.end(), r.id,
                              [](const Rule& a, const std::string& id) { return a.id < id; });
  rules_.insert(pos, std::move(r));
  by_id_.clear();
  for (size_t i = 0; i < rules_.size(); ++i) by_id_[rules_[i].id] = i;
}

const Rule* Catalog::find(std::string_view id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &rules_[it->second];
}

int Catalog::index_of(std::string_view id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? -1 : static_cast<int>(it->second);
}

const Catalog& Catalog::embedded() {
  static const Catalog catalog = [] {
    Catalog c;
    for (const auto& [path, text] : embedded::rule_files()) {
      auto r = parse_rule(text, path);
      // A broken catalog is a build defect; the catalog test reports it with its location.
      if (r) c.add(std::move(*r));
    }
    return c;
  }();
  return catalog;
}

}  // namespace sbr
