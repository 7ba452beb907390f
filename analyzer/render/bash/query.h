// Tree-sitter queries over bash syntax, for the patterns that read more clearly as a query than
// as a walk (queries/*.scm, embedded at build time). Text predicates (`#eq?`, `#any-of?`,
// `#not-any-of?`) are evaluated here: the C runtime only parses them.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/render/bash/syntax.h"

namespace sbr::bash {

struct QueryMatch {
  std::vector<std::pair<std::string_view, TSNode>> captures;  // capture name, node
  // The node captured as `name`, or a null node.
  TSNode operator[](std::string_view name) const;
};

class Query {
 public:
  // The query in queries/NAME.scm, compiled on first use. A missing or invalid query is a
  // defect of this build (std::logic_error), caught by the query tests, never by input.
  static const Query& get(std::string_view name);

  // Every match under `root` whose text predicates hold on `tree`'s text, in document order.
  // The cursor walks iteratively: a deeply nested file costs no native stack.
  std::vector<QueryMatch> matches(TSNode root, const SyntaxTree& tree) const;

  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;
  ~Query();

 private:
  struct Predicate {
    enum class Op { Eq, AnyOf, NotAnyOf } op;
    uint32_t capture;
    std::vector<std::string_view> values;
  };
  Query(std::string_view name, std::string_view source);
  bool holds(const TSQueryMatch& m, const SyntaxTree& tree) const;

  TSQuery* q_ = nullptr;
  std::vector<std::vector<Predicate>> predicates_;  // by pattern index
};

}  // namespace sbr::bash
