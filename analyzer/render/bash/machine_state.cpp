// Where the output of `$(...)` and `<(...)` comes from: the machine's own state (routes,
// addresses, container inspection, name lookups of fixed names), filtered by text tools, is not
// input an outsider controls; a configuration file, a download or a name taken from the
// environment is. The table below is the one source of truth for "machine state"
// (docs/bash-evaluation.md, "Taint").
#include <algorithm>
#include <array>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/fields.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {
namespace {

// A command that prints the machine's own state. `verbs` empty: any invocation does; else the
// first operand (after options) must be one of these space-separated words, for tools that also
// do other things (`docker run` is not a query).
struct StateSource {
  std::string_view command;
  std::string_view verbs;
};

// Name lookups (getent, dig, nslookup, host) count when the name is fixed: a name from the
// environment or the arguments taints the answer through its variable
// (Evaluator::machine_state_value).
constexpr std::array<StateSource, 13> kStateSources{{
    {"ip", ""},
    {"hostname", ""},
    {"getent", ""},
    {"dig", ""},
    {"nslookup", ""},
    {"host", ""},
    {"route", ""},
    {"ifconfig", ""},
    {"resolvectl", ""},
    {"docker", "inspect network container port"},
    {"podman", "inspect network container port"},
    {"nerdctl", "inspect network container port"},
    {"kubectl", "get"},
}};

bool one_of_words(std::string_view w, std::string_view words) {
  size_t p = 0;
  while (p < words.size()) {
    size_t e = words.find(' ', p);
    if (e == std::string_view::npos) e = words.size();
    if (words.substr(p, e - p) == w) return true;
    p = e + 1;
  }
  return false;
}

// A file under the machine's own state directories (`/etc/resolv.conf`, `/proc/net/route`).
bool state_file(std::string_view w) {
  return starts(w, "/etc/") || starts(w, "/proc/") || starts(w, "/sys/");
}

bool has_herestring(TSNode stmt) {
  if (!is(stmt, K::redirected_statement)) return false;
  for (TSNode c : named_children(stmt))
    if (is(c, K::herestring_redirect)) return true;
  return false;
}

// Whether one pipeline stage keeps the output machine state. Stage 0 produces the value: a
// state source, echo/printf (the value is then what it prints: its variables decide), or a
// filter over a state file or a here-string; a later stage must be a filter.
bool stage_keeps_state(TSNode stmt, bool first, const SyntaxTree* tree) {
  auto words = written_words(statement_command(stmt), tree);
  while (!words.empty() && in(words[0], {"sudo", "command", "env"})) words.erase(words.begin());
  if (words.empty()) return false;
  std::string b = base_name(words[0]);
  if (!first) return is_text_filter(b);
  if (b == "echo" || b == "printf" || has_herestring(stmt)) return true;
  if (is_text_filter(b) || b == "cat") {
    for (size_t i = 1; i < words.size(); ++i)
      if (state_file(words[i])) return true;
    return false;
  }
  for (const StateSource& s : kStateSources) {
    if (s.command != b) continue;
    if (s.verbs.empty()) return true;
    for (size_t i = 1; i < words.size(); ++i) {
      if (starts(words[i], "-")) continue;
      return one_of_words(words[i], s.verbs);
    }
    return false;
  }
  return false;
}

// Parameters expanded under `n`, `$1` and `$@` included.
void parameters(TSNode n, const SyntaxTree* tree, std::vector<std::string>& out, int depth) {
  if (ts_node_is_null(n) || depth > 24) return;
  if (is(n, K::simple_expansion) || is(n, K::expansion)) {
    for (TSNode c : named_children(n))
      if (is(c, K::variable_name) || is(c, K::special_variable_name))
        out.emplace_back(tree->slice(c));
  }
  for (TSNode c : named_children(n)) parameters(c, tree, out, depth + 1);
}

bool positional(const std::string& name) {
  return name == "@" ||
         name == "*" || (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
           return c >= '0' && c <= '9';
         }) && name != "0");
}

}  // namespace

std::string host_network_source(const std::vector<std::string>& words_in) {
  std::vector<std::string> words = words_in;
  while (!words.empty() && in(words[0], {"sudo", "command", "env"})) words.erase(words.begin());
  if (words.empty()) return "";
  for (const std::string& w : words)
    if (w.find("/proc/net/route") != std::string::npos) return "the default gateway (`ip route`)";
  const std::string b = base_name(words[0]);
  std::vector<std::string> operands;
  for (std::size_t i = 1; i < words.size(); ++i)
    if (!starts(words[i], "-")) operands.push_back(words[i]);
  if (b == "ip" && !operands.empty() && in(operands[0], {"r", "ro", "rou", "rout", "route"}))
    return "the default gateway (`ip route`)";
  if (in(b, {"docker", "podman", "nerdctl"}) && operands.size() > 1 &&
      in(operands[0], {"network", "net"}) && operands[1] == "inspect")
    return "the container network's subnet (`" + b + " network inspect`)";
  return "";
}

std::string host_network_source(TSNode stmt, const SyntaxTree* tree) {
  if (is(stmt, K::pipeline)) stmt = ts_node_named_child(stmt, 0);
  return host_network_source(written_words(statement_command(stmt), tree));
}

bool machine_state_pipeline(const std::vector<TSNode>& stmts, const SyntaxTree* tree) {
  if (stmts.size() != 1) return false;
  TSNode s = stmts.front();
  std::vector<TSNode> stages;
  if (is(s, K::pipeline)) {
    for (TSNode c : named_children(s))
      if (!is(c, K::comment)) stages.push_back(c);
  } else {
    stages.push_back(s);
  }
  if (stages.empty()) return false;
  for (size_t i = 0; i < stages.size(); ++i)
    if (!stage_keeps_state(stages[i], i == 0, tree)) return false;
  return true;
}

std::optional<EWord> Evaluator::machine_state_value(const std::vector<TSNode>& stmts,
                                                    const SyntaxTree* tree, Location at) {
  if (!machine_state_pipeline(stmts, tree)) return std::nullopt;
  std::vector<std::string> names;
  for (TSNode s : stmts) parameters(s, tree, names, 0);
  // The host network it reads: its producer's, or that of a value it filters (`echo "$GW"`).
  std::string host = host_network_source(stmts.front(), tree);
  for (const std::string& name : names) {
    const Var* v = host.empty() ? lookup(name) : nullptr;
    for (std::size_t i = 0; v != nullptr && i < v->elems().size() && host.empty(); ++i)
      host = v->elems()[i].w.host_network;
  }
  std::optional<EWord> value = machine_state_taint(names, at);
  value->w.host_network = host;
  return value;
}

// The taint of a machine-state value: that of the first parameter it expands that is tainted
// (an argument, the environment), else none.
std::optional<EWord> Evaluator::machine_state_taint(const std::vector<std::string>& names,
                                                    Location at) {
  for (const std::string& name : names) {
    if (positional(name)) {
      size_t idx = name == "@" || name == "*" ? 0 : std::stoul(name) - 1;
      if (idx < st_.positional.size()) {
        if (st_.positional[idx].w.tainted) return st_.positional[idx];
      } else if (st_.positional_unknown) {
        EWord w;
        w.w.symbolic = true;
        w.w.tainted = true;
        w.taint_var = "argument $" + name;
        w.taint_at = at;
        w.taint_source = ValueSource::Argument;
        return w;
      }
      continue;
    }
    if (name == "#" || name == "?" || name == "$" || name == "!" || name == "-" || name == "0")
      continue;
    const Var* v = lookup(name);
    if (v == nullptr) {
      std::vector<EWord> env = env_word(name, at);
      if (!env.empty() && env.front().w.tainted) return env.front();
      continue;
    }
    for (const Alt& a : v->value.alts)
      for (const EWord& e : a.elems)
        if (e.w.tainted) return e;
  }
  return EWord{};  // untainted: the machine's own state
}

}  // namespace sbr::bash
