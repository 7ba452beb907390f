// Node-by-node comparison of YAML documents, for the tests of spliced re-reads.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/support/yaml_splice.h"

namespace sbr::test {

// Every document of `text`, or nullopt when one of them does not parse.
inline std::optional<yaml::Documents> read_whole(std::string_view text) {
  yaml::DocumentReader reader(text);
  yaml::Documents docs;
  yaml::ParseFailure failure;
  while (true) {
    yaml::Document d;
    auto st = reader.next(d, failure);
    if (st == yaml::DocumentReader::Status::End) return docs;
    if (st == yaml::DocumentReader::Status::Error) return std::nullopt;
    docs.push_back(std::move(d));
  }
}

inline std::string where(const yaml::Node& n) {
  return std::to_string(n.line) + ":" + std::to_string(n.column);
}

// Kind, scalar, quotes, style, position and order of every node; `why` names the first
// difference.
inline bool same_nodes(const yaml::Node* a, const yaml::Node* b, std::string& why) {
  if ((a == nullptr) != (b == nullptr)) return why = "a node is missing", false;
  if (a == nullptr) return true;
  if (a->kind != b->kind || a->scalar != b->scalar || a->quoted != b->quoted ||
      a->flow != b->flow || a->line != b->line || a->column != b->column ||
      a->items.size() != b->items.size() || a->entries.size() != b->entries.size()) {
    why = "node at " + where(*a) + " ('" + a->scalar + "') differs from the node at " + where(*b) +
          " ('" + b->scalar + "')";
    return false;
  }
  for (std::size_t i = 0; i < a->items.size(); ++i) {
    if (!same_nodes(a->items[i], b->items[i], why)) return false;
  }
  for (std::size_t i = 0; i < a->entries.size(); ++i) {
    if (!same_nodes(a->entries[i].first, b->entries[i].first, why) ||
        !same_nodes(a->entries[i].second, b->entries[i].second, why)) {
      return false;
    }
  }
  return true;
}

inline bool same_documents(const yaml::Documents& a, const yaml::Documents& b, std::string& why) {
  if (a.size() != b.size()) return why = "document counts differ", false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const yaml::Document& x = a[i];
    const yaml::Document& y = b[i];
    if (x.start_line != y.start_line || x.over_budget != y.over_budget || x.anchors != y.anchors ||
        x.duplicates.size() != y.duplicates.size()) {
      why = "document " + std::to_string(i) + ": start line, budget, anchors or duplicates";
      return false;
    }
    for (std::size_t k = 0; k < x.duplicates.size(); ++k) {
      const auto& d = x.duplicates[k];
      const auto& e = y.duplicates[k];
      if (d.key != e.key || d.line != e.line || d.column != e.column) {
        return why = "duplicate key " + d.key + " differs", false;
      }
    }
    if (!same_nodes(x.root, y.root, why)) return false;
  }
  return true;
}

}  // namespace sbr::test
