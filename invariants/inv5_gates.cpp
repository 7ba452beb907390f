// Invariant 5, checks specific to egress gates: a squid config that lets everything through or
// tunnels any port, a ruleset that denies in one address family only, a gate the workload can
// remove, and a proxy variable with nothing blocking direct egress. The generic verdicts (no
// default deny, allows to anywhere, metadata, DNS) are judged over the same gate facts in
// inv5_egress.cpp.
#include <fmt/format.h>

#include <set>
#include <tuple>

#include "analyzer/engine/gate_path.h"
#include "analyzer/engine/paths.h"
#include "analyzer/support/strings.h"
#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"
#include "invariants/workload_facts.h"

namespace sbr::inv {
namespace {

Finding file_finding(const Model& m, RuleId rule, std::string msg, const Provenance& at,
                     std::string fact_path) {
  Finding f;
  f.rule_id = rule;
  f.message = std::move(msg);
  f.at = at.at;
  f.subject = m.files.path(at.at.file);
  f.fact_path = std::move(fact_path);
  f.set_condition(at.condition());
  return f;
}

void check_squid(const Model& m, const EgressGate& g, Findings& out) {
  for (const auto& a : g.allows) {
    if (a.dest != DestKind::Fqdn || a.value != "*") continue;
    std::string why =
        "every destination is allowed: an `http_access allow` line without a destination ACL "
        "(`allow all`, `allow localnet`), or a last line that denies something narrow, which "
        "makes squid allow whatever no line matched";
    out.add(file_finding(m, rule::squid_allows_all,
                         fmt::format("squid proxy {}: {}; allow only dstdomain ACLs and end "
                                     "with `http_access deny all`",
                                     g.name, why),
                         a.from, "squid:allows-every-destination"));
    break;  // one finding per config: the first line that opens it
  }
  bool has_allow = !g.allows.empty();
  if (has_allow && g.connect_restricted && !g.connect_restricted->value) {
    out.add(file_finding(
        m, rule::squid_connect_not_restricted,
        fmt::format("squid proxy {}: no `http_access deny CONNECT !SSL_ports` before the allows, "
                    "so CONNECT can tunnel to any port of an allowed domain",
                    g.name),
        g.allows.front().from, "squid:connect-not-restricted"));
  }
}

void check_family(const Model& m, const EgressGate& g, Findings& out) {
  if (!g.denies_v4 || g.denies_v6) return;
  bool nft = g.kind == GateKind::Nft;
  out.add(file_finding(
      m, rule::egress_ipv6_open,
      fmt::format("{} {} denies IPv4 egress by default but not IPv6: IPv6 traffic passes "
                  "whenever the network has IPv6 (pasta copies the host's addresses); {}",
                  nft ? "nft ruleset" : "iptables ruleset", g.name,
                  nft ? "use a table of family inet, which sees both families"
                      : "apply the same policy and rules with ip6tables"),
      g.from, fmt::format("egress-family:{}", g.name)));
}

std::string gate_label(const EgressGate& g);

// The default deny sits on a path the script takes only when a list is set: by default the
// gate is skipped and the sandbox starts open (INVARIANTS.md 5: an empty allowlist must be an
// error, not a wide-open start).
void check_switched(const Model& m, const EgressGate& g, Findings& out) {
  if (!g.switched_deny || g.denies_v4 || g.denies_v6) return;
  const Provenance& at = *g.switched_deny;
  Finding f = file_finding(
      m, rule::empty_allowlist_open,
      fmt::format("{}: the default deny is only applied {}; on the default path (the list empty "
                  "or unset) the script skips it and egress starts wide open; exit with an "
                  "error when the allowlist is empty instead",
                  gate_label(g),
                  at.condition().text.empty() ? "on some paths" : at.condition().text),
      at, "egress-switched-deny:" + g.name);
  f.set_condition({});  // the open start is the default path
  out.add(std::move(f));
}

void check_gate_files(const Model& m, Findings& out) {
  // Per place and path: another path's input of the same load is another ruleset.
  std::set<std::tuple<std::string, FileId, std::uint32_t, std::string>> seen;
  // One family finding per ruleset: its output and forward gates share the cause.
  std::set<std::pair<int, FileId>> family_seen;
  for (const auto& s : m.scripts) {
    for (const auto& g : s.gates) {
      std::string kind = std::to_string(static_cast<int>(g.kind));
      if (!seen.insert({kind, g.from.at.file, g.from.at.line, g.from.condition().text}).second)
        continue;
      if (g.kind == GateKind::Squid) check_squid(m, g, out);
      if (g.kind == GateKind::Nft || g.kind == GateKind::Iptables) {
        bool v4_only = g.denies_v4 && !g.denies_v6;
        if (v4_only && family_seen.insert({static_cast<int>(g.kind), s.file}).second) {
          check_family(m, g, out);
        }
        check_switched(m, g, out);
      }
    }
  }
}

std::string gate_label(const EgressGate& g) {
  switch (g.kind) {
    case GateKind::Nft:
      return "nft ruleset " + g.name;
    case GateKind::Iptables:
      return "iptables ruleset " + g.name;
    default:
      return g.name;
  }
}

void check_removable(const Workload& w, Findings& out) {
  for (const auto& g : w.network.egress) {
    if (!g.removable_by_workload) continue;
    bool own_netns = g.hook == GateHook::NetnsOutput;
    // The cause is the capability the workload keeps: point there, the gate is related.
    const Provenance* cause = &g.from;
    for (const auto& c : w.identity.cap_add) {
      if ((c.value == Capability::NetAdmin || c.value == Capability::All) && c.from.at.valid()) {
        cause = &c.from;
        break;
      }
    }
    if (cause == &g.from && w.identity.privileged && w.identity.privileged->value) {
      cause = &w.identity.privileged->from;
    }
    Finding f = make(
        w, rule::gate_removable_by_workload,
        fmt::format("{}: its egress gate ({}) lives in {} while the workload keeps NET_ADMIN, so "
                    "the code inside can flush it; drop the bounding set before the untrusted "
                    "command runs (setpriv --bounding-set -all) or load the gate from outside",
                    describe(w), gate_label(g),
                    own_netns ? "its own network namespace" : "the host's network namespace"),
        *cause, "egress-gate-removable:" + gate_label(g));
    f.related.push_back({g.from.at, "the gate: " + gate_label(g)});
    out.add(std::move(f));
  }
}

void check_proxy(const Workload& w, Findings& out) {
  if (w.network.mode && w.network.mode->value == NetMode::None) return;
  for (const auto& g : w.network.egress) {
    if (g.kind != GateKind::Squid && (g.denies_v4 || g.denies_v6)) return;
  }
  for (const auto& e : w.env) {
    std::string n = lower(e.name);
    if (n != "http_proxy" && n != "https_proxy" && n != "all_proxy") continue;
    out.add(make(w, rule::proxy_without_direct_block,
                 fmt::format("{}: {} points the workload at a proxy, but nothing blocks direct "
                             "egress, so any program that ignores the variable goes straight "
                             "out; add a default-deny gate that only lets the proxy through",
                             describe(w), e.name),
                 e.from, "env:" + e.name));
    return;  // one per workload: the first proxy variable
  }
}

bool attached(const Workload& w, const EgressGate& g) {
  for (const auto& e : w.network.egress) {
    if (e.kind == g.kind && e.name == g.name && e.from.at == g.from.at) return true;
  }
  return false;
}

// Why a launcher's host ruleset is not on the path of the workload's traffic, in words; the
// engine decides which hook the traffic crosses.
std::string missed_path(const Workload& w, const EgressGate& g) {
  switch (engine::hook_missed(w, g.hook)) {
    case engine::HookMiss::None:
      return "";
    case engine::HookMiss::HostNetworkSkipsForward:
      return "with --network host the container's traffic is the host's own: it crosses "
             "OUTPUT, never FORWARD";
    case engine::HookMiss::RootlessRelaySkipsForward:
      return "rootless podman relays the container's connections through pasta or "
             "slirp4netns, processes of the user on the host: they cross the host's "
             "OUTPUT, never FORWARD";
    case engine::HookMiss::BridgedSkipsOutput:
      return "a bridged container's packets are forwarded by the host: they cross FORWARD (and "
             "DOCKER-USER for docker), never the host's OUTPUT";
  }
  return "";
}

// A launcher loads a default-deny ruleset on a hook its containers' traffic never crosses.
void check_gate_path(const Model& m, const Workload& w, Findings& out) {
  for (const auto& s : m.scripts) {
    if (s.file != w.object_from.at.file) continue;
    for (const auto& g : s.gates) {
      if (g.kind != GateKind::Nft && g.kind != GateKind::Iptables) continue;
      if (g.hook != GateHook::Output && g.hook != GateHook::Forward) continue;
      if ((!g.denies_v4 && !g.denies_v6) || attached(w, g)) continue;
      std::string why = missed_path(w, g);
      if (why.empty()) continue;
      Finding f = make(w, rule::gate_not_on_traffic_path,
                       fmt::format("{}: the launcher's {} is not on this workload's path: {}; "
                                   "the sandbox's egress does not meet it",
                                   describe(w), gate_label(g), why),
                       g.from, "egress-gate-path:" + gate_label(g));
      if (w.network.mode) {
        // The path is only missed where the network mode is in force (e.g. a switch).
        if (!w.network.mode->from.condition().always())
          f.set_condition(w.network.mode->from.condition());
        f.related.push_back({w.network.mode->from.at, "the workload's network"});
      }
      f.related.push_back({w.object_from.at, "the launch"});
      out.add(std::move(f));
    }
  }
}

}  // namespace

// The gate's own file (a squid.conf, a ruleset, the firewall script) under a writable bind
// mount of the workload it confines. Bind sources are repository paths as the frontends resolve
// them ("." is the launcher's or compose project's directory). Only gates loaded from a file of
// their own count: flags on the launch itself (`--network none`, an internal network) and rules
// written in the file that starts the workload are the launch, which a person runs, not a file
// the gate reloads on its own.
void check_gate_config_writable(const Model& model, const Workload& w, FactFindings& out) {
  for (const auto& g : w.network.egress) {
    bool file_gate =
        g.kind == GateKind::Nft || g.kind == GateKind::Iptables || g.kind == GateKind::Squid;
    if (!file_gate || !g.from.at.valid() || g.from.at.file >= model.files.paths.size() ||
        g.from.at.file == w.object_from.at.file)
      continue;
    // The gate's own file and the lists it reads (a squid allowlist bound into the proxy).
    std::vector<std::string> files{engine::normalize_path(model.files.path(g.from.at.file))};
    for (const auto& f : g.list_repo_files) files.push_back(engine::normalize_path(f));
    for (const Mount& m : w.mounts) {
      if (m.kind != MountKind::HostPath || m.source.empty() || !writes_host(m)) continue;
      const std::string source = engine::normalize_path(m.source);
      std::string held;
      for (const std::string& f : files) {
        if (engine::path_within(f, source)) held += (held.empty() ? "" : " and ") + f;
      }
      if (held.empty()) continue;
      std::vector<Related> related = mount_related(m);
      related.push_back({g.from.at, "the gate: " + gate_label(g)});
      out.add(
          w, rule::gate_config_writable_by_workload,
          MessageArgs{{"source", m.shown_source()}, {"target", m.shown_target()}, {"file", held}},
          mount_anchor(w, m), "egress-gate-file:" + files.front(), related);
      break;
    }
  }
}

void check_gates(const Model& model, Findings& out) {
  check_gate_files(model, out);
  {
    FactFindings facts(out, model);
    for (const auto& w : model.workloads) check_gate_config_writable(model, w, facts);
  }
  for (const auto& w : model.workloads) {
    check_removable(w, out);
    check_proxy(w, out);
    check_gate_path(model, w, out);
  }
}

}  // namespace sbr::inv
