// Shared by the doc-claim predicates (doc_claims_*.cpp): which facts count on the paths a claim
// speaks about, and the judgement builders. Not for other modules.
#pragma once

#include <string>

#include "analyzer/engine/paths.h"
#include "invariants/doc_claims.h"

namespace sbr::inv::claims {

// A fact that makes a control hold counts when it is there on every path the claim is about:
// on the default path (no switch needed), or, for "always", unconditionally.
inline bool present_on_path(const Provenance& p, const ClaimContext& c) {
  if (!on_platform(p.condition(), c.platform)) return false;
  return p.condition().always() || (!c.every_path && !p.condition().needs_switch);
}

// A fact that contradicts a control counts when it is reached on a path the claim is about: on
// the default path, or, for "always", on any path.
inline bool reached_on_path(const Provenance& p, const ClaimContext& c) {
  if (!on_platform(p.condition(), c.platform)) return false;
  return c.every_path || p.condition().always() || !p.condition().needs_switch;
}

inline Judgement holds(std::string why = {}) {
  return {Outcome::Holds, std::move(why), {}, {}, false};
}
inline Judgement contradicted(std::string what, const Provenance& at, std::string note,
                              bool critical = false) {
  return {Outcome::Contradicted, std::move(what), at, std::move(note), critical};
}
inline Judgement not_checkable(std::string why) {
  return {Outcome::NotCheckable, std::move(why), {}, {}, false};
}
inline Judgement not_applicable(std::string why) {
  return {Outcome::NotApplicable, std::move(why), {}, {}, false};
}

// The place a missing setting is added: the invocation's first line, the container entry.
const Provenance& lacks_at(const Workload& w);

// The first host mount of a sensitive class (a runtime socket, a credential store) reached on
// the claim's paths, and a mount as a reader names it (doc_claims_mounts.cpp).
const Mount* host_mount_of(const ClaimContext& c, const Workload& w, engine::HostPathKind kind);
std::string where(const Mount& m);

// Predicates, one per claim form (doc_claims_identity.cpp, doc_claims_mounts.cpp,
// doc_claims_network.cpp, doc_claims_secrets.cpp).
Judgement hardened_runtime(const ClaimContext&, const Workload&, const Claim&);
Judgement not_privileged(const ClaimContext&, const Workload&, const Claim&);
Judgement cap_drop_all(const ClaimContext&, const Workload&, const Claim&);
Judgement no_new_privileges(const ClaimContext&, const Workload&, const Claim&);
Judgement non_root_user(const ClaimContext&, const Workload&, const Claim&);
Judgement read_only_root(const ClaimContext&, const Workload&, const Claim&);
Judgement seccomp_profile(const ClaimContext&, const Workload&, const Claim&);
Judgement apparmor_profile(const ClaimContext&, const Workload&, const Claim&);
Judgement no_token_automount(const ClaimContext&, const Workload&, const Claim&);
Judgement memory_limit(const ClaimContext&, const Workload&, const Claim&);
Judgement pids_limit(const ClaimContext&, const Workload&, const Claim&);
Judgement cpu_limit(const ClaimContext&, const Workload&, const Claim&);
Judgement wall_clock(const ClaimContext&, const Workload&, const Claim&);
Judgement mount_read_only(const ClaimContext&, const Workload&, const Claim&);
Judgement only_mounts(const ClaimContext&, const Workload&, const Claim&);
Judgement not_mounted(const ClaimContext&, const Workload&, const Claim&);
Judgement no_runtime_socket(const ClaimContext&, const Workload&, const Claim&);
Judgement no_credentials(const ClaimContext&, const Workload&, const Claim&);
Judgement no_internal_reach(const ClaimContext&, const Workload&, const Claim&);
Judgement no_persistence(const ClaimContext&, const Workload&, const Claim&);
Judgement ephemeral(const ClaimContext&, const Workload&, const Claim&);
Judgement fail_closed(const ClaimContext&, const Workload&, const Claim&);
Judgement no_network(const ClaimContext&, const Workload&, const Claim&);
Judgement egress_default_deny(const ClaimContext&, const Workload&, const Claim&);
Judgement proxy_deny_all(const ClaimContext&, const Workload&, const Claim&);
Judgement proxy_only(const ClaimContext&, const Workload&, const Claim&);
Judgement loopback_publish(const ClaimContext&, const Workload&, const Claim&);

}  // namespace sbr::inv::claims
