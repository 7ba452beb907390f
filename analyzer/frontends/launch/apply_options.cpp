#include "analyzer/frontends/launch/apply_options.h"

#include <algorithm>
#include <charconv>

#include "analyzer/frontends/launch/specs.h"
#include "analyzer/support/secrets.h"

namespace sbr::launch {
namespace {

std::optional<std::int64_t> to_int(std::string_view s) {
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// `--rm`, `--rm=true`, `--rm=false`.
bool flag_value(const ParsedOption& o) {
  if (!o.has_value) return true;
  return o.value.text != "false" && o.value.text != "0";
}

// Where a value-carrying fact came from: the value's word (for `--opt v` a word of its own).
const Provenance& at_value(const ParsedOption& o) {
  return o.has_value ? o.value.from : o.flag.from;
}

}  // namespace

void add_mount(Mount m, const Provenance& at, Workload& w) {
  m.source_from = at;
  m.mount_from = at;
  if (m.read_only) m.read_only->from = at;
  if (m.propagation) m.propagation->from = at;
  if (m.size_limit) m.size_limit->from = at;
  w.mounts.push_back(std::move(m));
}

void apply_capability(std::string_view value, const Provenance& at, bool add, Workload& w) {
  for (const auto& c : split(value, ',')) {
    if (c.empty()) continue;
    (add ? w.identity.cap_add : w.identity.cap_drop).push_back(fact(parse_capability(c), at));
  }
}

void apply_user(std::string_view value, const Provenance& at, Workload& w) {
  std::size_t colon = value.find(':');
  std::string_view user = value.substr(0, colon);
  // A later user setting (a compose override's `user:`) replaces the whole user, also one
  // taken from the image.
  if (!user.empty()) {
    w.identity.run_as_user.reset();
    w.identity.user_name.reset();
  }
  if (auto uid = to_int(user)) {
    w.identity.run_as_user = fact(*uid, at);
  } else if (user == "root") {
    w.identity.run_as_user = fact<std::int64_t>(0, at);  // root is uid 0 in every image
  } else if (!user.empty()) {
    w.identity.user_name = fact(std::string(user), at);
  }
  if (colon != std::string_view::npos) {
    if (auto gid = to_int(value.substr(colon + 1))) w.identity.run_as_group = fact(*gid, at);
  }
}

void apply_security_opt(std::string_view v, const Provenance& at, Workload& w) {
  auto value_after = [&](std::string_view key) -> std::optional<std::string_view> {
    for (char sep : {'=', ':'}) {
      std::string k = std::string(key) + sep;
      if (v.rfind(k, 0) == 0) return v.substr(k.size());
    }
    return std::nullopt;
  };
  if (v == "no-new-privileges") {
    w.identity.allow_privilege_escalation = fact(false, at);
  } else if (auto nnp = value_after("no-new-privileges")) {
    w.identity.allow_privilege_escalation = fact(*nnp == "false", at);
  } else if (auto s = value_after("seccomp")) {
    Seccomp sc;
    if (*s == "unconfined") {
      sc.kind = SeccompKind::Unconfined;
    } else {
      sc.kind = SeccompKind::CustomFile;
      sc.profile = std::string(*s);
    }
    w.identity.seccomp = fact(sc, at);
  } else if (auto a = value_after("apparmor")) {
    w.identity.apparmor = fact(std::string(*a == "unconfined" ? "Unconfined" : *a), at);
  } else if (auto l = value_after("label")) {
    if (*l == "disable") {
      w.identity.selinux_disabled = fact(true, at);
    } else if (l->rfind("type:", 0) == 0) {
      w.identity.selinux_type = fact(std::string(l->substr(5)), at);
    }
  } else if (auto u = value_after("unmask")) {
    for (const auto& p : split(*u, ':')) w.identity.unmasked_paths.push_back(fact(p, at));
  } else if (auto sp = value_after("systempaths")) {
    w.identity.systempaths_unconfined = fact(*sp == "unconfined", at);
  } else if (auto m = value_after("mask")) {
    (void)m;  // masking more paths only narrows: recognised, nothing to record
  } else {
    w.unknown_options.push_back(fact("--security-opt " + std::string(v), at));
  }
}

void apply_network(std::string_view v, const Provenance& at, Workload& w) {
  std::size_t colon = v.find(':');
  std::string_view mode = v.substr(0, colon);
  std::string_view opts = colon == std::string_view::npos ? "" : v.substr(colon + 1);
  NetMode m = NetMode::Named;
  std::string mode_arg;
  if (mode == "none") {
    m = NetMode::None;
  } else if (mode == "host") {
    m = NetMode::Host;
  } else if (mode == "bridge" || mode == "private" || mode == "default") {
    m = NetMode::Bridge;
  } else if (mode == "container" || mode == "service") {
    m = NetMode::Container;
    mode_arg = std::string(opts);
  } else if (mode == "ns") {
    m = NetMode::Namespace;
    mode_arg = std::string(opts);
  } else if (mode == "pasta") {
    m = NetMode::Pasta;
    // podman passes --no-map-gw to pasta by default (podman 5: the gateway no longer leads to
    // the host's loopback); these options map it back.
    for (const auto& o : split(opts, ',')) {
      if (o == "--map-gw" || o.rfind("--map-host-loopback", 0) == 0) {
        w.network.host_loopback.push_back(fact("pasta " + o, at));
      }
    }
  } else if (mode == "slirp4netns") {
    m = NetMode::Slirp4netns;
    for (const auto& o : split(opts, ',')) {
      if (o == "allow_host_loopback=true") {
        w.network.host_loopback.push_back(fact("slirp4netns " + o, at));
      }
    }
  } else {
    mode_arg = std::string(mode);
  }
  // Flags from different branches of a script land in one argument list, each with its
  // condition. `mode` keeps the default path's mode (what runs unless someone flips a switch);
  // modes of other paths are kept as alternatives. `host_network` is true when any path sets
  // host, with that path's condition: the isolation checks judge it as a conditional finding.
  if (m == NetMode::Container && !mode_arg.empty()) {
    // container:X / compose service:X: X's network namespace, its egress and its localhost.
    w.siblings.push_back({mode_arg, "", true, false, at});
  }
  Network& n = w.network;
  const bool same_path = n.mode && n.mode->from.condition() == at.condition();
  // A later flag on every path overrides whatever came before, as it does for the engine.
  const bool replaces = !n.mode || same_path || at.condition().always() ||
                        (n.mode->from.condition().needs_switch && !at.condition().needs_switch);
  if (replaces) {
    if (n.mode && !same_path) n.mode_alternatives.push_back(*n.mode);
    n.mode = fact(m, at);
    n.mode_arg = mode_arg;
  } else {
    n.mode_alternatives.push_back(fact(m, at));
  }
  const bool host_elsewhere = n.host_network && n.host_network->value && !at.condition().always() &&
                              !(n.host_network->from.condition() == at.condition());
  if (m == NetMode::Host || !host_elsewhere) n.host_network = fact(m == NetMode::Host, at);
}

void apply_add_host(std::string_view v, const Provenance& at, Workload& w) {
  std::size_t colon = v.find(':');
  if (colon == std::string_view::npos) colon = v.find('=');  // docker also accepts host=ip
  if (colon != std::string_view::npos && v.substr(colon + 1) == "host-gateway") {
    w.network.host_loopback.push_back(fact("--add-host " + std::string(v), at));
  }
}

void apply_env_assignment(std::string_view text, bool symbolic, bool on_argv, const Provenance& at,
                          Workload& w, bool expanded, std::string_view origin) {
  EnvVar e;
  e.from = at;
  std::size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    e.name = std::string(text);
    e.source = EnvSource::HostCopy;
  } else {
    e.name = std::string(text.substr(0, eq));
    e.value = std::string(text.substr(eq + 1));
    // compose `${VAR}` and devcontainer `${localEnv:VAR}` are filled in from the host when the
    // container starts: not a value written in the file.
    bool interpolated = !expanded && (e.value.find("${") != std::string::npos ||
                                      (!e.value.empty() && e.value.front() == '$'));
    e.source = symbolic || interpolated ? EnvSource::Symbolic : EnvSource::Literal;
    e.on_argv = on_argv;
    e.secret_source = symbolic && secrets::is_secret_source(origin);
  }
  if (!e.name.empty()) w.env.push_back(std::move(e));
}

void apply_publish(std::string_view spec, bool symbolic, const Provenance& at, Workload& w) {
  if (auto p = parse_publish(spec)) {
    p->from = at;
    w.network.ports.push_back(std::move(*p));
    return;
  }
  // Unresolved or unparseable: kept with its text, judged by nobody (no port is known).
  PublishedPort p;
  p.spec = symbolic && spec.empty() ? "<unresolved>" : std::string(spec);
  p.from = at;
  w.network.ports.push_back(std::move(p));
}

namespace {

// `--use-api-socket` (compose `use_api_socket: true`): the docker CLI bind-mounts the engine's
// socket at /var/run/docker.sock and copies the host's registry logins, resolved from their
// credential helpers, into /run/secrets/docker/config.json (docker/cli, container create).
void apply_api_socket(const Provenance& at, Workload& w) {
  Mount socket;
  socket.kind = MountKind::HostPath;
  socket.source = socket.target = "/var/run/docker.sock";
  socket.source_from = socket.mount_from = at;
  w.mounts.push_back(std::move(socket));
  Mount logins;
  logins.kind = MountKind::Secret;
  logins.holds_secret = true;
  logins.source = "docker login credentials (use-api-socket)";
  logins.target = "/run/secrets/docker/config.json";
  logins.source_from = logins.mount_from = at;
  w.mounts.push_back(std::move(logins));
}

// A part of an option's value as a message shows it: `part` is value.text[at, at + size)
// (`-v "$HOME_DIR":/home`, `src=$SRC`); "" when no unknown part falls in it.
std::string shown_part(const Word& value, const std::string& part, std::size_t at) {
  if (value.unknown_parts.empty() || at == std::string::npos) return "";
  auto parts = unknown_parts_in(value.unknown_parts, at, at + part.size());
  return parts.empty() ? "" : show_unknown(part, parts);
}

// Whether the slice value.text[at, at + size) starts with a part the script left unknown.
bool starts_unknown(const Word& value, std::size_t at, std::size_t size) {
  auto parts = unknown_parts_in(value.unknown_parts, at, at + size);
  return std::any_of(parts.begin(), parts.end(), [](const UnknownPart& p) { return p.at == 0; });
}

// The mount with its source and target as messages show them. `-v SRC:DST`, `--tmpfs DST:...`
// and `--mount ...,src=SRC,dst=DST` place them differently in the value.
Mount shown_mount(Mount m, const ParsedOption& o) {
  const std::string& v = o.value.text;
  std::size_t source_at = std::string::npos, target_at = 0;
  if (o.name == "mount") {
    source_at = mount_value_at(v, {"src", "source"});
    target_at = mount_value_at(v, {"dst", "target", "destination"});
  } else if (o.name == "volume" && v.find(':') != std::string::npos) {
    source_at = 0;  // without a colon the value is the target of an anonymous volume
    target_at = v.find(':') + 1;
  }
  m.source_shown = shown_part(o.value, m.source, source_at);
  m.source_unknown_root = source_at != std::string::npos && !m.source.empty() &&
                          starts_unknown(o.value, source_at, m.source.size());
  m.target_shown = shown_part(o.value, m.target, target_at);
  return m;
}

}  // namespace

void apply_options(const ParsedRun& run, Workload& w, ApplyOutcome& outcome) {
  for (const ParsedOption& o : run.options) {
    const std::string& n = o.name;
    const std::string& v = o.value.text;
    const Provenance& at = at_value(o);
    if (!o.known || (!o.has_value && option_takes_value(n))) {
      std::string text = o.flag.text;
      if (o.has_value && o.flag.text.find('=') == std::string::npos) text += " " + v;
      w.unknown_options.push_back(fact(text, o.flag.from));
      continue;
    }
    if (n == "privileged") {
      w.identity.privileged = fact(flag_value(o), o.flag.from);
    } else if (n == "cap-add" || n == "cap-drop") {
      apply_capability(v, at, n == "cap-add", w);
    } else if (n == "security-opt") {
      apply_security_opt(v, at, w);
    } else if (n == "user") {
      apply_user(v, at, w);
    } else if (n == "userns") {
      w.identity.userns = fact(v, at);
    } else if (n == "read-only") {
      w.identity.read_only_root = fact(flag_value(o), o.flag.from);
    } else if (n == "volume") {
      add_mount(shown_mount(parse_volume(v), o), at, w);
    } else if (n == "mount") {
      add_mount(shown_mount(parse_mount(v), o), at, w);
    } else if (n == "tmpfs") {
      add_mount(shown_mount(parse_tmpfs(v), o), at, w);
    } else if (n == "env") {
      apply_env_assignment(v, o.value.symbolic, true, at, w, false, o.value.origin);
    } else if (n == "env-file") {
      w.env_bulk.push_back({EnvBulkKind::EnvFile, v, at});
    } else if (n == "env-host") {
      if (flag_value(o)) w.env_bulk.push_back({EnvBulkKind::HostEnvironment, "", o.flag.from});
    } else if (n == "network") {
      // `container:$NAME` by the identity of NAME's value, which `--name "$NAME"` shares.
      apply_network(v.rfind("container:", 0) == 0 ? o.value.name() : v, at, w);
    } else if (n == "publish") {
      apply_publish(v, o.value.symbolic, at, w);
    } else if (n == "publish-all") {
      if (flag_value(o)) {
        PublishedPort p;
        p.spec = o.flag.text;
        p.publish_all = true;
        p.from = o.flag.from;
        w.network.ports.push_back(std::move(p));
      }
    } else if (n == "add-host") {
      apply_add_host(v, at, w);
    } else if (n == "pid") {
      w.network.host_pid = fact(v == "host", at);
    } else if (n == "ipc") {
      w.network.host_ipc = fact(v == "host", at);
    } else if (n == "uts") {
      w.network.host_uts = fact(v == "host", at);
    } else if (n == "device") {
      w.resources.devices.push_back(fact(v, at));
    } else if (n == "gpus") {
      w.resources.gpus.push_back(fact(v, at));
    } else if (n == "runtime") {
      w.runtime_class = fact(v, at);
    } else if (n == "memory") {
      w.resources.memory_limit = fact(v, at);
    } else if (n == "memory-swap") {
      w.resources.memory_swap = fact(v, at);
    } else if (n == "cpus") {
      w.resources.cpu_limit = fact(v, at);
    } else if (n == "cpu-quota") {
      if (!w.resources.cpu_limit) w.resources.cpu_limit = fact("quota " + v, at);
    } else if (n == "pids-limit") {
      if (auto p = to_int(v)) w.resources.pids_limit = fact(*p, at);
    } else if (n == "storage-opt") {
      if (v.rfind("size=", 0) == 0) w.resources.ephemeral_limit = fact(v.substr(5), at);
    } else if (n == "timeout") {
      if (auto t = to_int(v)) w.lifecycle.timeout = fact(*t, at);
    } else if (n == "rm") {
      w.lifecycle.remove_on_exit = fact(flag_value(o), o.flag.from);
    } else if (n == "restart") {
      w.lifecycle.restart = fact(v, at);
    } else if (n == "init") {
      w.init = fact(flag_value(o), o.flag.from);
    } else if (n == "use-api-socket") {
      if (flag_value(o)) apply_api_socket(o.flag.from, w);
    } else if (n == "workdir") {
      if (!o.value.symbolic) w.working_dir = fact(v, at);
    } else if (n == "name") {
      // An unresolved name is a name only through the identity of its value (`--name "$NAME"`
      // with NAME set once: every use of that value names the same container).
      if (!o.value.symbolic || !o.value.identity.empty()) outcome.name = fact(o.value.name(), at);
    } else if (n == "pod") {
      outcome.pod = fact(v, at);
    }
    // Other known options (--dns, --cgroupns, --ulimit, --entrypoint, --group-add, --sysctl,
    // --oom-kill-disable, --hooks-dir, -it, -d...) do not change a judged fact; recognised so
    // they never swallow the image.
  }
}

}  // namespace sbr::launch
