// A devcontainer with `dockerComposeFile` + `service` is that compose service: the devcontainer
// CLI starts the service with an override of its own (the devcontainer's mounts, capabilities,
// security options, privileged flag, container user and its features' effects). The
// devcontainer's facts join the compose workload and the devcontainer is not judged again.
#include <algorithm>

#include "analyzer/frontends/launch/launch.h"

namespace sbr {
namespace {

template <class T>
void take(Maybe<T>& into, const Maybe<T>& from) {
  if (from) into = from;
}

template <class T>
void append(std::vector<T>& into, const std::vector<T>& from) {
  into.insert(into.end(), from.begin(), from.end());
}

void merge_into(Workload& svc, const Workload& dev) {
  Identity& i = svc.identity;
  const Identity& d = dev.identity;
  if (d.privileged && d.privileged->value) i.privileged = d.privileged;
  append(i.cap_add, d.cap_add);
  append(i.cap_drop, d.cap_drop);
  take(i.allow_privilege_escalation, d.allow_privilege_escalation);
  take(i.seccomp, d.seccomp);
  take(i.apparmor, d.apparmor);
  take(i.selinux_disabled, d.selinux_disabled);
  take(i.run_as_user, d.run_as_user);
  take(i.user_name, d.user_name);
  append(svc.mounts, dev.mounts);
  append(svc.env, dev.env);
  append(svc.host_commands, dev.host_commands);
  append(svc.setup_commands, dev.setup_commands);
  append(svc.features, dev.features);
  take(svc.init, dev.init);
  take(svc.working_dir, dev.working_dir);  // its workspaceFolder: where its commands start
  // The agent works in this service: without the mark the service would look like any other of
  // its project, and one holding the Docker socket would pass for the stack's orchestrator.
  svc.runs_devcontainer = fact(dev.id.name, dev.object_from);
}

}  // namespace

void link_devcontainers(Model& model) {
  std::vector<std::size_t> linked;
  for (std::size_t i = 0; i < model.workloads.size(); ++i) {
    const Workload& dev = model.workloads[i];
    if (dev.engine != Engine::Devcontainer || !dev.compose_service) continue;
    for (Workload& svc : model.workloads) {
      if (svc.engine != Engine::Compose || svc.id.container != dev.compose_service->value) continue;
      if (std::find(dev.compose_files.begin(), dev.compose_files.end(), svc.id.name) ==
          dev.compose_files.end()) {
        continue;
      }
      merge_into(svc, dev);
      linked.push_back(i);
      break;
    }
  }
  // A devcontainer whose compose service is not in the input stays a workload of its own: what
  // it configures is still reviewed, and nothing is dropped silently.
  for (auto it = linked.rbegin(); it != linked.rend(); ++it) {
    model.workloads.erase(model.workloads.begin() + static_cast<std::ptrdiff_t>(*it));
  }
}

}  // namespace sbr
