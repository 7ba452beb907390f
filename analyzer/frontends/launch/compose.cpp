// Compose files: each service becomes a workload (engine Compose). Value languages (ports,
// volumes, security_opt, network_mode) go through the same parsers as podman/docker flags.
#include "analyzer/frontends/launch/apply_options.h"
#include "analyzer/frontends/launch/launch.h"
#include "analyzer/frontends/launch/launch_util.h"
#include "analyzer/frontends/launch/specs.h"
#include "analyzer/frontends/yaml/documents.h"

namespace sbr {
namespace {

using yaml::Node;

struct ServiceReader {
  const SourceFile& file;
  const FrontendContext& ctx;
  Workload& w;

  Provenance at(const Node* n) const { return launch::at_node(file.id, n, Frontend::Compose); }
  static std::string str(const Node* n) {
    auto s = n ? n->as_string() : std::nullopt;
    return s ? std::string(*s) : "";
  }
  // Items of a sequence, or the single scalar (compose accepts both for several keys).
  static std::vector<const Node*> items(const Node* n) {
    if (n == nullptr) return {};
    if (n->is_seq()) return n->items;
    if (n->is_scalar()) return {n};
    return {};
  }

  void bool_fact(const char* key, Maybe<bool>& into) {
    if (const Node* n = w_get(key)) {
      if (auto b = n->as_bool()) into = fact(*b, at(n));
    }
  }
  const Node* svc = nullptr;
  const Node* w_get(const char* key) const { return svc->get(key); }
  void str_fact(const Node* n, Maybe<std::string>& into) {
    if (n && n->is_scalar()) into = fact(str(n), at(n));
  }

  void volumes(const Node* n) {
    for (const Node* v : items(n)) {
      if (v->is_scalar()) {
        launch::add_mount(launch::parse_volume(str(v)), at(v), w);
        continue;
      }
      if (!v->is_map()) continue;
      Mount m;
      std::string type = str(v->get("type"));
      m.source = str(v->get("source"));
      m.target = str(v->get("target"));
      m.kind = type == "bind"    ? MountKind::HostPath
               : type == "tmpfs" ? MountKind::Tmpfs
                                 : MountKind::NamedVolume;
      if (type.empty() && launch::looks_like_host_path(m.source)) m.kind = MountKind::HostPath;
      const Node* src = v->get("source");
      Provenance where = at(src ? src : v);
      if (const Node* ro = v->get("read_only")) {
        if (auto b = ro->as_bool()) m.read_only = fact(*b, at(ro));
      }
      if (const Node* bind = v->get("bind")) {
        if (const Node* p = bind->get("propagation")) {
          std::string pv = str(p);
          Mount tmp = launch::parse_volume("x:/y:" + pv);
          if (tmp.propagation) m.propagation = fact(tmp.propagation->value, at(p));
        }
        std::string se = str(bind->get("selinux"));
        m.relabel_shared = se == "z";
        m.relabel_private = se == "Z";
      }
      if (const Node* t = v->get("tmpfs")) {
        if (const Node* sz = t->get("size")) m.size_limit = fact(str(sz), at(sz));
      }
      m.source_from = where;
      m.mount_from = at(v);
      w.mounts.push_back(std::move(m));
    }
  }

  void environment(const Node* n) {
    if (n == nullptr) return;
    if (n->is_map()) {
      for (const auto& [k, v] : n->entries) {
        std::string name = str(k);
        std::string text = v && !v->is_null() ? name + "=" + str(v) : name;
        launch::apply_env_assignment(text, false, false, at(k), w);
      }
      return;
    }
    for (const Node* e : items(n)) launch::apply_env_assignment(str(e), false, false, at(e), w);
  }

  void ports(const Node* n) {
    for (const Node* p : items(n)) {
      if (p->is_scalar()) {
        launch::apply_publish(str(p), false, at(p), w);
        continue;
      }
      if (!p->is_map()) continue;
      PublishedPort port;
      port.container_port = str(p->get("target"));
      port.host_port = str(p->get("published"));
      port.host_ip = str(p->get("host_ip"));
      port.protocol = str(p->get("protocol"));
      port.spec = (port.host_ip.empty() ? "" : port.host_ip + ":") +
                  (port.host_port.empty() ? "" : port.host_port + ":") + port.container_port;
      // `mode: host` binds on the node like a bare -p; ingress mode is swarm-only.
      port.from = at(p);
      w.network.ports.push_back(std::move(port));
    }
  }

  void resources() {
    auto take = [&](const Node* n, Maybe<std::string>& into) { str_fact(n, into); };
    if (const Node* d = w_get("deploy")) {
      if (const Node* r = d->get("resources")) {
        if (const Node* l = r->get("limits")) {
          take(l->get("memory"), w.resources.memory_limit);
          take(l->get("cpus"), w.resources.cpu_limit);
          if (const Node* p = l->get("pids")) {
            if (auto v = p->as_int()) w.resources.pids_limit = fact(*v, at(p));
          }
        }
      }
    }
    // GPUs: `gpus: all` or reservations.devices with a gpu capability (count or device_ids).
    if (const Node* g = w_get("gpus")) {
      if (g->is_scalar()) w.resources.gpus.push_back(fact(str(g), at(g)));
    }
    if (const Node* d = w_get("deploy")) {
      const Node* r = d->get("resources");
      const Node* res = r ? r->get("reservations") : nullptr;
      for (const Node* dev : items(res ? res->get("devices") : nullptr)) {
        if (!dev->is_map()) continue;
        bool gpu = false;
        for (const Node* c : items(dev->get("capabilities"))) gpu = gpu || str(c) == "gpu";
        if (!gpu) continue;
        std::string count = str(dev->get("count"));
        w.resources.gpus.push_back(
            fact(count.empty() ? std::string("device_ids") : count, at(dev)));
      }
    }
    take(w_get("mem_limit"), w.resources.memory_limit);
    take(w_get("memswap_limit"), w.resources.memory_swap);
    take(w_get("cpus"), w.resources.cpu_limit);
    if (const Node* p = w_get("pids_limit")) {
      if (auto v = p->as_int()) w.resources.pids_limit = fact(*v, at(p));
    }
    for (const Node* d : items(w_get("devices")))
      w.resources.devices.push_back(fact(str(d), at(d)));
    if (const Node* so = w_get("storage_opt")) {
      if (const Node* sz = so->get("size")) w.resources.ephemeral_limit = fact(str(sz), at(sz));
    }
  }

  void network() {
    if (const Node* nm = w_get("network_mode")) {
      std::string v = str(nm);
      launch::apply_network(v, at(nm), w);
    } else if (const Node* nets = w_get("networks")) {
      std::string first;
      if (nets->is_seq() && !nets->items.empty()) first = str(nets->items.front());
      if (nets->is_map() && !nets->entries.empty()) first = str(nets->entries.front().first);
      if (!first.empty()) {
        w.network.mode = fact(NetMode::Named, at(nets));
        w.network.mode_arg = first;
      }
    }
    for (const Node* h : items(w_get("extra_hosts"))) launch::apply_add_host(str(h), at(h), w);
    if (const Node* eh = w_get("extra_hosts"); eh && eh->is_map()) {
      for (const auto& [k, v] : eh->entries)
        launch::apply_add_host(str(k) + ":" + str(v), at(k), w);
    }
    if (const Node* p = w_get("pid")) w.network.host_pid = fact(str(p) == "host", at(p));
    if (const Node* p = w_get("ipc")) w.network.host_ipc = fact(str(p) == "host", at(p));
    if (const Node* p = w_get("uts")) w.network.host_uts = fact(str(p) == "host", at(p));
  }

  void build(const std::string& compose_dir) {
    const Node* b = w_get("build");
    if (b == nullptr) return;
    std::string context = b->is_scalar() ? str(b) : str(b->get("context"));
    std::string dockerfile = b->is_map() ? str(b->get("dockerfile")) : "";
    if (context.find("://") != std::string::npos) return;  // remote context: not in the input
    if (dockerfile.empty()) dockerfile = "Dockerfile";
    std::string dir = compose_dir + (context.empty() ? "." : context) + "/";
    std::string path = launch::normalize_path(dir + dockerfile);
    if (!launch::find_source(ctx.sources, path) && dockerfile == "Dockerfile") {
      path = launch::normalize_path(dir + "Containerfile");
    }
    launch::attach_dockerfile(ctx.sources, path, w);
  }

  void read() {
    bool_fact("privileged", w.identity.privileged);
    bool_fact("read_only", w.identity.read_only_root);
    bool_fact("init", w.init);
    for (const Node* c : items(w_get("cap_add"))) launch::apply_capability(str(c), at(c), true, w);
    for (const Node* c : items(w_get("cap_drop")))
      launch::apply_capability(str(c), at(c), false, w);
    for (const Node* s : items(w_get("security_opt"))) launch::apply_security_opt(str(s), at(s), w);
    if (const Node* u = w_get("user")) launch::apply_user(str(u), at(u), w);
    if (const Node* u = w_get("userns_mode")) w.identity.userns = fact(str(u), at(u));
    volumes(w_get("volumes"));
    for (const Node* t : items(w_get("tmpfs")))
      launch::add_mount(launch::parse_tmpfs(str(t)), at(t), w);
    environment(w_get("environment"));
    for (const Node* e : items(w_get("env_file"))) {
      if (e->is_scalar()) w.env_bulk.push_back({EnvBulkKind::EnvFile, str(e), at(e)});
    }
    if (const Node* ef = w_get("env_file"); ef && ef->is_seq()) {
      for (const Node* e : ef->items) {
        if (e->is_map()) w.env_bulk.push_back({EnvBulkKind::EnvFile, str(e->get("path")), at(e)});
      }
    }
    network();
    ports(w_get("ports"));
    resources();
    str_fact(w_get("runtime"), w.runtime_class);
    str_fact(w_get("restart"), w.lifecycle.restart);
    if (const Node* img = w_get("image")) w.image = str(img);
    for (const Node* c : items(w_get("entrypoint"))) w.command.push_back(fact(str(c), at(c)));
    for (const Node* c : items(w_get("command"))) w.command.push_back(fact(str(c), at(c)));
  }
};

}  // namespace

void read_compose_file(const SourceFile& file, const FrontendContext& ctx, FilePart& out) {
  for_each_document(file.bytes, file.id, "compose file", out.problems,
                    [&](const yaml::Document& doc) {
                      if (doc.root == nullptr || !doc.root->is_map()) return;
                      const Node* services = doc.root->get("services");
                      if (services == nullptr || !services->is_map()) return;
                      for (const auto& [key, svc] : services->entries) {
                        if (svc == nullptr || !svc->is_map()) continue;
                        Workload w;
                        w.engine = Engine::Compose;
                        w.id.kind = "compose";
                        w.id.name = file.path;
                        w.id.render_root = file.path;
                        w.id.container = ServiceReader::str(key);
                        w.object_from = w.pod_spec_from = w.container_from =
                            launch::at_node(file.id, key, Frontend::Compose);
                        w.lifecycle.controller = Controller::ComposeService;
                        ServiceReader r{file, ctx, w};
                        r.svc = svc;
                        r.read();
                        r.build(launch::dir_of(file.path));
                        out.workloads.push_back(std::move(w));
                      }
                    });
}

}  // namespace sbr
