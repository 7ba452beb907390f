#include "analyzer/render/bash/query.h"

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace sbr::embedded {
const std::vector<std::pair<std::string_view, std::string_view>>& query_files();
}

namespace sbr::bash {

TSNode QueryMatch::operator[](std::string_view name) const {
  for (const auto& [n, node] : captures)
    if (n == name) return node;
  return TSNode{};
}

namespace {

std::string_view value_of(const TSQuery* q, const TSQueryPredicateStep& s) {
  uint32_t len = 0;
  const char* v = s.type == TSQueryPredicateStepTypeCapture
                      ? ts_query_capture_name_for_id(q, s.value_id, &len)
                      : ts_query_string_value_for_id(q, s.value_id, &len);
  return {v, len};
}

}  // namespace

Query::Query(std::string_view name, std::string_view source) {
  uint32_t err_offset = 0;
  TSQueryError err = TSQueryErrorNone;
  q_ = ts_query_new(tree_sitter_bash(), source.data(), static_cast<uint32_t>(source.size()),
                    &err_offset, &err);
  if (q_ == nullptr)
    throw std::logic_error("query " + std::string(name) + " does not compile at offset " +
                           std::to_string(err_offset));
  uint32_t patterns = ts_query_pattern_count(q_);
  predicates_.resize(patterns);
  for (uint32_t p = 0; p < patterns; ++p) {
    uint32_t n = 0;
    const TSQueryPredicateStep* steps = ts_query_predicates_for_pattern(q_, p, &n);
    // Each predicate is: a string (its name), operands, then a Done step.
    for (uint32_t i = 0; i < n;) {
      uint32_t end = i;
      while (end < n && steps[end].type != TSQueryPredicateStepTypeDone) ++end;
      std::string_view op = value_of(q_, steps[i]);
      Predicate pr{};
      if (op == "eq?")
        pr.op = Predicate::Op::Eq;
      else if (op == "any-of?")
        pr.op = Predicate::Op::AnyOf;
      else if (op == "not-any-of?")
        pr.op = Predicate::Op::NotAnyOf;
      else
        throw std::logic_error("query " + std::string(name) + ": unsupported predicate " +
                               std::string(op));
      if (end < i + 3 || steps[i + 1].type != TSQueryPredicateStepTypeCapture)
        throw std::logic_error("query " + std::string(name) + ": #" + std::string(op) +
                               " needs a capture and a value");
      pr.capture = steps[i + 1].value_id;
      for (uint32_t k = i + 2; k < end; ++k) pr.values.push_back(value_of(q_, steps[k]));
      predicates_[p].push_back(std::move(pr));
      i = end + 1;
    }
  }
}

Query::~Query() {
  if (q_ != nullptr) ts_query_delete(q_);
}

const Query& Query::get(std::string_view name) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Query>, std::less<>> compiled;
  std::lock_guard<std::mutex> lock(mu);
  auto it = compiled.find(name);
  if (it != compiled.end()) return *it->second;
  std::string path = "analyzer/render/bash/queries/" + std::string(name) + ".scm";
  for (const auto& [file, text] : embedded::query_files()) {
    if (file != path) continue;
    auto q = std::unique_ptr<Query>(new Query(name, text));
    return *compiled.emplace(std::string(name), std::move(q)).first->second;
  }
  throw std::logic_error("no embedded query " + path);
}

bool Query::holds(const TSQueryMatch& m, const SyntaxTree& tree) const {
  for (const Predicate& p : predicates_[m.pattern_index]) {
    bool found = false;
    std::string_view text;
    for (uint16_t i = 0; i < m.capture_count; ++i) {
      if (m.captures[i].index != p.capture) continue;
      found = true;
      text = tree.slice(m.captures[i].node);
      break;
    }
    if (!found) continue;  // an optional capture that did not match: nothing to test
    bool any = false;
    for (std::string_view v : p.values) any = any || v == text;
    bool ok = p.op == Predicate::Op::NotAnyOf ? !any : any;
    if (p.op == Predicate::Op::Eq) ok = !p.values.empty() && p.values.front() == text;
    if (!ok) return false;
  }
  return true;
}

std::vector<QueryMatch> Query::matches(TSNode root, const SyntaxTree& tree) const {
  std::vector<QueryMatch> out;
  TSQueryCursor* c = ts_query_cursor_new();
  ts_query_cursor_exec(c, q_, root);
  TSQueryMatch m;
  while (ts_query_cursor_next_match(c, &m)) {
    if (!holds(m, tree)) continue;
    QueryMatch qm;
    for (uint16_t i = 0; i < m.capture_count; ++i) {
      uint32_t len = 0;
      const char* nm = ts_query_capture_name_for_id(q_, m.captures[i].index, &len);
      qm.captures.emplace_back(std::string_view(nm, len), m.captures[i].node);
    }
    out.push_back(std::move(qm));
  }
  ts_query_cursor_delete(c);
  return out;
}

}  // namespace sbr::bash
