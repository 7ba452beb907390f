// The code-span half of the vocabulary: flags, fields and rule names (docs/doc-claims.md,
// "Code spans").
#include <re2/re2.h>

#include <memory>

#include "analyzer/frontends/markdown/vocabulary.h"
#include "analyzer/support/strings.h"

namespace sbr::md {
namespace {

using F = ClaimForm;
using Fam = ClaimFamily;

// One flag, field or rule name. The pattern must match the whole span; its first group, when it
// has one, is the value the span states.
struct SpanRule {
  const char* pattern;
  ClaimForm form;
  ClaimFamily family;
  bool weakness = false;
};

constexpr SpanRule kSpanRules[] = {
    // podman / docker flags and compose keys
    {R"(--cap-drop[= ]["']?(?i:all)["']?)", F::CapDropAll, Fam::Launch},
    {R"(cap_drop:\s*\[?\s*["']?(?i:all)["']?\s*\]?)", F::CapDropAll, Fam::Launch},
    {R"(--security-opt[= ]["']?no-new-privileges(?:[:=]true)?["']?)", F::NoNewPrivileges,
     Fam::Launch},
    {R"(no-new-privileges(?:[:=]true)?)", F::NoNewPrivileges, Fam::Launch},
    {R"(--read-only(?:=true)?)", F::ReadOnlyRoot, Fam::Launch},
    {R"(read_only:\s*true)", F::ReadOnlyRoot, Fam::Launch},
    {R"((?:--user|-u)(?:[= ]["']?([^\s"']+)["']?)?)", F::NonRootUser, Fam::Launch},
    {R"((?:--memory|-m)(?:[= ]([^\s"']+))?)", F::MemoryLimit, Fam::Launch},
    {R"(mem_limit(?::\s*["']?([^\s"']+)["']?)?)", F::MemoryLimit, Fam::Launch},
    {R"(--pids-limit(?:[= ]([^\s"']+))?)", F::PidsLimit, Fam::Launch},
    {R"(pids_limit(?::\s*["']?([^\s"']+)["']?)?)", F::PidsLimit, Fam::Launch},
    {R"(--cpus(?:[= ]([^\s"']+))?)", F::CpuLimit, Fam::Launch},
    {R"(--timeout(?:[= ]([^\s"']+))?)", F::WallClock, Fam::Launch},
    {R"(--(?:network|net)[= ]["']?none["']?)", F::NoNetwork, Fam::Launch},
    {R"(network_mode:\s*["']?none["']?)", F::NoNetwork, Fam::Launch},
    {R"(--runtime[= ]["']?([^\s"']+)["']?)", F::HardenedRuntime, Fam::Launch},
    {R"(--rm)", F::Ephemeral, Fam::Launch},
    {R"(--security-opt[= ]["']?seccomp[=:]([^\s"']+)["']?)", F::SeccompProfile, Fam::Launch},
    {R"(--security-opt[= ]["']?apparmor[=:]([^\s"']+)["']?)", F::AppArmorProfile, Fam::Launch},
    {R"((?:-p|--publish)[= ]((?:127\.\d+\.\d+\.\d+|localhost|\[::1\]):\S+))", F::LoopbackPublish,
     Fam::Launch},
    {R"(--privileged(?:=true)?)", F::NotPrivileged, Fam::Launch, true},
    // Kubernetes fields, with or without the path to them
    {R"((?:securityContext\.)?(?:capabilities\.)?drop:\s*\[\s*["']?ALL["']?\s*\])", F::CapDropAll,
     Fam::Kubernetes},
    {R"((?:securityContext\.)?allowPrivilegeEscalation:\s*false)", F::NoNewPrivileges,
     Fam::Kubernetes},
    {R"((?:securityContext\.)?readOnlyRootFilesystem:\s*true)", F::ReadOnlyRoot, Fam::Kubernetes},
    {R"((?:securityContext\.)?runAsNonRoot:\s*true)", F::NonRootUser, Fam::Kubernetes},
    {R"((?:securityContext\.)?runAsUser:\s*(\d+))", F::NonRootUser, Fam::Kubernetes},
    {R"((?:resources\.)?limits\.memory(?::\s*["']?([^\s"']+)["']?)?)", F::MemoryLimit,
     Fam::Kubernetes},
    {R"((?:resources\.)?limits\.cpu(?::\s*["']?([^\s"']+)["']?)?)", F::CpuLimit, Fam::Kubernetes},
    {R"(activeDeadlineSeconds(?::\s*(\d+))?)", F::WallClock, Fam::Kubernetes},
    {R"(runtimeClassName:\s*["']?([^\s"']+)["']?)", F::HardenedRuntime, Fam::Kubernetes},
    {R"(automountServiceAccountToken:\s*false)", F::NoTokenAutomount, Fam::Kubernetes},
    {R"(seccompProfile(?:\.type)?:\s*\{?\s*(?:type:\s*)?(RuntimeDefault|Localhost)\s*\}?)",
     F::SeccompProfile, Fam::Kubernetes},
    {R"((?:securityContext\.)?privileged:\s*true)", F::NotPrivileged, Fam::Kubernetes, true},
    // rule names of the gates
    {R"((?i)policy\s+drop;?)", F::EgressDefaultDeny, Fam::Any},
    {R"((?:-P|--policy)\s+(?:OUTPUT|FORWARD|DOCKER-USER)\s+DROP)", F::EgressDefaultDeny, Fam::Any},
    {R"((?i)http_access\s+deny\s+all)", F::ProxyDenyAll, Fam::Any},
};

struct Compiled {
  const SpanRule* rule;
  std::unique_ptr<RE2> re;
};

const std::vector<Compiled>& compiled_rules() {
  static const std::vector<Compiled> rules = [] {
    std::vector<Compiled> out;
    for (const SpanRule& r : kSpanRules) out.push_back({&r, std::make_unique<RE2>(r.pattern)});
    return out;
  }();
  return rules;
}

// The literal token of a span: a flag or a field without its value ("--cap-drop",
// "readOnlyRootFilesystem", the last part of "capabilities.drop"), a rule name as written.
std::string token_of(std::string_view literal, ClaimFamily family) {
  if (family == Fam::Any) return std::string(literal);
  std::size_t end = literal.find_first_of("= :");
  std::string_view name = literal.substr(0, end);
  if (std::size_t dot = name.rfind('.'); dot != std::string_view::npos && name[0] != '-')
    name = name.substr(dot + 1);
  if (name == "no-new-privileges" || literal.find("no-new-privileges") != std::string_view::npos)
    return "no-new-privileges";
  if (literal.find("seccomp") != std::string_view::npos && name == "--security-opt")
    return "seccomp";
  if (literal.find("apparmor") != std::string_view::npos && name == "--security-opt")
    return "apparmor";
  return std::string(name);
}

// A value that turns the span into something other than a claim of its control: a root user,
// an unconfined profile, a runtime that is not hardened.
bool value_claims_control(ClaimForm form, std::string& value) {
  switch (form) {
    case F::NonRootUser:
      return value.empty() || (value != "0" && value.rfind("0:", 0) != 0 && value != "root" &&
                               value.rfind("root:", 0) != 0);
    case F::SeccompProfile:
    case F::AppArmorProfile:
      if (lower(value) == "unconfined") return false;
      if (value == "RuntimeDefault") value.clear();
      return true;
    case F::HardenedRuntime:
      value = hardened_runtime_value(value);
      return !value.empty();
    default:
      return true;
  }
}

}  // namespace

std::string hardened_runtime_value(std::string_view name) {
  std::string n = lower(name);
  if (n == "runsc" || n == "gvisor" || n.rfind("gvisor", 0) == 0) return "gvisor";
  if (n.rfind("kata", 0) == 0 || n == "fc" || n.rfind("firecracker", 0) == 0 ||
      n.rfind("microvm", 0) == 0 || n.rfind("micro-vm", 0) == 0) {
    return "microvm";
  }
  return "";
}

bool looks_like_path(std::string_view s) {
  s = trim(s);
  if (s.empty() || s.find_first_of(" \t") != std::string_view::npos || s[0] == '-') return false;
  if (s.find("://") != std::string_view::npos) return false;
  static const RE2 kRoot(R"((?:~|/|\$HOME|\$\{HOME\}|\$PWD|\$\{PWD\}|\$\(pwd\)|\.\.?/).*)");
  if (RE2::FullMatch(s, kRoot)) return true;
  return s.find('/') != std::string_view::npos && s.find(':') == std::string_view::npos;
}

std::optional<SpanControl> classify_span(std::string_view literal) {
  std::string_view s = trim(literal);
  if (s.empty()) return std::nullopt;
  for (const Compiled& c : compiled_rules()) {
    std::string value;
    // RE2 fails a match given more arguments than the pattern has groups.
    bool hit = c.re->NumberOfCapturingGroups() > 0 ? RE2::FullMatch(s, *c.re, &value)
                                                   : RE2::FullMatch(s, *c.re);
    if (!hit) continue;
    if (!value_claims_control(c.rule->form, value)) return std::nullopt;
    return SpanControl{
        c.rule->form, c.rule->family, value, token_of(s, c.rule->family), c.rule->weakness, ""};
  }
  // A mount written out with `:ro`: a read-only claim about its source.
  static const RE2 kRoMount(R"(([^:\s]+):([^:\s]+):(?:ro|readonly)(?:,\S*)?)");
  std::string source, target;
  if (RE2::FullMatch(s, kRoMount, &source, &target)) {
    return SpanControl{F::MountReadOnly, Fam::Launch, "", ":ro", false, source};
  }
  static const RE2 kFlag(R"(--?[A-Za-z][\w-]*(?:[= ].*)?)");
  if (RE2::FullMatch(s, kFlag)) {
    return SpanControl{F::Unknown, Fam::Launch, "", token_of(s, Fam::Launch), false, ""};
  }
  return std::nullopt;
}

std::vector<std::string> form_tokens(ClaimForm f) {
  switch (f) {
    case F::CapDropAll:
      return {"--cap-drop", "cap_drop", "drop:"};
    case F::NoNewPrivileges:
      return {"no-new-privileges", "allowPrivilegeEscalation"};
    case F::NonRootUser:
      return {"--user", "runAsNonRoot", "runAsUser", "USER"};
    case F::ReadOnlyRoot:
      return {"--read-only", "read_only", "readOnlyRootFilesystem"};
    case F::HardenedRuntime:
      return {"--runtime", "runtimeClassName", "runsc", "kata"};
    case F::NotPrivileged:
      return {"--privileged", "privileged"};
    case F::SeccompProfile:
      return {"seccomp"};
    case F::AppArmorProfile:
      return {"apparmor"};
    case F::MountReadOnly:
    case F::OnlyMounts:
    case F::NotMounted:
      return {":ro", "readOnly", "--mount", "-v"};
    case F::NoRuntimeSocket:
      return {"docker.sock", "podman.sock", "containerd.sock"};
    case F::NoCredentials:
      return {"--env", "-e", "env_file", "secretKeyRef"};
    case F::NoInternalReach:
      return {"169.254.169.254", "DROP", "NetworkPolicy"};
    case F::NoTokenAutomount:
      return {"automountServiceAccountToken"};
    case F::NoNetwork:
      return {"--network", "--net", "network_mode"};
    case F::EgressDefaultDeny:
      return {"policy drop", "DROP", "NetworkPolicy", "--network"};
    case F::ProxyDenyAll:
      return {"http_access deny all"};
    case F::ProxyOnly:
      return {"proxy", "HTTPS_PROXY"};
    case F::LoopbackPublish:
      return {"127.0.0.1", "--publish", "-p"};
    case F::MemoryLimit:
      return {"--memory", "mem_limit", "limits.memory", "memory:"};
    case F::PidsLimit:
      return {"--pids-limit", "pids_limit", "pids"};
    case F::CpuLimit:
      return {"--cpus", "cpus", "limits.cpu", "cpu:"};
    case F::WallClock:
      return {"--timeout", "timeout", "activeDeadlineSeconds"};
    case F::FailClosed:
      return {"set -e", "exit 1", "errexit"};
    case F::Ephemeral:
      return {"--rm", "ttlSecondsAfterFinished"};
    case F::NoPersistence:
      return {"--rm", "volume"};
    case F::Unknown:
      return {};
  }
  return {};
}

}  // namespace sbr::md
