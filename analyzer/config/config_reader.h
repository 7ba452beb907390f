// The pieces every section reader of `.sbreview.yaml` shares (config.cpp reads the policy
// sections, config_sections.cpp the input and limit sections): errors with the file's
// position, typed accessors, and list sections. Internal to the config layer.
#pragma once

#include <fmt/format.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/config/config.h"
#include "analyzer/support/result.h"
#include "analyzer/support/yaml_tree.h"

namespace sbr::config_reader {

using yaml::Node;

struct Parser {
  const std::string& path;
  FileId file;

  Error err(const Node* n, std::string_view what) const {
    return Error{fmt::format("{}:{}:{}: {}", path, n ? n->line : 1, n ? n->column : 1, what)};
  }
  Location loc(const Node* n) const { return Location{file, n->line, n->column}; }

  std::optional<Error> only_keys(const Node* map, std::initializer_list<std::string_view> keys,
                                 std::string_view where) const {
    for (const auto& [k, v] : map->entries) {
      bool ok = false;
      for (auto key : keys) ok = ok || k->scalar == key;
      if (!ok) return err(k, fmt::format("unknown key `{}` in {}", k->scalar, where));
    }
    return std::nullopt;
  }

  Result<std::string> str(const Node* n, std::string_view what) const {
    if (n == nullptr || !n->is_scalar()) return err(n, fmt::format("`{}` must be a string", what));
    return n->scalar;
  }

  Result<std::vector<std::string>> strings(const Node* n, std::string_view what) const {
    std::vector<std::string> out;
    if (n == nullptr || !n->is_seq()) return err(n, fmt::format("`{}` must be a list", what));
    for (const Node* i : n->items) {
      if (!i->is_scalar()) return err(i, fmt::format("`{}` entries must be strings", what));
      out.push_back(i->scalar);
    }
    return out;
  }

  Result<WorkloadSelector> selector(const Node* n) const {
    WorkloadSelector s;
    if (n == nullptr || !n->is_map()) return err(n, "`match` must be a mapping");
    if (auto e = only_keys(n, {"kind", "namespace", "name", "container", "path"}, "match"))
      return *e;
    for (auto [key, field] : {std::pair{"kind", &s.kind},
                              {"namespace", &s.ns},
                              {"name", &s.name},
                              {"container", &s.container},
                              {"path", &s.path}}) {
      if (const Node* v = n->get(key)) {
        auto t = str(v, key);
        if (!t) return t.error();
        *field = *t;
      }
    }
    return s;
  }

  static bool valid_date(std::string_view d) {
    if (d.size() != 10 || d[4] != '-' || d[7] != '-') return false;
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
      if (d[i] < '0' || d[i] > '9') return false;
    }
    return true;
  }
};

using Section = std::optional<Error> (*)(const Parser&, const Node*, Config&);

// A list section whose entries `entry` reads one by one.
template <Section entry>
std::optional<Error> read_list(const Parser& p, const Node* list, std::string_view key, Config& c) {
  if (!list->is_seq()) return p.err(list, fmt::format("`{}` must be a list", key));
  for (const Node* e : list->items) {
    if (auto bad = entry(p, e, c)) return bad;
  }
  return std::nullopt;
}

// `limits:` (docs/robustness.md), `documents:` (docs/doc-claims.md), `helm:`
// (docs/rendering.md).
std::optional<Error> read_limits(const Parser& p, const Node* l, Config& c);
std::optional<Error> read_documents(const Parser& p, const Node* n, Config& c);
std::optional<Error> read_helm(const Parser& p, const Node* h, Config& c);

}  // namespace sbr::config_reader
