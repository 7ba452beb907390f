// Invariant 2 and 4 judgments over a launcher's observations, the escape hatches and the
// downloads piped to an interpreter (invariant 7), and the judgment kinds' names.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "invariants/script_judgments.h"

namespace sbr::inv {
namespace {

using K = ScriptFindingKind;

std::string base_name(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

bool is_hatch_option(const std::string& option) {
  static const char* hatches[] = {"--insecure",    "--allow-unenforced", "--no-sandbox",
                                  "--unsafe",      "--dangerously",      "--disable-firewall",
                                  "--no-firewall", "--skip-gate",        "--allow-unconfined"};
  return std::any_of(std::begin(hatches), std::end(hatches),
                     [&](const char* h) { return option.find(h) != std::string::npos; });
}

// Names of variables that carry extra engine options (PODMAN_EXTRA_ARGS, RUN_OPTS...).
bool is_options_variable(const std::string& v) {
  std::string up = v;
  std::transform(up.begin(), up.end(), up.begin(), [](unsigned char c) { return std::toupper(c); });
  for (const char* p : {"EXTRA", "_ARGS", "_OPTS", "_FLAGS", "OPTIONS"})
    if (up.find(p) != std::string::npos) return true;
  return false;
}

}  // namespace

std::vector<ScriptJudgment> judge_escape_hatches(const ScriptObservations& o) {
  std::vector<ScriptJudgment> out;
  for (const OptionBranch& b : o.option_branches) {
    if (!is_hatch_option(b.option) || b.warns) continue;
    add_unique(out, {K::EscapeHatch,
                     fmt::format("option {} turns a control off without a warning", b.option),
                     "option." + b.option,
                     false,
                     b.from,
                     {}});
  }
  for (const EngineOptionWord& w : o.engine_options) {
    if (w.source != ValueSource::Environment || !is_options_variable(w.variable)) continue;
    add_unique(out,
               {K::EscapeHatch,
                fmt::format("{} passes arbitrary engine options from the environment", w.variable),
                "engine-options." + w.variable,
                false,
                w.from,
                {}});
  }
  return out;
}

std::vector<ScriptJudgment> judge_downloads(const ScriptObservations& o) {
  std::vector<ScriptJudgment> out;
  std::set<Location> judged;  // one finding per download: its first interpreter stage
  for (const FetchPipe& p : o.fetch_pipes) {
    std::string c = base_name(p.consumer);
    if (!(c == "sh" || c == "bash" || c == "dash" || c == "zsh" || c == "ksh" || c == "python" ||
          c == "python3" || c == "perl" || c == "ruby" || c == "node"))
      continue;
    if (!judged.insert(p.producer_at).second) continue;
    add_unique(out, {K::CurlPipeShell,
                     fmt::format("output of {} is executed by {} without verification", p.producer,
                                 p.consumer),
                     p.producer + "." + c,
                     false,
                     p.from,
                     {Related{p.producer_at, "the download"}}});
  }
  return out;
}

std::vector<ScriptJudgment> judge_secrets(const ScriptObservations& o) {
  std::vector<ScriptJudgment> out;
  for (const SecretFileWrite& w : o.secret_files) {
    if (w.created_private || w.chmod_private) continue;
    add_unique(out, {K::SecretFileUnprotected,
                     fmt::format("{} is written to {} without umask 077 or chmod 600: other "
                                 "users can read it",
                                 w.variable, w.path),
                     w.variable + "." + w.path,
                     false,
                     w.from,
                     {}});
  }
  std::set<std::string> traced;  // the first trace of each variable
  for (const TracedSecret& t : o.traced_secrets) {
    if (!traced.insert(t.variable).second) continue;
    add_unique(out, {K::XtraceWithSecrets,
                     t.assignment
                         ? fmt::format("set -x prints the value assigned to {}", t.variable)
                         : fmt::format("set -x prints the value of {} in this command", t.variable),
                     t.variable,
                     false,
                     t.from,
                     {Related{t.xtrace_at, "set -x"}}});
  }
  for (const UrlUserinfo& u : o.urls) {
    if (u.secret_variable.empty() && !(u.has_password && !u.password_key_format.empty())) continue;
    add_unique(out,
               {K::SecretInUrl,
                u.secret_variable.empty() ? "a credential is written into a URL"
                                          : fmt::format("{} is put into a URL", u.secret_variable),
                "url." + (u.secret_variable.empty() ? "literal-credential" : u.secret_variable),
                false,
                u.from,
                {}});
  }
  for (const SecretEcho& e : o.secret_echoes) {
    add_unique(out, {K::SecretInUrl,
                     fmt::format("{} echoes {} to the terminal", e.command, e.variable),
                     "echo." + e.command + "." + e.variable,
                     false,
                     e.from,
                     {}});
  }
  return out;
}

std::vector<ScriptJudgment> judge_privilege(const ScriptObservations& o) {
  std::vector<ScriptJudgment> out;
  for (const ExecHandover& e : o.execs) {
    if (!e.net_admin_used_at.valid() || e.container_launch || e.bounding_set_dropped) continue;
    bool plain = e.user_switch.empty() || e.user_switch == "setpriv";
    add_unique(out, {K::CapabilityKeptAtExec,
                     plain ? "the final exec keeps the capabilities the setup used (NET_ADMIN for "
                             "the firewall): the bounding set is not dropped"
                           : fmt::format("{} switches user but keeps the bounding set: NET_ADMIN "
                                         "used for the firewall can be regained",
                                         e.user_switch),
                     e.user_switch.empty() ? "no-user-switch" : e.user_switch,
                     false,
                     e.command,
                     {Related{e.net_admin_used_at, "NET_ADMIN is used here"}}});
  }
  return out;
}

const char* script_finding_kind_name(ScriptFindingKind k) {
  switch (k) {
    case K::ErrexitMissing:
      return "errexit-missing";
    case K::FailOpenStep:
      return "fail-open";
    case K::UnvalidatedSplice:
      return "unvalidated-splice";
    case K::MissingCleanup:
      return "missing-cleanup";
    case K::TrapDiscardedByExec:
      return "trap-discarded-by-exec";
    case K::TrapAfterStart:
      return "trap-after-start";
    case K::CurlPipeShell:
      return "curl-pipe-shell";
    case K::EscapeHatch:
      return "escape-hatch";
    case K::SecretFileUnprotected:
      return "secret-file-unprotected";
    case K::XtraceWithSecrets:
      return "xtrace-with-secrets";
    case K::SecretInUrl:
      return "secret-in-url";
    case K::CapabilityKeptAtExec:
      return "capability-kept-at-exec";
  }
  return "script-finding";
}

}  // namespace sbr::inv
