// `$(...)` and `<(...)`: run what is inside (it may launch a container) without keeping its
// state changes, and give the substitution its value: what it printed when that is known
// (capture.cpp), else a symbolic word that says where the value comes from.
#include <algorithm>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/syntax.h"
#include "analyzer/render/bash/words.h"
#include "analyzer/support/strings.h"

namespace sbr::bash {

namespace {
// A command substitution whose first command fetches from the network (`$(curl -s URL)`).
bool fetches(const std::vector<TSNode>& stmts, const SyntaxTree* tree) {
  if (stmts.empty()) return false;
  TSNode first = stmts.front();
  if (is(first, K::pipeline)) first = ts_node_named_child(first, 0);
  auto words = written_words(statement_command(first), tree);
  return !words.empty() && in(base_name(words[0]), {"curl", "wget"});
}

// A value computed from `src`: tainted when src is, with src's source.
void taint_from(EWord& w, const EWord& src) {
  if (!src.w.tainted) return;
  w.w.tainted = true;
  w.taint_var = src.taint_var;
  w.taint_at = src.taint_at;
  w.taint_source = src.taint_source;
}

// The last command a statement runs: the last stage of a pipeline.
TSNode last_command(TSNode n) {
  while (is(n, K::pipeline) && ts_node_named_child_count(n) > 0)
    n = ts_node_named_child(n, ts_node_named_child_count(n) - 1);
  return statement_command(n);
}

// A command that prints its input escaped: `sed 's/[\/&]/\\&/g'` (each special character
// after a backslash, for a sed replacement), `printf %q` (for the shell), or util-linux
// `getopt`, which quotes each argument for `eval set -- "$(getopt ...)"` unless told not to.
bool escaper(const std::vector<std::string>& words) {
  if (words.empty()) return false;
  const std::string b = base_name(words[0]);
  if (b == "printf") return words.size() > 1 && words[1].find("%q") != std::string::npos;
  if (b == "getopt") {
    return std::none_of(words.begin() + 1, words.end(), [](const std::string& w) {
      return w == "-u" || w == "--unquoted" ||
             (w.size() > 1 && w[0] == '-' && w[1] != '-' && w.find('u') != std::string::npos);
    });
  }
  if (b != "sed") return false;
  return std::any_of(words.begin() + 1, words.end(), [](const std::string& w) {
    return w.size() > 4 && w[0] == 's' && w[2] == '[' && w.find("\\\\&") != std::string::npos;
  });
}

// The text of the statements, as written.
std::string text_of(const std::vector<TSNode>& stmts, const SyntaxTree* tree) {
  if (stmts.empty()) return "";
  return std::string(
      tree->text.substr(ts_node_start_byte(stmts.front()),
                        ts_node_end_byte(stmts.back()) - ts_node_start_byte(stmts.front())));
}
}  // namespace

// The output of commands whose output is not known: the machine's own state (tainted only
// through a variable it expands), else input from outside (from the network when it fetches).
void Evaluator::taint_output(EWord& w, const std::vector<TSNode>& stmts, TSNode n, const Ctx& ctx) {
  if (escaped_output(stmts, ctx.tree)) return;  // escaped for where it goes: not code
  if (auto state = machine_state_value(stmts, ctx.tree, loc(n, ctx.tree))) {
    taint_from(w, *state);
    if (w.w.host_network.empty()) w.w.host_network = state->w.host_network;
    return;
  }
  w.w.tainted = true;
  w.taint_var = w.w.origin;
  w.taint_at = loc(n, ctx.tree);
  w.taint_source =
      fetches(stmts, ctx.tree) ? ValueSource::NetworkRead : ValueSource::CommandSubstitution;
}

// `$(escape_sed "$v")` with `escape_sed() { printf '%s' "$1" | sed 's/[\/&]/\\&/g'; }`, or the
// pipeline written in place: what is printed last is the input escaped (CubeSandbox's one-click
// scripts splice values into sed scripts this way).
bool Evaluator::escaped_output(const std::vector<TSNode>& stmts, const SyntaxTree* tree) const {
  if (stmts.size() != 1) return false;
  TSNode cmd = last_command(stmts.front());
  std::vector<std::string> words = written_words(cmd, tree);
  if (escaper(words)) return true;
  const auto* fn = words.empty() ? nullptr : function(words[0]);
  if (fn == nullptr) return false;
  std::vector<TSNode> body;
  for (TSNode c : named_children(fn->first))
    if (!is(c, K::comment)) body.push_back(c);
  // Only a body of that one command: an earlier `echo "$1"` would print it unescaped.
  return body.size() == 1 && escaper(written_words(last_command(body.front()), fn->second));
}

Value Evaluator::command_substitution(TSNode n, Ctx& ctx) {
  std::vector<TSNode> stmts = named_children(n);
  std::string inner = text_of(stmts, ctx.tree);
  if (auto path = path_idiom(stmts, ctx)) return Value({*path});
  // Run what is inside (it may launch a container) without keeping its state changes, and
  // collect what it prints.
  State saved = st_;
  Ctx ic = ctx;
  ic.stdout_piped = true;
  ic.errexit_suppressed = ctx.errexit_suppressed;
  ic.printed_on = nullptr;
  captures_.emplace_back();
  for (TSNode s : stmts) statement(s, ic);
  Capture printed = std::move(captures_.back());
  captures_.pop_back();
  st_ = saved;
  TSNode parent = ts_node_parent(n);
  bool quoted = !ts_node_is_null(parent) && is(parent, K::string);
  if (auto words = captured_words(printed, quoted)) return std::move(*words);
  EWord w;
  w.w.symbolic = true;
  std::string shown = shorten(inner, 60);
  std::replace(shown.begin(), shown.end(), '\n', ' ');
  w.w.origin = "command substitution `" + shown + "`";
  w.default_known = false;
  auto starts = [&](std::string_view p) { return inner.rfind(p, 0) == 0; };
  if (inner == "pwd" || inner == "pwd -P") {
    w.w.text = "$PWD";
    w.w.origin = "working directory";
  } else if (starts("mktemp")) {
    w.w.text = "/tmp/tmp.XXXXXXXXXX";
    w.w.origin = "temporary file from mktemp";
    w.temp_file = true;
  } else if (starts("command -v ") || starts("which ") || starts("type -P ")) {
    std::string arg = inner.substr(
        inner.find(' ', inner.find(' ') + (starts("command") || starts("type") ? 1 : 0)) + 1);
    arg = arg.substr(0, arg.find_first_of(" |&;)"));
    w.w.text = arg;
  } else if (starts("id ") || inner == "id" || starts("whoami") || starts("date") ||
             starts("uname") || starts("nproc") || starts("hostname") || starts("getconf") ||
             starts("basename") || starts("realpath") || starts("readlink")) {
    // Facts about the host, not input an outsider controls.
  } else if (printed.repository_text != nullptr && !printed.other_output) {
    // The repository's own text (repository_text.cpp): code under review, as a sourced file.
    w.w.origin = "text of " + printed.repository_text->path;
  } else {
    taint_output(w, stmts, n, ctx);
  }
  if (w.w.host_network.empty()) w.w.host_network = printed.host_network;
  return Value({w});
}

Value Evaluator::process_substitution(TSNode n, Ctx& ctx) {
  State saved = st_;
  Ctx ic = ctx;
  ic.printed_on = nullptr;
  captures_.emplace_back();
  for (TSNode s : named_children(n)) statement(s, ic);
  Capture printed = std::move(captures_.back());
  captures_.pop_back();
  st_ = saved;
  EWord w;
  w.w.symbolic = true;
  w.w.text = "/dev/fd/63";
  w.w.origin = "process substitution";
  // `mapfile -t a < <(fn)` reads these lines (builtins.cpp).
  if (auto words = captured_pieces(printed)) {
    substituted_files_[w.w.text] = std::move(*words);
  } else {
    // What a reader (`read`, `mapfile`) gets is the commands' output, not the script's stdin:
    // the machine's own state, or output that came from outside.
    std::vector<TSNode> stmts = named_children(n);
    EWord out;
    out.w.symbolic = true;
    out.w.origin = "output of `" + short_text(text_of(stmts, ctx.tree)) + "`";
    out.default_known = false;
    out.w.host_network = printed.host_network;
    taint_output(out, stmts, n, ctx);
    substituted_files_[w.w.text] = Value({out});
  }
  return Value({w});
}

}  // namespace sbr::bash
