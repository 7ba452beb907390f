#include <string>

#include "analyzer/model/workload.h"

namespace sbr {

std::string identity_key(const WorkloadId& id) {
  std::string key = id.kind;
  auto add = [&](const std::string& part) {
    key += '\x1f';
    key += part;
  };
  if (!id.launch_path.empty()) {
    // A launch's `container` is display text ("launch 3" or its --name); the path replaces it.
    add(id.render_root);
    add(id.name);
    add(id.launch_path);
    return key;
  }
  add(id.render_root);
  add(id.api_group);
  add(id.ns);
  add(id.name);
  add(id.container);
  return key;
}

}  // namespace sbr
