// Invariant 7 judgments over a launcher's observations (INVARIANTS.md 7, "Scripts").
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "analyzer/support/strings.h"
#include "invariants/script_judgments.h"

namespace sbr::inv {
namespace {

using K = ScriptFindingKind;

bool swallowed(StatusUse s) {
  return s == StatusUse::OrTrue || s == StatusUse::OrContinue ||
         s == StatusUse::PipedWithoutPipefail || s == StatusUse::Negated;
}

void errexit(const ScriptObservations& o, std::vector<ScriptJudgment>& out) {
  for (const ContainerLaunch& l : o.launches) {
    if (l.errexit) continue;
    add_unique(out, {K::ErrexitMissing,
                     fmt::format("`{}` runs without `set -e`: a failed step before it does not "
                                 "stop the launch",
                                 l.command),
                     l.command,
                     false,
                     l.from,
                     {}});
    return;  // once per script, at the first launch
  }
}

// `set -e` alone: an unset variable expands to "" (an empty `--network`, a rule for no address)
// and a failure inside a pipeline is hidden by its last stage. Judged at the first launch that
// has errexit, once per script; a launch without errexit is ErrexitMissing instead.
std::string_view consequence(const ContainerLaunch& l) {
  if (!l.nounset && !l.pipefail) {
    return "an unset variable expands to an empty word, and a failed pipeline stage is hidden by "
           "the last one";
  }
  return l.nounset ? "a failed stage inside a pipeline does not stop it"
                   : "an unset variable expands to an empty word instead of stopping it";
}

}  // namespace

std::string missing_strict_options(bool nounset, bool pipefail) {
  if (nounset && pipefail) return "";
  return !nounset && !pipefail ? "`-u` and `-o pipefail`" : !nounset ? "`-u`" : "`-o pipefail`";
}

namespace {

void partial_strict_mode(const ScriptObservations& o, std::vector<ScriptJudgment>& out) {
  for (const ContainerLaunch& l : o.launches) {
    if (!l.errexit) continue;
    if (l.nounset && l.pipefail) return;
    std::string missing = missing_strict_options(l.nounset, l.pipefail);
    add_unique(out, {K::PartialStrictMode,
                     fmt::format("`{}` runs under `set -e` without {}: {}", l.command, missing,
                                 consequence(l)),
                     l.command,
                     false,
                     l.from,
                     {}});
    return;
  }
}

// A failure goes the way of what the step does: a failed deny (or a step whose effect is not
// known: a ruleset load, a capability drop) leaves the sandbox open; a failed allow leaves
// traffic blocked (fail-closed); a failed cleanup (flushing or deleting what is rebuilt next,
// creating a chain that exists) changes nothing.
bool fails_open(StepEffect e) {
  return e == StepEffect::Deny || e == StepEffect::Other;
}

void fail_open(const ScriptObservations& o, std::vector<ScriptJudgment>& out) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> reported;
  for (const SecurityStep& s : o.steps) {
    if (!fails_open(s.effect)) continue;
    std::string why;
    std::vector<Related> rel;
    if (s.status == StatusUse::Condition) {
      if (!s.failure_branch_exits || *s.failure_branch_exits) continue;
      why = "the branch taken on failure does not exit";
    } else if (swallowed(s.status) || (s.status == StatusUse::Unchecked && !s.errexit_applies)) {
      if (!reported.insert({s.from.at.line, s.from.at.column}).second) continue;
      why = swallowed(s.status) ? "its failure is swallowed"
                                : "its status is never checked and errexit does not apply here";
      if (swallowed(s.status) && s.status_at.valid())
        rel.push_back(Related{s.status_at, "the failure is swallowed here"});
    } else {
      continue;
    }
    reported.insert({s.from.at.line, s.from.at.column});
    add_unique(out, {K::FailOpenStep,
                     fmt::format("`{}` can fail and the script goes on: {}", s.command, why),
                     s.line.empty() ? s.command : s.line, false, s.from, rel});
  }
}

// A missing tool or a permissive branch that ends the step (or the script) with success: the
// caller cannot tell the control is absent.
void skipped_steps(const ScriptObservations& o, std::vector<ScriptJudgment>& out) {
  for (const ToolGuard& g : o.tool_guards) {
    add_unique(out, {K::FailOpenStep,
                     fmt::format("when {} is missing, `{}` skips the security steps and the "
                                 "script goes on{}",
                                 g.tool, g.check, g.warns ? " with only a warning" : ""),
                     "missing-tool." + g.tool,
                     false,
                     g.from,
                     {Related{g.skipped_at, "the steps are skipped here"}}});
  }
  for (const EarlySuccess& e : o.early_successes) {
    add_unique(out, {K::FailOpenStep,
                     fmt::format("when `{}` holds, the script exits with success before the "
                                 "gate: whoever runs it cannot tell the gate is missing",
                                 e.condition),
                     "early-exit",
                     false,
                     e.from,
                     {Related{e.gate_at, "the gate that is skipped"}}});
  }
}

// The window between a detached start and the gate exec'd into it: the workload runs with no
// rules until the gate is in place, and a failure in between leaves it running unfiltered.
void late_gates(const ScriptObservations& o, std::vector<ScriptJudgment>& out) {
  for (const LateGate& g : o.late_gates) {
    add_unique(out, {K::GateAfterStart,
                     fmt::format("`{}` is applied inside container {} after it was started "
                                 "detached: until then its traffic is not filtered",
                                 g.gate, g.container),
                     g.container + "." + g.gate,
                     false,
                     g.from,
                     {Related{g.started_at, "the container starts here, without the gate"}}});
  }
}

std::string sink_text(const Splice& s) {
  switch (s.sink) {
    case SinkKind::Eval:
      return "eval";
    case SinkKind::ShellCommandString:
      return s.sink_command + " -c";
    case SinkKind::ShellStdin:
      return s.sink_command + " reading a script on stdin";
    case SinkKind::FirewallRule:
      return s.sink_command + " rule";
    case SinkKind::SedScript:
      return "sed script";
    case SinkKind::SquidConfig:
      return "squid configuration";
  }
  return s.sink_command;
}

// A value that is one quoted argument of iptables/ip6tables/ipset is parsed as an address or
// a port, never as rule text; nft parses its command-line words as rule text again, so for nft
// the argument is still code.
bool passed_as_value(const Splice& s) {
  return s.one_argument && s.sink == SinkKind::FirewallRule && s.sink_command != "nft";
}

// One finding per flow: the same source reaching the same kind of sink in the same file is
// reported at its first use, the other uses as related locations.
void splices(const ScriptObservations& o, std::vector<ScriptJudgment>& out) {
  std::map<std::tuple<std::string, ValueSource, SinkKind, FileId>, std::size_t> flows;
  for (const Splice& s : o.splices) {
    if (s.validated || passed_as_value(s)) continue;
    auto flow = std::make_tuple(s.variable, s.source, s.sink, s.from.at.file);
    if (auto it = flows.find(flow); it != flows.end()) {
      std::vector<Related>& rel = out[it->second].related;
      bool known =
          s.from.at == out[it->second].from.at ||
          std::any_of(rel.begin(), rel.end(), [&](const Related& r) { return r.at == s.from.at; });
      if (!known) rel.push_back(Related{s.from.at, "the same value reaches " + sink_text(s)});
      continue;
    }
    std::vector<Related> rel;
    if (s.entered_at.valid())
      rel.push_back(Related{s.entered_at, "the unvalidated value enters here"});
    size_t before = out.size();
    add_unique(out,
               {K::UnvalidatedSplice,
                fmt::format("{} reaches {} without a validating check",
                            s.value_origin.empty() ? s.variable : s.value_origin, sink_text(s)),
                fmt::format("{}.{}.{}", sink_kind_name(s.sink), s.sink_command, s.variable), false,
                s.from, rel});
    if (out.size() > before) flows.emplace(flow, out.size() - 1);
  }
}

std::string resource_text(const ResourceStart& r) {
  // The name as the script left it, its unknown parts named (`cai-test-<unknown: $$>`).
  const std::string& name = r.name_shown.empty() ? r.name : r.name_shown;
  switch (r.kind) {
    case ResourceKind::Container:
      return r.name.empty() ? "a detached container" : "container " + name;
    case ResourceKind::PortForwarder:
      return "port forwarder " + name;
    case ResourceKind::Proxy:
      return "proxy " + name;
    case ResourceKind::Network:
      return "network " + name;
    case ResourceKind::Pod:
      return "pod " + name;
    case ResourceKind::TempSecretFile:
      return "temporary file holding " + r.holds;
  }
  return name;
}

void cleanup(const ScriptObservations& o, std::vector<ScriptJudgment>& out) {
  for (const ResourceStart& r : o.resources) {
    // A published port or a secret file left behind is worse than a stray container.
    bool high = r.publishes_ports || r.kind == ResourceKind::PortForwarder ||
                r.kind == ResourceKind::TempSecretFile;
    std::string what = resource_text(r);
    std::string key = fmt::format("{}.{}", resource_kind_name(r.kind), r.name);
    if (!r.cleanup_trap || *r.cleanup_trap >= o.traps.size()) {
      add_unique(out, {K::MissingCleanup,
                       what + " is started but no trap removes it when the script exits or fails",
                       key,
                       high,
                       r.from,
                       {}});
      continue;
    }
    const TrapInstall& t = o.traps[*r.cleanup_trap];
    if (!r.cleanup_installed_before) {
      add_unique(out, {K::TrapAfterStart,
                       what + " is started before the trap that removes it is installed: a "
                              "failure in between leaves it behind",
                       key,
                       high,
                       r.from,
                       {Related{t.at, "the trap is installed here"}}});
      continue;
    }
    bool on_signal = std::any_of(t.signals.begin(), t.signals.end(), [](const std::string& s) {
      return s == "INT" || s == "TERM" || s == "HUP";
    });
    if (o.posix_sh && !on_signal) {
      add_unique(out, {K::MissingCleanup,
                       what + " is removed only by an EXIT trap, which sh does not run on INT or "
                              "TERM",
                       key + ".exit-only",
                       high,
                       Provenance{t.at, Frontend::Bash, {}},
                       {Related{r.from.at, "the resource starts here"}}});
    }
  }
}

void exec_after_trap(const ScriptObservations& o, std::vector<ScriptJudgment>& out) {
  for (const ExecHandover& e : o.execs) {
    for (const TrapInstall& t : e.traps_in_force) {
      bool exit_trap = std::find(t.signals.begin(), t.signals.end(), "EXIT") != t.signals.end();
      if (!exit_trap && t.signals.size() < 2) continue;
      std::string h = shorten(t.handler, 40);
      std::string signals;
      for (const auto& s : t.signals) signals += (signals.empty() ? "" : ",") + s;
      add_unique(out, {K::TrapDiscardedByExec,
                       fmt::format("exec replaces the shell, so the trap `{}` never runs", h),
                       signals,
                       false,
                       e.from,
                       {Related{t.at, "the discarded trap"}}});
      break;
    }
  }
}

}  // namespace

std::vector<ScriptJudgment> judge_lifecycle(const ScriptObservations& o) {
  std::vector<ScriptJudgment> out;
  errexit(o, out);
  partial_strict_mode(o, out);
  fail_open(o, out);
  skipped_steps(o, out);
  late_gates(o, out);
  splices(o, out);
  cleanup(o, out);
  exec_after_trap(o, out);
  for (auto& j : judge_escape_hatches(o)) add_unique(out, std::move(j));
  for (auto& j : judge_downloads(o)) add_unique(out, std::move(j));
  return out;
}

}  // namespace sbr::inv
