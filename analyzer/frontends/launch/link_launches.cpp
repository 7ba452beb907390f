#include <set>
#include <tuple>

#include "analyzer/frontends/launch/launch.h"

namespace sbr {

void link_launches(Model& model) {
  link_devcontainers(model);
  using Key = std::tuple<FileId, std::string, std::string, std::string, std::string>;
  std::set<Key> played;
  for (const Workload& w : model.workloads) {
    if (w.engine == Engine::PodmanKubePlay) {
      played.insert({w.object_from.at.file, w.id.kind, w.id.ns, w.id.name, w.id.container});
    }
  }
  if (played.empty()) return;
  std::erase_if(model.workloads, [&](const Workload& w) {
    return w.engine == Engine::Kubelet &&
           played.count({w.object_from.at.file, w.id.kind, w.id.ns, w.id.name, w.id.container});
  });
}

}  // namespace sbr
