// The script-directory idioms, evaluated on repository-relative paths. A launcher in `bin/`
// that sources `"$ROOT/lib/common.sh"` with ROOT=$(cd "$(dirname "$0")/.." && pwd) reaches
// `lib/common.sh` here without a file system: nothing is resolved through a symlink, and a
// path that climbs out of the root stays unknown.
#include "analyzer/render/bash/path_idioms.h"

#include <fmt/format.h>

#include <vector>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/unknown_parts.h"
#include "analyzer/render/bash/words.h"
#include "analyzer/support/strings.h"

namespace sbr::bash {

std::optional<std::string> normalise_repo_path(const std::string& p) {
  if (!p.empty() && p[0] == '/') return std::nullopt;
  std::vector<std::string> parts;
  size_t i = 0;
  while (i <= p.size()) {
    size_t e = p.find('/', i);
    if (e == std::string::npos) e = p.size();
    std::string seg = p.substr(i, e - i);
    if (seg == "..") {
      if (parts.empty()) return std::nullopt;
      parts.pop_back();
    } else if (!seg.empty() && seg != ".") {
      parts.push_back(seg);
    }
    i = e + 1;
  }
  std::string out;
  for (auto& s : parts) out += (out.empty() ? "" : "/") + s;
  return out.empty() ? "." : out;
}

std::string dir_name(const std::string& p) {
  std::string s = p;
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  auto slash = s.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : s.substr(0, slash);
}

namespace {

// The command of a statement with its redirects (`cd "$d" >/dev/null 2>&1`) set aside.
TSNode bare_command(TSNode n) {
  TSNode c = statement_command(n);
  return is(c, K::command) ? c : TSNode{};
}

}  // namespace

// The one known path operand of a command, after its options, or nullopt. `canonical` tells
// whether an option asked for the canonical path (`readlink -f`; plain readlink prints a link's
// target, which the repository's bytes do not show).
std::optional<std::string> Evaluator::path_operand(TSNode cmd, Ctx& ctx, std::string& name,
                                                   bool& canonical) {
  std::vector<EWord> words;
  TSNode nm = field(cmd, F::name);
  if (ts_node_is_null(nm)) return std::nullopt;
  name = base_name(std::string(ctx.tree->slice(nm)));
  for (TSNode c : named_children(cmd)) {
    // `CDPATH="" cd "$dir"`: a prefix assignment is the command's environment, not a path (and
    // an empty CDPATH is how a script makes `cd` take its operand as written).
    if (is(c, K::command_name) || is(c, K::comment) || is(c, K::file_redirect) ||
        is(c, K::variable_assignment))
      continue;
    Value v = expand_word(c, ctx);
    for (EWord& w : v.words()) words.push_back(std::move(w));
  }
  std::optional<std::string> operand;
  bool options_done = false;
  for (const EWord& w : words) {
    if (w.w.symbolic) return std::nullopt;
    if (!options_done && w.w.text == "--") {
      options_done = true;
      continue;
    }
    if (!options_done && starts(w.w.text, "-") && w.w.text.size() > 1) {
      canonical = canonical || w.w.text.find_first_of("fem") != std::string::npos;
      continue;
    }
    if (operand) return std::nullopt;  // more than one path: not this idiom
    operand = w.w.text;
  }
  return operand;
}

std::optional<EWord> Evaluator::path_idiom(const std::vector<TSNode>& stmts, Ctx& ctx) {
  // `cd DIR && pwd`, `cd DIR; pwd`, or one of dirname / realpath / readlink -f.
  std::vector<TSNode> cmds;
  for (TSNode s : stmts) {
    if (is(s, K::list)) {
      for (TSNode c : named_children(s)) cmds.push_back(c);
    } else {
      cmds.push_back(s);
    }
  }
  std::optional<std::string> value;
  for (TSNode s : cmds) {
    TSNode c = bare_command(s);
    if (ts_node_is_null(c)) return std::nullopt;
    std::string name;
    bool canonical = false;
    auto operand = path_operand(c, ctx, name, canonical);
    if (name == "pwd" && value) continue;  // prints the directory `cd` entered
    if (!operand || value) return std::nullopt;
    if (name == "dirname") {
      value = dir_name(*operand);
    } else if (name == "cd" || name == "realpath" || (name == "readlink" && canonical)) {
      value = *operand;
    } else {
      return std::nullopt;
    }
    value = normalise_repo_path(*value);
    if (!value) return std::nullopt;
  }
  if (!value) return std::nullopt;
  EWord w = literal(*value);
  w.w.origin = "repository path";
  return w;
}

}  // namespace sbr::bash

namespace sbr::bash {

// Not silent: a `source` the evaluator could not follow leaves its functions and variables
// unseen, so the launch facts after it may be incomplete (invariant 0, a note).
void Evaluator::note_unresolved_source(TSNode n, const Ctx& ctx, const EWord& target) {
  std::string written(ctx.tree->slice(n));
  written = shorten(written, 80);
  // What the path depends on, then what is known of it when the origin does not already say
  // it (`env CAI_OS_RELEASE_FILE, default /etc/os-release` needs no `/etc/os-release` after it).
  std::string value = target.w.text;
  if (target.w.symbolic) {
    value = target.w.origin;
    if (!target.w.text.empty() && target.w.origin.find(target.w.text) == std::string::npos)
      value += fmt::format(" (known so far: `{}`)",
                           show_unknown(target.w.text, unknown_parts_of(target)));
  }
  // Whose gap: a path sbreview could not work out is its own; one outside the repository
  // (`~/.bashrc`, `/etc/profile`) is outside the input; a literal path missing from the tree is
  // the repository's.
  const std::string& text = target.w.text;
  // Under the user's home (`$HOME/.config/x/env.sh`) is outside the repository even when the
  // home itself is unknown.
  bool in_home =
      target.w.symbolic && (text.rfind("$HOME/", 0) == 0 || text.rfind("${HOME}/", 0) == 0);
  bool outside =
      in_home || (!target.w.symbolic && !text.empty() && (text[0] == '/' || text[0] == '~'));
  std::string why = outside ? "it is outside the repository"
                    : target.w.symbolic
                        ? "sbreview could not work out its path: it depends on " + value
                        : "no such file in the analysed tree";
  Cause cause = outside             ? Cause::Environment
                : target.w.symbolic ? Cause::Analyzer
                                    : Cause::Repository;
  Problem p{ProblemKind::SourceUnresolved,
            fmt::format("`{}` was not followed ({}): the functions and variables it defines "
                        "were not seen",
                        written, why),
            loc(n, ctx.tree), cause};
  for (const Problem& q : out_.problems)
    if (q.kind == p.kind && q.at == p.at) return;
  out_.problems.push_back(std::move(p));
}

}  // namespace sbr::bash
