// Invariant 2 over what an image's build grants its user (analyzer/model/image_build.h): a
// passwordless sudo rule (critical beside NET_ADMIN, NET_RAW or SYS_ADMIN: root can then rewrite
// the egress gate), membership of a group that stands for root, setuid bits. Judged on each
// workload built from the image; an image no workload in the input is built from is judged
// once at its file.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

#include "analyzer/engine/defaults.h"
#include "analyzer/model/capability.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"
#include "invariants/workload_facts.h"

namespace sbr::inv {
namespace {

// What makes root inside the container the gate's master, in words ("holds NET_ADMIN", "runs
// privileged"), or "": only what the configuration adds, not the engine's default NET_RAW.
std::string gate_capability(const Workload& w) {
  if (w.identity.privileged && w.identity.privileged->value) return "runs privileged";
  for (const auto& c : w.identity.cap_add) {
    switch (c.value) {
      case Capability::All:
        return "holds ALL capabilities";
      case Capability::NetAdmin:
        return "holds NET_ADMIN";
      case Capability::NetRaw:
        return "holds NET_RAW";
      case Capability::SysAdmin:
        return "holds SYS_ADMIN";
      default:
        break;
    }
  }
  return "";
}

// Text from the Dockerfile for a message: a variable the build did not resolve is no name a
// reader can use (and `${` must not reach a message).
std::string plain(const std::string& s, const char* otherwise) {
  return s.find('$') == std::string::npos ? s : otherwise;
}

std::string sudo_what(const ImageGrant& g) {
  return g.detail == "ALL" ? "grants passwordless sudo for every command (`NOPASSWD: ALL`"
                           : fmt::format("grants passwordless sudo for `{}`",
                                         plain(g.detail, "a command set at build time")) +
                                 " (`NOPASSWD`";
}

std::string grant_text(const ImageGrant& g) {
  switch (g.kind) {
    case ImageGrantKind::PasswordlessSudo:
      return fmt::format(
          "{} in {}): the user becomes root inside the container without a "
          "password, whatever USER the image sets",
          sudo_what(g), plain(g.via, "sudoers configuration"));
    case ImageGrantKind::PrivilegedGroup:
      return fmt::format("adds its user to group `{}` (`{}`): a group that stands for root",
                         g.detail, g.via);
    case ImageGrantKind::SetuidBit:
      return fmt::format("makes `{}` setuid (`{}`): whoever runs it runs it as its owner, root",
                         plain(g.detail, "a file"), g.via);
  }
  return "";
}

RuleId file_rule(const ImageGrant& g) {
  switch (g.kind) {
    case ImageGrantKind::PasswordlessSudo:
      return rule::image_passwordless_sudo;
    case ImageGrantKind::PrivilegedGroup:
      return rule::image_privileged_group;
    case ImageGrantKind::SetuidBit:
      return rule::image_setuid_bit;
  }
  return rule::image_passwordless_sudo;
}

std::string fact_path(const ImageGrant& g) {
  return fmt::format("image/{}/{}", static_cast<int>(g.kind), g.detail);
}

// One finding per grant and rule, listing every workload built from the image beside the one
// it names (a Dockerfile built by three services is one fact).
class GrantFindings {
 public:
  explicit GrantFindings(Findings& out) : out_(out) {}

  void add(const Workload& w, RuleId rule, const ImageGrant& g, std::string message) {
    add(w, rule, g.from, fact_path(g), std::move(message), {});
  }
  // A fact of the image that is not a build-time grant (what its start script does), by its
  // own fact path.
  void add(const Workload& w, RuleId rule, const Provenance& at, const std::string& fact,
           std::string message, std::vector<Related> related) {
    Key key{std::string(rule), at.at, fact};
    if (auto it = index_.find(key); it != index_.end()) {
      // One launch seen on several paths of its script is one workload to a reader.
      std::vector<Related>& rel = items_[it->second].related;
      Related also{w.container_from.at, "also built from it: " + describe(w)};
      bool known =
          owners_[it->second] == w.container_from.at ||
          std::any_of(rel.begin(), rel.end(), [&](const Related& r) { return r.at == also.at; });
      if (!known) rel.push_back(std::move(also));
      return;
    }
    index_.emplace(key, items_.size());
    items_.push_back(make(w, rule, std::move(message), at, fact));
    owners_.push_back(w.container_from.at);
    for (auto& r : related) items_.back().related.push_back(std::move(r));
  }
  void flush() {
    for (auto& f : items_) out_.add(std::move(f));
  }

 private:
  using Key = std::tuple<std::string, Location, std::string>;
  Findings& out_;
  std::map<Key, std::size_t> index_;
  std::vector<Finding> items_;
  std::vector<Location> owners_;  // the launch each item names
};

void judge_workload(const Workload& w, GrantFindings& out) {
  for (const ImageGrant& g : w.image_grants) {
    std::string what = describe(w) + "'s image " + grant_text(g);
    if (g.kind == ImageGrantKind::PasswordlessSudo) {
      std::string cap = gate_capability(w);
      if (!cap.empty()) {
        out.add(w, rule::passwordless_sudo_with_network_admin, g,
                fmt::format("{}; the container also {}, so root rewrites or flushes the "
                            "egress firewall that confines it, or reruns its gate script",
                            what, cap));
      } else {
        out.add(w, rule::image_passwordless_sudo, g, what);
      }
    } else if (g.kind == ImageGrantKind::SetuidBit) {
      // no-new-privileges makes execve ignore the bit: nothing is regained.
      if (!engine::privilege_escalation_allowed(w)) continue;
      out.add(w, rule::image_setuid_bit, g,
              what + "; the container does not set no-new-privileges, so the bit is honoured");
    } else {
      out.add(w, rule::image_privileged_group, g, what);
    }
  }
}

bool mentions_socket(const Word& w) {
  return w.text.find("docker.sock") != std::string::npos ||
         w.origin.find("docker.sock") != std::string::npos;
}

std::string program(const Invocation& inv) {
  if (inv.argv.empty()) return "";
  const std::string& t = inv.argv[0].text;
  return t.substr(t.rfind('/') == std::string::npos ? 0 : t.rfind('/') + 1);
}

// The user operand of gosu/su-exec/setpriv --reuid/runuser -u when it is a variable that
// defaults to root.
bool root_by_default(const Invocation& inv) {
  std::string p = program(inv);
  auto rootish = [](const Word& w, std::string_view text) {
    std::string_view user = text.substr(0, text.find(':'));
    return w.symbolic && (user == "0" || user == "root");
  };
  for (std::size_t i = 1; i < inv.argv.size(); ++i) {
    const Word& w = inv.argv[i];
    if ((p == "gosu" || p == "su-exec") && i == 1) return rootish(w, w.text);
    if (p == "setpriv" && w.text.starts_with("--reuid="))
      return rootish(w, std::string_view(w.text).substr(8));
    if ((p == "setpriv" && w.text == "--reuid") || (p == "runuser" && w.text == "-u")) {
      return i + 1 < inv.argv.size() && rootish(inv.argv[i + 1], inv.argv[i + 1].text);
    }
  }
  return false;
}

// What a start script's command does that hands its user the Docker socket, in words; "" when
// it does not. `socket_seen`: an earlier command of the script reads or changes the socket.
std::string socket_handover(const Invocation& inv, bool socket_seen) {
  std::string p = program(inv);
  bool names_socket = std::any_of(inv.argv.begin(), inv.argv.end(), mentions_socket);
  bool docker_group =
      std::any_of(inv.argv.begin() + (inv.argv.empty() ? 0 : 1), inv.argv.end(), [](const Word& w) {
        // docker, docker-host, a comma list with either; not a path to the socket
        return w.text.find("docker") != std::string::npos && w.text.find('/') == std::string::npos;
      });
  bool adds_member = p == "usermod" || p == "gpasswd" || p == "adduser" || p == "addgroup";
  if ((p == "chmod" || p == "chgrp" || p == "chown" || p == "setfacl") && names_socket)
    return fmt::format("opens the Docker socket to its user (`{}` on it)", p);
  // `groupadd -g "$(stat -c %g "$SOCK")"` under `[ -S /var/run/docker.sock ]`: the gid is
  // the socket's even when the substitution names it through a variable.
  bool in_socket_branch = inv.from.condition().text.find("docker.sock") != std::string::npos;
  bool stat_gid = std::any_of(inv.argv.begin(), inv.argv.end(), [](const Word& w) {
    return w.origin.find("stat ") != std::string::npos;
  });
  if ((p == "groupadd" || p == "groupmod") && (names_socket || (in_socket_branch && stat_gid)))
    return "creates a group with the Docker socket's gid for its user";
  if (adds_member && (docker_group || socket_seen || in_socket_branch))
    return fmt::format("adds its user to the Docker socket's group (`{}`)", p);
  return "";
}

// A sudoers rule the start script writes at run time (`echo "$USER ALL=(ALL) NOPASSWD:ALL" >
// /etc/sudoers.d/$USER`): the user it then switches to becomes root without a password. Only
// NOPASSWD rules: a sudo group alone asks for a password the agent's user does not have.
void start_script_grants(const Workload& w, const Workload::ImageFile& s, const ScriptFacts& sf,
                         GrantFindings& out) {
  std::set<Location> seen;
  for (const PrivilegeGrant& pg : sf.observed.grants) {
    if (pg.kind != GrantKind::SudoersRule || !pg.nopasswd || !seen.insert(pg.from.at).second)
      continue;
    std::string what = fmt::format(
        "writes a passwordless sudo rule into {} when the container starts ({}): the user it "
        "hands over to becomes root without a password",
        plain(pg.target, "sudoers configuration"),
        pg.grants_all ? "`NOPASSWD: ALL`" : "`NOPASSWD`");
    out.add(w, rule::entrypoint_regains_root, pg.from, "start-script/sudoers/" + what,
            fmt::format("{}'s image starts {} (the repository's {}), which {}", describe(w),
                        s.container_path, s.repo_path, what),
            {});
  }
}

// What the container holds beyond the engine's default set, in words, and where: privileged, or
// the first capability it adds outside that set. "" when none: regaining the default set is the
// missing no-new-privileges finding's (SB2005), not this one's.
std::pair<std::string, Location> held_capability(const Workload& w) {
  if (w.identity.privileged && w.identity.privileged->value)
    return {"runs privileged", w.identity.privileged->from.at};
  for (const auto& c : w.identity.cap_add) {
    if (c.value == Capability::All || !engine::in_default_set(w.engine, c.value))
      return {fmt::format("adds {}", capability_name(c.value)), c.from.at};
  }
  return {"", {}};
}

// A user switch (gosu, su-exec, su, runuser) in the start script of a container that holds
// extra capabilities: the switch clears the effective set, not the bounding set, and without
// no-new-privileges a setuid or file-capability binary regains them. The script's own NET_ADMIN
// use is judged on the script (SB2050 there); this is the workload's grant.
void start_script_bounding_set(const Workload& w, const Workload::ImageFile& s,
                               const ScriptFacts& sf, GrantFindings& out) {
  auto [held, held_at] = held_capability(w);
  if (held.empty() || !engine::privilege_escalation_allowed(w)) return;
  std::set<Location> seen;
  for (const ExecHandover& e : sf.observed.execs) {
    if (e.user_switch.empty() || e.bounding_set_dropped || e.net_admin_used_at.valid() ||
        !seen.insert(e.from.at).second)
      continue;
    std::string what = fmt::format(
        "switches user with `{}` but keeps the bounding set, and the container {} without "
        "no-new-privileges: a setuid or file-capability binary regains what it holds",
        e.user_switch, held);
    out.add(w, rule::capability_kept_across_exec, e.from, "start-script/bounding-set/" + what,
            fmt::format("{}'s image starts {} (the repository's {}), which {}", describe(w),
                        s.container_path, s.repo_path, what),
            {{held_at, fmt::format("the container {} here", held)}});
  }
}

// The variable an atom tests (`HOST_UID=0` tests HOST_UID), when it compares it with root.
std::string root_test_variable(const CondAtom& a) {
  if (a.equals != "0" && a.equals != "root") return "";
  std::size_t n = 0;
  while (n < a.shown.size() &&
         (std::isalnum(static_cast<unsigned char>(a.shown[n])) != 0 || a.shown[n] == '_'))
    ++n;
  return a.shown.substr(0, n);
}

// `HOST_UID=${HOST_UID:-0}; if [ "$HOST_UID" = 0 ]; then exec "$@"; fi; ... exec runuser -u
// claude -- "$@"`: the script means to drop root, but its default path hands the command over
// as the image's user, root, unless the workload sets the variable it tests.
void root_default_exec(const Workload& w, const Workload::ImageFile& s, const ScriptFacts& sf,
                       GrantFindings& out) {
  const auto& execs = sf.observed.execs;
  bool drops = std::any_of(execs.begin(), execs.end(),
                           [](const ExecHandover& e) { return !e.user_switch.empty(); });
  if (!drops || user_state(w) != UserState::Root) return;
  for (const ExecHandover& e : execs) {
    const Condition& c = e.from.condition();
    if (!e.user_switch.empty() || c.always() || c.needs_switch) continue;
    for (const CondAtom& a : c.atoms) {
      std::string var = root_test_variable(a);
      bool set_by_workload =
          std::any_of(w.env.begin(), w.env.end(), [&](const EnvVar& v) { return v.name == var; });
      if (var.empty() || set_by_workload) continue;
      std::string what = fmt::format(
          "runs the agent as root unless the caller sets {} (when `{}`, the default, it execs "
          "the command without switching user)",
          var, a.shown);
      out.add(w, rule::entrypoint_regains_root, e.from, "start-script/root-default/" + what,
              fmt::format("{}'s image starts {} (the repository's {}), which {}", describe(w),
                          s.container_path, s.repo_path, what),
              {});
      break;
    }
  }
}

void judge_start_script(const Model& model, const Workload& w, const Workload::ImageFile& s,
                        GrantFindings& out) {
  for (const ScriptFacts& sf : model.scripts) {
    if (model.files.path(sf.file) != s.repo_path) continue;
    start_script_grants(w, s, sf, out);
    start_script_bounding_set(w, s, sf, out);
    root_default_exec(w, s, sf, out);
    bool socket_seen = false;
    for (const Invocation& inv : sf.invocations) {
      std::string what = socket_handover(inv, socket_seen);
      socket_seen = socket_seen || std::any_of(inv.argv.begin(), inv.argv.end(), mentions_socket);
      if (what.empty() && root_by_default(inv)) {
        what = fmt::format(
            "runs the agent as root unless the caller sets the variable (`{}` "
            "takes a user that defaults to 0)",
            program(inv));
      }
      if (what.empty()) continue;
      // The fact path these findings have always had, so that their fingerprints stay.
      out.add(w, rule::entrypoint_regains_root, inv.from, "image/1/" + what,
              fmt::format("{}'s image starts {} (the repository's {}), which {}", describe(w),
                          s.container_path, s.repo_path, what),
              {});
    }
  }
}

}  // namespace

void check_image_grants(const Model& model, Findings& out) {
  std::set<std::string> built;
  GrantFindings grouped(out);
  for (const Workload& w : model.workloads) {
    if (w.dockerfile.empty()) continue;
    built.insert(w.dockerfile);
    judge_workload(w, grouped);
    for (const auto& s : w.start_scripts) judge_start_script(model, w, s, grouped);
  }
  grouped.flush();
  for (const ImageBuild& b : model.images) {
    if (built.count(b.path) != 0) continue;
    for (const ImageGrant& g : b.grants) {
      Finding f;
      f.rule_id = file_rule(g);
      f.message = fmt::format("image {} {}", b.path, grant_text(g));
      f.at = g.from.at;
      f.subject = "image " + b.path;
      f.fact_path = fact_path(g);
      out.add(std::move(f));
    }
  }
}

}  // namespace sbr::inv
