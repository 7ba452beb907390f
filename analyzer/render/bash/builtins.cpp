// Builtins that change the evaluator's state rather than run anything: set, umask, trap,
// source, shift, exit, return, break, eval (read/mapfile: read_builtin.cpp), each one function
// found through a table.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string_view>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/fields.h"
#include "analyzer/render/bash/unknown_parts.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {
namespace {

bool pure_builtin(const std::string& n) {
  static const char* names[] = {
      "set",   "shopt",  "trap",  "source",   ".",       "read",   "mapfile", "readarray", "shift",
      "exit",  "return", "break", "continue", "cd",      "pushd",  "popd",    "umask",     "true",
      "false", ":",      "wait",  "unset",    "alias",   "hash",   "type",    "getopts",   "let",
      "test",  "[",      "local", "declare",  "typeset", "export", "readonly"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* x) { return n == x; });
}

}  // namespace

namespace {

using BuiltinFn = void (Evaluator::*)(const Evaluator::BuiltinCall&);

// The builtins that change the evaluator's state, each run by its own function.
const std::map<std::string_view, BuiltinFn>& builtin_table() {
  static const std::map<std::string_view, BuiltinFn> table = {
      {"set", &Evaluator::builtin_set},       {"umask", &Evaluator::builtin_umask},
      {"trap", &Evaluator::builtin_trap},     {"source", &Evaluator::builtin_source},
      {".", &Evaluator::builtin_source},      {"read", &Evaluator::builtin_read},
      {"mapfile", &Evaluator::builtin_read},  {"readarray", &Evaluator::builtin_read},
      {"shift", &Evaluator::builtin_shift},   {"exit", &Evaluator::builtin_exit},
      {"return", &Evaluator::builtin_return}, {"break", &Evaluator::builtin_break},
      {"eval", &Evaluator::builtin_eval},     {"alias", &Evaluator::builtin_alias},
      {"shopt", &Evaluator::builtin_shopt},
  };
  return table;
}

}  // namespace

// Returns true when `bname` was a builtin this evaluator handles (nothing is recorded then).
bool Evaluator::builtin(const std::string& bname, const BuiltinCall& call) {
  if (bname == "printf" && call.cmd.size() > 2 && call.cmd[1].w.text == "-v") {
    builtin_printf_v(call);  // assigns; printf without -v prints and is recorded
    return true;
  }
  const auto& table = builtin_table();
  if (auto it = table.find(bname); it != table.end()) {
    (this->*(it->second))(call);
    return true;
  }
  return pure_builtin(bname);
}

// `printf -v NAME FORMAT ARGS...`: NAME gets what printf would print; unknown when an argument
// is or the format has a directive not modelled.
void Evaluator::builtin_printf_v(const BuiltinCall& c) {
  const std::string name = c.cmd[2].w.text;
  std::vector<EWord> rest{c.cmd[0]};
  rest.insert(rest.end(), c.cmd.begin() + 3, c.cmd.end());
  EWord v = literal("");
  std::optional<std::string> text;
  if (std::none_of(rest.begin() + 1, rest.end(), [](const EWord& w) { return w.w.symbolic; }))
    text = printf_output(rest);
  if (text) {
    v.w.text = *text;
  } else {
    v.w.symbolic = true;
    v.w.origin = "printf -v " + name;
    v.default_known = false;
  }
  for (std::size_t k = 1; k < rest.size(); ++k) concat_taint(v, rest[k]);
  v.w.from = prov(c.n, c.ctx);
  mark_site(v, StepRole::Assigned, name);
  name_value(v, name, c.n, c.ctx);
  assign_slot(name, false).value.reset({v});
}

void Evaluator::set_option(const std::string& opt, bool on, const EWord& at) {
  if (opt == "errexit") st_.opts.errexit = on;
  if (opt == "nounset") st_.opts.nounset = on;
  if (opt == "pipefail") st_.opts.pipefail = on;
  if (opt == "xtrace") {
    st_.opts.xtrace = on;
    st_.opts.xtrace_at = at.w.from.at;
  }
}

// `set -euo pipefail`, `set +x`, `set -- a b`.
void Evaluator::builtin_set(const BuiltinCall& c) {
  const std::vector<EWord>& cmd = c.cmd;
  bool positional = false;
  std::vector<EWord> pos;
  for (size_t k = 1; k < cmd.size(); ++k) {
    const std::string& o = cmd[k].w.text;
    if (positional) {
      pos.push_back(cmd[k]);
    } else if (o == "--") {
      positional = true;
    } else if ((o == "-o" || o == "+o") && k + 1 < cmd.size()) {
      ++k;
      set_option(cmd[k].w.text, o[0] == '-', cmd[k]);
    } else if ((o[0] == '-' || o[0] == '+') && o.size() > 1) {
      bool on = o[0] == '-';
      for (char ch : o.substr(1)) {
        if (ch == 'e') set_option("errexit", on, cmd[k]);
        if (ch == 'u') set_option("nounset", on, cmd[k]);
        if (ch == 'x') set_option("xtrace", on, cmd[k]);
        if (ch == 'o' && k + 1 < cmd.size()) {
          ++k;
          set_option(cmd[k].w.text, on, cmd[k]);
        }
      }
    }
  }
  if (positional) {
    st_.positional = pos;
    st_.positional_unknown = false;
    st_.shifted = -1;
  }
}

void Evaluator::builtin_umask(const BuiltinCall& c) {
  if (c.cmd.size() < 2) return;
  const std::string& m = c.cmd[1].w.text;
  st_.opts.umask_strict = m == "077" || m == "0077" || m == "177" || m == "0177" ||
                          m == "u=rwx,g=,o=" || m == "u=rw,g=,o=";
}

// The handler is code: parse it again so the functions it calls count as what it does.
std::string Evaluator::trap_expansion(const std::string& handler) {
  auto ht = parse_bash(handler);
  std::string expanded = handler;
  std::function<void(TSNode, int)> walk = [&](TSNode x, int d) {
    if (d > 6) return;
    if (is(x, K::command)) {
      std::string cn(ht->slice(field(x, F::name)));
      if (const auto* f = function(cn)) expanded += "\n" + std::string(f->second->slice(f->first));
    }
    for (TSNode ch : named_children(x)) walk(ch, d + 1);
  };
  walk(ht->root(), 0);
  trees_.push_back(std::move(ht));
  return expanded;
}

// `trap HANDLER SIG...`: replaces the handlers of those signals.
void Evaluator::builtin_trap(const BuiltinCall& c) {
  const std::vector<EWord>& cmd = c.cmd;
  // `trap`, `trap -p`, `trap -l` print; `trap cmd` with no signal does nothing.
  if (cmd.size() < 3 || cmd[1].w.text == "-p" || cmd[1].w.text == "-l") return;
  Trap t;
  t.handler = cmd[1].w.text;
  t.at = cmd[0].w.from.at;
  for (size_t k = 2; k < cmd.size(); ++k) {
    std::string s = cmd[k].w.text;
    if (starts(s, "SIG")) s = s.substr(3);
    if (s == "0") s = "EXIT";
    t.signals.push_back(s);
  }
  // These signals leave the earlier traps.
  for (Trap& old : st_.traps) {
    std::erase_if(old.signals, [&](const std::string& s) {
      return std::find(t.signals.begin(), t.signals.end(), s) != t.signals.end();
    });
  }
  std::erase_if(st_.traps, [](const Trap& x) { return x.signals.empty(); });
  if (t.handler == "-" || t.handler.empty()) return;
  t.expanded = trap_expansion(t.handler);
  st_.traps.push_back(t);
  all_traps_.push_back(t);
}

// `source FILE` / `. FILE`: a file inside the analysed tree runs here, in this state.
void Evaluator::builtin_source(const BuiltinCall& c) {
  if (c.cmd.size() < 2) return;
  if (depth_ + 1 > static_cast<int>(limits_.max_call_depth)) {
    // This `source` is not followed and the script goes on. A file that sources itself is
    // recursion (its path is cut); a chain of that many distinct files is a budget finding.
    const std::string self = "source " + base_name(c.cmd[1].w.text);
    if (std::find(call_path_.begin(), call_path_.end(), self) != call_path_.end())
      cut_path(fmt::format("`source` nested deeper than {}: this file was not sourced again",
                           limits_.max_call_depth),
               loc(c.n, c.ctx.tree));
    else
      out_.problems.push_back({ProblemKind::BudgetExceeded,
                               fmt::format("`source` nested too deeply (deeper than {}): this "
                                           "file was not sourced",
                                           limits_.max_call_depth),
                               loc(c.n, c.ctx.tree)});
    return;
  }
  ++depth_;
  const EWord& target = c.cmd[1];
  const SyntaxTree* t = tree_for_source(target.w.text, loc(c.n, c.ctx.tree));
  if (t == nullptr) t = source_on_other_path(c, target);
  if (t == nullptr) t = source_by_tail(target, loc(c.n, c.ctx.tree));
  if (t != nullptr) {
    Ctx sc = c.ctx;
    sc.tree = t;
    call_path_.push_back("source " + base_name(target.w.text));
    statements(t->root(), sc);
    call_path_.pop_back();
    st_.returning = false;
  } else {
    note_unresolved_source(c.n, c.ctx, target);
  }
  --depth_;
}

// A library found on one path only: `DIR="$PWD"` in a development checkout, `DIR=$(cd
// "$(dirname "$0")" && pwd)` otherwise, then `source "$DIR/lib/x.sh"`. Every path sources
// the same library of the same installation, and the path that names the repository's file
// is the one whose text can be read: it runs for all of them.
const SyntaxTree* Evaluator::source_on_other_path(const BuiltinCall& c, const EWord& target) {
  for (const Value& v : c.words) {
    const auto& def = v.words();
    if (def.size() != 1 || def[0].w.text != target.w.text) continue;
    for (std::size_t k = 1; k < v.size(); ++k) {
      const auto& other = v.alts[k].elems;
      if (other.size() != 1 || other[0].w.symbolic) continue;
      if (const SyntaxTree* t = tree_for_source(other[0].w.text, loc(c.n, c.ctx.tree))) return t;
    }
  }
  return nullptr;
}

// A library read standalone does not know where its caller put it: `source
// "$INSTALL_DIR/lib/agents/codex.sh"` with INSTALL_DIR the caller's. The written tail after the
// last unknown piece, when it has two components or more and exactly one file of the tree ends
// with it, names that file (the unknown is the checkout's directory).
const SyntaxTree* Evaluator::source_by_tail(const EWord& target, Location at) {
  if (!target.w.symbolic || sources_ == nullptr) return nullptr;
  std::vector<UnknownPart> parts = unknown_parts_of(target);
  if (parts.empty()) return nullptr;
  std::size_t from = 0;
  for (const UnknownPart& p : parts) from = std::max<std::size_t>(from, p.at);
  const std::string& text = target.w.text;
  if (from >= text.size() || text[from] != '/') return nullptr;
  const std::string tail = text.substr(from + 1);
  if (tail.find('/') == std::string::npos || tail.find("..") != std::string::npos) return nullptr;
  const std::string* match = nullptr;
  for (const SourceFile& f : sources_->files) {
    if (f.path != tail && !f.path.ends_with("/" + tail)) continue;
    if (match != nullptr) return nullptr;  // two checkouts' worth of candidates: not one file
    match = &f.path;
  }
  return match == nullptr ? nullptr : tree_for_source(*match, at);
}

void Evaluator::builtin_shift(const BuiltinCall& c) {
  size_t k = 1;
  if (c.cmd.size() > 1) {
    try {
      k = std::stoul(c.cmd[1].w.text);
    } catch (...) {
    }
  }
  if (st_.positional_unknown) {
    bool counted = c.cmd.size() < 2 || !c.cmd[1].w.symbolic;
    st_.shifted = counted && st_.shifted >= 0 ? st_.shifted + static_cast<int>(k) : -1;
  } else {
    st_.positional.erase(
        st_.positional.begin(),
        st_.positional.begin() + static_cast<long>(std::min(k, st_.positional.size())));
  }
}

void Evaluator::builtin_exit(const BuiltinCall& c) {
  if (!c.ctx.background && !c.ctx.in_pipeline_not_last) st_.dead = true;
}

void Evaluator::builtin_return(const BuiltinCall& /*c*/) {
  st_.returning = true;
}

void Evaluator::builtin_break(const BuiltinCall& c) {
  int k = 1;
  if (c.cmd.size() > 1) {
    try {
      k = std::stoi(c.cmd[1].w.text);
    } catch (...) {
    }
  }
  st_.breaking = std::max(1, k);
}

// `eval WORDS`: the words joined are code, parsed and run here; a value from outside in them
// is a splice.
void Evaluator::builtin_eval(const BuiltinCall& c) {
  const std::vector<EWord>& cmd = c.cmd;
  std::string code;
  for (size_t k = 1; k < cmd.size(); ++k) code += (k > 1 ? " " : "") + cmd[k].w.text;
  Invocation e;
  for (const auto& w : cmd) e.argv.push_back(w.w);
  e.from = prov(c.n, c.ctx);
  note_splices(e, cmd, c.stdin_words, "", c.ctx);
  auto t = parse_bash(code);
  Location at = cmd.size() > 1 ? cmd[1].w.from.at : loc(c.n, c.ctx.tree);
  t->file_id = at.file;
  t->line0 = at.line - 1;
  t->column0 = at.column - 1;
  const SyntaxTree* tp = t.get();
  trees_.push_back(std::move(t));
  Ctx ec = c.ctx;
  ec.tree = tp;
  statements(tp->root(), ec);
}

}  // namespace sbr::bash
