#include "analyzer/model/claims.h"

namespace sbr {
namespace {

struct FormInfo {
  std::string_view name;
  int invariant;
  ClaimForm form;
};

// One row per form: its stable name (dump, fact paths) and its control's invariant.
constexpr FormInfo kForms[] = {
    {"unknown", 0, ClaimForm::Unknown},
    {"hardened-runtime", 1, ClaimForm::HardenedRuntime},
    {"not-privileged", 1, ClaimForm::NotPrivileged},
    {"no-runtime-socket", 1, ClaimForm::NoRuntimeSocket},
    {"cap-drop-all", 2, ClaimForm::CapDropAll},
    {"no-new-privileges", 2, ClaimForm::NoNewPrivileges},
    {"non-root-user", 2, ClaimForm::NonRootUser},
    {"read-only-root", 2, ClaimForm::ReadOnlyRoot},
    {"seccomp-profile", 2, ClaimForm::SeccompProfile},
    {"apparmor-profile", 2, ClaimForm::AppArmorProfile},
    {"mount-read-only", 3, ClaimForm::MountReadOnly},
    {"only-mounts", 3, ClaimForm::OnlyMounts},
    {"not-mounted", 3, ClaimForm::NotMounted},
    {"no-token-automount", 4, ClaimForm::NoTokenAutomount},
    {"no-credentials", 4, ClaimForm::NoCredentials},
    {"no-network", 5, ClaimForm::NoNetwork},
    {"egress-default-deny", 5, ClaimForm::EgressDefaultDeny},
    {"proxy-deny-all", 5, ClaimForm::ProxyDenyAll},
    {"proxy-only", 5, ClaimForm::ProxyOnly},
    {"no-internal-reach", 5, ClaimForm::NoInternalReach},
    {"loopback-publish", 5, ClaimForm::LoopbackPublish},
    {"memory-limit", 6, ClaimForm::MemoryLimit},
    {"pids-limit", 6, ClaimForm::PidsLimit},
    {"cpu-limit", 6, ClaimForm::CpuLimit},
    {"wall-clock", 6, ClaimForm::WallClock},
    {"fail-closed", 7, ClaimForm::FailClosed},
    {"ephemeral", 7, ClaimForm::Ephemeral},
    {"no-persistence", 7, ClaimForm::NoPersistence},
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
    case ClaimMood::Planned:
      return "planned";
    case ClaimMood::Recorded:
      return "recorded";
    case ClaimMood::Compared:
      return "compared";
  }
  return "asserted";
}

}  // namespace sbr
