// Resources a launcher starts (detached containers, port forwarders, proxies, networks, pods)
// with the names a cleanup would mention, and the symbolic words among a container launch's
// engine options. Whether a trap removes each resource is matched in lifecycle.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analyzer/render/bash/evaluator.h"
#include "analyzer/render/bash/observe.h"
#include "analyzer/render/bash/unknown_parts.h"
#include "analyzer/render/bash/words.h"

namespace sbr::bash {
namespace {

bool detach_flag(const std::string& o) {
  if (o == "-d" || o == "--detach" || o == "--detach=true") return true;
  return o.size() > 2 && o[0] == '-' && o[1] != '-' &&
         o.find_first_not_of("ditP", 1) == std::string::npos && o.find('d') != std::string::npos;
}

bool publish_flag(const std::string& o) {
  return o == "-p" || o == "--publish" || o == "-P" || o == "--publish-all" ||
         starts(o, "--publish=") ||
         (starts(o, "-p") && o.size() > 2 && std::isdigit(static_cast<unsigned char>(o[2])));
}

// `exec [options] CONTAINER COMMAND...`: the index of CONTAINER in `t`, or 0.
size_t exec_target(const std::vector<std::string>& t) {
  for (size_t i = 2; i < t.size(); ++i) {
    const std::string& o = t[i];
    if (in(o, {"-u", "--user", "-e", "--env", "-w", "--workdir", "--env-file", "--detach-keys"})) {
      ++i;
      continue;
    }
    if (starts(o, "-")) continue;
    return i;
  }
  return 0;
}

// The container's command only waits (`sleep infinity`, `tail -f /dev/null`, a pause binary).
bool idle_command(const std::vector<std::string>& texts) {
  const std::size_t n = texts.size();
  if (n >= 2 && base_name(texts[n - 2]) == "sleep") return true;
  if (n >= 3 && base_name(texts[n - 3]) == "tail" && texts[n - 2] == "-f" &&
      texts[n - 1] == "/dev/null")
    return true;
  return n >= 1 && in(base_name(texts[n - 1]), {"pause", "catatonit"});
}

// The container `podman inspect -f '{{.State.Pid}}' CTR` names, read from the origin of the
// substitution that gave nsenter its target; "" when the pid comes from elsewhere.
std::string inspected_container(const EWord& pid) {
  const std::string& o = pid.w.origin;
  size_t b = o.find('`'), e = o.rfind('`');
  if (!pid.w.symbolic || b == std::string::npos || e <= b) return "";
  std::vector<std::string> w;
  std::string cur;
  for (char ch : o.substr(b + 1, e - b - 1)) {
    if (ch == ' ') {
      if (!cur.empty()) w.push_back(std::move(cur));
      cur.clear();
    } else if (ch != '\'' && ch != '"') {
      cur += ch;
    }
  }
  if (!cur.empty()) w.push_back(std::move(cur));
  size_t i = w.size() > 2 && w[1] == "container" ? 2 : 1;
  if (w.size() <= i + 1 || !in(base_name(w[0]), {"podman", "docker", "nerdctl"}) ||
      w[i] != "inspect" || starts(w.back(), "-"))
    return "";
  return w.back();
}

// `nsenter -t PID -n [--] CMD...` entering a network namespace: the index of CMD and the PID
// word, or {0, nullptr} when it enters no network namespace.
std::pair<size_t, const EWord*> nsenter_command(const std::vector<EWord>& argv) {
  const EWord* pid = nullptr;
  bool net = false;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& o = argv[i].w.text;
    if (o == "--") return {net && i + 1 < argv.size() ? i + 1 : 0, pid};
    if (in(o, {"-t", "--target"}) && i + 1 < argv.size()) {
      pid = &argv[++i];
      continue;
    }
    if (in(o, {"-S", "--setuid", "-G", "--setgid"})) {
      ++i;
      continue;
    }
    if (o == "-n" || o == "--net" || starts(o, "--net=") || o == "-a" || o == "--all") {
      net = true;
      continue;
    }
    if (starts(o, "--target=")) continue;  // pid in the word itself: no container to name
    if (starts(o, "-")) {
      net = net || (o.size() > 2 && o[1] != '-' && o.find('n') != std::string::npos);
      continue;
    }
    return {net ? i : 0, pid};
  }
  return {0, pid};
}

}  // namespace

// A gate applied with `podman exec CTR iptables ...` to a container started detached earlier.
void Evaluator::note_late_gate(const std::vector<std::string>& texts, const Invocation& inv) {
  size_t c = exec_target(texts);
  if (c == 0 || c + 1 >= texts.size()) return;
  std::vector<std::string> gate(texts.begin() + static_cast<std::ptrdiff_t>(c) + 1, texts.end());
  note_late_gate(texts[c], std::move(gate), inv);
}

// The same through `nsenter -t "$(podman inspect -f '{{.State.Pid}}' CTR)" -n iptables ...`.
void Evaluator::note_nsenter_gate(const std::vector<EWord>& argv, const Invocation& inv) {
  auto [start, pid] = nsenter_command(argv);
  if (start == 0 || pid == nullptr) return;
  std::string ctr = inspected_container(*pid);
  if (starts(ctr, "$")) {  // `podman inspect ... "$ctr"`: the name the variable holds here
    const Var* v = lookup(var_in(ctr));
    ctr = v != nullptr && v->elems().size() == 1 ? v->elems()[0].w.name() : "";
  }
  if (ctr.empty()) return;
  std::vector<std::string> gate;
  for (size_t i = start; i < argv.size(); ++i) gate.push_back(argv[i].w.text);
  note_late_gate(ctr, std::move(gate), inv);
}

void Evaluator::note_late_gate(const std::string& container, std::vector<std::string> gate,
                               const Invocation& inv) {
  while (!gate.empty() && in(gate[0], {"sudo", "command", "env"})) gate.erase(gate.begin());
  if (!security_step(gate)) return;
  for (const Resource& r : resources_) {
    // A container that only holds its namespaces (`sleep infinity`) runs nothing before the
    // gate: the code the gate is for starts after it, through `exec` or `--network container:`.
    if (r.start.kind != ResourceKind::Container || r.idle ||
        std::find(r.idents.begin(), r.idents.end(), container) == r.idents.end())
      continue;
    std::string first;
    for (size_t i = 0; i < gate.size() && i < 3; ++i) first += (i ? " " : "") + gate[i];
    observed().late_gates.push_back(LateGate{container, first, r.start.from.at, inv.from});
    return;
  }
}

void Evaluator::add_resource(Resource r) {
  resources_.push_back(std::move(r));
  traps_at_start_.push_back(st_.traps);
}

void Evaluator::note_resources(const Invocation& inv, const std::vector<EWord>& argv, Ctx& ctx) {
  std::vector<std::string> texts;
  texts.reserve(argv.size());
  for (const EWord& w : argv) texts.push_back(w.w.text);
  std::string b = argv[0].w.symbolic ? "" : base_name(argv[0].w.text);
  if (is_container_launch(inv)) {
    bool detached = ctx.background, published = false;
    std::vector<std::string> idents;
    std::string shown;  // the first name as a message shows it
    for (size_t i = 1; i < argv.size(); ++i) {
      const std::string& o = argv[i].w.text;
      detached = detached || detach_flag(o);
      published = published || publish_flag(o);
      if (o == "--name" && i + 1 < argv.size()) {
        // The name as written and, for an unknown value, its identity (`--name "$NAME"`).
        if (idents.empty()) shown = show_unknown(argv[i + 1].w.text, unknown_parts_of(argv[i + 1]));
        idents.push_back(argv[i + 1].w.text);
        if (argv[i + 1].w.name() != argv[i + 1].w.text) idents.push_back(argv[i + 1].w.name());
      }
      if (starts(o, "--name=")) {
        if (idents.empty()) {
          shown = show_unknown(o.substr(7), unknown_parts_in(argv[i].w.unknown_parts, 7, o.size()));
        }
        idents.push_back(o.substr(7));
      }
      if (argv[i].w.symbolic && argv[i].w.tainted) {
        observed().engine_options.push_back(
            EngineOptionWord{argv[i].taint_var, argv[i].taint_source,
                             Provenance{argv[i].w.from.at, Frontend::Bash, ctx.cond}});
      }
    }
    if (!ctx.assign_target.empty()) idents.push_back(ctx.assign_target);
    if (!detached) return;
    Resource r;
    r.start.kind = ResourceKind::Container;
    r.start.name = idents.empty() ? "" : idents.front();
    if (!idents.empty() && shown != r.start.name) r.start.name_shown = shown;
    r.start.publishes_ports = published;
    r.start.from = inv.from;
    r.idents = idents;
    r.idle = idle_command(texts);
    add_resource(std::move(r));
  } else if (ctx.background && !b.empty()) {
    bool forwarder = in(b, {"socat", "kubectl", "ssh", "nc", "ncat", "gost", "autossh"});
    bool proxy = in(b, {"squid", "tinyproxy", "mitmdump", "mitmproxy", "privoxy", "envoy", "3proxy",
                        "caddy", "nginx", "slirp4netns", "python", "python3"});
    if (b == "kubectl" && std::find(texts.begin(), texts.end(), "port-forward") == texts.end())
      forwarder = false;
    if ((b == "python" || b == "python3") &&
        std::find(texts.begin(), texts.end(), "http.server") == texts.end())
      proxy = false;
    if (!forwarder && !proxy) return;
    Resource r;
    r.start.kind = forwarder ? ResourceKind::PortForwarder : ResourceKind::Proxy;
    r.start.name = b;
    r.start.from = inv.from;
    r.idents.push_back(b);
    last_background_ = static_cast<int>(resources_.size());
    add_resource(std::move(r));
  } else if (in(b, {"podman", "docker", "nerdctl"}) && texts.size() > 3 && texts[1] == "exec") {
    std::vector<std::string> names;  // the container by its identity when it is unknown
    names.reserve(argv.size());
    for (const EWord& w : argv) names.push_back(w.w.name());
    note_late_gate(names, inv);
  } else if (b == "nsenter") {
    note_nsenter_gate(argv, inv);
  } else if (!b.empty() && (b == "podman" || b == "docker") && texts.size() > 2 &&
             (texts[1] == "network" || texts[1] == "pod") && texts[2] == "create") {
    Resource r;
    r.start.kind = texts[1] == "network" ? ResourceKind::Network : ResourceKind::Pod;
    r.start.name = texts.size() > 3 ? texts.back() : "";
    for (size_t i = 3; i < texts.size(); ++i)
      if (!starts(texts[i], "-")) r.idents.push_back(texts[i]);
    if (!ctx.assign_target.empty()) r.idents.push_back(ctx.assign_target);
    r.start.from = inv.from;
    add_resource(std::move(r));
  }
}

}  // namespace sbr::bash
