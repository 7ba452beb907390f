#include "analyzer/model/claims.h"

namespace sbr {
namespace {

struct FormInfo {
  ClaimForm form;
  std::string_view name;
  int invariant;
};

// One row per form: its stable name (dump, fact paths) and its control's invariant.
constexpr FormInfo kForms[] = {
    {ClaimForm::Unknown, "unknown", 0},
    {ClaimForm::HardenedRuntime, "hardened-runtime", 1},
    {ClaimForm::NotPrivileged, "not-privileged", 1},
    {ClaimForm::CapDropAll, "cap-drop-all", 2},
    {ClaimForm::NoNewPrivileges, "no-new-privileges", 2},
    {ClaimForm::NonRootUser, "non-root-user", 2},
    {ClaimForm::ReadOnlyRoot, "read-only-root", 2},
    {ClaimForm::SeccompProfile, "seccomp-profile", 2},
    {ClaimForm::AppArmorProfile, "apparmor-profile", 2},
    {ClaimForm::MountReadOnly, "mount-read-only", 3},
    {ClaimForm::OnlyMounts, "only-mounts", 3},
    {ClaimForm::NoTokenAutomount, "no-token-automount", 4},
    {ClaimForm::NoNetwork, "no-network", 5},
    {ClaimForm::EgressDefaultDeny, "egress-default-deny", 5},
    {ClaimForm::ProxyDenyAll, "proxy-deny-all", 5},
    {ClaimForm::ProxyOnly, "proxy-only", 5},
    {ClaimForm::LoopbackPublish, "loopback-publish", 5},
    {ClaimForm::MemoryLimit, "memory-limit", 6},
    {ClaimForm::PidsLimit, "pids-limit", 6},
    {ClaimForm::CpuLimit, "cpu-limit", 6},
    {ClaimForm::WallClock, "wall-clock", 6},
    {ClaimForm::FailClosed, "fail-closed", 7},
    {ClaimForm::Ephemeral, "ephemeral", 7},
    {ClaimForm::NoPersistence, "no-persistence", 7},
};

const FormInfo& info(ClaimForm f) {
  for (const FormInfo& i : kForms) {
    if (i.form == f) return i;
  }
  return kForms[0];
}

}  // namespace

std::string_view claim_form_name(ClaimForm f) {
  return info(f).name;
}

int claim_form_invariant(ClaimForm f) {
  return info(f).invariant;
}

std::string_view claim_mood_name(ClaimMood m) {
  switch (m) {
    case ClaimMood::Asserted:
      return "asserted";
    case ClaimMood::Negated:
      return "negated";
    case ClaimMood::Conditional:
      return "conditional";
    case ClaimMood::Hedged:
      return "hedged";
    case ClaimMood::Advice:
      return "advice";
  }
  return "asserted";
}

}  // namespace sbr
