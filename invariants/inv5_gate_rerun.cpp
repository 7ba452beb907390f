// Invariant 5: an egress gate the agent can re-run as root (a NOPASSWD sudoers rule naming the
// gate script, the Claude Code devcontainer's pattern) while the gate takes what it allows from
// something the agent controls: a file in a writable mount of the same container, or the
// script's own arguments when the rule leaves them open. Then the allowlist is the agent's.
// A gate that only resolves its fixed list again is not reported; an environment variable is
// not agent input here, because sudo resets the environment unless told otherwise.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

#include "analyzer/engine/paths.h"
#include "analyzer/support/strings.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {
namespace {

const ScriptFacts* script_at(const Model& model, const Workload& w, const std::string& path) {
  for (auto it = w.image_files.rbegin(); it != w.image_files.rend(); ++it) {
    if (it->container_path != path) continue;
    for (const ScriptFacts& s : model.scripts) {
      if (model.files.path(s.file) == it->repo_path) return &s;
    }
    return nullptr;
  }
  return nullptr;
}

// A script that sets up egress filtering: a ruleset, a firewall step, a proxy it starts.
bool is_gate_script(const ScriptFacts& s) {
  const ScriptObservations& o = s.observed;
  return !s.gates.empty() ||
         std::any_of(o.steps.begin(), o.steps.end(),
                     [](const SecurityStep& st) { return st.kind == StepKind::GateLoad; }) ||
         std::any_of(o.resources.begin(), o.resources.end(),
                     [](const ResourceStart& r) { return r.kind == ResourceKind::Proxy; });
}

// Whether the command reads (or runs) its operand `i`: the program itself, or a path given to
// a command that copies, links, parses or loads it. The destination of cp/mv/install/ln/rsync
// is written, not read; a command outside this list (cd, echo, mkdir, test) reads no content.
bool reads_operand(const Invocation& inv, std::size_t i) {
  static const std::set<std::string> kReaders{
      "cp",   "install", "ln",     "rsync",   "cat",     "source",           ".",
      "nft",  "ipset",   "squid",  "bash",    "sh",      "iptables-restore", "ip6tables-restore",
      "grep", "awk",     "sed",    "jq",      "yq",      "envsubst",         "xargs",
      "head", "tail",    "python", "python3", "dnsmasq", "tinyproxy"};
  if (i == 0) return true;
  const std::string cmd = base_name(inv.argv[0].text);
  if (kReaders.count(cmd) == 0) return false;
  bool copies = cmd == "cp" || cmd == "install" || cmd == "ln" || cmd == "rsync";
  return !copies || i + 1 < inv.argv.size();
}

struct AgentInput {
  std::string what;  // for the message
  std::vector<Related> at;
  Condition condition;
};

// A file the script reads (or runs) that lies in a mount the container can write.
std::optional<AgentInput> writable_file_input(const Workload& w, const ScriptFacts& s) {
  for (const Invocation& inv : s.invocations) {
    for (std::size_t i = 0; i < inv.argv.size(); ++i) {
      const Word& word = inv.argv[i];
      if (word.symbolic || !word.text.starts_with("/") || !reads_operand(inv, i)) continue;
      for (const Mount& m : w.mounts) {
        bool writable = !(m.read_only && m.read_only->value);
        if (m.target.empty() || !writable || !engine::path_within(word.text, m.target)) continue;
        std::vector<Related> at{{word.from.at, fmt::format("the gate reads {} here", word.text)}};
        const Location& mount_at = m.mount_from.at.valid() ? m.mount_from.at : m.source_from.at;
        if (mount_at.valid())
          at.push_back({mount_at, "writable by the agent: mounted at " + m.target});
        return AgentInput{fmt::format("{}, inside the writable mount at {}", word.text, m.target),
                          std::move(at), inv.from.condition()};
      }
    }
  }
  return std::nullopt;
}

// The script's own arguments reaching a rule or the proxy's configuration.
std::optional<AgentInput> argument_input(const ScriptFacts& s) {
  for (const Splice& sp : s.observed.splices) {
    if (sp.source != ValueSource::Argument) continue;
    return AgentInput{fmt::format("its arguments ({})", sp.variable),
                      {{sp.from.at, "an argument reaches the gate here"}},
                      sp.from.condition()};
  }
  return std::nullopt;
}

void judge(const Model& model, const Workload& w, const ImageGrant& g,
           std::set<std::tuple<Location, std::string>>& seen, Findings& out) {
  for (const SudoCommand& c : g.sudo_commands) {
    const ScriptFacts* s = script_at(model, w, c.path);
    if (s == nullptr || !is_gate_script(*s)) continue;
    std::optional<AgentInput> in = writable_file_input(w, *s);
    if (!in && c.open_arguments) in = argument_input(*s);
    if (!in || !seen.insert({g.from.at, c.path}).second) continue;
    // A sudoers path the build did not resolve (`/etc/sudoers.d/${USER}`) is no name to show.
    Finding f =
        make(w, rule::gate_rerun_with_agent_input,
             fmt::format("{}'s image lets its user run the egress gate {} (the "
                         "repository's {}) as root without a password (`NOPASSWD` in "
                         "{}), and the gate takes what it allows from {}: the agent "
                         "changes that and re-runs the gate with sudo",
                         describe(w), c.path, model.files.path(s->file),
                         g.via.find('$') == std::string::npos ? g.via : "sudoers configuration",
                         in->what),
             g.from, "gate-rerun:" + c.path);
    if (!in->condition.always()) f.set_condition(in->condition);
    f.related = std::move(in->at);
    out.add(std::move(f));
  }
}

}  // namespace

void check_gate_reruns(const Model& model, Findings& out) {
  std::set<std::tuple<Location, std::string>> seen;
  for (const Workload& w : model.workloads) {
    for (const ImageGrant& g : w.image_grants) {
      if (g.kind == ImageGrantKind::PasswordlessSudo) judge(model, w, g, seen, out);
    }
  }
}

}  // namespace sbr::inv
