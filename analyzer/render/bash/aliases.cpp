// Aliases: `alias prun='podman run --privileged'` then `prun image` runs podman with
// --privileged once the script turns aliases on (`shopt -s expand_aliases`; sh expands them
// always). A launch that came through an alias was read as a command named `prun`: clean.
#include <algorithm>

#include "analyzer/render/bash/evaluator.h"

namespace sbr::bash {

void Evaluator::builtin_alias(const BuiltinCall& c) {
  for (std::size_t k = 1; k < c.cmd.size(); ++k) {
    const Word& w = c.cmd[k].w;
    std::size_t eq = w.text.find('=');
    if (w.symbolic || eq == std::string::npos || eq == 0) continue;
    aliases_[w.text.substr(0, eq)] = w.text.substr(eq + 1);
  }
}

void Evaluator::builtin_shopt(const BuiltinCall& c) {
  bool set = false, unset = false, names_it = false;
  for (std::size_t k = 1; k < c.cmd.size(); ++k) {
    const std::string& a = c.cmd[k].w.text;
    set = set || a == "-s";
    unset = unset || a == "-u";
    names_it = names_it || a == "expand_aliases";
  }
  if (names_it && (set || unset)) expand_aliases_ = set;
}

bool Evaluator::run_alias(const std::string& name, TSNode n, Ctx& ctx) {
  if (!expand_aliases_ && !posix_sh_) return false;
  auto it = aliases_.find(name);
  if (it == aliases_.end()) return false;
  if (std::find(expanding_.begin(), expanding_.end(), name) != expanding_.end()) return false;
  // The command as written after its name: quoting and expansions stay as the script has them.
  TSNode name_node = field(n, F::name);
  if (ts_node_is_null(name_node)) return false;
  std::string_view all = ctx.tree->text;
  uint32_t from = ts_node_end_byte(name_node), to = ts_node_end_byte(n);
  std::string code = it->second + std::string(all.substr(from, to - from));
  auto t = parse_bash(code);
  Location at = loc(n, ctx.tree);
  t->file_id = at.file;
  t->line0 = at.line - 1;
  t->column0 = at.column - 1;
  const SyntaxTree* tp = t.get();
  trees_.push_back(std::move(t));
  Ctx ac = ctx;
  ac.tree = tp;
  expanding_.push_back(name);
  statements(tp->root(), ac);
  expanding_.pop_back();
  return true;
}

}  // namespace sbr::bash
