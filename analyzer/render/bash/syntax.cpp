#include "analyzer/render/bash/syntax.h"

#include <cstdint>
#include <cstring>
#include <string_view>

namespace sbr::bash {

SyntaxTree::~SyntaxTree() {
  if (tree != nullptr) ts_tree_delete(tree);
}

std::unique_ptr<SyntaxTree> parse_bash(std::string text) {
  auto t = std::make_unique<SyntaxTree>();
  t->text = std::move(text);
  TSParser* p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_bash());
  t->tree =
      ts_parser_parse_string(p, nullptr, t->text.data(), static_cast<uint32_t>(t->text.size()));
  ts_parser_delete(p);
  return t;
}

bool SyntaxTree::touches_repair(TSNode n) const {
  if (repairs.empty() || ts_node_is_null(n)) return false;
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  for (const Repair& r : repairs) {
    if (r.affected_begin < r.affected_end && r.affected_begin < e && b < r.affected_end)
      return true;
  }
  return false;
}

bool SyntaxTree::within_repair(TSNode n) const {
  if (repairs.empty() || ts_node_is_null(n)) return false;
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  for (const Repair& r : repairs) {
    if (r.affected_begin < r.affected_end && r.affected_begin <= b && e <= r.affected_end)
      return true;
  }
  return false;
}

std::string_view SyntaxTree::shown(TSNode n) const {
  if (original.size() != text.size()) return slice(n);
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (b > original.size()) return {};
  return std::string_view(original).substr(b, std::min<size_t>(e, original.size()) - b);
}

bool SyntaxTree::background_at(std::uint32_t byte) const {
  for (const Repair& r : repairs) {
    if (r.background && r.statement == byte) return true;
  }
  return false;
}

namespace {

struct Kinds {
  std::vector<K> by_symbol;             // indexed by TSSymbol
  std::vector<TSFieldId> by_field;      // indexed by F
  std::vector<std::string_view> names;  // indexed by K
};

// Every grammar symbol whose name and namedness match an entry of the table maps to it: a
// name can have several internal symbols (aliases), and all of them are the same kind here.
Kinds resolve_kinds() {
  const TSLanguage* lang = tree_sitter_bash();
  Kinds k;
  k.names.emplace_back("");
  std::vector<std::pair<std::string_view, bool>> table{{"", false}};
#define SBR_K(n) table.emplace_back(#n, true);
  SBR_BASH_NODE_KINDS(SBR_K)
#undef SBR_K
#define SBR_K(n, text) table.emplace_back(text, false);
  SBR_BASH_TOKEN_KINDS(SBR_K)
#undef SBR_K
  for (std::size_t i = 1; i < table.size(); ++i) k.names.push_back(table[i].first);
  uint32_t count = ts_language_symbol_count(lang);
  k.by_symbol.assign(count, K::unknown);
  for (uint32_t s = 0; s < count; ++s) {
    auto sym = static_cast<TSSymbol>(s);
    std::string_view name = ts_language_symbol_name(lang, sym);
    bool named = ts_language_symbol_type(lang, sym) == TSSymbolTypeRegular;
    for (std::size_t i = 1; i < table.size(); ++i) {
      if (table[i].first == name && table[i].second == named) {
        k.by_symbol[s] = static_cast<K>(i);
        break;
      }
    }
  }
  for (const char* f : {
#define SBR_F(n) #n,
           SBR_BASH_FIELDS(SBR_F)
#undef SBR_F
       }) {
    k.by_field.push_back(
        ts_language_field_id_for_name(lang, f, static_cast<uint32_t>(std::strlen(f))));
  }
  return k;
}

const Kinds& kinds() {
  static const Kinds k = resolve_kinds();
  return k;
}

}  // namespace

K sym(TSNode n) {
  if (ts_node_is_null(n)) return K::unknown;
  const auto& t = kinds().by_symbol;
  TSSymbol s = ts_node_symbol(n);
  return s < t.size() ? t[s] : K::unknown;
}

std::string_view kind_name(K k) {
  const auto& names = kinds().names;
  auto i = static_cast<std::size_t>(k);
  return i < names.size() ? names[i] : std::string_view{};
}

TSNode field(TSNode n, F f) {
  return ts_node_child_by_field_id(n, kinds().by_field[static_cast<std::size_t>(f)]);
}

std::vector<TSNode> named_children(TSNode n) {
  std::vector<TSNode> out;
  uint32_t c = ts_node_named_child_count(n);
  out.reserve(c);
  for (uint32_t i = 0; i < c; ++i) out.push_back(ts_node_named_child(n, i));
  return out;
}

std::vector<TSNode> children(TSNode n) {
  std::vector<TSNode> out;
  uint32_t c = ts_node_child_count(n);
  out.reserve(c);
  for (uint32_t i = 0; i < c; ++i) out.push_back(ts_node_child(n, i));
  return out;
}

std::vector<GuardSite> guard_sites(TSNode root) {
  std::vector<GuardSite> out;
  walk_preorder(root, [&out](TSNode n) {
    if (sym(n) == K::if_statement) {
      out.push_back({n, {}, {}});
    } else if (sym(n) == K::list && ts_node_child_count(n) == 3 &&
               std::strcmp(ts_node_type(ts_node_child(n, 1)), "||") == 0 &&
               ts_node_is_named(ts_node_child(n, 0)) && ts_node_is_named(ts_node_child(n, 2))) {
      out.push_back({{}, ts_node_child(n, 0), ts_node_child(n, 2)});
    }
    return Walk::Into;
  });
  return out;
}

TSNode find_token(TSNode root, const char* type, uint32_t from, uint32_t to, bool last) {
  TSNode found{};
  walk_preorder(root, [&](TSNode n) {
    uint32_t b = ts_node_start_byte(n);
    if (b > to) return Walk::Stop;  // every later node starts later still
    if (ts_node_end_byte(n) < from) return Walk::Over;
    if (b >= from && !ts_node_is_named(n) && std::strcmp(ts_node_type(n), type) == 0) {
      found = n;
      if (!last) return Walk::Stop;
    }
    return Walk::Into;
  });
  return found;
}

TSNode first_error(TSNode root) {
  if (!ts_node_has_error(root)) return TSNode{};
  TSNode found{};
  walk_preorder(root, [&found](TSNode n) {
    if (std::strcmp(ts_node_type(n), "ERROR") == 0 || ts_node_is_missing(n)) {
      found = n;
      return Walk::Stop;
    }
    return ts_node_has_error(n) ? Walk::Into : Walk::Over;
  });
  // An ERROR node can wrap a long valid prefix; the innermost error inside it (or its first
  // unexpected token) is where the text stops making sense.
  while (!ts_node_is_null(found) && !ts_node_is_missing(found)) {
    TSNode inner{};
    uint32_t n = ts_node_child_count(found);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode ch = ts_node_child(found, i);
      if (std::strcmp(ts_node_type(ch), "ERROR") == 0 || ts_node_has_error(ch)) {
        inner = ch;
        break;
      }
    }
    if (ts_node_is_null(inner)) break;
    if (std::strcmp(ts_node_type(inner), "ERROR") != 0 && !ts_node_is_missing(inner)) {
      TSNode deeper = first_error(inner);
      if (ts_node_is_null(deeper)) break;
      inner = deeper;
    }
    if (ts_node_eq(inner, found)) break;
    found = inner;
  }
  return found;
}

TSNode trailing_dollar(TSNode n) {
  const std::uint32_t count = ts_node_child_count(n);
  if (count == 0) return TSNode{};
  TSNode last = ts_node_child(n, count - 1);
  if (ts_node_is_named(last) || std::string_view(ts_node_type(last)) != "$") return TSNode{};
  return last;
}

}  // namespace sbr::bash
