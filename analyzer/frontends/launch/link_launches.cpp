#include <set>
#include <tuple>

#include "analyzer/frontends/launch/launch.h"

namespace sbr {

namespace {

// A compose file that a launcher reads with `-f` is judged as that launcher's project (its
// layers, its timeout), not again as a project of its own directory.
// Every file of the launcher's project counts: an overlay (`-f base.yml -f agent.yml`) read
// alone lacks what the base gives its services (sdlcforge/ai-sandbox's nine overlays).
void drop_compose_read_by_launchers(Model& model) {
  using Key = std::tuple<std::string, std::string>;
  std::set<Key> launched;
  auto standalone = [](const Workload& w) { return w.id.render_root == w.id.name; };
  for (const Workload& w : model.workloads) {
    if (w.engine != Engine::Compose || standalone(w)) continue;
    launched.insert({model.files.path(w.object_from.at.file), w.id.container});
    for (const std::string& f : w.compose_files) launched.insert({f, w.id.container});
  }
  if (launched.empty()) return;
  std::erase_if(model.workloads, [&](const Workload& w) {
    return w.engine == Engine::Compose && standalone(w) &&
           launched.count({model.files.path(w.object_from.at.file), w.id.container});
  });
}

}  // namespace

void link_launches(Model& model) {
  drop_compose_read_by_launchers(model);
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
