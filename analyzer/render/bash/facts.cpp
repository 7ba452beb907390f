// Syntax-level predicates behind the evaluator's observations: whether a node exits, whether a
// command is a security step, whether a branch warns, how a `||` uses a status, which variables
// a test constrains, whether `$?` is read, and which pipelines feed a download to a later stage.
// Every predicate reads node kinds, operator tokens and command names from the tree, never
// substrings of a node's text.
#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/query.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {

bool is_firewall_tool(const std::string& b) {
  return in(b, {"nft", "iptables", "ip6tables", "iptables-restore", "ip6tables-restore",
                "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft", "ipset",
                "ebtables", "arptables"});
}

// What a command configures, when it changes the sandbox's security state (not a query like
// `nft list`).
std::optional<StepKind> security_step(const std::vector<std::string>& a) {
  if (a.empty()) return std::nullopt;
  std::string b = base_name(a[0]);
  if (b == "capsh") return StepKind::CapabilityDrop;
  if (b == "setpriv") {
    for (const std::string& w : a) {
      if (starts(w, "--bounding-set") || starts(w, "--inh-caps") || starts(w, "--ambient-caps"))
        return StepKind::CapabilityDrop;
    }
    return StepKind::UserSwitch;
  }
  if (!is_firewall_tool(b)) return std::nullopt;
  for (size_t i = 1; i < a.size(); ++i) {
    const std::string& w = a[i];
    if (b == "nft" && (w == "list" || w == "-c" || w == "--check" || w == "monitor"))
      return std::nullopt;
    if (b.find("tables") != std::string::npos && b.find("restore") == std::string::npos &&
        (w == "-L" || w == "-S" || w == "-C" || w == "--check" || w == "--list" || w == "-nL" ||
         w == "-vL" || w == "--list-rules")) {
      return std::nullopt;
    }
    if (b == "ipset" && (w == "list" || w == "test" || w == "-L")) return std::nullopt;
  }
  return StepKind::GateLoad;
}

// The words of a `command` node as written: its name, then its arguments (assignments and
// redirections left out), with the quotes of plain strings removed.
std::vector<std::string> written_words(TSNode cmd, const SyntaxTree* tree) {
  std::vector<std::string> out;
  if (!is(cmd, K::command)) return out;
  for (TSNode c : named_children(cmd)) {
    K k = sym(c);
    if (k == K::variable_assignment || k == K::comment || k == K::file_redirect ||
        k == K::heredoc_redirect || k == K::herestring_redirect)
      continue;
    std::string w(tree->slice(c));
    // `"nft"` and `'nft'`, as a name or an argument: the quotes are not part of the word.
    bool quoted = w.size() >= 2 && (w.front() == '"' || w.front() == '\'') && w.back() == w.front();
    if (quoted && (k == K::string || k == K::raw_string || k == K::command_name))
      w = w.substr(1, w.size() - 2);
    out.push_back(std::move(w));
    if (out.size() >= 12) break;
  }
  return out;
}

// The command of a statement: a command, or the body of a redirected statement.
TSNode statement_command(TSNode n) {
  if (is(n, K::redirected_statement)) n = field(n, F::body);
  return is(n, K::command) ? n : TSNode{};
}

// Variables named by the expansions (`$x`, `${x...}`) under `n`.
void expanded_variables(TSNode n, const SyntaxTree* tree, std::vector<std::string>& out,
                        int depth) {
  if (ts_node_is_null(n) || depth > 24) return;
  if (is(n, K::simple_expansion) || is(n, K::expansion)) {
    for (TSNode c : named_children(n)) {
      if (is(c, K::variable_name)) out.emplace_back(tree->slice(c));
    }
  }
  for (TSNode c : named_children(n)) expanded_variables(c, tree, out, depth + 1);
}

namespace {

// A binary test operator under `n` among `ops` (`[[ $x =~ re ]]`, `[ "$n" -gt 0 ]`), or a case
// statement when `with_case`.
bool has_test(TSNode n, const SyntaxTree* tree, std::initializer_list<std::string_view> ops,
              bool with_case, int depth) {
  if (ts_node_is_null(n) || depth > 24) return false;
  if (with_case && is(n, K::case_statement)) return true;
  if (is(n, K::binary_expression)) {
    for (TSNode c : children(n)) {
      if (!ts_node_is_named(c) && in(kind(c), ops)) return true;
      if (is(c, K::test_operator) && in(tree->slice(c), ops)) return true;
    }
  }
  for (TSNode c : named_children(n))
    if (has_test(c, tree, ops, with_case, depth + 1)) return true;
  return false;
}

// The name a command node runs ("" for a null node or a command without one).
std::string name_of(TSNode cmd, const SyntaxTree* tree) {
  if (ts_node_is_null(cmd)) return "";
  TSNode name = field(cmd, F::name);
  return ts_node_is_null(name) ? "" : std::string(tree->slice(name));
}

// `>&2`, `1>&2`, `>/dev/stderr`: a redirection of the command's output to stderr.
bool to_stderr(TSNode redirect, const SyntaxTree* tree) {
  if (!is(redirect, K::file_redirect)) return false;
  TSNode dest = field(redirect, F::destination);
  if (ts_node_is_null(dest)) return false;
  std::string_view d = tree->slice(dest);
  TSNode descriptor = field(redirect, F::descriptor);
  std::string_view desc = ts_node_is_null(descriptor) ? "" : tree->slice(descriptor);
  bool from_stdout = desc.empty() || desc == "1";
  return from_stdout && (d == "2" || d == "/dev/stderr");
}

}  // namespace

bool Evaluator::node_exits(TSNode n, const SyntaxTree* tree, int depth) {
  if (ts_node_is_null(n) || depth > 8) return false;
  if (is(n, K::command)) {
    std::string name = name_of(n, tree);
    if (name == "exit" ||
        in(name, {"die", "fatal", "abort", "bail", "error_exit", "panic", "fail"}))
      return true;
    if (name == "return") {
      for (TSNode a : named_children(n)) {
        if (is(a, K::command_name)) continue;
        std::string_view v = tree->slice(a);
        return v != "0";
      }
      return false;
    }
    if (const auto* f = function(name)) return node_exits(f->first, f->second, depth + 1);
    return false;
  }
  if (is(n, K::function_definition)) return false;
  for (TSNode c : named_children(n)) {
    if (node_exits(c, tree, depth + 1)) return true;
  }
  return false;
}

std::optional<StepKind> Evaluator::node_security_step(TSNode n, const SyntaxTree* tree) {
  auto words = written_words(statement_command(n), tree);
  while (!words.empty() && in(words[0], {"sudo", "command", "env"})) words.erase(words.begin());
  return security_step(words);
}

// A branch warns when a command in it writes to stderr or calls logger, directly or through a
// function it calls. A function named `warn_user` or a string saying "warning" is not enough.
bool Evaluator::node_warns(TSNode n, const SyntaxTree* tree, int depth) {
  if (ts_node_is_null(n) || depth > 24) return false;
  if (is(n, K::redirected_statement)) {
    for (TSNode c : named_children(n))
      if (to_stderr(c, tree)) return true;
  }
  if (is(n, K::command)) {
    std::string name = name_of(n, tree);
    if (name == "logger") return true;
    const auto* f = function(name);
    if (f != nullptr && depth < 16) return node_warns(f->first, f->second, depth + 4);
    return false;
  }
  if (is(n, K::function_definition)) return false;
  for (TSNode c : named_children(n))
    if (node_warns(c, tree, depth + 1)) return true;
  return false;
}

// The status use of `left || right`: the failure exits, is ignored (`true`, `:`), or something
// runs and the script goes on.
StatusUse Evaluator::status_after_or(TSNode right, const SyntaxTree* tree) {
  if (node_exits(right, tree)) return StatusUse::ExitsOnFailure;
  TSNode cmd = statement_command(right);
  std::string name = name_of(cmd, tree);
  return name == "true" || name == ":" ? StatusUse::OrTrue : StatusUse::OrContinue;
}

void Evaluator::mark_validated(const std::string& var) {
  if (var.empty()) return;
  validated_.insert(var);
  if (Var* v = lookup_mut(var)) {
    v->serial = ++assignments_;  // changed: not the value the other path has
    for (Alt& a : v->value.alts)
      for (EWord& w : a.elems) w.w.tainted = false;
  }
}

// A function that tests (a regex, a case, a numeric comparison) and exits on failure validates
// the variables passed in and the variables its body expands.
void Evaluator::validate_from_function(TSNode body, const SyntaxTree* tree,
                                       const std::vector<EWord>& args,
                                       const std::vector<std::string>& arg_vars) {
  if (!has_test(body, tree, {"=~", "-gt", "-lt"}, true, 0) || !node_exits(body, tree)) return;
  for (const EWord& a : args) {
    if (!a.taint_var.empty()) mark_validated(a.taint_var);
  }
  std::vector<std::string> vars;
  expanded_variables(body, tree, vars, 0);
  for (const auto& v : vars) mark_validated(v);
  // Arguments written as `"$proxy"`: the caller's variable is the one validated.
  for (const auto& v : arg_vars) mark_validated(v);
}

namespace {
// `! [[ ... ]]` or `[[ ! ... ]]`: the test is true when the match fails.
bool negated_test(TSNode cnd) {
  if (is(cnd, K::negated_command)) return true;
  if (!is(cnd, K::test_command)) return false;
  auto kids = named_children(cnd);
  if (kids.empty() || !is(kids.front(), K::unary_expression)) return false;
  TSNode op = ts_node_child(kids.front(), 0);
  return !ts_node_is_null(op) && is(op, K::bang);
}
}  // namespace

void Evaluator::validate_from_if(TSNode cnd, const std::vector<TSNode>& body, TSNode else_part,
                                 const SyntaxTree* tree) {
  if (ts_node_is_null(cnd) || !regex_test(cnd, tree)) return;
  bool exits_on_mismatch = false;
  if (negated_test(cnd)) {
    for (TSNode s : body) exits_on_mismatch = exits_on_mismatch || node_exits(s, tree);
  } else if (!ts_node_is_null(else_part) && is(else_part, K::else_clause)) {
    exits_on_mismatch = node_exits(else_part, tree);
  }
  if (!exits_on_mismatch) return;
  std::vector<std::string> vars;
  expanded_variables(cnd, tree, vars);
  for (const auto& v : vars) mark_validated(v);
}

// A `$?` expansion under `n` (not in a nested function definition).
bool reads_status(TSNode n, const SyntaxTree* tree, int depth) {
  if (ts_node_is_null(n) || depth > 24 || is(n, K::function_definition)) return false;
  if (is(n, K::simple_expansion) || is(n, K::expansion)) {
    for (TSNode c : named_children(n))
      if (is(c, K::special_variable_name) && tree->slice(c) == "?") return true;
  }
  for (TSNode c : named_children(n))
    if (reads_status(c, tree, depth + 1)) return true;
  return false;
}

bool regex_test(TSNode n, const SyntaxTree* tree) {
  return has_test(n, tree, {"=~"}, false, 0);
}

bool runs_command(TSNode n, const SyntaxTree* tree, std::string_view name, int depth) {
  if (ts_node_is_null(n) || depth > 24 || is(n, K::function_definition)) return false;
  if (is(n, K::command) && name_of(n, tree) == name) return true;
  for (TSNode c : named_children(n))
    if (runs_command(c, tree, name, depth + 1)) return true;
  return false;
}

// Every later stage of a pipeline whose stage runs a network fetch (`curl URL | sudo bash`).
void Evaluator::note_fetch_pipes(TSNode pipeline, const Ctx& ctx) {
  for (const QueryMatch& m : Query::get("fetch_pipe").matches(pipeline, *ctx.tree)) {
    // A pipeline nested in this one's words is evaluated (and matched) on its own.
    if (!ts_node_eq(m["pipe"], pipeline)) continue;
    auto b = written_words(statement_command(m["sink"]), ctx.tree);
    while (!b.empty() && in(b[0], {"sudo", "env", "command"})) b.erase(b.begin());
    if (b.empty()) continue;
    // The program, without the quotes of `"curl"` / `'wget'`.
    std::string_view fetcher = ctx.tree->slice(m["fetcher"]);
    if (fetcher.size() > 2 && (fetcher[0] == '"' || fetcher[0] == '\''))
      fetcher = fetcher.substr(1, fetcher.size() - 2);
    observed().fetch_pipes.push_back(
        FetchPipe{std::string(fetcher), b[0], loc(m["fetch"], ctx.tree), prov(m["sink"], ctx)});
  }
}

}  // namespace sbr::bash
