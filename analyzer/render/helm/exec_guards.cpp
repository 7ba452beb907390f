// What the chart engine records about guards (exec.h): which value decided an `if`/`with`
// (a switch the chart can be rendered again with, helm/switches.cpp), which string value a
// comparison inside a guard tested, and the keys a branch not taken would have written.
#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/render/helm/exec.h"

namespace sbr::render::helm {

namespace {

// A plain `key:` line ("      runtimeClassName: x"): its indentation and key.
bool key_line(std::string_view line, std::uint32_t& indent, std::string& key) {
  std::size_t k = line.find_first_not_of(' ');
  if (k == std::string_view::npos) return false;
  std::size_t colon = line.find(':', k);
  if (colon == std::string_view::npos || colon == k) return false;
  if (colon + 1 < line.size() && line[colon + 1] != ' ') return false;
  for (std::size_t j = k; j < colon; ++j) {
    char c = line[j];
    bool ok =
        std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '/';
    if (!ok) return false;
  }
  indent = static_cast<std::uint32_t>(k);
  key = std::string(line.substr(k, colon - k));
  return true;
}

// The YAML keys a branch's own text writes at its shallowest indentation. Only lines that
// start inside a text node count: text after an action continues the action's line.
bool branch_keys(const NodeList& branch, std::uint32_t& indent, std::vector<std::string>& keys) {
  std::vector<std::pair<std::uint32_t, std::string>> found;
  for (const Node& n : branch) {
    if (n.type != Node::Type::Text) continue;
    for (std::size_t nl = n.text.find('\n'); nl != std::string::npos;
         nl = n.text.find('\n', nl + 1)) {
      std::size_t end = n.text.find('\n', nl + 1);
      std::string_view line(n.text.data() + nl + 1,
                            (end == std::string::npos ? n.text.size() : end) - nl - 1);
      std::uint32_t at = 0;
      std::string key;
      if (key_line(line, at, key)) found.emplace_back(at, std::move(key));
    }
  }
  if (found.empty()) return false;
  indent = found.front().first;
  for (const auto& f : found) indent = std::min(indent, f.first);
  for (auto& f : found) {
    if (f.first == indent) keys.push_back(std::move(f.second));
  }
  return true;
}

// `{{ fail ... }}`: helm stops the install there, so the branch has nothing to review.
bool fails(const Node& n) {
  if (n.type != Node::Type::Action || !n.pipe || n.pipe->commands.empty()) return false;
  const std::vector<Arg>& args = n.pipe->commands.front().args;
  return !args.empty() && args.front().type == Arg::Type::Identifier && args.front().name == "fail";
}

// A branch that writes nothing and sets nothing (absent, blank text, or a `fail`): whichever
// way a placeholder decides the guard, the render misses nothing there to review.
bool blank(const NodeList* branch) {
  if (branch == nullptr) return true;
  return std::all_of(branch->begin(), branch->end(), [](const Node& n) {
    return fails(n) ||
           (n.type == Node::Type::Text && n.text.find_first_not_of(" \t\r\n") == std::string::npos);
  });
}

}  // namespace

Exec::Flow Exec::guard(const Node& n, const Value& dot) {
  Location outer = std::exchange(guard_at_, n.at);
  Value v;
  {
    PlaceholderScope placeholders(*this);
    v = pipeline(*n.pipe, dot);
    if (blank(truthy(v) ? n.otherwise.get() : n.body.get())) {
      placeholders.read();  // decides nothing here, but the enclosing condition read them too
    } else {
      placeholders.decided(n.at, truthy(v));
    }
  }
  guard_at_ = outer;
  bool t = truthy(v);
  GuardSeen g{n.at, v.from, v.path, v.kind == Kind::Bool, t, {}, {}};
  if (guards_ && !v.path.empty()) guards_->push_back(g);
  // Only the template's own text keeps its offsets: an include's output is re-based.
  if (depth_ == 0) note_skipped(t ? n.otherwise.get() : n.body.get(), g);
  const Value& inner = n.type == Node::Type::With && t ? v : dot;
  if (t) return list(*n.body, inner);
  return n.otherwise ? list(*n.otherwise, dot) : Flow::Normal;
}

void Exec::note_skipped(const NodeList* branch, const GuardSeen& g) {
  if (!branch) return;
  Skipped s{out_->text.size(), g, 0, {}};
  if (branch_keys(*branch, s.indent, s.keys)) out_->skipped.push_back(std::move(s));
}

void Exec::note_comparison(const Value& x, const Value& y) {
  if (!guards_ || !guard_at_.valid()) return;
  const Value& values = x.path.empty() ? y : x;
  const Value& literal = x.path.empty() ? x : y;
  if (!values.is_string() || !literal.is_string() || values.path.empty() || !literal.path.empty())
    return;
  guards_->push_back(
      {guard_at_, values.from, values.path, false, values.s == literal.s, literal.s, {}});
}

}  // namespace sbr::render::helm
