// A small positioned YAML tree, built from yaml-cpp's parser events one document at a time.
// yaml-cpp's own Node keeps a whole stream alive and costs ~70 KB per Deployment; this tree is
// freed after each document, so a 10,000-document stream stays small.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sbr::yaml {

enum class Kind : std::uint8_t { Null, Scalar, Sequence, Map };

struct Node {
  Kind kind = Kind::Null;
  bool quoted = false;       // "true" in quotes is a string, not a boolean
  bool flow = false;         // a flow collection (`{a: 1}`, `[a]`), not an indented block
  std::uint32_t line = 0;    // 1-based, absolute in the file
  std::uint32_t column = 0;  // 1-based
  std::string scalar;
  std::vector<const Node*> items;                            // Sequence
  std::vector<std::pair<const Node*, const Node*>> entries;  // Map, in order

  bool is_map() const { return kind == Kind::Map; }
  bool is_seq() const { return kind == Kind::Sequence; }
  bool is_scalar() const { return kind == Kind::Scalar; }
  bool is_null() const { return kind == Kind::Null; }

  // Map lookup by scalar key (the last of duplicates, as the API server's decoder keeps);
  // follows `<<` merge keys. nullptr when absent or not a map.
  const Node* get(std::string_view key) const;
  // The key node of an entry (for locations of "the key line").
  const Node* key_node(std::string_view key) const;
  // Scalar accessors; nullopt when the node is not a scalar of that type.
  std::optional<bool> as_bool() const;  // YAML 1.1 booleans, as Kubernetes reads them
  std::optional<std::int64_t> as_int() const;
  std::optional<std::string_view> as_string() const;  // any scalar
};

struct DuplicateKey {
  std::string key;
  std::uint32_t line = 0, column = 0;
  bool same_value = false;  // both values the same scalar: no parser reads another one
};

struct Document {
  std::deque<Node> arena;
  const Node* root = nullptr;  // nullptr for an empty document
  std::uint32_t start_line = 1;
  std::vector<DuplicateKey> duplicates;
  bool over_budget = false;  // alias expansion would exceed the node budget
  bool anchors = false;      // an anchor or alias occurs: nodes may be shared
};

struct ParseFailure {
  std::string message;
  std::uint32_t line = 0, column = 0;
  bool too_deep = false;  // nesting past kMaxDepth: a bound of sbreview's, not a syntax error
};

// Collections nested deeper than this stop the document (ParseFailure::too_deep) at the node
// that crossed it: every walker over the tree may then recurse without guarding its depth, and
// yaml-cpp's own recursion stops long before its stack does.
inline constexpr std::size_t kMaxDepth = 256;

// Reads a YAML (or JSON) stream document by document. After a parse error it resynchronises
// at the next document marker, so one broken document does not hide the others.
class DocumentReader {
 public:
  explicit DocumentReader(std::string_view text, std::uint64_t node_budget = 2'000'000);
  ~DocumentReader();
  DocumentReader(const DocumentReader&) = delete;
  DocumentReader& operator=(const DocumentReader&) = delete;

  enum class Status { Document, Error, End };
  // Fills `doc` (Status::Document) or `error` (Status::Error); Status::End when done.
  Status next(Document& doc, ParseFailure& error);

 private:
  struct Impl;
  Impl* impl_;
};

// Replaces JSONC comments and trailing commas with spaces, keeping every offset, so a
// devcontainer.json parses as JSON with the same line/column positions.
std::string strip_jsonc(std::string_view text);

}  // namespace sbr::yaml
