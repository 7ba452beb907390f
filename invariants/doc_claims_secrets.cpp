// Doc-claim predicate for "credentials never enter the container": what the engine counts as
// secret material inside (secrets_inside: secret environment, Secret volumes, a token) and a
// host credential store mounted in, read-only or not.
#include <fmt/format.h>

#include "analyzer/engine/paths.h"
#include "analyzer/engine/secrets_inside.h"
#include "invariants/doc_claims_parts.h"
#include "invariants/workload_facts.h"

namespace sbr::inv::claims {

Judgement no_credentials(const ClaimContext& c, const Workload& w, const Claim&) {
  if (const Mount* m = host_mount_of(c, w, engine::HostPathKind::CredentialStore))
    return contradicted(fmt::format("mounts the credential store {}", where(*m)),
                        mount_anchor(w, *m), "a host credential store, mounted in", true);
  // A secret the configuration declares as intended is held on purpose, but it is inside all the
  // same: the document says none is.
  for (const engine::SecretInside& s : engine::secrets_inside(w, c.model.intended_secrets)) {
    if (!reached_on_path(s.from, c)) continue;
    return contradicted(fmt::format("holds {}", s.what), s.from, "a secret that reaches inside");
  }
  return holds();
}

}  // namespace sbr::inv::claims
