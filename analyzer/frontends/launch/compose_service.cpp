// A compose service's keys as the engine reads them. Every value is interpolated first (compose
// substitutes before it splits a value), and keys that are `docker run` flags go through
// apply_options, so a key means what its flag means.
#include "analyzer/frontends/launch/compose_service.h"

#include <algorithm>

#include "analyzer/frontends/launch/apply_options.h"
#include "analyzer/frontends/launch/launch_util.h"
#include "analyzer/frontends/launch/specs.h"

namespace sbr::launch {
namespace {

using yaml::Node;

// Items of a sequence, or the single scalar (compose accepts both for several keys).
std::vector<const Node*> items(const Node* n) {
  if (n == nullptr) return {};
  if (n->is_seq()) return n->items;
  if (n->is_scalar()) return {n};
  return {};
}

bool relative_path(const std::string& s) {
  if (s.empty() || s.front() == '/' || s.front() == '~' || s.front() == '$' || s.front() == '<') {
    return false;
  }
  return s.front() == '.' || s.find('/') != std::string::npos;
}

class ServiceReader {
 public:
  ServiceReader(const ComposeLayer& layer, const Node* svc, const FrontendContext& ctx, Workload& w)
      : layer_(layer), svc_(svc), ctx_(ctx), w_(w) {}

  void read(bool later) {
    std::size_t mounts_before = w_.mounts.size(), env_before = w_.env.size();
    if (later && (get("command") || get("entrypoint"))) w_.command.clear();
    identity();
    volumes(get("volumes"));
    for (const Node* t : items(get("tmpfs"))) add_mount(parse_tmpfs(str(t)), at(t), w_);
    secrets();
    environment(get("environment"));
    env_files();
    network();
    ports(get("ports"));
    resources();
    if (const Node* img = get("image")) w_.image = str(img);
    for (const Node* c : items(get("entrypoint"))) w_.command.push_back(fact(str(c), at(c)));
    for (const Node* c : items(get("command"))) w_.command.push_back(fact(str(c), at(c)));
    build();
    dependencies();
    replace_redefined(mounts_before, env_before);
  }

 private:
  Provenance at(const Node* n) const { return at_node(layer_.file->id, n, Frontend::Compose); }
  const Node* get(const char* key) const { return svc_->get(key); }
  std::string str(const Node* n) const {
    auto s = n ? n->as_string() : std::nullopt;
    if (!s) return "";
    return interpolate(*s, *layer_.env).text;
  }

  // One `docker run` flag with its value, through the launcher's option code.
  void flag(const char* name, const Node* n, std::string value) {
    ParsedRun run;
    ParsedOption o;
    o.name = name;
    o.flag.text = std::string("--") + name;
    o.flag.from = at(n);
    o.value.text = std::move(value);
    o.value.from = at(n);
    o.value.symbolic = has_unknown(o.value.text);
    o.has_value = true;
    run.options.push_back(std::move(o));
    ApplyOutcome ignored;
    apply_options(run, w_, ignored);
  }
  void flag_key(const char* key, const char* name) {
    if (const Node* n = get(key); n && n->is_scalar()) flag(name, n, str(n));
  }
  // A YAML boolean key (`yes`, `on`, `true`...) as the flag's `=true|false`.
  void bool_key(const char* key, const char* name) {
    const Node* n = get(key);
    if (auto b = n ? n->as_bool() : std::nullopt) flag(name, n, *b ? "true" : "false");
  }

  void identity() {
    bool_key("privileged", "privileged");
    bool_key("read_only", "read-only");
    bool_key("init", "init");
    bool_key("use_api_socket", "use-api-socket");
    for (const Node* c : items(get("cap_add"))) {
      if (!has_cap(str(c))) apply_capability(str(c), at(c), true, w_);  // compose: a union
    }
    for (const Node* c : items(get("cap_drop"))) apply_capability(str(c), at(c), false, w_);
    for (const Node* s : items(get("security_opt"))) apply_security_opt(str(s), at(s), w_);
    flag_key("user", "user");
    flag_key("userns_mode", "userns");
    flag_key("runtime", "runtime");
    flag_key("restart", "restart");
    flag_key("working_dir", "workdir");
  }
  bool has_cap(const std::string& c) const {
    Capability want = parse_capability(c);
    return std::any_of(w_.identity.cap_add.begin(), w_.identity.cap_add.end(),
                       [&](const auto& f) { return f.value == want; });
  }

  // `depends_on: [a]`, `depends_on: {a: {condition: ...}}`, `links: [a, "b:alias"]`.
  void dependencies() {
    if (const Node* d = get("depends_on"); d && d->is_map()) {
      for (const auto& [k, v] : d->entries) w_.depends_on.push_back(fact(str(k), at(k)));
    } else {
      for (const Node* n : items(d)) w_.depends_on.push_back(fact(str(n), at(n)));
    }
    for (const Node* l : items(get("links"))) {
      std::string s = str(l);
      w_.depends_on.push_back(fact(s.substr(0, s.find(':')), at(l)));
    }
  }

  void long_volume(const Node* v) {
    Mount m;
    std::string type = str(v->get("type"));
    m.source = str(v->get("source"));
    m.target = str(v->get("target"));
    m.kind = type == "bind"    ? MountKind::HostPath
             : type == "tmpfs" ? MountKind::Tmpfs
                               : MountKind::NamedVolume;
    if (type.empty() && looks_like_host_path(m.source)) m.kind = MountKind::HostPath;
    if (m.kind == MountKind::HostPath) m.source = resolve_compose_source(m.source, layer_.dir);
    const Node* src = v->get("source");
    if (const Node* ro = v->get("read_only")) {
      if (auto b = ro->as_bool()) m.read_only = fact(*b, at(ro));
    }
    if (const Node* bind = v->get("bind")) {
      if (const Node* p = bind->get("propagation")) {
        Mount tmp = parse_volume("x:/y:" + str(p));
        if (tmp.propagation) m.propagation = fact(tmp.propagation->value, at(p));
      }
      std::string se = str(bind->get("selinux"));
      m.relabel_shared = se == "z";
      m.relabel_private = se == "Z";
    }
    if (const Node* t = v->get("tmpfs")) {
      if (const Node* sz = t->get("size")) m.size_limit = fact(str(sz), at(sz));
    }
    m.source_from = at(src ? src : v);
    m.mount_from = at(v);
    w_.mounts.push_back(std::move(m));
  }

  void volumes(const Node* n) {
    for (const Node* v : items(n)) {
      if (v->is_map()) {
        long_volume(v);
      } else if (v->is_scalar()) {
        Mount m = parse_volume(str(v));
        // An unknown source is a path the host supplies: compose writes a variable there for a
        // directory, never for a volume name.
        if (has_unknown(m.source)) m.kind = MountKind::HostPath;
        if (m.kind == MountKind::HostPath) m.source = resolve_compose_source(m.source, layer_.dir);
        add_mount(std::move(m), at(v), w_);
      }
    }
  }

  // `secrets:` are files under /run/secrets, read-only, holding what the secret holds.
  void secrets() {
    for (const Node* s : items(get("secrets"))) {
      Mount m;
      m.kind = MountKind::Secret;
      m.holds_secret = true;
      m.source = s->is_map() ? str(s->get("source")) : str(s);
      std::string target = s->is_map() ? str(s->get("target")) : "";
      if (m.source.empty()) continue;
      if (target.empty()) target = m.source;
      m.target = target.front() == '/' ? target : "/run/secrets/" + target;
      m.read_only = fact(true, at(s));
      m.source_from = m.mount_from = at(s);
      w_.mounts.push_back(std::move(m));
    }
  }

  void environment(const Node* n) {
    if (n == nullptr) return;
    if (n->is_map()) {
      for (const auto& [k, v] : n->entries) {
        std::string name = k ? k->scalar : "";
        std::string value = v && !v->is_null() ? str(v) : "";
        std::string text = v && !v->is_null() ? name + "=" + value : name;
        apply_env_assignment(text, has_unknown(value), false, at(k), w_, true);
      }
      return;
    }
    for (const Node* e : items(n)) {
      std::string text = str(e);
      apply_env_assignment(text, has_unknown(text), false, at(e), w_, true);
    }
  }

  void env_files() {
    for (const Node* e : items(get("env_file"))) {
      std::string path = e->is_map() ? str(e->get("path")) : str(e);
      // Relative to the compose file, as a bind source is: the file a `.` mount exposes.
      if (!path.empty())
        w_.env_bulk.push_back(
            {EnvBulkKind::EnvFile, resolve_compose_source(path, layer_.dir), at(e)});
    }
  }

  // A short port whose host port is an unset variable still publishes on every interface
  // (or the written address): only the host-side number is unknown.
  void short_port(const Node* p) {
    std::string text = str(p);
    if (has_unknown(text)) {
      std::string proto;
      std::string body = text;
      if (auto slash = body.rfind('/'); slash != std::string::npos && slash > body.rfind('>')) {
        proto = body.substr(slash);
        body = body.substr(0, slash);
      }
      std::vector<std::string> parts = split(body, ':');
      std::size_t host = parts.size() == 2 ? 0 : parts.size() == 3 ? 1 : parts.size();
      if (host < parts.size() && has_unknown(parts[host]) &&
          (host == 0 || !has_unknown(parts[0]))) {
        parts[host].clear();
        std::string spec;
        for (std::size_t i = 0; i < parts.size(); ++i) spec += (i ? ":" : "") + parts[i];
        if (auto parsed = parse_publish(spec + proto)) {
          parsed->spec = text;
          parsed->from = at(p);
          w_.network.ports.push_back(std::move(*parsed));
          return;
        }
      }
    }
    apply_publish(text, has_unknown(text), at(p), w_);
  }

  void ports(const Node* n) {
    for (const Node* p : items(n)) {
      if (p->is_scalar()) {
        short_port(p);
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
      if (has_unknown(port.host_port)) port.host_port.clear();
      port.from = at(p);
      w_.network.ports.push_back(std::move(port));
    }
  }

  void resources();
  void network();
  void networks(const Node* nets);
  void build();
  void replace_redefined(std::size_t mounts_before, std::size_t env_before);

  const ComposeLayer& layer_;
  const Node* svc_;
  const FrontendContext& ctx_;
  Workload& w_;
};

void ServiceReader::resources() {
  if (const Node* d = get("deploy")) {
    const Node* r = d->get("resources");
    const Node* l = r ? r->get("limits") : nullptr;
    if (l != nullptr) {
      if (const Node* m = l->get("memory")) flag("memory", m, str(m));
      if (const Node* c = l->get("cpus")) flag("cpus", c, str(c));
      if (const Node* p = l->get("pids")) flag("pids-limit", p, str(p));
    }
    // GPUs: reservations.devices with a gpu capability (count or device_ids).
    const Node* res = r ? r->get("reservations") : nullptr;
    for (const Node* dev : items(res ? res->get("devices") : nullptr)) {
      if (!dev->is_map()) continue;
      bool gpu = false;
      for (const Node* c : items(dev->get("capabilities"))) gpu = gpu || str(c) == "gpu";
      if (!gpu) continue;
      std::string count = str(dev->get("count"));
      w_.resources.gpus.push_back(fact(count.empty() ? std::string("device_ids") : count, at(dev)));
    }
  }
  flag_key("gpus", "gpus");
  flag_key("mem_limit", "memory");
  flag_key("memswap_limit", "memory-swap");
  flag_key("cpus", "cpus");
  flag_key("pids_limit", "pids-limit");
  for (const Node* d : items(get("devices"))) {
    flag("device", d, d->is_map() ? str(d->get("source")) : str(d));
  }
  if (const Node* so = get("storage_opt")) {
    if (const Node* sz = so->get("size")) flag("storage-opt", sz, "size=" + str(sz));
  }
}

void ServiceReader::network() {
  if (const Node* nm = get("network_mode")) {
    apply_network(str(nm), at(nm), w_);
  } else {
    networks(get("networks"));
  }
  for (const Node* h : items(get("extra_hosts"))) apply_add_host(str(h), at(h), w_);
  if (const Node* eh = get("extra_hosts"); eh && eh->is_map()) {
    for (const auto& [k, v] : eh->entries) apply_add_host(k->scalar + ":" + str(v), at(k), w_);
  }
  flag_key("pid", "pid");
  flag_key("ipc", "ipc");
  flag_key("uts", "uts");
}

// The networks a service joins (list or mapping form; none: the project's `default`). When
// every one is declared `internal: true` at the top level, the engine gives the service no
// route out: an egress gate of kind InternalNetwork, located at the `internal:` line.
void ServiceReader::networks(const Node* nets) {
  std::vector<std::pair<std::string, const Node*>> joined;
  if (nets != nullptr && nets->is_seq()) {
    for (const Node* n : nets->items) joined.emplace_back(str(n), n);
  } else if (nets != nullptr && nets->is_map()) {
    for (const auto& [k, v] : nets->entries) joined.emplace_back(k->scalar, k);
  }
  if (!joined.empty()) {
    w_.network.mode = fact(NetMode::Named, at(nets));
    w_.network.mode_arg = joined.front().first;
  } else {
    joined.emplace_back("default", nullptr);
  }
  const Node* declared = layer_.root ? layer_.root->get("networks") : nullptr;
  const Node* first_internal = nullptr;
  for (const auto& [name, node] : joined) {
    const Node* decl = declared ? declared->get(name) : nullptr;
    const Node* internal = decl ? decl->get("internal") : nullptr;
    if (internal == nullptr || !internal->as_bool().value_or(false)) return;
    if (first_internal == nullptr) first_internal = internal;
  }
  EgressGate g;
  g.kind = GateKind::InternalNetwork;
  g.name = joined.front().first;
  g.denies_v4 = g.denies_v6 = true;
  g.from = at(first_internal);
  w_.network.egress.push_back(std::move(g));
}

void ServiceReader::build() {
  const Node* b = get("build");
  if (b == nullptr) return;
  if (auto built = compose_build(layer_, b, ctx_))
    attach_dockerfile(ctx_.sources, built->dockerfile, built->context, w_);
}

// A later layer's mount at a target, or environment entry of a name, replaces the earlier one
// (compose merges volumes by target and environment by name).
void ServiceReader::replace_redefined(std::size_t mounts_before, std::size_t env_before) {
  auto& ms = w_.mounts;
  for (std::size_t i = mounts_before; i < ms.size(); ++i) {
    const std::string target = ms[i].target;
    auto end = ms.begin() + static_cast<std::ptrdiff_t>(mounts_before);
    auto gone = std::remove_if(ms.begin(), end, [&](const Mount& m) { return m.target == target; });
    const auto removed = static_cast<std::size_t>(end - gone);
    ms.erase(gone, end);
    mounts_before -= removed;
    i -= removed;
  }
  auto& es = w_.env;
  for (std::size_t i = env_before; i < es.size(); ++i) {
    const std::string name = es[i].name;
    auto end = es.begin() + static_cast<std::ptrdiff_t>(env_before);
    auto gone = std::remove_if(es.begin(), end, [&](const EnvVar& e) { return e.name == name; });
    const auto removed = static_cast<std::size_t>(end - gone);
    es.erase(gone, end);
    env_before -= removed;
    i -= removed;
  }
}

}  // namespace

std::string resolve_compose_source(const std::string& source, const std::string& dir) {
  if (dir.empty() || !relative_path(source)) return source;
  std::string joined = normalize_path(dir + source);
  if (joined.empty()) return ".";
  return joined.rfind("..", 0) == 0 ? joined : "./" + joined;
}

std::optional<ComposeBuild> compose_build(const ComposeLayer& layer, const yaml::Node* build,
                                          const FrontendContext& ctx) {
  auto str = [&](const Node* n) {
    auto s = n ? n->as_string() : std::nullopt;
    return s ? interpolate(*s, *layer.env).text : std::string();
  };
  std::string context = build->is_scalar() ? str(build) : str(build->get("context"));
  std::string dockerfile = build->is_map() ? str(build->get("dockerfile")) : "";
  if (context.find("://") != std::string::npos) return std::nullopt;  // remote: not in the input
  if (dockerfile.empty()) dockerfile = "Dockerfile";
  std::string dir = layer.dir + (context.empty() ? "." : context) + "/";
  std::string path = normalize_path(dir + dockerfile);
  if (!find_source(ctx.sources, path) && dockerfile == "Dockerfile") {
    const std::string containerfile = normalize_path(dir + "Containerfile");
    if (find_source(ctx.sources, containerfile)) path = containerfile;
  }
  return ComposeBuild{path, dir};
}

void apply_compose_service(const ComposeLayer& layer, const yaml::Node* svc,
                           const FrontendContext& ctx, bool later, Workload& w) {
  ServiceReader(layer, svc, ctx, w).read(later);
}

}  // namespace sbr::launch
