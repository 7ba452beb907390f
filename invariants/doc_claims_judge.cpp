// The verdict on one claim: the table of predicates by claim form, the workloads the claim is
// judged against (its scope, of the family its control applies to, the sandboxes among them),
// and how their outcomes combine.
#include <fmt/format.h>

#include <algorithm>

#include "generated/rule_ids.h"
#include "invariants/doc_claims.h"
#include "invariants/doc_claims_parts.h"

namespace sbr::inv {
namespace {

using F = ClaimForm;
namespace pred = claims;

// One row per claim form: its predicate and its rules (docs/doc-claims.md, "Verdicts").
const FormCheck kFormChecks[] = {
    {pred::hardened_runtime, F::HardenedRuntime, rule::doc_claim_contradicted_isolation, {}},
    {pred::not_privileged, F::NotPrivileged, rule::doc_claim_contradicted_isolation_critical, {}},
    {pred::no_runtime_socket, F::NoRuntimeSocket, rule::doc_claim_contradicted_isolation,
     rule::doc_claim_contradicted_isolation_critical},
    {pred::cap_drop_all, F::CapDropAll, rule::doc_claim_contradicted_privilege,
     rule::doc_claim_contradicted_privilege_critical},
    {pred::no_new_privileges, F::NoNewPrivileges, rule::doc_claim_contradicted_privilege, {}},
    {pred::non_root_user, F::NonRootUser, rule::doc_claim_contradicted_privilege, {}},
    {pred::read_only_root, F::ReadOnlyRoot, rule::doc_claim_contradicted_privilege, {}},
    {pred::seccomp_profile, F::SeccompProfile, rule::doc_claim_contradicted_privilege, {}},
    {pred::apparmor_profile, F::AppArmorProfile, rule::doc_claim_contradicted_privilege, {}},
    {pred::mount_read_only, F::MountReadOnly, rule::doc_claim_contradicted_filesystem,
     rule::doc_claim_contradicted_filesystem_critical},
    {pred::only_mounts, F::OnlyMounts, rule::doc_claim_contradicted_filesystem,
     rule::doc_claim_contradicted_filesystem_critical},
    {pred::not_mounted, F::NotMounted, rule::doc_claim_contradicted_filesystem,
     rule::doc_claim_contradicted_filesystem_critical},
    {pred::no_token_automount, F::NoTokenAutomount, rule::doc_claim_contradicted_secrets, {}},
    {pred::no_credentials, F::NoCredentials, rule::doc_claim_contradicted_secrets,
     rule::doc_claim_contradicted_secrets_critical},
    {pred::no_network, F::NoNetwork, rule::doc_claim_contradicted_network,
     rule::doc_claim_contradicted_network_critical},
    {pred::egress_default_deny, F::EgressDefaultDeny, rule::doc_claim_contradicted_network,
     rule::doc_claim_contradicted_network_critical},
    {pred::proxy_deny_all, F::ProxyDenyAll, rule::doc_claim_contradicted_network, {}},
    {pred::proxy_only, F::ProxyOnly, rule::doc_claim_contradicted_network,
     rule::doc_claim_contradicted_network_critical},
    {pred::no_internal_reach, F::NoInternalReach, rule::doc_claim_contradicted_network,
     rule::doc_claim_contradicted_network_critical},
    {pred::loopback_publish, F::LoopbackPublish, rule::doc_claim_contradicted_network, {}},
    {pred::memory_limit, F::MemoryLimit, rule::doc_claim_contradicted_resources, {}},
    {pred::pids_limit, F::PidsLimit, rule::doc_claim_contradicted_resources, {}},
    {pred::cpu_limit, F::CpuLimit, rule::doc_claim_contradicted_resources, {}},
    {pred::wall_clock, F::WallClock, rule::doc_claim_contradicted_resources, {}},
    {pred::fail_closed, F::FailClosed, rule::doc_claim_contradicted_lifecycle, {}},
    {pred::ephemeral, F::Ephemeral, rule::doc_claim_contradicted_lifecycle, {}},
    {pred::no_persistence, F::NoPersistence, rule::doc_claim_contradicted_filesystem,
     rule::doc_claim_contradicted_filesystem_critical},
};

bool in_family(const Workload& w, ClaimFamily f) {
  switch (f) {
    case ClaimFamily::Any:
      return true;
    case ClaimFamily::Launch:
      return w.engine == Engine::Podman || w.engine == Engine::Docker ||
             w.engine == Engine::Compose || w.engine == Engine::Devcontainer;
    case ClaimFamily::Kubernetes:
      return w.engine == Engine::Kubelet || w.engine == Engine::PodmanKubePlay;
  }
  return true;
}

// A test suite's launch is lowered for its findings (test-script), but a document in scope of
// it (one that names it, or lives in its tree) speaks about it as about the sandbox, unless it
// is also the platform by other evidence (a mock upstream the agent's proxy points at).
bool sandbox(const Workload& w) {
  if (w.threat == ThreatClass::UntrustedCode || w.threat == ThreatClass::MultiTenant) return true;
  const auto& ev = w.threat_evidence;
  auto test = [](const ThreatEvidence& e) { return e.signal == ThreatSignal::TestScript; };
  auto other_platform = [](const ThreatEvidence& e) {
    return e.points_to == ThreatClass::UntrustedInput && e.signal != ThreatSignal::TestScript;
  };
  return std::any_of(ev.begin(), ev.end(), test) &&
         std::none_of(ev.begin(), ev.end(), other_platform);
}

// The workloads a claim is judged against: its scope, main containers of the control's family;
// the sandboxes among them when there are any (a document about a sandbox is not about the
// proxy beside it).
std::vector<const Workload*> judged(const Model& m, const Claim& claim) {
  std::vector<const Workload*> out;
  for (std::size_t i : claim.about) {
    if (i >= m.workloads.size()) continue;
    const Workload& w = m.workloads[i];
    // A launch on another platform's branch (`Darwin) podman run ...`) is not what "on Linux"
    // speaks about; one that only runs behind a switch (`build.sh --build-setup`) is not on
    // the default path a claim speaks of, unless it says "always".
    const Condition& launch = claims::lacks_at(w).condition();
    if (w.role == ContainerRole::Main && !w.pod_only && in_family(w, claim.family) &&
        on_platform(launch, claim.platform) &&
        (claim.paths == ClaimPaths::Every || launch.always() || !launch.needs_switch))
      out.push_back(&w);
  }
  // A gVisor, Kata or microVM boundary is what a sandbox runs in: the platform beside it (an
  // installer DaemonSet, a proxy) is never its subject, even alone in the scope (kata's how-to
  // "running Kata" named `kata-deploy`, the installer, and was contradicted by it).
  const bool sandboxes_only = claim.form == ClaimForm::HardenedRuntime;
  if (sandboxes_only ||
      std::any_of(out.begin(), out.end(), [](const Workload* w) { return sandbox(*w); }))
    std::erase_if(out, [](const Workload* w) { return !sandbox(*w); });
  return out;
}

std::string_view family_words(ClaimFamily f) {
  switch (f) {
    case ClaimFamily::Launch:
      return "podman, docker, compose or devcontainer workload";
    case ClaimFamily::Kubernetes:
      return "Kubernetes workload";
    case ClaimFamily::Any:
      break;
  }
  return "workload";
}

ClaimVerdict not_checkable(std::string why) {
  return {VerdictKind::NotCheckable, std::move(why), {}};
}

// What the sentence makes of the control, before any workload is asked.
std::optional<ClaimVerdict> by_mood(const Claim& claim) {
  switch (claim.mood) {
    case ClaimMood::Asserted:
      return std::nullopt;
    case ClaimMood::Negated:
      return ClaimVerdict{
          VerdictKind::NotAClaim,
          fmt::format("negated (`{}`): the document does not claim it", claim.marker),
          {}};
    case ClaimMood::Advice:
      return ClaimVerdict{
          VerdictKind::NotAClaim,
          fmt::format("advice (`{}`): an instruction, not a claim about the configuration",
                      claim.marker),
          {}};
    case ClaimMood::Planned:
      return ClaimVerdict{
          VerdictKind::NotAClaim,
          fmt::format("planned (`{}`): about the future, not the configuration today",
                      claim.marker),
          {}};
    case ClaimMood::Recorded:
      return ClaimVerdict{
          VerdictKind::NotAClaim,
          fmt::format("release notes (`{}`): what a release changed, not the configuration today",
                      claim.marker),
          {}};
    case ClaimMood::Compared:
      return ClaimVerdict{
          VerdictKind::NotAClaim,
          fmt::format("a comparison (`{}`): it speaks of other tools or options as much as of "
                      "this configuration, and which one a sentence is about is not read",
                      claim.marker),
          {}};
    case ClaimMood::Conditional:
      return not_checkable(fmt::format(
          "the sentence makes it conditional (`{}`); a condition in words is not mapped to a "
          "launcher's switches",
          claim.marker));
    case ClaimMood::Hedged:
      return not_checkable(fmt::format("the sentence hedges it (`{}`)", claim.marker));
  }
  return std::nullopt;
}

}  // namespace

const FormCheck* form_check(ClaimForm f) {
  for (const FormCheck& fc : kFormChecks) {
    if (fc.form == f) return &fc;
  }
  return nullptr;
}

std::string_view verdict_name(VerdictKind k) {
  switch (k) {
    case VerdictKind::Holds:
      return "holds";
    case VerdictKind::Contradicted:
      return "contradicted";
    case VerdictKind::NotCheckable:
      return "not checkable";
    case VerdictKind::NotAClaim:
      return "not a claim";
  }
  return "not checkable";
}

ClaimVerdict judge_claim(const Model& model, const Claim& claim) {
  if (auto v = by_mood(claim)) return *v;
  if (!claim.inner_sandbox.empty()) {
    return not_checkable(fmt::format(
        "its {} names {}, a sandbox inside the container that sbreview does not model: the "
        "claim may be about that jail, not the container",
        claim.origin == ClaimOrigin::Table ? "table row" : "paragraph", claim.inner_sandbox));
  }
  const FormCheck* fc = form_check(claim.form);
  if (fc == nullptr) {
    return not_checkable(fmt::format("`{}` is not in the claim vocabulary", claim.control));
  }
  std::vector<const Workload*> ws = judged(model, claim);
  if (ws.empty()) {
    // A scope left empty says why (a folder of several projects the document names none of).
    if (claim.about.empty() && !claim.about_note.empty()) return not_checkable(claim.about_note);
    return not_checkable(fmt::format("no {} in the document's scope", family_words(claim.family)));
  }
  ClaimContext ctx{model, claim.paths == ClaimPaths::Every, claim.platform};
  ClaimVerdict v;
  std::size_t holding = 0;
  std::string unknown, absent;
  std::string held;  // why the first one that holds does, when it says ("the engine's default")
  for (const Workload* w : ws) {
    Judgement j = fc->predicate(ctx, *w, claim);
    switch (j.outcome) {
      case Outcome::Contradicted:
        v.contradictions.push_back({w, std::move(j)});
        break;
      case Outcome::Holds:
        ++holding;
        if (held.empty()) held = j.what;
        break;
      case Outcome::NotCheckable:
        if (unknown.empty()) unknown = j.what;
        break;
      case Outcome::NotApplicable:
        if (absent.empty()) absent = j.what;
        break;
    }
  }
  if (!v.contradictions.empty()) {
    v.kind = VerdictKind::Contradicted;
    return v;
  }
  if (!unknown.empty()) return not_checkable(unknown);
  if (holding > 0) {
    v.kind = VerdictKind::Holds;
    v.why = fmt::format("{}{}{} workload{}", held, held.empty() ? "" : "; ", ws.size(),
                        ws.size() == 1 ? "" : "s");
    return v;
  }
  return not_checkable(fmt::format("{} in the document's scope", absent));
}

}  // namespace sbr::inv
