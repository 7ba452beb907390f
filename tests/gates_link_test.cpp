// link_gates: a gate is attached only to the workloads whose traffic crosses it.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "analyzer/engine/gate_path.h"
#include "tests/gates_test_util.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace gates_link_test {

using namespace sbr;

namespace {

EgressGate gate(GateKind k, GateHook h, FileId file, std::uint32_t line, bool deny = true) {
  EgressGate g;
  g.kind = k;
  g.hook = h;
  g.name = "g" + std::to_string(line);
  g.denies_v4 = g.denies_v6 = deny;
  g.from.at = Location{file, line, 1};
  return g;
}

Workload launched(FileId file, Engine e, std::optional<NetMode> mode, std::string arg = "") {
  Workload w;
  w.engine = e;
  w.object_from.at = Location{file, 20, 1};
  if (mode) w.network.mode = fact(*mode, Provenance{Location{file, 20, 15}, Frontend::Bash, {}});
  w.network.mode_arg = std::move(arg);
  return w;
}

Model model_with_files() {
  Model m;
  m.files.add("run.sh");                           // 0
  m.files.add("other.sh");                         // 1
  m.files.add("image/init-firewall.sh");           // 2
  m.files.add("proxy/squid.conf");                 // 3
  m.files.add("policy/egress.nft");                // 4
  m.files.add(".devcontainer/devcontainer.json");  // 5
  m.files.add(".devcontainer/firewall.sh");        // 6
  return m;
}

void add_script(Model& m, FileId f, std::vector<EgressGate> gs) {
  ScriptFacts s;
  s.file = f;
  s.gates = std::move(gs);
  m.scripts.push_back(std::move(s));
}

// The frontend records the links, the engine attaches the gates on each workload's path.
void link(Model& m) {
  link_gates(m);
  engine::attach_gates(m);
}

std::vector<GateKind> kinds(const Workload& w) {
  std::vector<GateKind> out;
  for (const auto& g : w.network.egress) out.push_back(g.kind);
  return out;
}

}  // namespace

TEST_CASE("host FORWARD gates filter bridged containers of the same script only", "[gates]") {
  Model m = model_with_files();
  add_script(m, 0, {gate(GateKind::Iptables, GateHook::Forward, 0, 5)});
  m.workloads.push_back(launched(0, Engine::Docker, std::nullopt));   // bridged
  m.workloads.push_back(launched(0, Engine::Docker, NetMode::Host));  // host
  m.workloads.push_back(launched(1, Engine::Docker, std::nullopt));   // other script
  m.workloads.push_back(launched(0, Engine::Podman, std::nullopt));   // rootless: pasta
  m.workloads.push_back(launched(0, Engine::Podman, NetMode::Named, "agent-net"));  // rootless
  Workload rootful = launched(0, Engine::Podman, NetMode::Named, "agent-net");
  rootful.rootful = fact(true, Provenance{});
  m.workloads.push_back(rootful);
  link(m);
  CHECK(m.workloads[4].network.egress.empty());
  CHECK(m.workloads[5].network.egress.size() == 1);
  CHECK(kinds(m.workloads[0]) == std::vector<GateKind>{GateKind::Iptables});
  CHECK(m.workloads[1].network.egress.empty());
  CHECK(m.workloads[2].network.egress.empty());
  CHECK(m.workloads[3].network.egress.empty());
}

TEST_CASE("host OUTPUT gates filter host-network and rootless-podman traffic only", "[gates]") {
  Model m = model_with_files();
  add_script(m, 0, {gate(GateKind::Nft, GateHook::Output, 0, 5)});
  m.workloads.push_back(launched(0, Engine::Docker, std::nullopt));
  m.workloads.push_back(launched(0, Engine::Docker, NetMode::Host));
  m.workloads.push_back(launched(0, Engine::Podman, std::nullopt));
  Workload rootful = launched(0, Engine::Podman, std::nullopt);
  rootful.rootful = fact(true, Provenance{});
  m.workloads.push_back(rootful);
  Workload host_admin = launched(0, Engine::Docker, NetMode::Host);
  host_admin.identity.cap_add.push_back(fact(Capability::NetAdmin, Provenance{}));
  m.workloads.push_back(host_admin);
  link(m);
  CHECK(m.workloads[0].network.egress.empty());
  CHECK(m.workloads[1].network.egress.size() == 1);
  CHECK_FALSE(m.workloads[1].network.egress[0].removable_by_workload);
  CHECK(m.workloads[2].network.egress.size() == 1);
  CHECK(m.workloads[3].network.egress.empty());
  REQUIRE(m.workloads[4].network.egress.size() == 1);
  CHECK(m.workloads[4].network.egress[0].removable_by_workload);  // host netns, rootful docker
}

TEST_CASE("a gate loaded by the container's entrypoint filters its own namespace", "[gates]") {
  Model m = model_with_files();
  EgressGate kept = gate(GateKind::Nft, GateHook::Output, 2, 7);
  add_script(m, 2, {kept});
  Workload w = launched(0, Engine::Podman, std::nullopt);
  w.command.push_back(fact(std::string("/usr/local/bin/init-firewall.sh"), Provenance{}));
  w.image_files.push_back({"/usr/local/bin/init-firewall.sh", "image/init-firewall.sh", {}});
  w.identity.cap_add.push_back(fact(Capability::NetAdmin, Provenance{}));
  m.workloads.push_back(w);
  Workload no_cap = w;
  no_cap.identity.cap_add.clear();
  m.workloads.push_back(no_cap);
  Workload unrelated = launched(0, Engine::Podman, std::nullopt);
  unrelated.command.push_back(fact(std::string("agent"), Provenance{}));
  m.workloads.push_back(unrelated);
  link(m);
  REQUIRE(m.workloads[0].network.egress.size() == 1);
  CHECK(m.workloads[0].network.egress[0].hook == GateHook::NetnsOutput);
  CHECK(m.workloads[0].network.egress[0].removable_by_workload);
  REQUIRE(m.workloads[1].network.egress.size() == 1);
  CHECK_FALSE(m.workloads[1].network.egress[0].removable_by_workload);
  CHECK(m.workloads[2].network.egress.empty());

  // The same entrypoint dropping the bounding set before it hands over.
  m.scripts[0].gates[0].setup_caps_dropped = true;
  m.workloads[0].network.egress.clear();
  link(m);
  CHECK_FALSE(m.workloads[0].network.egress.at(0).removable_by_workload);
}

TEST_CASE("a container command naming an nft file of the repository loads it", "[gates]") {
  Model m = model_with_files();
  add_script(m, 4, {gate(GateKind::Nft, GateHook::Output, 4, 3)});
  Workload w;
  w.engine = Engine::Kubelet;
  w.object_from.at = Location{1, 1, 1};
  for (const char* c : {"sh", "-c", "nft -f /etc/sandbox/egress.nft && exec agent"}) {
    w.command.push_back(fact(std::string(c), Provenance{}));
  }
  // The ConfigMap-free way a repository file gets there: a bind of its directory.
  Mount policy;
  policy.kind = MountKind::HostPath;
  policy.source = "./policy";
  policy.target = "/etc/sandbox";
  policy.source_from = Provenance{Location{1, 3, 1}, Frontend::Compose, {}};
  w.mounts.push_back(policy);
  w.identity.cap_add.push_back(fact(Capability::NetAdmin, Provenance{}));
  m.workloads.push_back(w);
  w.command.back().value =
      "nft -f /etc/sandbox/egress.nft && exec setpriv --reuid=1000 --bounding-set=-all agent";
  m.workloads.push_back(w);
  link(m);
  REQUIRE(m.workloads[0].network.egress.size() == 1);
  CHECK(m.workloads[0].network.egress[0].removable_by_workload);
  REQUIRE(m.workloads[1].network.egress.size() == 1);
  CHECK_FALSE(m.workloads[1].network.egress[0].removable_by_workload);
}

TEST_CASE("devcontainer: the firewall script its lifecycle commands run", "[gates]") {
  Model m = model_with_files();
  add_script(m, 6, {gate(GateKind::Iptables, GateHook::Output, 6, 30)});
  Workload dev = launched(5, Engine::Devcontainer, std::nullopt);
  dev.setup_commands.push_back(
      fact(std::string("postStartCommand: sudo /usr/local/bin/firewall.sh"), Provenance{}));
  dev.image_files.push_back({"/usr/local/bin/firewall.sh", ".devcontainer/firewall.sh", {}});
  m.workloads.push_back(dev);
  Workload host_side = launched(5, Engine::Devcontainer, std::nullopt);
  host_side.setup_commands.push_back(
      fact(std::string("initializeCommand: .devcontainer/firewall.sh"), Provenance{}));
  m.workloads.push_back(host_side);
  m.workloads.push_back(launched(5, Engine::Devcontainer, std::nullopt));
  // A relative path starts in the workspace folder, which the CLI binds from the repository;
  // the folder's name is the checkout's, which the input does not say.
  Workload relative = launched(5, Engine::Devcontainer, std::nullopt);
  Mount ws;
  ws.kind = MountKind::HostPath;
  ws.source = ".";
  ws.target = "/workspaces/<workspace>";
  ws.source_from = Provenance{Location{5, 1, 1}, Frontend::Devcontainer, {}};
  relative.mounts.push_back(ws);
  relative.working_dir = fact(std::string("/workspaces/<workspace>"), Provenance{});
  relative.setup_commands.push_back(
      fact(std::string("postCreateCommand: bash .devcontainer/firewall.sh"), Provenance{}));
  m.workloads.push_back(relative);
  Workload absolute = relative;
  absolute.working_dir.reset();
  absolute.setup_commands[0].value =
      "postStartCommand: sudo /workspaces/agent-dev/.devcontainer/firewall.sh";
  m.workloads.push_back(absolute);
  link(m);
  REQUIRE(m.workloads[0].network.egress.size() == 1);
  CHECK(m.workloads[0].network.egress[0].hook == GateHook::NetnsOutput);
  CHECK(m.workloads[1].network.egress.empty());  // initializeCommand runs on the host
  CHECK(m.workloads[2].network.egress.empty());  // nothing runs the script
  CHECK(m.workloads[3].network.egress.size() == 1);
  CHECK(m.workloads[4].network.egress.size() == 1);
}

TEST_CASE("network none and internal networks are gates", "[gates]") {
  Model m = model_with_files();
  EgressGate internal = gate(GateKind::InternalNetwork, GateHook::None, 0, 3);
  internal.name = "sandbox-net";
  add_script(m, 0, {internal});
  m.workloads.push_back(launched(0, Engine::Podman, NetMode::None));
  m.workloads.push_back(launched(0, Engine::Podman, NetMode::Named, "sandbox-net"));
  m.workloads.push_back(launched(0, Engine::Podman, NetMode::Named, "other-net"));
  link(m);
  REQUIRE(kinds(m.workloads[0]) == std::vector<GateKind>{GateKind::NetworkNone});
  CHECK(m.workloads[0].network.egress[0].from.at.column == 15);
  CHECK(kinds(m.workloads[1]) == std::vector<GateKind>{GateKind::InternalNetwork});
  CHECK(m.workloads[2].network.egress.empty());
}

TEST_CASE("a squid proxy is a gate only with a proxy variable and direct egress blocked",
          "[gates]") {
  Model m = model_with_files();
  add_script(m, 3, {gate(GateKind::Squid, GateHook::None, 3, 14)});
  add_script(m, 0, {gate(GateKind::Nft, GateHook::Forward, 0, 5)});
  EnvVar proxy;
  proxy.name = "HTTPS_PROXY";
  proxy.value = "http://proxy:3128";
  Workload blocked = launched(0, Engine::Docker, std::nullopt);
  blocked.env.push_back(proxy);
  m.workloads.push_back(blocked);
  Workload open = launched(1, Engine::Docker, std::nullopt);
  open.env.push_back(proxy);
  m.workloads.push_back(open);
  m.workloads.push_back(launched(0, Engine::Docker, std::nullopt));  // no proxy variable
  link(m);
  CHECK(kinds(m.workloads[0]) == std::vector<GateKind>{GateKind::Nft, GateKind::Squid});
  CHECK(m.workloads[1].network.egress.empty());
  CHECK(kinds(m.workloads[2]) == std::vector<GateKind>{GateKind::Nft});
}

TEST_CASE("the image's COPY decides which script an entrypoint is, not its base name", "[gates]") {
  Model m = model_with_files();
  const FileId legacy = m.files.add("legacy/init-firewall.sh");
  add_script(m, 2, {gate(GateKind::Nft, GateHook::Output, 2, 7)});
  add_script(m, legacy, {gate(GateKind::Nft, GateHook::Output, legacy, 3)});
  Workload w = launched(0, Engine::Podman, std::nullopt);
  w.command.push_back(fact(std::string("/usr/local/bin/init-firewall.sh"), Provenance{}));
  w.image_files.push_back({"/usr/local/bin/init-firewall.sh", "image/init-firewall.sh", {}});
  m.workloads.push_back(w);
  // An image that keeps its ENTRYPOINT: the start script is the entrypoint.
  Workload kept = launched(0, Engine::Podman, std::nullopt);
  kept.start_scripts.push_back({"/usr/local/bin/init-firewall.sh", "legacy/init-firewall.sh", {}});
  m.workloads.push_back(kept);
  // Nothing known about the image: the base name links nothing, and the path is kept as
  // unresolved (SB0052 tells the reader).
  Workload unknown = launched(0, Engine::Podman, std::nullopt);
  unknown.command.push_back(fact(std::string("/usr/local/bin/init-firewall.sh"), Provenance{}));
  m.workloads.push_back(unknown);
  link_gates(m);
  std::map<std::size_t, std::set<std::string>> linked;
  for (const GateLink& l : m.gate_links) {
    linked[l.workload].insert(m.files.path(m.scripts[l.script].file));
  }
  CHECK(linked[0] == std::set<std::string>{"image/init-firewall.sh"});
  CHECK(linked[1] == std::set<std::string>{"legacy/init-firewall.sh"});
  CHECK(linked[2].empty());
  REQUIRE(m.workloads[2].unresolved_runs.size() == 1);
  CHECK(m.workloads[2].unresolved_runs[0].path == "/usr/local/bin/init-firewall.sh");
  CHECK(m.workloads[2].unresolved_runs[0].runner == "the container's command");
  CHECK(m.workloads[0].unresolved_runs.empty());
}

TEST_CASE("a bind mount's source decides which repository file a container runs", "[gates]") {
  Model m = model_with_files();
  const FileId fw = m.files.add("scripts/gate/fw.sh");
  const FileId other_fw = m.files.add("other/gate/fw.sh");
  add_script(m, fw, {gate(GateKind::Nft, GateHook::Output, fw, 3)});
  add_script(m, other_fw, {gate(GateKind::Nft, GateHook::Output, other_fw, 3)});
  auto bind = [](std::string source, std::string target, Frontend fe, FileId file) {
    Mount mt;
    mt.kind = MountKind::HostPath;
    mt.source = std::move(source);
    mt.target = std::move(target);
    mt.source_from = Provenance{Location{file, 4, 9}, fe, {}};
    return mt;
  };
  // `podman run -v ./gate:/opt/gate IMG /opt/gate/fw.sh` in scripts/run.sh: the working
  // directory is the repository's top, or the script's own directory.
  const FileId launcher = m.files.add("scripts/run.sh");
  Workload w = launched(launcher, Engine::Podman, std::nullopt);
  w.mounts.push_back(bind("./gate", "/opt/gate", Frontend::Bash, launcher));
  w.command.push_back(fact(std::string("/opt/gate/fw.sh"), Provenance{}));
  m.workloads.push_back(w);
  // A compose `command: sh -c "..."` over a bind resolved against the compose file.
  const FileId compose = m.files.add("other/compose.yaml");
  Workload c = launched(compose, Engine::Compose, std::nullopt);
  c.mounts.push_back(bind("./other/gate", "/srv/gate", Frontend::Compose, compose));
  for (const char* word : {"/bin/sh", "-c", "sudo -n /srv/gate/fw.sh && exec agent"}) {
    c.command.push_back(fact(std::string(word), Provenance{}));
  }
  m.workloads.push_back(c);
  // A named volume over the path: its content is not the repository's.
  Workload v = w;
  v.mounts.push_back(Mount{});
  v.mounts.back().kind = MountKind::NamedVolume;
  v.mounts.back().source = "gates";
  v.mounts.back().target = "/opt/gate";
  m.workloads.push_back(v);
  link_gates(m);
  std::map<std::size_t, std::set<std::string>> linked;
  for (const GateLink& l : m.gate_links) {
    linked[l.workload].insert(m.files.path(m.scripts[l.script].file));
  }
  CHECK(linked[0] == std::set<std::string>{"scripts/gate/fw.sh"});
  CHECK(linked[1] == std::set<std::string>{"other/gate/fw.sh"});
  CHECK(linked[2].empty());
  CHECK(m.workloads[2].unresolved_runs.size() == 1);
}

}  // namespace gates_link_test
