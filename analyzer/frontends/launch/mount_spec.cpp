#include "analyzer/frontends/launch/specs.h"

#include <algorithm>

namespace sbr::launch {

bool looks_like_host_path(std::string_view s) {
  if (s.empty()) return false;
  // A named volume is [a-zA-Z0-9][a-zA-Z0-9_.-]*; everything else is a path (or an expansion
  // the renderer could not resolve, which a launcher only writes for a path).
  char c = s.front();
  return c == '/' || c == '.' || c == '~' || c == '$' || s.find('/') != std::string_view::npos;
}

static void apply_volume_option(Mount& m, std::string_view o) {
  if (o == "ro" || o == "readonly") {
    m.read_only = Fact<bool>{true, {}};
  } else if (o == "rw") {
    m.read_only = Fact<bool>{false, {}};
  } else if (o == "z") {
    m.relabel_shared = true;
  } else if (o == "Z") {
    m.relabel_private = true;
  } else if (o == "U") {
    m.chown = true;
  } else if (o == "O") {
    m.overlay = true;
  } else if (o == "shared" || o == "rshared") {
    m.propagation = Fact<Propagation>{Propagation::Bidirectional, {}};
  } else if (o == "slave" || o == "rslave") {
    m.propagation = Fact<Propagation>{Propagation::HostToContainer, {}};
  } else if (o == "private" || o == "rprivate") {
    m.propagation = Fact<Propagation>{Propagation::Private, {}};
  }
}

Mount parse_volume(std::string_view spec) {
  Mount m;
  std::vector<std::string> parts = split(spec, ':');
  if (parts.size() == 1) {
    m.kind = MountKind::NamedVolume;  // anonymous volume
    m.target = parts[0];
    return m;
  }
  m.source = parts[0];
  m.target = parts[1];
  m.kind = looks_like_host_path(m.source) ? MountKind::HostPath : MountKind::NamedVolume;
  if (parts.size() >= 3) {
    for (const auto& o : split(parts[2], ',')) apply_volume_option(m, o);
  }
  return m;
}

Mount parse_mount(std::string_view spec) {
  Mount m;
  std::string type = "volume";
  for (const auto& kv : split(spec, ',')) {
    std::size_t eq = kv.find('=');
    std::string k = kv.substr(0, eq);
    std::string v = eq == std::string::npos ? "" : kv.substr(eq + 1);
    bool truthy = eq == std::string::npos || v == "true" || v == "1";
    if (k == "type") {
      type = v;
    } else if (k == "src" || k == "source") {
      m.source = v;
    } else if (k == "dst" || k == "target" || k == "destination") {
      m.target = v;
    } else if (k == "ro" || k == "readonly") {
      m.read_only = Fact<bool>{truthy, {}};
    } else if (k == "rw") {
      m.read_only = Fact<bool>{!truthy, {}};
    } else if (k == "bind-propagation") {
      apply_volume_option(m, v);
    } else if (k == "relabel") {
      if (v == "shared") m.relabel_shared = true;
      if (v == "private") m.relabel_private = true;
    } else if (k == "U" || k == "chown") {
      m.chown = truthy;
    } else if (k == "tmpfs-size" || k == "size") {
      m.size_limit = Fact<std::string>{v, {}};
    } else if (eq == std::string::npos) {
      apply_volume_option(m, k);  // bare z, Z, shared...
    }
  }
  if (type == "bind") {
    m.kind = MountKind::HostPath;
  } else if (type == "tmpfs" || type == "ramfs") {
    m.kind = MountKind::Tmpfs;
  } else if (type == "image") {
    m.kind = MountKind::Image;
  } else if (type == "volume") {
    m.kind = MountKind::NamedVolume;
  } else {
    m.kind = MountKind::Other;
  }
  return m;
}

std::size_t mount_value_at(std::string_view spec, std::initializer_list<std::string_view> keys) {
  std::size_t found = std::string_view::npos;
  for (std::size_t start = 0; start <= spec.size();) {
    std::size_t end = std::min(spec.find(',', start), spec.size());
    std::string_view kv = spec.substr(start, end - start);
    std::size_t eq = kv.find('=');
    if (eq != std::string_view::npos &&
        std::find(keys.begin(), keys.end(), kv.substr(0, eq)) != keys.end()) {
      found = start + eq + 1;
    }
    start = end + 1;
  }
  return found;
}

Mount parse_tmpfs(std::string_view spec) {
  Mount m;
  m.kind = MountKind::Tmpfs;
  std::size_t colon = spec.find(':');
  m.target = std::string(spec.substr(0, colon));
  if (colon != std::string_view::npos) {
    for (const auto& o : split(spec.substr(colon + 1), ',')) {
      if (o.rfind("size=", 0) == 0) m.size_limit = Fact<std::string>{o.substr(5), {}};
      apply_volume_option(m, o);
    }
  }
  return m;
}

}  // namespace sbr::launch
