// Why a spliced region reads as it would in place. The region is whole entries (keys, or `- `
// items) of one block collection P at indentation k: it starts at an entry's first line and
// ends before the next line indented k or less, with every line between indented more (or
// blank, or a comment). In place, yaml-cpp reads such lines with P's indentation on top of its
// stack, exactly as it reads them alone in a document whose top collection sits at column k:
// a plain scalar continues only on lines indented past k, and a block scalar's content is
// indented past k. Alone, the region is followed by a document end marker, so that a quoted
// scalar or flow collection left open fails instead of running to the end of the text, and a
// key that no `:` followed (which yaml-cpp accepts only at the end of a document) is refused.
// The entries before the region end before its first line in both texts (that line starts an
// entry of P in the old tree, and the line after the region starts P's next entry or ends P)
// and the lines after it are the same text. What differs is only the position a null takes
// (yaml-cpp places it at the next token), which is remapped below. When the entries at the
// changed lines' indentation do not qualify, those of the enclosing collection are tried.
// Everything else (tabs, carriage returns, directives, document markers, anchors and aliases,
// flow collections as P, a region that empties P) is refused, and the caller parses whole.
#include "analyzer/support/yaml_splice.h"

#include <algorithm>
#include <string>
#include <unordered_set>

#include "analyzer/support/yaml_splice_guards.h"
#include "analyzer/support/yaml_splice_lines.h"

namespace sbr::yaml {

using splice::bare_key;
using splice::Change;
using splice::changed_indent;
using splice::changed_lines;
using splice::enclosing_indent;
using splice::entry_lines;
using splice::has_directive;
using splice::indent_of;
using splice::kNone;
using splice::Lines;
using splice::next_line_read;
using splice::Region;
using splice::region_at;
using splice::split_lines;
using splice::value_line;

namespace {

const Node* child_at(const Node& c, std::size_t i) {
  return c.kind == Kind::Map ? c.entries[i].first : c.items[i];
}
std::size_t child_count(const Node& c) {
  return c.kind == Kind::Map ? c.entries.size() : c.items.size();
}

bool child_starts(const Node& c, const Node& child, std::uint32_t line, std::uint32_t k) {
  if (child.line != line) return false;
  return c.kind == Kind::Map ? child.column == k + 1 : child.column > k + 1;
}

// The block collection with a child starting at `line` (indentation k), and the collections
// above it (path.back() is the collection). Descends through values and items only.
bool find_path(const Node* n, std::uint32_t line, std::uint32_t k, std::vector<const Node*>& path) {
  if (n == nullptr || (n->kind != Kind::Map && n->kind != Kind::Sequence)) return false;
  path.push_back(n);
  for (std::size_t i = 0; i < child_count(*n); ++i) {
    if (!n->flow && child_starts(*n, *child_at(*n, i), line, k)) return true;
    const Node* inner = n->kind == Kind::Map ? n->entries[i].second : n->items[i];
    if (find_path(inner, line, k, path)) return true;
  }
  path.pop_back();
  return false;
}

int depth_of(const Node* n) {
  if (n == nullptr || (n->kind != Kind::Map && n->kind != Kind::Sequence)) return 0;
  int d = 0;
  for (std::size_t i = 0; i < child_count(*n); ++i) {
    d = std::max(d, depth_of(child_at(*n, i)));
    if (n->kind == Kind::Map) d = std::max(d, depth_of(n->entries[i].second));
  }
  return d + 1;
}

// Copies nodes into a document's arena, moving each position as its part of the text moved.
class Copier {
 public:
  explicit Copier(Document& out) : out_(out) {}

  // Every node of `n` with its line moved by `shift`.
  const Node* shifted(const Node* n, std::int64_t shift) {
    return copy(n, [shift](std::uint32_t& line, std::uint32_t&) {
      line = static_cast<std::uint32_t>(line + shift);
      return true;
    });
  }
  // Every node of `n` as it is, except a null placed at the old region's first token, which
  // takes the new text's token after the same place.
  template <class Fix>
  const Node* copy(const Node* n, const Fix& fix) {
    if (n == nullptr) return nullptr;
    Node& c = out_.arena.emplace_back();
    c.kind = n->kind;
    c.quoted = n->quoted;
    c.flow = n->flow;
    c.line = n->line;
    c.column = n->column;
    if (!fix(c.line, c.column)) failed = true;
    c.scalar = n->scalar;
    c.items.reserve(n->items.size());
    for (const Node* i : n->items) c.items.push_back(copy(i, fix));
    c.entries.reserve(n->entries.size());
    for (const auto& [k, v] : n->entries) {
      const Node* key = copy(k, fix);
      c.entries.emplace_back(key, copy(v, fix));
    }
    return &c;
  }
  Node& fresh(const Node& like) {
    Node& c = out_.arena.emplace_back();
    c.kind = like.kind;
    c.quoted = like.quoted;
    c.flow = like.flow;
    c.line = like.line;
    c.column = like.column;
    return c;
  }

  bool failed = false;

 private:
  Document& out_;
};

// The one document of a region's text (its lines moved to where they sit), or nullopt.
std::optional<Document> parse_region(std::string_view text, std::uint32_t line_base,
                                     std::uint64_t budget) {
  DocumentReader reader(text, budget);
  Document doc, none;
  ParseFailure failure;
  if (reader.next(doc, failure) != DocumentReader::Status::Document) return std::nullopt;
  if (reader.next(none, failure) != DocumentReader::Status::End) return std::nullopt;
  if (doc.anchors || doc.over_budget || doc.root == nullptr || doc.root->flow ||
      bare_key(doc.root)) {
    return std::nullopt;
  }
  for (Node& n : doc.arena) n.line += line_base;
  return doc;
}

}  // namespace

Document copy_document(const Document& doc, std::int64_t shift) {
  Document out;
  Copier c(out);
  out.root = c.shifted(doc.root, shift);
  out.start_line = static_cast<std::uint32_t>(doc.start_line + shift);
  out.duplicates = doc.duplicates;
  for (DuplicateKey& d : out.duplicates) d.line = static_cast<std::uint32_t>(d.line + shift);
  out.over_budget = doc.over_budget;
  out.anchors = doc.anchors;
  return out;
}

namespace {

void collect_duplicates(const Node* n, std::vector<DuplicateKey>& out) {
  if (n == nullptr) return;
  for (const Node* i : n->items) collect_duplicates(i, out);
  for (const auto& [k, v] : n->entries) {
    collect_duplicates(k, out);
    collect_duplicates(v, out);
  }
  if (n->kind != Kind::Map || n->entries.size() < 2) return;
  std::unordered_set<std::string_view> seen;
  for (const auto& [k, v] : n->entries) {
    if (k->kind != Kind::Scalar || k->scalar == "<<") continue;
    if (!seen.insert(k->scalar).second) out.push_back({k->scalar, k->line, k->column});
  }
}

}  // namespace

namespace {

using Pos = std::pair<std::uint32_t, std::uint32_t>;  // line, column (1-based)

// What is replaced: the children [first, last) of path.back(), by `region`'s root's children.
struct Splice {
  std::vector<const Node*> path;
  std::size_t first = 0, last = 0;
  const Node* region = nullptr;  // nullptr: the entries are removed
  std::uint32_t after_line = 0;  // old lines from here on moved by `shift`
  std::int64_t shift = 0;
  Pos old_next, new_next;  // the first token after the unchanged lines above the region
};

class SpliceCopier {
 public:
  SpliceCopier(Document& out, const Splice& s) : c_(out), s_(s) {}

  const Node* run() { return node(0); }
  bool failed() const { return c_.failed; }

 private:
  bool before(std::uint32_t& line, std::uint32_t& column) const {
    if (line < s_.old_next.first) return true;
    if (Pos{line, column} != s_.old_next) return false;
    line = s_.new_next.first;
    column = s_.new_next.second;
    return true;
  }
  bool after(std::uint32_t& line, std::uint32_t&) const {
    if (line < s_.after_line) return false;
    line = static_cast<std::uint32_t>(line + s_.shift);
    return true;
  }
  const Node* copy_before(const Node* n) {
    return c_.copy(n, [this](std::uint32_t& l, std::uint32_t& c) { return before(l, c); });
  }
  const Node* copy_after(const Node* n) {
    return c_.copy(n, [this](std::uint32_t& l, std::uint32_t& c) { return after(l, c); });
  }
  const Node* copy_same(const Node* n) {
    return c_.copy(n, [](std::uint32_t&, std::uint32_t&) { return true; });
  }

  // The collection at path[depth], rebuilt around the splice.
  const Node* node(std::size_t depth) {
    const Node& n = *s_.path[depth];
    Node& out = c_.fresh(n);
    if (!before(out.line, out.column)) c_.failed = true;
    if (depth + 1 == s_.path.size()) {
      children(n, out);
      return &out;
    }
    const Node* next = s_.path[depth + 1];
    bool seen = false;
    for (std::size_t i = 0; i < child_count(n); ++i) {
      const Node* inner = n.kind == Kind::Map ? n.entries[i].second : n.items[i];
      const Node* copied = inner == next ? node(depth + 1)
                           : seen        ? copy_after(inner)
                                         : copy_before(inner);
      if (n.kind == Kind::Map) {
        const Node* key = seen ? copy_after(n.entries[i].first) : copy_before(n.entries[i].first);
        out.entries.emplace_back(key, copied);
      } else {
        out.items.push_back(copied);
      }
      seen = seen || inner == next;
    }
    return &out;
  }

  void children(const Node& p, Node& out) {
    for (std::size_t i = 0; i < child_count(p); ++i) {
      if (i == s_.first && s_.region != nullptr) add_region(out);
      if (i >= s_.first && i < s_.last) continue;
      bool later = i >= s_.last;
      if (p.kind == Kind::Map) {
        const auto& [k, v] = p.entries[i];
        const Node* key = later ? copy_after(k) : copy_before(k);
        out.entries.emplace_back(key, later ? copy_after(v) : copy_before(v));
      } else {
        out.items.push_back(later ? copy_after(p.items[i]) : copy_before(p.items[i]));
      }
    }
    if (s_.first == child_count(p) && s_.region != nullptr) add_region(out);
  }

  void add_region(Node& out) {
    for (const Node* i : s_.region->items) out.items.push_back(copy_same(i));
    for (const auto& [k, v] : s_.region->entries) {
      const Node* key = copy_same(k);
      out.entries.emplace_back(key, copy_same(v));
    }
  }

  Copier c_;
  const Splice& s_;
};

}  // namespace

std::vector<DuplicateKey> duplicate_keys(const Node* root) {
  std::vector<DuplicateKey> out;
  collect_duplicates(root, out);
  return out;
}

}  // namespace sbr::yaml

namespace sbr::yaml {

namespace {

// The children of `c` that start in lines [from, to) (1-based) are those of `lines`, in order:
// sets [first, last) to their indexes.
bool match_children(const Node& c, const std::vector<std::uint32_t>& lines, std::uint32_t from,
                    std::uint32_t to, std::uint32_t k, std::size_t& first, std::size_t& last) {
  std::size_t i = 0;
  const std::size_t count = child_count(c);
  while (i < count && child_at(c, i)->line < from) ++i;
  first = i;
  for (std::uint32_t line : lines) {
    if (i == count || !child_starts(c, *child_at(c, i), line, k)) return false;
    ++i;
  }
  last = i;
  return i == count || child_at(c, i)->line >= to;
}

// The line after the region, when indented k, must start P's next child, or end a sequence
// that sits at its parent key's indentation (`key:` then `- item`); any other line there (an
// item of a sequence in the last entry's value, an explicit key's `: value`) belongs to the
// region's last entry.
bool ends_region(const Lines& o, const Region& r, const Node& p, std::size_t next) {
  if (r.old_end == o.size() || r.b_indent != r.k) return true;
  if (next < child_count(p) && child_at(p, next)->line == r.old_end + 1) return true;
  std::string_view t = o.text[r.old_end].substr(r.k);
  bool dash = t[0] == '-' && (t.size() == 1 || t[1] == ' ');
  return p.kind == Kind::Sequence && !dash;
}

// Finds the collection the region's entries belong to, and which of its children they are.
bool locate(const Documents& base, const Lines& o, const Region& r, Splice& s, std::size_t& doc) {
  std::size_t target = r.a;
  while (target < r.old_end && indent_of(o.text[target]) != r.k) ++target;
  if (target == r.old_end && (r.old_end == o.size() || r.b_indent != r.k)) return false;
  for (doc = 0; doc < base.size(); ++doc) {
    s.path.clear();
    if (find_path(base[doc].root, static_cast<std::uint32_t>(target + 1), r.k, s.path)) break;
  }
  if (doc == base.size()) return false;
  const Node& p = *s.path.back();
  auto lines = entry_lines(o, r.a, r.old_end, r.k, p.kind == Kind::Sequence);
  if (!lines || !match_children(p, *lines, static_cast<std::uint32_t>(r.a + 1),
                                static_cast<std::uint32_t>(r.old_end + 1), r.k, s.first, s.last)) {
    return false;
  }
  return ends_region(o, r, p, s.last);
}

// Parses the region's new lines; false when they are not entries of the same collection.
bool parse_new(std::string_view text, const Lines& n, const Region& r, std::uint64_t budget,
               Splice& s, std::optional<Document>& region) {
  const Node& p = *s.path.back();
  auto lines = entry_lines(n, r.a, r.new_end, r.k, p.kind == Kind::Sequence);
  if (!lines || lines->empty() != (r.a == r.new_end)) return false;
  if (lines->empty()) return true;
  // Before the next line, a document end marker: yaml-cpp reads a quoted scalar left open up
  // to the end of the text, where in place it would run on into the next lines.
  std::string alone;
  if (r.new_end < n.size()) {
    alone = std::string(text.substr(n.start[r.a], n.start[r.new_end] - n.start[r.a])) + "...\n";
  } else {
    alone = std::string(text.substr(n.start[r.a]));
  }
  region = parse_region(alone, static_cast<std::uint32_t>(r.a), budget);
  if (!region || region->root->kind != p.kind) return false;
  std::size_t first = 0, last = 0;
  auto end = static_cast<std::uint32_t>(r.new_end + 1);
  if (!match_children(*region->root, *lines, 0, end, r.k, first, last) || first != 0 ||
      last != child_count(*region->root)) {
    return false;
  }
  if (s.path.size() + static_cast<std::size_t>(depth_of(region->root)) - 1 > kMaxDepth) {
    return false;
  }
  // Alone, a null at the region's end sits at the end marker (column 1 of the line after the
  // region); in place, at the first token of that line.
  if (r.new_end < n.size()) {
    for (Node& node : region->arena) {
      if (node.line == end && node.column == 1) node.column = r.b_indent + 1;
    }
  }
  s.region = region->root;
  return true;
}

// Where the first token after the unchanged lines above the region sits, in each text.
bool next_tokens(std::string_view text, const Lines& n, const Region& r, Splice& s) {
  auto a = static_cast<std::uint32_t>(r.a + 1);
  s.old_next = r.a < r.old_end ? Pos{a, r.k + 1}
                               : Pos{static_cast<std::uint32_t>(r.old_end + 1), r.b_indent + 1};
  if (s.region != nullptr) {
    s.new_next = {a, r.k + 1};
  } else if (r.new_end < n.size()) {
    s.new_next = {a, r.b_indent + 1};
  } else {
    if (!text.empty() && text.back() != '\n') return false;
    s.new_next = {a, 1};
  }
  return true;
}

}  // namespace

namespace {

// The documents with the region's entries replaced, or nullopt when the region is not whole
// entries of one block collection in both texts.
std::optional<Documents> splice_region(const Documents& base, const Lines& o, std::string_view text,
                                       const Lines& n, const Region& r, std::uint64_t budget) {
  if ((r.a < r.new_end && value_line(n.text[r.a])) ||
      (r.new_end < n.size() && value_line(n.text[r.new_end]))) {
    return std::nullopt;
  }
  Splice s;
  std::size_t doc = 0;
  std::optional<Document> region;
  // A key that no `:` followed is a key only as the last thing in a document: once the
  // entries around it change, it may be a plain scalar instead (`a:` then `b` is a map, `b`
  // alone a scalar), which the old tree cannot show.
  if (!locate(base, o, r, s, doc) || bare_key(base[doc].root) ||
      !next_line_read(base[doc].root, o, r) || !parse_new(text, n, r, budget, s, region) ||
      !next_tokens(text, n, r, s)) {
    return std::nullopt;
  }
  const Node& p = *s.path.back();
  if (s.first == s.last && s.region == nullptr) return std::nullopt;
  if (s.first == 0 && s.last == child_count(p) && s.region == nullptr) return std::nullopt;
  if (base[doc].start_line > r.a + 1) return std::nullopt;
  s.after_line = static_cast<std::uint32_t>(r.old_end + 1);
  s.shift = static_cast<std::int64_t>(n.size()) - static_cast<std::int64_t>(o.size());
  Documents out;
  for (std::size_t i = 0; i < doc; ++i) out.push_back(copy_document(base[i]));
  Document& spliced = out.emplace_back();
  SpliceCopier copier(spliced, s);
  spliced.root = copier.run();
  if (copier.failed() || spliced.arena.size() > budget) return std::nullopt;
  spliced.start_line = base[doc].start_line;
  spliced.duplicates = duplicate_keys(spliced.root);
  for (std::size_t i = doc + 1; i < base.size(); ++i) {
    out.push_back(copy_document(base[i], s.shift));
  }
  return out;
}

}  // namespace

namespace {

// One span of changed lines (from the first to the last that differ).
std::optional<Documents> splice_span(const Documents& base, const Lines& o, std::string_view text,
                                     const Lines& n, std::uint64_t budget) {
  Change c = changed_lines(o, n);
  // The entries at the changed lines' indentation first; when those are not whole entries
  // (the change is inside a scalar, or changes an entry's indentation), the entries of the
  // collection around them, and so on outwards.
  for (std::uint32_t k = changed_indent(o, n, c); k != kNone; k = enclosing_indent(o, c, k)) {
    auto r = region_at(o, n, c, k);
    if (!r) continue;
    if (auto out = splice_region(base, o, text, n, *r, budget)) return out;
  }
  return std::nullopt;
}

// Hunks apart (a switch that adds an environment variable and a volume), one at a time: each
// step is a span splice, equal to the whole read of its text, and the last text is `text`.
std::optional<Documents> splice_hunks(const Documents& base, const std::vector<std::string>& steps,
                                      std::string_view base_text, std::uint64_t budget) {
  std::optional<Documents> docs;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    Lines o = split_lines(i == 0 ? base_text : steps[i - 1]), n = split_lines(steps[i]);
    docs = splice_span(i == 0 ? base : *docs, o, steps[i], n, budget);
    if (!docs) return std::nullopt;
  }
  return docs;
}

}  // namespace

std::optional<Documents> splice_stream(std::string_view base_text, const Documents& base,
                                       std::string_view text, std::uint64_t node_budget) {
  for (const Document& d : base) {
    if (d.over_budget || d.anchors) return std::nullopt;
  }
  if (text == base_text) {
    Documents out;
    for (const Document& d : base) out.push_back(copy_document(d));
    return out;
  }
  if (text.substr(0, 3) == "\xEF\xBB\xBF" || base_text.substr(0, 3) == "\xEF\xBB\xBF") {
    return std::nullopt;
  }
  Lines o = split_lines(base_text), n = split_lines(text);
  if (has_directive(o) || has_directive(n)) return std::nullopt;
  std::vector<std::string> steps = hunk_steps(base_text, o, text, n, changed_lines(o, n));
  if (!steps.empty()) {
    if (auto out = splice_hunks(base, steps, base_text, node_budget)) return out;
  }
  return splice_span(base, o, text, n, node_budget);
}

}  // namespace sbr::yaml
