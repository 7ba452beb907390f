// Invariant 4 judgments over a launcher's observations (secret files, traces, URLs and
// echoes) and the invariant 2 one (capabilities kept across the final exec).
#include <fmt/format.h>

#include <set>

#include "invariants/script_judgments.h"

namespace sbr::inv {
namespace {
using K = ScriptFindingKind;
}  // namespace

std::vector<ScriptJudgment> judge_secrets(const ScriptObservations& o) {
  std::vector<ScriptJudgment> out;
  for (const SecretFileWrite& w : o.secret_files) {
    if (w.created_private || w.chmod_private) continue;
    add_unique(out, {K::SecretFileUnprotected,
                     fmt::format("{} is written to {} without umask 077 or chmod 600: other "
                                 "users can read it",
                                 w.variable, w.path_shown.empty() ? w.path : w.path_shown),
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

}  // namespace sbr::inv
