// The inference: evidence first (each kind of observation by one function), then one decision.
// An untrusted-code signal on the workload itself (a sandbox kind, an agent harness in its
// command, a devcontainer) wins over platform evidence: a controller that runs `claude` runs
// untrusted code. A launcher is untrusted-code only by default: a launch that other launches
// join (`--network container:X`) is their gate.
#include "analyzer/engine/threat_class.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "analyzer/engine/gate_path.h"
#include "analyzer/engine/threat_evidence.h"
#include "analyzer/frontends/k8s/service_selection.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/support/strings.h"

namespace sbr::engine {

namespace threat {

void add(Evidence& out, ThreatSignal s, ThreatClass c, std::string text, const Provenance& from) {
  out.push_back({s, c, std::move(text), from});
}

std::string where(const Model& m, const Provenance& p) {
  if (!p.at.valid()) return "";
  return fmt::format("{}:{}", m.files.path(p.at.file), p.at.line);
}

std::string reader_name(const Workload& w) {
  if (is_kubernetes(w)) return fmt::format("{} {}", w.id.kind, w.id.name);
  return fmt::format("{} {}", w.id.kind == "compose" ? "compose service" : w.id.kind,
                     w.id.container);
}

bool strong_code(const Evidence& ev) {
  return std::any_of(ev.begin(), ev.end(), [](const ThreatEvidence& e) {
    return e.points_to == ThreatClass::UntrustedCode && e.signal != ThreatSignal::Launcher;
  });
}

}  // namespace threat

namespace {

using threat::add;
using threat::contains;
using threat::reader_name;
using threat::strong_code;
using threat::where;

constexpr std::array<std::string_view, 20> kHarnesses = {
    "claude",    "claude-code", "codex",        "gemini",   "aider", "goose",   "opencode",
    "openhands", "cline",       "cursor-agent", "amp",      "qwen",  "crush",   "plandex",
    "kilocode",  "auggie",      "copilot",      "openclaw", "gptme", "sweagent"};

// npm / PyPI packages that install a harness (`npx -y @anthropic-ai/claude-code`).
constexpr std::array<std::string_view, 9> kPackages = {"@anthropic-ai/claude-code",
                                                       "@openai/codex",
                                                       "@google/gemini-cli",
                                                       "@sourcegraph/amp",
                                                       "opencode-ai",
                                                       "@qwen-code/qwen-code",
                                                       "aider-chat",
                                                       "openhands-ai",
                                                       "@charmland/crush"};

constexpr std::array<std::string_view, 8> kFlags = {"--dangerously-skip-permissions",
                                                    "--allow-dangerously-skip-permissions",
                                                    "--dangerously-bypass-approvals-and-sandbox",
                                                    "--yolo",
                                                    "--full-auto",
                                                    "--yes-always",
                                                    "--approval-mode=yolo",
                                                    "--permission-mode=bypassPermissions"};

constexpr std::array<std::string_view, 6> kProxyVariables = {
    "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"};

struct CommandWord {
  std::string text;
  const Provenance* from = nullptr;
};

// Command words, split on blanks and shell punctuation so that `sh -c "exec claude -p"` and
// `npx -y @anthropic-ai/claude-code@latest` are seen word by word. The operands of a file
// program (`mkdir -p /target/copilot`, `cat claude.log`) are files, not programs, and are left
// out.
std::vector<CommandWord> command_words(const Workload& w) {
  std::vector<CommandWord> out;
  bool operands = false;  // the current simple command's program is a file program
  bool first = true;      // the next word starts a simple command
  auto take = [&](std::string& cur, const Provenance* from) {
    if (cur.empty()) return;
    if (first) operands = threat::file_program(cur);
    if (first || !operands) out.push_back({cur, from});
    first = cur == "-c";  // a shell's `-c` text starts a command of its own
    cur.clear();
  };
  for (const auto& c : w.command) {
    std::string cur;
    for (char ch : c.value + " ") {
      if (std::string_view(" \t\n;&|()'\"`").find(ch) == std::string_view::npos) {
        cur += ch;
        continue;
      }
      take(cur, &c.from);
      if (std::string_view("\n;&|(").find(ch) != std::string_view::npos) first = true;
    }
  }
  return out;
}

std::string base_of(const std::string& s) {
  auto p = s.rfind('/');
  return p == std::string::npos ? s : s.substr(p + 1);
}

// `@openai/codex@0.30`, `aider-chat==0.86`: the package without its version.
bool names_package(const std::string& word) {
  return std::any_of(kPackages.begin(), kPackages.end(), [&](std::string_view p) {
    if (word.compare(0, p.size(), p) != 0) return false;
    return word.size() == p.size() ||
           std::string_view("@=<>~").find(word[p.size()]) != std::string_view::npos;
  });
}

void harness_evidence(const Workload& w, std::vector<ThreatEvidence>& out) {
  std::set<std::string> seen;
  for (const auto& [word, from] : command_words(w)) {
    std::string b = base_of(word);
    // `python -m aider`, `openhands.core.main`: the module's first component.
    std::string module = b.substr(0, b.find('.'));
    if (contains(kHarnesses, b) || contains(kHarnesses, module) || names_package(word)) {
      if (seen.insert("h:" + word).second) {
        add(out, ThreatSignal::Harness, ThreatClass::UntrustedCode,
            fmt::format("its command runs the agent harness `{}`", word), *from);
      }
      continue;
    }
    if (contains(kFlags, word) && seen.insert("f:" + word).second) {
      add(out, ThreatSignal::PermissionFlag, ThreatClass::UntrustedCode,
          fmt::format("its command passes `{}`, which lets an agent act without asking", word),
          *from);
    }
  }
}

// Where a harness keeps its login, settings and skills: a container that has one mounted is
// where that harness runs.
constexpr std::array<std::string_view, 7> kHarnessDirs = {
    "/.claude", "/.codex", "/.gemini", "/.config/opencode", "/.aider", "/.goose", "/.openhands"};

void harness_dir_evidence(const Workload& w, std::vector<ThreatEvidence>& out) {
  for (const Mount& m : w.mounts) {
    std::string t = m.target;
    while (t.size() > 1 && t.back() == '/') t.pop_back();
    bool hit = std::any_of(kHarnessDirs.begin(), kHarnessDirs.end(), [&](std::string_view d) {
      return t.size() >= d.size() && t.compare(t.size() - d.size(), d.size(), d) == 0;
    });
    if (!hit) continue;
    add(out, ThreatSignal::Harness, ThreatClass::UntrustedCode,
        fmt::format("it mounts an agent harness's directory at {}", m.target), m.mount_from);
    return;
  }
}

void kind_evidence(const Workload& w, std::vector<ThreatEvidence>& out) {
  if (w.lifecycle.controller == Controller::Sandbox) {
    add(out, ThreatSignal::SandboxKind, ThreatClass::UntrustedCode,
        fmt::format("it is an agent-sandbox {} ({})", w.id.kind, w.id.api_group), w.object_from);
  } else if (w.lifecycle.controller == Controller::SandboxTemplate) {
    add(out, ThreatSignal::SandboxKind, ThreatClass::UntrustedCode,
        fmt::format("its pods are made from {} {}", w.id.kind, w.id.name), w.object_from);
  } else if (w.engine == Engine::Devcontainer) {
    add(out, ThreatSignal::Devcontainer, ThreatClass::UntrustedCode,
        "a devcontainer: the container the agent works in", w.object_from);
  } else if (w.runs_devcontainer) {
    const std::string& dev = w.runs_devcontainer->value;
    add(out, ThreatSignal::Devcontainer, ThreatClass::UntrustedCode,
        w.engine == Engine::Compose
            ? fmt::format("the devcontainer {} runs as this service: the container the agent "
                          "works in",
                          dev)
            : fmt::format("it builds and runs the devcontainer {}: the container the agent works "
                          "in",
                          dev),
        w.runs_devcontainer->from);
  } else if (w.lifecycle.controller == Controller::Launcher) {
    add(out, ThreatSignal::Launcher, ThreatClass::UntrustedCode,
        "a launcher script starts it, and nothing shows it is part of the platform", w.object_from);
  }
}

// The Services that select `w` in its namespace (one left out matches any).
std::vector<const ServiceObject*> selecting(const Model& m, const ServiceSelection& selection,
                                            const Workload& w) {
  std::vector<const ServiceObject*> out;
  for (std::size_t i : selection.selecting(w.pod_labels)) {
    const ServiceObject& s = m.cluster.services[i];
    if (s.ref.ns.empty() || w.id.ns.empty() || s.ref.ns == w.id.ns) out.push_back(&s);
  }
  return out;
}

// A namespace left out (a kustomize base sets it later) matches any.
bool lenient_ns(const std::string& a, const std::string& b) {
  return a.empty() || b.empty() || a == b;
}

void webhook_evidence(const Model& m, const std::vector<const ServiceObject*>& services,
                      std::vector<ThreatEvidence>& out) {
  for (const WebhookObject& h : m.cluster.webhooks) {
    for (const ServiceObject* sp : services) {
      const ServiceObject& s = *sp;
      if (s.ref.name != h.service_name || !lenient_ns(s.ref.ns, h.service_ns)) continue;
      add(out, ThreatSignal::Webhook, ThreatClass::UntrustedInput,
          fmt::format("it serves admission webhook {} of {} {} through Service {} ({})", h.webhook,
                      h.ref.kind, h.ref.name, s.ref.name, where(m, h.service_from)),
          h.service_from);
      return;
    }
  }
}

// One install bundle: the CRD sits in the workload's directory, or under its parent directory
// (kubebuilder's config/crd beside config/manager). Long-lived controllers only: an operator.
bool same_bundle(const std::string& workload_file, const std::string& crd_file) {
  std::string dir = dir_of(workload_file);
  if (dir_of(crd_file) == dir) return true;
  std::string parent = dir_of(dir);
  return !parent.empty() && crd_file.compare(0, parent.size() + 1, parent + "/") == 0;
}

void bundle_evidence(const Model& m, const Workload& w, std::vector<ThreatEvidence>& out) {
  Controller c = w.lifecycle.controller;
  if (c != Controller::Deployment && c != Controller::StatefulSet && c != Controller::DaemonSet) {
    return;
  }
  const std::string& file = m.files.path(w.object_from.at.file);
  for (const CrdObject& crd : m.cluster.crds) {
    if (!threat::sandbox_group(crd.group)) continue;
    if (!same_bundle(file, m.files.path(crd.ref.from.at.file))) continue;
    add(out, ThreatSignal::InstallBundle, ThreatClass::UntrustedInput,
        fmt::format("it ships in the install bundle of CustomResourceDefinition {} ({})",
                    crd.ref.name, where(m, crd.ref.from)),
        crd.ref.from);
    return;
  }
}

// `http://user@squid.egress.svc:3128/` -> `squid.egress.svc`.
std::string proxy_host(std::string v) {
  if (auto p = v.find("://"); p != std::string::npos) v = v.substr(p + 3);
  if (auto p = v.rfind('@'); p != std::string::npos) v = v.substr(p + 1);
  return v.substr(0, v.find_first_of(":/"));
}

// Who sends traffic through whom, indexed once: by the container name a launch or compose
// service joins or names as its proxy, and by the host a Kubernetes proxy variable names.
// Comparing every workload with every other would be quadratic on a 10,000-workload stream.
struct TrafficIndex {
  std::map<std::string, std::vector<std::size_t>> joiners;  // container name -> joining workloads
  std::map<std::string, std::vector<std::pair<std::size_t, const EnvVar*>>> proxy_users;
  std::map<std::string, std::vector<std::pair<std::size_t, const EnvVar*>>> kube_proxy_users;
};

TrafficIndex index_traffic(const Model& m) {
  TrafficIndex t;
  for (std::size_t i = 0; i < m.workloads.size(); ++i) {
    const Workload& o = m.workloads[i];
    const Network& n = o.network;
    if (!is_kubernetes(o) && n.mode && n.mode->value == NetMode::Container && !n.mode_arg.empty()) {
      t.joiners[n.mode_arg].push_back(i);
    }
    for (const EnvVar& e : o.env) {
      if (e.source != EnvSource::Literal || !contains(kProxyVariables, e.name)) continue;
      std::string host = proxy_host(e.value);
      if (host.empty()) continue;
      (is_kubernetes(o) ? t.kube_proxy_users : t.proxy_users)[host].emplace_back(i, &e);
      break;  // one variable tells the proxy; HTTP_PROXY and HTTPS_PROXY usually agree
    }
  }
  return t;
}

void joins(const Model& m, const TrafficIndex& t, std::size_t wi,
           std::vector<ThreatEvidence>& out) {
  const Workload& w = m.workloads[wi];
  auto it = t.joiners.find(w.id.container);
  if (is_kubernetes(w) || it == t.joiners.end()) return;
  // Traffic passes through a namespace only if it has a network: joining a `none` container
  // makes the joiner offline, not the joined one a gate.
  if (w.network.mode && w.network.mode->value == NetMode::None) return;
  for (std::size_t oi : it->second) {
    const Workload& o = m.workloads[oi];
    // Compose resolves service:X inside its own project; launches name containers host-wide.
    // A joiner holding NET_ADMIN sets the namespace up (a firewall sidecar): its traffic does
    // not make this workload a gateway.
    if (oi == wi ||
        (o.engine == Engine::Compose && o.object_from.at.file != w.object_from.at.file) ||
        holds_net_admin(o))
      continue;
    add(out, ThreatSignal::NetworkJoined, ThreatClass::UntrustedInput,
        fmt::format("{} joins its network namespace ({}:{}, {}): that traffic passes through it",
                    reader_name(o), o.engine == Engine::Compose ? "service" : "container",
                    o.network.mode_arg, where(m, o.network.mode->from)),
        o.network.mode->from);
    return;
  }
}

void proxied(const Model& m, const std::vector<std::pair<std::size_t, const EnvVar*>>& users,
             std::size_t wi, std::vector<ThreatEvidence>& out) {
  for (const auto& [oi, e] : users) {
    if (oi == wi) continue;
    add(out, ThreatSignal::ProxyOf, ThreatClass::UntrustedInput,
        // The host, not the value: a proxy URL may carry a password.
        fmt::format("{} sends its traffic through it ({} names {}, {})",
                    reader_name(m.workloads[oi]), e->name, proxy_host(e->value), where(m, e->from)),
        e->from);
    return;
  }
}

void traffic_evidence(const Model& m, const TrafficIndex& t,
                      const std::vector<const ServiceObject*>& services, std::size_t wi,
                      std::vector<ThreatEvidence>& out) {
  const Workload& w = m.workloads[wi];
  joins(m, t, wi, out);
  if (!is_kubernetes(w)) {
    if (auto it = t.proxy_users.find(w.id.container); it != t.proxy_users.end()) {
      proxied(m, it->second, wi, out);
    }
    return;
  }
  // A Kubernetes proxy is named by a Service that selects it (`squid`, `squid.egress.svc`).
  for (const ServiceObject* sp : services) {
    const ServiceObject& s = *sp;
    for (auto it = t.kube_proxy_users.lower_bound(s.ref.name); it != t.kube_proxy_users.end();
         ++it) {
      if (it->first.rfind(s.ref.name, 0) != 0) break;
      if (it->first == s.ref.name || it->first[s.ref.name.size()] == '.') {
        proxied(m, it->second, wi, out);
      }
    }
  }
}

std::string join_texts(const std::vector<ThreatEvidence>& ev, ThreatClass c, bool strong_only) {
  std::string out;
  for (const auto& e : ev) {
    if (e.points_to != c || (strong_only && e.signal == ThreatSignal::Launcher)) continue;
    out += (out.empty() ? "" : "; ") + e.text;
  }
  return out;
}

void decide(Workload& w) {
  const auto& ev = w.threat_evidence;
  std::string input = join_texts(ev, ThreatClass::UntrustedInput, false);
  w.threat_source = ThreatSource::Inferred;
  if (strong_code(ev)) {
    w.threat = ThreatClass::UntrustedCode;
    w.threat_reason = join_texts(ev, ThreatClass::UntrustedCode, true);
    if (!input.empty()) {
      w.threat_reason += " (this outweighs the platform evidence: " + input + ")";
    }
  } else if (!input.empty()) {
    w.threat = ThreatClass::UntrustedInput;
    w.threat_reason = input;
  } else {
    w.threat = ThreatClass::UntrustedCode;
    w.threat_reason = ev.empty() ? "no evidence either way (the default)"
                                 : join_texts(ev, ThreatClass::UntrustedCode, false);
  }
}

}  // namespace

std::span<const std::string_view> harness_names() {
  return kHarnesses;
}
std::span<const std::string_view> harness_packages() {
  return kPackages;
}
std::span<const std::string_view> permission_skipping_flags() {
  return kFlags;
}

void infer_threat_classes(Model& model) {
  // Evidence of all workloads first, then the decisions: traffic evidence reads the other
  // workloads' observations, never their classes, so the order of workloads does not matter.
  std::vector<std::vector<ThreatEvidence>> evidence(model.workloads.size());
  const TrafficIndex traffic = index_traffic(model);
  const ServiceSelection selection(model);
  for (std::size_t i = 0; i < model.workloads.size(); ++i) {
    const Workload& w = model.workloads[i];
    const std::vector<const ServiceObject*> services =
        is_kubernetes(w) ? selecting(model, selection, w) : std::vector<const ServiceObject*>{};
    kind_evidence(w, evidence[i]);
    harness_evidence(w, evidence[i]);
    harness_dir_evidence(w, evidence[i]);
    threat::image_evidence(model, w, evidence[i]);
    threat::orchestrator_evidence(w, evidence[i]);
    if (is_kubernetes(w)) {
      threat::rbac_evidence(model, w, evidence[i]);
      webhook_evidence(model, services, evidence[i]);
      bundle_evidence(model, w, evidence[i]);
    }
    traffic_evidence(model, traffic, services, i, evidence[i]);
  }
  threat::named_platform_evidence(model, evidence);
  threat::pod_evidence(model, evidence);
  threat::sidecar_evidence(model, evidence);
  threat::app_server_evidence(model, evidence);
  for (std::size_t i = 0; i < model.workloads.size(); ++i) {
    model.workloads[i].threat_evidence = std::move(evidence[i]);
    decide(model.workloads[i]);
  }
}

std::string threat_summary(const Workload& w) {
  return fmt::format("{}: {}", threat_class_name(w.threat), w.threat_reason);
}

}  // namespace sbr::engine
