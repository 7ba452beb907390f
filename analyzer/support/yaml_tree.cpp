#include "analyzer/support/yaml_tree.h"

#include <fmt/format.h>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace sbr::yaml {

const Node* Node::get(std::string_view key) const {
  if (kind != Kind::Map) return nullptr;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    if (it->first->kind == Kind::Scalar && it->first->scalar == key) return it->second;
  }
  // Merge keys (`<<: *base`): yaml-cpp does not apply them; compose files rely on them.
  for (const auto& [k, v] : entries) {
    if (k->kind != Kind::Scalar || k->scalar != "<<" || k->quoted) continue;
    if (v->kind == Kind::Map) {
      if (const Node* n = v->get(key)) return n;
    } else if (v->kind == Kind::Sequence) {
      for (const Node* m : v->items) {
        if (const Node* n = m->get(key)) return n;
      }
    }
  }
  return nullptr;
}

const Node* Node::key_node(std::string_view key) const {
  if (kind != Kind::Map) return nullptr;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    if (it->first->kind == Kind::Scalar && it->first->scalar == key) return it->first;
  }
  return nullptr;
}

std::optional<bool> Node::as_bool() const {
  if (kind != Kind::Scalar || quoted) return std::nullopt;
  static const char* const kTrue[] = {"true", "True", "TRUE", "yes", "Yes", "YES",
                                      "on",   "On",   "ON",   "y",   "Y"};
  static const char* const kFalse[] = {"false", "False", "FALSE", "no", "No", "NO",
                                       "off",   "Off",   "OFF",   "n",  "N"};
  for (const char* t : kTrue) {
    if (scalar == t) return true;
  }
  for (const char* f : kFalse) {
    if (scalar == f) return false;
  }
  return std::nullopt;
}

std::optional<std::int64_t> Node::as_int() const {
  if (kind != Kind::Scalar || quoted || scalar.empty()) return std::nullopt;
  std::int64_t v = 0;
  const char* b = scalar.data();
  const char* e = b + scalar.size();
  if (*b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || p != e) return std::nullopt;
  return v;
}

std::optional<std::string_view> Node::as_string() const {
  if (kind != Kind::Scalar) return std::nullopt;
  return std::string_view(scalar);
}

namespace {

constexpr std::uint64_t kSaturate = ~std::uint64_t{0} >> 1;

// Thrown out of the parser by the builder when collections nest past kMaxDepth.
struct TooDeep {
  std::uint32_t line, column;  // absolute, 1-based
};

// Builds the tree from parser events. Anchors are registered when their node is complete, so a
// recursive alias cannot form a cycle.
class Builder : public YAML::EventHandler {
 public:
  Builder(Document& doc, std::uint32_t line_base, std::uint64_t budget)
      : doc_(doc), line_base_(line_base), budget_(budget) {}

  void OnDocumentStart(const YAML::Mark& mark) override {
    doc_.start_line = line_base_ + static_cast<std::uint32_t>(mark.line) + 1;
    start_ = mark;
  }
  // Where the document started, as the parser counts (relative to where it was started).
  const YAML::Mark& start() const { return start_; }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Node* n = make(Kind::Null, mark);
    finish(n, anchor, 1);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    doc_.anchors = true;
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      doc_.over_budget = true;  // recursive alias: refuse rather than loop
      attach(make(Kind::Null, mark), 1);
      return;
    }
    attach(it->second.first, it->second.second);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    Node* n = make(Kind::Scalar, mark);
    n->scalar = value;
    n->quoted = tag == "!";
    finish(n, anchor, 1);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value style) override {
    open(make(Kind::Sequence, mark, style), anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value style) override {
    open(make(Kind::Map, mark, style), anchor);
  }
  void OnMapEnd() override {
    check_duplicates(*stack_.back().node);
    close();
  }

 private:
  YAML::Mark start_ = YAML::Mark::null_mark();
  struct Open {
    Node* node;
    YAML::anchor_t anchor;
    std::uint64_t weight;
    const Node* pending_key;
  };

  Node* make(Kind k, const YAML::Mark& mark,
             YAML::EmitterStyle::value style = YAML::EmitterStyle::Default) {
    Node& n = doc_.arena.emplace_back();
    n.kind = k;
    n.flow = style == YAML::EmitterStyle::Flow;
    n.line = line_base_ + static_cast<std::uint32_t>(mark.line) + 1;
    n.column = static_cast<std::uint32_t>(mark.column) + 1;
    return &n;
  }
  void open(Node* n, YAML::anchor_t anchor) {
    if (stack_.size() >= kMaxDepth) throw TooDeep{n->line, n->column};
    stack_.push_back({n, anchor, 1, nullptr});
  }
  void close() {
    Open o = stack_.back();
    stack_.pop_back();
    finish(o.node, o.anchor, o.weight);
  }
  void finish(Node* n, YAML::anchor_t anchor, std::uint64_t weight) {
    if (anchor != YAML::NullAnchor) {
      doc_.anchors = true;
      anchors_[anchor] = {n, weight};
    }
    attach(n, weight);
  }
  void attach(const Node* n, std::uint64_t weight) {
    if (stack_.empty()) {
      doc_.root = n;
      if (weight > budget_) doc_.over_budget = true;
      return;
    }
    Open& top = stack_.back();
    top.weight = std::min(kSaturate, top.weight + weight);
    if (top.weight > budget_) doc_.over_budget = true;
    if (top.node->kind == Kind::Sequence) {
      top.node->items.push_back(n);
    } else if (top.pending_key == nullptr) {
      top.pending_key = n;
    } else {
      top.node->entries.emplace_back(top.pending_key, n);
      top.pending_key = nullptr;
    }
  }
  void check_duplicates(const Node& map) {
    if (map.entries.size() < 2) return;
    std::unordered_map<std::string_view, const Node*> seen;
    for (const auto& [k, v] : map.entries) {
      if (k->kind != Kind::Scalar || k->scalar == "<<") continue;
      auto [it, fresh] = seen.emplace(k->scalar, v);
      if (fresh) continue;
      // The same scalar twice (a chart's label written and included again): whichever value
      // a parser keeps, it is the same one.
      const Node* first = it->second;
      doc_.duplicates.push_back({k->scalar, k->line, k->column, same_scalar(*first, *v)});
      it->second = v;
    }
  }
  // Two scalars every parser reads as one value: the same text, and the same type (`"true"`
  // and `true` are a string and a boolean; `"app"` and `app` are one string).
  static bool same_scalar(const Node& a, const Node& b) {
    if (a.kind != Kind::Scalar || b.kind != Kind::Scalar || a.scalar != b.scalar) return false;
    if (a.quoted == b.quoted) return true;
    const Node& plain = a.quoted ? b : a;
    return !plain.as_bool() && !plain.as_int() && plain.scalar != "null" && plain.scalar != "~" &&
           !plain.scalar.empty();
  }

  Document& doc_;
  std::uint32_t line_base_;
  std::uint64_t budget_;
  std::vector<Open> stack_;
  std::map<YAML::anchor_t, std::pair<const Node*, std::uint64_t>> anchors_;
};

// Offset of the first line at or after `from_line` (1-based, absolute) that starts a new
// document ("---" followed by space or end of line), or npos; scanning from `pos`, the start of
// line `line`: a stream of 100,000 broken documents resyncs 100,000 times, and scanning from its
// start each time took seconds (found by the chart_gen fuzz target).
size_t next_document_marker(std::string_view text, std::uint32_t from_line, size_t pos,
                            std::uint32_t line) {
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    std::string_view l =
        text.substr(pos, eol == std::string_view::npos ? text.size() - pos : eol - pos);
    if (line >= from_line && l.substr(0, 3) == "---" &&
        (l.size() == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r')) {
      return pos;
    }
    if (eol == std::string_view::npos) break;
    pos = eol + 1;
    ++line;
  }
  return std::string_view::npos;
}

}  // namespace

// An istream over the caller's text without copying it: a 60 MB stream must not be held twice.
struct ViewBuf : std::streambuf {
  explicit ViewBuf(std::string_view v) {
    char* p = const_cast<char*>(v.data());  // read-only: the get area is never written
    setg(p, p, p + v.size());
  }
};

struct DocumentReader::Impl {
  std::string_view text;
  std::uint64_t budget = 0;
  size_t offset = 0;            // where the current parser started
  std::uint32_t line_base = 0;  // lines before `offset`
  std::unique_ptr<ViewBuf> buf;
  std::unique_ptr<std::istream> stream;
  std::unique_ptr<YAML::Parser> parser;
  bool done = false;
  int last_start = -1;  // where the current parser's previous document started

  // yaml-cpp 0.7 never gets past a `,` at the start of a document: it reports an empty
  // document there again and again. A document that starts where the previous one did is
  // that, not another document (a 7-byte file read as 10,000 documents).
  bool stuck(const YAML::Mark& start) {
    bool same = !start.is_null() && start.pos == last_start;
    last_start = start.is_null() ? last_start : start.pos;
    return same;
  }

  // Resynchronises at the first document marker at or after `line`, or ends the stream.
  void skip_past(std::uint32_t line) {
    // `offset` starts line line_base + 1; everything before it was read already.
    size_t next = next_document_marker(text, line, offset, line_base + 1);
    if (next == std::string_view::npos || next <= offset) {
      done = true;
      return;
    }
    line_base += static_cast<std::uint32_t>(
        std::count(text.begin() + static_cast<std::ptrdiff_t>(offset),
                   text.begin() + static_cast<std::ptrdiff_t>(next), '\n'));
    offset = next;
    restart();
  }

  void restart() {
    last_start = -1;
    parser.reset();
    buf = std::make_unique<ViewBuf>(text.substr(offset));
    stream = std::make_unique<std::istream>(buf.get());
    parser = std::make_unique<YAML::Parser>(*stream);
  }
};

DocumentReader::DocumentReader(std::string_view text, std::uint64_t node_budget)
    : impl_(new Impl()) {
  impl_->text = text;
  impl_->budget = node_budget;
  impl_->restart();
}

DocumentReader::~DocumentReader() {
  delete impl_;
}

DocumentReader::Status DocumentReader::next(Document& doc, ParseFailure& error) {
  Impl& s = *impl_;
  if (s.done) return Status::End;
  doc = Document{};
  Builder builder(doc, s.line_base, s.budget);
  try {
    if (!s.parser->HandleNextDocument(builder)) {
      s.done = true;
      return Status::End;
    }
    if (s.stuck(builder.start())) {
      const YAML::Mark& at = builder.start();
      const size_t pos = s.offset + static_cast<size_t>(at.pos);
      const bool comma = pos < s.text.size() && s.text[pos] == ',';
      std::uint32_t line = s.line_base + static_cast<std::uint32_t>(at.line) + 1;
      error = ParseFailure{comma ? "a `,` outside a flow collection (`[...]` or `{...}`)"
                                 : "the YAML parser does not advance past this point",
                           line, static_cast<std::uint32_t>(at.column) + 1};
      doc = Document{};
      s.skip_past(line);
      return Status::Error;
    }
    return Status::Document;
  } catch (const TooDeep& deep) {
    error = ParseFailure{fmt::format("collections nested more than {} levels deep", kMaxDepth),
                         deep.line, deep.column, true};
    s.skip_past(deep.line);
    return Status::Error;
  } catch (const YAML::Exception& e) {
    // yaml-cpp reports DeepRecursion at 0:0; place it at the document start instead.
    std::uint32_t line = s.line_base + static_cast<std::uint32_t>(e.mark.line) + 1;
    std::uint32_t col = static_cast<std::uint32_t>(e.mark.column) + 1;
    if (e.mark.is_null() || (e.mark.line == 0 && e.mark.column == 0 && e.mark.pos == 0)) {
      line = doc.start_line;
      col = 1;
    }
    error = ParseFailure{e.msg, line, col};
    s.skip_past(line);
    return Status::Error;
  }
}

std::string strip_jsonc(std::string_view text) {
  std::string out(text);
  enum class St { Code, String, Line, Block } st = St::Code;
  size_t last_comma = std::string::npos;  // a comma that may turn out to be trailing
  for (size_t i = 0; i < out.size(); ++i) {
    char c = out[i];
    switch (st) {
      case St::String:
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          st = St::Code;
        }
        break;
      case St::Line:
        if (c == '\n') {
          st = St::Code;
        } else {
          out[i] = ' ';
        }
        break;
      case St::Block:
        if (c == '*' && i + 1 < out.size() && out[i + 1] == '/') {
          out[i] = out[i + 1] = ' ';
          ++i;
          st = St::Code;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
      case St::Code:
        if (c == '"') {
          st = St::String;
          last_comma = std::string::npos;
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
          out[i] = out[i + 1] = ' ';
          ++i;
          st = St::Line;
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
          out[i] = out[i + 1] = ' ';
          ++i;
          st = St::Block;
        } else if (c == ',') {
          last_comma = i;
        } else if (c == '}' || c == ']') {
          if (last_comma != std::string::npos) out[last_comma] = ' ';
          last_comma = std::string::npos;
        } else if (c == '\t') {
          out[i] = ' ';  // YAML forbids tabs where JSON allows them
        } else if (c != ' ' && c != '\n' && c != '\r') {
          last_comma = std::string::npos;
        }
        break;
    }
  }
  return out;
}

}  // namespace sbr::yaml
