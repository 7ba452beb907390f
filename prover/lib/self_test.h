// `sbreview prove --self-test`: fixed launches that show which fields this machine's podman
// honours (`podman run` options and `kube play` fields), so that a reader knows what a verdict
// on this machine can and cannot stand for. Each row is measured, never assumed.
#pragma once

#include <string>
#include <vector>

#include "prover/lib/session.h"

namespace sbr::prove {

struct SelfTestRow {
  std::string launch;    // "podman run", "podman kube play"
  std::string field;     // "--cap-drop=ALL", "securityContext.runAsNonRoot"
  std::string expected;  // what honouring it looks like
  std::string observed;
  std::string status;  // "honoured", "ignored", "differs" (a default, a different meaning),
                       // "not observable", "not run" (runsc missing, launch failed)
};

std::vector<SelfTestRow> self_test(Session& s);

}  // namespace sbr::prove
