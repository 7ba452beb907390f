// Invariant 7 for launched containers and their images: a publish that podman silently drops
// under --network none, base images that can change under the same tag, files downloaded into
// the image unverified.
#include <fmt/format.h>

#include "generated/rule_ids.h"
#include "invariants/common.h"
#include "invariants/modules.h"

namespace sbr::inv {
namespace {

Finding file_finding(const Model& model, RuleId rule, std::string message, const Provenance& at,
                     std::string fact_path, FileId file) {
  Finding f;
  f.rule_id = rule;
  f.message = std::move(message);
  f.at = at.at;
  f.subject = "image " + model.files.path(file);
  f.fact_path = std::move(fact_path);
  return f;
}

// `always`, `unless-stopped`, `on-failure[:N]`: the engine brings the container back. "no" (and
// a policy that could not be read) does not.
bool restarts(const std::string& policy) {
  return policy == "always" || policy == "unless-stopped" || policy.rfind("on-failure", 0) == 0;
}

void check_restart(const Workload& w, Findings& out) {
  if (is_kubernetes(w) || !w.lifecycle.restart || !restarts(w.lifecycle.restart->value)) return;
  if (w.lifecycle.remove_on_exit && w.lifecycle.remove_on_exit->value) return;
  const std::string& policy = w.lifecycle.restart->value;
  std::string setting = w.lifecycle.controller == Controller::ComposeService
                            ? fmt::format("`restart: {}`", policy)
                            : fmt::format("`--restart {}`", policy);
  out.add(make(w, rule::restart_outlives_session, MessageArgs{{"setting", setting}},
               w.lifecycle.restart->from, "lifecycle.restart"));
}

}  // namespace

void check_launch_lifecycle(const Model& model, Findings& out) {
  for (const Workload& w : model.workloads) check_restart(w, out);
  for (const Workload& w : model.workloads) {
    if (is_kubernetes(w) || !w.network.mode || w.network.mode->value != NetMode::None) continue;
    // docker refuses to start such a container (fail closed); podman drops the mapping and
    // starts anyway. An unresolved engine may be podman.
    if (w.engine == Engine::Docker && !w.engine_unresolved) continue;
    const Condition& mc = w.network.mode->from.condition;
    for (const PublishedPort& p : w.network.ports) {
      // Only when both are reached on one path: `none` on one branch and `-p` on another is
      // a script that picks one of them.
      bool same_path = mc.always() || p.from.condition.always() || mc == p.from.condition;
      if (p.is_host_port || !same_path) continue;
      std::vector<Related> related = {{w.network.mode->from.at, "--network none"}};
      Finding f = make(w, rule::publish_with_network_none,
                       fmt::format("{}: `{}` is published while the network is `none`: podman "
                                   "discards the mapping and starts anyway, so the service the "
                                   "launcher expects is silently unreachable",
                                   describe(w), p.spec),
                       p.from, "ports/" + p.spec);
      f.related = std::move(related);
      out.add(std::move(f));
    }
  }
  for (const ImageBuild& b : model.images) {
    for (const BaseImage& base : b.bases) {
      if (base.pinned || base.is_stage || base.is_scratch) continue;
      out.add(file_finding(model, rule::base_image_not_pinned,
                           fmt::format("base image `{}` is not pinned by digest: the same tag can "
                                       "be repointed to different code; write `{}@sha256:...`",
                                       base.reference, base.reference),
                           base.from, "from/" + base.reference, b.file));
    }
    for (const auto& url : b.added_urls) {
      out.add(file_finding(model, rule::downloaded_file_added,
                           fmt::format("`ADD {}` downloads a file into the image without "
                                       "verifying it; use `ADD --checksum=sha256:...` or fetch "
                                       "and verify in a RUN step",
                                       url.value),
                           url.from, "add/" + url.value, b.file));
    }
  }
}

}  // namespace sbr::inv
