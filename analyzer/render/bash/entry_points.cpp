// Functions nothing analysed calls: a library helper, a debug entry point a developer runs by
// hand after sourcing the file. Their launches are still launches, so each is evaluated once
// more as an entry point, in the script's final state with unknown arguments, and everything it
// does carries the condition "when `fn` is called" (a path that needs an explicit switch,
// unless the function is the file's only way in).
#include <algorithm>
#include <cctype>
#include <string_view>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {
namespace {

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':';
}

// The line around `pos` starts (after blanks) with `#`: a comment, not a call.
bool in_comment(std::string_view text, std::size_t pos) {
  std::size_t b = text.rfind('\n', pos);
  b = b == std::string_view::npos ? 0 : b + 1;
  while (b < pos && (text[b] == ' ' || text[b] == '\t')) ++b;
  return b < text.size() && text[b] == '#';
}

// How often `name` occurs as a whole word outside comments.
std::size_t mentions(std::string_view text, std::string_view name) {
  std::size_t n = 0;
  for (std::size_t p = text.find(name); p != std::string_view::npos;
       p = text.find(name, p + name.size())) {
    bool left = p == 0 || !ident_char(text[p - 1]);
    std::size_t e = p + name.size();
    bool right = e >= text.size() || !ident_char(text[e]);
    if (left && right && !in_comment(text, p)) ++n;
  }
  return n;
}

}  // namespace

void Evaluator::note_definition(const std::string& name, const SyntaxTree* tree) {
  if (tree != trees_.front().get()) return;  // only the analysed file's own functions
  if (std::find(defined_.begin(), defined_.end(), name) == defined_.end()) defined_.push_back(name);
}

// Called, or named anywhere else (a call the evaluation did not reach, a trap string, another
// script that sources this one): then it is not an entry point of its own.
bool Evaluator::referenced(const std::string& name) const {
  if (mentions(file_.bytes, name) > 1) return true;  // the definition is one mention
  return used_elsewhere(name);
}

// Called by the script's own run, or named by another shell file of the tree.
bool Evaluator::used_elsewhere(const std::string& name) const {
  if (called_.count(name) > 0) return true;
  if (sources_ == nullptr) return false;
  for (const SourceFile& f : sources_->files) {
    if (f.id == file_.id || f.type != FileType::Shell || !f.readable) continue;
    if (mentions(f.bytes, name) > 0) return true;
  }
  return false;
}

void Evaluator::run_entry_points() {
  const State final_state = st_;
  // One step budget for all entry points together, as for the script itself: a file of a
  // thousand uncalled functions costs one budget, not a thousand.
  steps_ = 0;
  // A function an entry point defines is not one of the file's own: index, since it grows.
  const std::size_t defined = defined_.size();
  // A file whose one way in is a function (a library of one command that neither the script
  // nor another file runs) is used by calling it: that is its normal path, not a switch. With
  // several, or beside a function the script or another file runs, it is one choice of many.
  std::size_t entries = 0;
  bool other_way_in = false;
  for (std::size_t di = 0; di < defined; ++di) {
    const std::string& name = defined_[di];
    if (final_state.functions.get().count(name) == 0) continue;
    other_way_in = other_way_in || used_elsewhere(name);
    if (!referenced(name)) ++entries;
  }
  const bool only_way_in = entries == 1 && !other_way_in;
  for (std::size_t di = 0; di < defined; ++di) {
    const std::string name = defined_[di];
    auto fit = final_state.functions.get().find(name);
    if (fit == final_state.functions.get().end() || referenced(name)) continue;
    auto [body, tree] = fit->second;
    st_ = final_state;
    st_.dead = false;
    st_.returning = false;
    st_.breaking = 0;
    st_.positional.clear();
    st_.positional_unknown = true;
    st_.shifted = -1;  // the function's own arguments, not the script's
    st_.frames.emplace_back();
    if (file_.bytes.rfind("#!", 0) != 0) {
      // A library run by hand: the shell options are its caller's, not the file's, so the
      // strict-mode rules have nothing of this file to judge.
      st_.opts.errexit = st_.opts.nounset = st_.opts.pipefail = true;
    }
    Ctx ctx;
    ctx.tree = tree;
    ctx.cond = Condition::when({"`" + name + "` is called", "", "", "", ""}, !only_way_in);
    call_path_ = {name};
    try {
      if (is(body, K::compound_statement) || is(body, K::subshell)) {
        statements(body, ctx);
      } else {
        statement(body, ctx);
      }
    } catch (const RenderAbort& a) {
      out_.problems.push_back(a.problem);
      call_path_.clear();
      break;  // the budget is spent: the remaining entry points would stop at once
    }
    call_path_.clear();
  }
  st_ = final_state;
}

}  // namespace sbr::bash
