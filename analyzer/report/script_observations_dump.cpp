// The renderer's observations in the model dump: one line per observation, in recorded order
// within each kind, with where it is and the path condition. Values that may hold secrets
// (commands, handlers) are redacted like invocation words.
#include <fmt/format.h>

#include "analyzer/report/script_dump.h"
#include "analyzer/support/secrets.h"

namespace sbr::report {
namespace {

struct Out {
  const Model& m;
  std::ostream& os;

  std::string at(const Location& l) const {
    return fmt::format("{}:{}:{}", m.files.path(l.file), l.line, l.column);
  }
  std::string at(const Provenance& p) const {
    std::string s = at(p.at);
    if (!p.condition().always())
      s += fmt::format("  [{}{}]", p.condition().text,
                       p.condition().needs_switch ? "; needs a switch" : "");
    return s;
  }
  void line(std::string_view what, const std::string& body, const Provenance& p) {
    os << fmt::format("  observed {} {} at {}\n", what, secrets::redact_key_formats(body), at(p));
  }
};

std::string joined(const std::vector<std::string>& xs) {
  std::string s;
  for (const auto& x : xs) s += (s.empty() ? "" : ",") + x;
  return s;
}

void dump_steps_and_splices(const ScriptObservations& o, Out& out) {
  for (const SecurityStep& s : o.steps) {
    std::string failure = !s.failure_branch_exits   ? ""
                          : *s.failure_branch_exits ? " failure-branch-exits"
                                                    : " failure-branch-continues";
    out.line("step",
             fmt::format("{} `{}` status={}{}{}", step_kind_name(s.kind),
                         s.line.empty() ? s.command : s.line, status_use_name(s.status),
                         s.errexit_applies ? " errexit" : "", failure),
             s.from);
  }
  for (const Splice& s : o.splices) {
    out.line("splice",
             fmt::format("{} {} value={} source={}{}", sink_kind_name(s.sink), s.sink_command,
                         s.variable, value_source_name(s.source), s.validated ? " validated" : ""),
             s.from);
  }
}

void dump_lifecycle(const ScriptObservations& o, Out& out) {
  for (const TrapInstall& t : o.traps)
    out.line("trap", fmt::format("{} `{}`", joined(t.signals), t.handler),
             {t.at, Frontend::Bash, {}});
  for (const ResourceStart& r : o.resources) {
    std::string cleanup = "cleanup=none";
    if (r.cleanup_trap && *r.cleanup_trap < o.traps.size())
      cleanup = fmt::format("cleanup=trap@{}{}", out.at(o.traps[*r.cleanup_trap].at),
                            r.cleanup_installed_before ? " before-start" : " after-start");
    out.line(
        "resource",
        fmt::format("{} {}{} {}", resource_kind_name(r.kind), r.name.empty() ? "(unnamed)" : r.name,
                    r.publishes_ports ? " publishes-ports" : "", cleanup),
        r.from);
  }
  for (const ExecHandover& e : o.execs) {
    out.line(
        "exec",
        fmt::format(
            "traps={}{}{}{}{}", e.traps_in_force.size(),
            e.container_launch ? " container-launch" : "",
            e.net_admin_used_at.valid() ? " net-admin-used-at=" + out.at(e.net_admin_used_at) : "",
            e.bounding_set_dropped ? " bounding-set-dropped" : "",
            e.user_switch.empty() ? "" : " user-switch=" + e.user_switch),
        e.from);
  }
  for (const ContainerLaunch& l : o.launches)
    out.line("launch", fmt::format("`{}`{}", l.command, l.errexit ? " errexit" : ""), l.from);
  for (const FetchPipe& f : o.fetch_pipes)
    out.line("fetch-pipe", fmt::format("{} -> {}", f.producer, f.consumer), f.from);
  for (const OptionBranch& b : o.option_branches)
    out.line("option-branch", b.option + (b.warns ? " warns" : ""), b.from);
  for (const EngineOptionWord& w : o.engine_options)
    out.line("engine-option", fmt::format("{} source={}", w.variable, value_source_name(w.source)),
             w.from);
}

void dump_secrets(const ScriptObservations& o, Out& out) {
  for (const TracedSecret& t : o.traced_secrets)
    out.line("traced-secret", t.variable + (t.assignment ? " assignment" : ""), t.from);
  for (const UrlUserinfo& u : o.urls) {
    out.line(
        "url-userinfo",
        fmt::format("secret={}{}{}", u.secret_variable.empty() ? "-" : u.secret_variable,
                    u.has_password ? " password" : "",
                    u.password_key_format.empty() ? "" : " key-format=" + u.password_key_format),
        u.from);
  }
  for (const SecretEcho& e : o.secret_echoes)
    out.line("secret-echo", e.command + " " + e.variable, e.from);
  for (const SecretFileWrite& w : o.secret_files) {
    out.line("secret-file",
             fmt::format("{} holds {}{}{}", w.path, w.variable,
                         w.created_private ? " created-private" : "",
                         w.chmod_private ? " chmod-private" : ""),
             w.from);
  }
  for (const PrivilegeGrant& g : o.grants) {
    out.line(
        "grant",
        fmt::format("{} {}{}{}", g.kind == GrantKind::SudoersRule ? "sudoers-rule" : "sudo-group",
                    g.target, g.grants_all ? " all" : "", g.nopasswd ? " nopasswd" : ""),
        g.from);
  }
}

}  // namespace

void dump_observations(const Model& model, const ScriptObservations& o, std::ostream& os) {
  Out out{model, os};
  if (o.posix_sh) os << "  observed posix-sh\n";
  dump_steps_and_splices(o, out);
  dump_lifecycle(o, out);
  dump_secrets(o, out);
}

}  // namespace sbr::report
