// Ways a script skips its security steps and still succeeds, read from its syntax once it has
// been evaluated: a presence check of a firewall tool whose failure branch returns 0 or moves on
// (`command -v iptables || { echo warn >&2; return 0; }`), and an `exit 0` on a branch a
// variable decides before the gate (`[[ $MODE == permissive ]] && exit 0`, as an if). Every
// file the evaluation read (sourced libraries included) is walked; the checks judge.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {
namespace {

bool security_tool(const std::string& b) {
  return is_firewall_tool(b) || b == "capsh" || b == "setpriv";
}

// `! cmd`, also when its redirect is parsed around the negation (`! command -v x >/dev/null`).
bool negated(TSNode n) {
  if (is(n, K::redirected_statement)) n = field(n, F::body);
  return is(n, K::negated_command);
}

// The command of a condition, without its negation and redirects.
TSNode condition_command(TSNode n) {
  if (is(n, K::redirected_statement) && is(field(n, F::body), K::negated_command))
    n = field(n, F::body);
  if (is(n, K::negated_command)) {
    auto kids = named_children(n);
    if (kids.empty()) return TSNode{};
    n = kids.back();
  }
  return statement_command(n);
}

// `command -v T`, `which T`, `type -p T`, `hash T`: the tool checked, or "".
std::string checked_tool(TSNode n, const SyntaxTree* tree) {
  auto w = written_words(condition_command(n), tree);
  if (w.size() < 2) return "";
  size_t t = 0;
  if ((w[0] == "command" && in(w[1], {"-v", "-V"})) ||
      (w[0] == "type" && in(w[1], {"-p", "-P", "-t", "-a"})))
    t = 2;
  else if (w[0] == "which" || w[0] == "hash" || w[0] == "type")
    t = 1;
  if (t == 0 || t >= w.size()) return "";
  std::string tool = base_name(w[t]);
  return security_tool(tool) ? tool : "";
}

// The first statement under `n` (outside nested function definitions) that ends the function
// or script with success, or skips the rest of a loop: `return`, `return 0`, `exit`, `exit 0`,
// `continue`, `break`. A null node when there is none.
TSNode success_skip(TSNode n, const SyntaxTree* tree, int depth = 0) {
  if (ts_node_is_null(n) || depth > 24 || is(n, K::function_definition)) return TSNode{};
  if (is(n, K::command)) {
    auto w = written_words(n, tree);
    if (w.empty()) return TSNode{};
    if (in(w[0], {"continue", "break"})) return n;
    if (in(w[0], {"return", "exit"}) && (w.size() == 1 || w[1] == "0")) return n;
    return TSNode{};
  }
  for (TSNode c : named_children(n)) {
    TSNode s = success_skip(c, tree, depth + 1);
    if (!ts_node_is_null(s)) return s;
  }
  return TSNode{};
}

using Functions = std::map<std::string, std::pair<TSNode, const SyntaxTree*>>;

// A security step (a firewall command, a capability drop) among the commands under `n`, or in
// a function they call (`apply_rules` after the branch): the step's node and tree.
std::pair<TSNode, const SyntaxTree*> first_step(TSNode n, const SyntaxTree* tree,
                                                const Functions& fns, int depth = 0) {
  if (ts_node_is_null(n) || depth > 48 || is(n, K::function_definition)) return {TSNode{}, tree};
  if (is(n, K::command)) {
    auto w = written_words(n, tree);
    while (!w.empty() && in(w[0], {"sudo", "command", "env"})) w.erase(w.begin());
    if (security_step(w)) return {n, tree};
    auto f = w.empty() ? fns.end() : fns.find(w[0]);
    if (f != fns.end() && depth < 40)
      return first_step(f->second.first, f->second.second, fns, depth + 8);
    return {TSNode{}, tree};
  }
  for (TSNode c : named_children(n)) {
    auto s = first_step(c, tree, fns, depth + 1);
    if (!ts_node_is_null(s.first)) return s;
  }
  return {TSNode{}, tree};
}

struct IfParts {
  TSNode cond{};
  std::vector<TSNode> then_body;
  TSNode rest{};  // the first elif/else clause, or null
};

IfParts if_parts(TSNode n) {
  IfParts p;
  bool in_then = false;
  for (TSNode c : children(n)) {
    if (is(c, K::kw_then)) {
      in_then = true;
      continue;
    }
    if (!ts_node_is_named(c) || is(c, K::comment)) continue;
    if (is(c, K::elif_clause) || is(c, K::else_clause)) {
      if (ts_node_is_null(p.rest)) p.rest = c;
      continue;
    }
    if (!in_then) {
      if (ts_node_is_null(p.cond)) p.cond = c;
    } else {
      p.then_body.push_back(c);
    }
  }
  return p;
}

// A test on a help or version option: `exit 0` there ends a usage message, not the gate.
bool help_test(TSNode cond, const SyntaxTree* tree) {
  std::string_view t = tree->slice(cond);
  for (std::string_view h : {"-h", "help", "usage", "version"})
    if (t.find(h) != std::string_view::npos) return true;
  return false;
}

bool tests_variable(TSNode cond, const SyntaxTree* tree) {
  if (!is(cond, K::test_command) && !is(cond, K::negated_command)) return false;
  std::vector<std::string> vars;
  expanded_variables(cond, tree, vars);
  return !vars.empty();
}

}  // namespace

void Evaluator::note_tool_guard(TSNode check, TSNode skip, const std::string& tool, TSNode branch,
                                const SyntaxTree* tree) {
  TSNode shown = condition_command(check);
  observed().tool_guards.push_back(ToolGuard{
      tool, std::string(tree->slice(ts_node_is_null(shown) ? check : shown)),
      node_warns(branch, tree), loc(skip, tree), Provenance{loc(check, tree), Frontend::Bash, {}}});
}

void Evaluator::note_or_guard(TSNode check, TSNode branch, const SyntaxTree* tree) {
  std::string tool = checked_tool(check, tree);
  TSNode skip = success_skip(branch, tree);
  if (!tool.empty() && !ts_node_is_null(skip)) note_tool_guard(check, skip, tool, branch, tree);
}

void Evaluator::note_if_guard(TSNode n, const SyntaxTree* tree) {
  IfParts p = if_parts(n);
  if (ts_node_is_null(p.cond)) return;
  std::string tool = checked_tool(p.cond, tree);
  if (tool.empty()) return;
  if (negated(p.cond)) {
    // `if ! command -v nft; then warn; return 0; fi`
    for (TSNode s : p.then_body) {
      TSNode skip = success_skip(s, tree);
      if (!ts_node_is_null(skip)) return note_tool_guard(p.cond, skip, tool, s, tree);
    }
    return;
  }
  // `if command -v nft; then nft -f ...; else warn; fi`: the steps run only when it is there.
  bool steps_inside = false;
  for (TSNode s : p.then_body)
    steps_inside = steps_inside || !ts_node_is_null(first_step(s, tree, st_.functions.get()).first);
  if (!steps_inside || (!ts_node_is_null(p.rest) && node_exits(p.rest, tree))) return;
  note_tool_guard(p.cond, ts_node_is_null(p.rest) ? n : p.rest, tool, p.rest, tree);
}

void Evaluator::note_early_success(TSNode n, const SyntaxTree* tree) {
  IfParts p = if_parts(n);
  if (ts_node_is_null(p.cond) || !tests_variable(p.cond, tree) || help_test(p.cond, tree) ||
      !checked_tool(p.cond, tree).empty())
    return;
  TSNode skip{};
  for (TSNode s : p.then_body) {
    if (!ts_node_is_null(first_step(s, tree, st_.functions.get()).first)) return;  // its own gate
    if (ts_node_is_null(skip)) skip = success_skip(s, tree);
  }
  if (ts_node_is_null(skip) || written_words(skip, tree).front() != "exit") return;
  // The first security step after the if, in the same statement list.
  std::pair<TSNode, const SyntaxTree*> gate{TSNode{}, tree};
  for (TSNode s = ts_node_next_named_sibling(n); !ts_node_is_null(s) && ts_node_is_null(gate.first);
       s = ts_node_next_named_sibling(s))
    gate = first_step(s, tree, st_.functions.get());
  if (ts_node_is_null(gate.first)) return;
  observed().early_successes.push_back(
      EarlySuccess{std::string(tree->slice(p.cond)), loc(gate.first, gate.second),
                   Provenance{loc(skip, tree), Frontend::Bash, {}}});
}

void Evaluator::note_guards(TSNode root, const SyntaxTree* tree) {
  for (const GuardSite& g : guard_sites(root)) {
    if (!ts_node_is_null(g.if_stmt)) {
      note_if_guard(g.if_stmt, tree);
      note_early_success(g.if_stmt, tree);
    } else {
      note_or_guard(g.check, g.branch, tree);
    }
  }
}

}  // namespace sbr::bash
