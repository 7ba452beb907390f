#include <catch2/catch.hpp>

#include "analyzer/engine/paths.h"
#include "invariants/modules.h"
#include "tests/inv_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace inv3_test {

using namespace sbr;
using namespace sbr::test;
using engine::HostPathKind;

namespace {
std::vector<Finding> fsys(const Model& m) {
  return run(m, test::filesystem);
}
std::vector<Finding> fsys(const Workload& w) {
  return fsys(model_of({w}));
}
using V = std::vector<std::string>;

std::vector<Finding> one_mount(Workload w, const std::string& src, bool ro) {
  w.mounts.push_back(host_mount(src, "/mnt/x", ro));
  return fsys(w);
}
}  // namespace

TEST_CASE("paths are normalised textually", "[inv3]") {
  CHECK(engine::normalize_path("/var//run/") == "/var/run");
  CHECK(engine::normalize_path("/etc/./ssl/../passwd") == "/etc/passwd");
  CHECK(engine::normalize_path("/../../etc") == "/etc");
  CHECK(engine::normalize_path("$HOME/.ssh/") == "~/.ssh");
  CHECK(engine::normalize_path("${HOME}") == "~");
  CHECK(engine::normalize_path("${localEnv:HOME}/.aws") == "~/.aws");
  CHECK(engine::normalize_path("$XDG_CONFIG_HOME/gh") == "~/.config/gh");
  CHECK(engine::normalize_path("~/..") == "/home");
  CHECK(engine::normalize_path("$PWD/src/../build") == "build");
  CHECK(engine::normalize_path("$(pwd)") == ".");
  CHECK(engine::normalize_path("./a/../../b") == "../b");
  CHECK(engine::normalize_path("C:\\Users\\dev\\.ssh") == "/Users/dev/.ssh");
  CHECK(engine::normalize_path("/") == "/");
}

TEST_CASE("host paths are classified by the most specific entry", "[inv3]") {
  auto kind = [](const char* p) { return engine::classify_host_path(p).kind; };
  CHECK(kind("/root") == HostPathKind::Home);
  CHECK(kind("/home") == HostPathKind::Home);
  CHECK(kind("/home/alice/") == HostPathKind::Home);
  CHECK(kind("~") == HostPathKind::Home);
  CHECK(kind("/root/.ssh") == HostPathKind::CredentialStore);
  CHECK(kind("/home/alice/.ssh/id_ed25519") == HostPathKind::CredentialStore);
  CHECK(kind("~bob/.kube/config") == HostPathKind::CredentialStore);
  CHECK(kind("$HOME/.config") == HostPathKind::CredentialStore);  // holds gcloud, gh
  CHECK(kind("~/.claude") == HostPathKind::InstructionDir);
  CHECK(kind("~/.claude/.credentials.json") == HostPathKind::CredentialStore);
  // Run by the host with no prompt: git's hooks and config, shell start-up, tmux's socket.
  CHECK(kind("/home/alice/.gitconfig") == HostPathKind::AutoRun);
  CHECK(kind("/srv/repo/.git/hooks") == HostPathKind::AutoRun);
  CHECK(kind("./.git/config") == HostPathKind::AutoRun);
  CHECK(kind("$HOME/.bashrc") == HostPathKind::AutoRun);
  CHECK(kind("/tmp/tmux-1000") == HostPathKind::AutoRun);
  CHECK(kind("/run/user/1000/tmux-1000/default") == HostPathKind::AutoRun);
  CHECK(kind("/var/run/screen") == HostPathKind::AutoRun);
  CHECK(kind("/tmp/tmuxinator") == HostPathKind::None);
  CHECK(kind("~/.local/bin") == HostPathKind::InstructionDir);
  CHECK(kind("/home/alice/src/project") == HostPathKind::None);
  CHECK(kind("/etc") == HostPathKind::SystemPath);
  CHECK(kind("/etc/kubernetes/pki") == HostPathKind::SystemPath);
  CHECK(kind("/var") == HostPathKind::SystemPath);  // holds /var/lib/kubelet
  CHECK(kind("/var/lib/kubelet/pods") == HostPathKind::SystemPath);
  CHECK(kind("/etc/localtime") == HostPathKind::PublicSystemFile);
  CHECK(kind("/etc/ssl/certs") == HostPathKind::PublicSystemFile);
  CHECK(kind("/dev/kvm") == HostPathKind::Device);
  CHECK(kind("/var/run/docker.sock") == HostPathKind::RuntimeSocket);
  CHECK(kind("/run/xtables.lock") == HostPathKind::SystemPath);
  CHECK(kind("/tmp/agent-cache") == HostPathKind::None);
  CHECK(kind("/data/models") == HostPathKind::None);
}

TEST_CASE("a mount source under an unknown directory is classed by its own components", "[inv3]") {
  // YujiSuzuki/ai-sandbox: `-v "${backup_dir}/home:/target"`, backup_dir from `${2/#\~/$HOME}`.
  auto kind = [](const char* p) { return engine::classify_host_path(p, true).kind; };
  CHECK(kind("/home") == HostPathKind::None);
  CHECK(kind("/root") == HostPathKind::None);
  CHECK(kind("/etc") == HostPathKind::None);
  CHECK(kind("/") == HostPathKind::None);
  CHECK(kind("/docker.sock") == HostPathKind::RuntimeSocket);
  CHECK(kind("/repo/.git/hooks") == HostPathKind::AutoRun);
  CHECK(engine::classify_host_path("/home", false).kind == HostPathKind::Home);
}

TEST_CASE("the workspace: declared paths, else the launcher's directory", "[inv3]") {
  CHECK(engine::in_workspace("$PWD", {}));
  CHECK(engine::in_workspace("$(pwd)/src", {}));
  CHECK(engine::in_workspace("./out", {}));
  CHECK_FALSE(engine::in_workspace("..", {}));
  CHECK_FALSE(engine::in_workspace("$CACHE_DIR", {}));
  CHECK_FALSE(engine::in_workspace("/tmp/x", {}));
  CHECK(engine::in_workspace("/srv/work/a", {"/srv/work/"}));
  CHECK_FALSE(engine::in_workspace("/srv/workspace", {"/srv/work"}));
  CHECK_FALSE(engine::in_workspace("$PWD", {"/srv/work"}));
}

TEST_CASE("SB3001 / SB3002 host system paths", "[inv3]") {
  auto fs = one_mount(hardened_pod(), "/etc", false);
  REQUIRE(rules_of(fs) == V{"SB3001"});  // one finding per fact: not SB3008 as well
  CHECK(fs[0].at.line == 40);
  CHECK(fs[0].related.at(0).message == "mounted at /mnt/x");
  CHECK(rules_of(one_mount(hardened_pod(), "/var/lib/kubelet", true)) == V{"SB3002"});
  CHECK(rules_of(one_mount(hardened_launch(), "/proc", true)) == V{"SB3002"});
  // A public file: writable is still a system path, read-only is an ordinary hostPath.
  CHECK(rules_of(one_mount(hardened_pod(), "/etc/localtime", false)) == V{"SB3001"});
  CHECK(rules_of(one_mount(hardened_pod(), "/etc/localtime", true)) == V{"SB3009"});
  CHECK(one_mount(hardened_launch(), "/etc/ssl/certs", true).empty());
}

TEST_CASE("sockets and devices belong to invariant 1 only", "[inv3]") {
  CHECK(one_mount(hardened_pod(), "/var/run/docker.sock", true).empty());
  CHECK(one_mount(hardened_pod(), "/run", false).empty());
  CHECK(one_mount(hardened_launch(), "/dev/fuse", false).empty());
}

TEST_CASE("SB3003 credential stores, read-only or not", "[inv3]") {
  auto fs = one_mount(hardened_launch(), "$HOME/.ssh", true);
  REQUIRE(rules_of(fs) == V{"SB3003"});
  CHECK(fs[0].message.find("credential store ~/.ssh") != std::string::npos);
  CHECK(rules_of(one_mount(hardened_pod(), "/home/dev/.aws", false)) == V{"SB3003"});
  CHECK(rules_of(one_mount(hardened_launch(), "~/.config/gcloud", true)) == V{"SB3003"});
  CHECK(rules_of(one_mount(hardened_launch(), "/root/.docker/config.json", true)) == V{"SB3003"});
}

TEST_CASE("SB3004 / SB3005 home directories", "[inv3]") {
  CHECK(rules_of(one_mount(hardened_launch(), "~", false)) == V{"SB3004"});
  CHECK(rules_of(one_mount(hardened_launch(), "${HOME}", true)) == V{"SB3005"});
  CHECK(rules_of(one_mount(hardened_pod(), "/root", false)) == V{"SB3004"});
  CHECK(rules_of(one_mount(hardened_pod(), "/home", true)) == V{"SB3005"});
}

TEST_CASE("SB3006 instruction directories must be read-only", "[inv3]") {
  CHECK(rules_of(one_mount(hardened_launch(), "$HOME/.claude", false)) == V{"SB3006"});
  CHECK(one_mount(hardened_launch(), "$HOME/.claude", true).empty());
  // Hooks run with no prompt: the critical rule, not this one; read-only, neither.
  CHECK(rules_of(one_mount(hardened_launch(), "$PWD/.git/hooks", false)) == V{"SB3014"});
  CHECK(one_mount(hardened_launch(), "$PWD/.git/hooks", true).empty());
  // On Kubernetes a read-only one is still a hostPath.
  CHECK(rules_of(one_mount(hardened_pod(), "/home/dev/.codex", true)) == V{"SB3009"});
}

TEST_CASE("SB3007 launchers: writable mounts outside the workspace, or a second one", "[inv3]") {
  Workload w = hardened_launch();
  w.mounts.push_back(host_mount("$PWD", "/work", false, 40));
  CHECK(fsys(w).empty());
  w.mounts.push_back(host_mount("/tmp/agent-cache", "/cache", false, 50));
  auto fs = fsys(w);
  REQUIRE(rules_of(fs) == V{"SB3007"});
  CHECK(fs[0].at.line == 50);
  CHECK(fs[0].message.find("outside the workspace (the launcher's directory ($PWD))") !=
        std::string::npos);
  // Read-only outside the workspace is fine; an overlay never writes the host.
  w.mounts.back().read_only = fact(true, at_line(51));
  CHECK(fsys(w).empty());
  w.mounts.back().read_only.reset();
  w.mounts.back().overlay = true;
  CHECK(fsys(w).empty());
  // A second writable mount inside the workspace.
  w.mounts.back() = host_mount("$PWD/.cache", "/cache", false, 50);
  fs = fsys(w);
  REQUIRE(rules_of(fs) == V{"SB3007"});
  CHECK(fs[0].message.find("second writable host path $PWD/.cache") != std::string::npos);
  // A declared workspace replaces the default.
  Workload d = hardened_launch();
  d.mounts.push_back(host_mount("/srv/agent/work", "/work", false));
  Model m = model_of({d});
  CHECK(rules_of(fsys(m)) == V{"SB3007"});
  m.workspace_paths = {"/srv/agent/work"};
  CHECK(fsys(m).empty());
  // Never for Kubernetes hostPath (SB3008 there).
  CHECK(rules_of(one_mount(hardened_pod(), "/tmp/agent-cache", false)) == V{"SB3008"});
}

TEST_CASE("SB3008 / SB3009 Kubernetes hostPath", "[inv3]") {
  auto fs = one_mount(hardened_pod(), "/data/models", false);
  REQUIRE(rules_of(fs) == V{"SB3008"});
  CHECK(fs[0].at.line == 40);
  CHECK(rules_of(one_mount(hardened_pod(), "/data/models", true)) == V{"SB3009"});
  Workload w = hardened_pod();
  Mount e;
  e.kind = MountKind::EmptyDir;
  e.target = "/tmp";
  w.mounts.push_back(e);
  CHECK(fsys(w).empty());
}

TEST_CASE("SB3010 bidirectional propagation", "[inv3]") {
  Workload w = hardened_pod();
  Mount m = host_mount("/data/models", "/models", true);
  m.propagation = fact(Propagation::Bidirectional, at_line(45));
  w.mounts.push_back(m);
  auto fs = fsys(w);
  CHECK(rules_of(fs) == V{"SB3009", "SB3010"});
  CHECK(with_rule(fs, "SB3010")[0].at.line == 45);
  w.mounts[0].propagation = fact(Propagation::HostToContainer, at_line(45));
  CHECK(rules_of(fsys(w)) == V{"SB3009"});
}

TEST_CASE("SB3011 / SB3012 chown and relabel outside the workspace", "[inv3]") {
  Workload w = hardened_launch();
  Mount m = host_mount("/srv/shared", "/shared", true);
  m.chown = true;
  m.relabel_private = true;
  w.mounts.push_back(m);
  auto fs = fsys(w);
  CHECK(rules_of(fs) == V{"SB3011", "SB3012"});
  CHECK(with_rule(fs, "SB3012")[0].message.find("(:Z)") != std::string::npos);
  w.mounts[0].source = "$PWD";
  CHECK(fsys(w).empty());
}

TEST_CASE("SB3013 a read-only mount inside a writable mount of the same host tree", "[inv3]") {
  Workload w = hardened_launch();
  w.mounts.push_back(host_mount("$PWD", "/work", false, 40));
  w.mounts.push_back(host_mount("$PWD/.git/hooks", "/work/.git/hooks", true, 41));
  auto fs = fsys(w);
  REQUIRE(rules_of(fs) == V{"SB3013"});
  CHECK(fs[0].at.line == 41);
  CHECK(fs[0].message.find("create its own .git/hooks") != std::string::npos);
  REQUIRE(fs[0].related.size() >= 2);
  CHECK(fs[0].related.back().at.line == 40);

  // Another host tree at a nested target is not a protection of the parent's files.
  Workload other = hardened_launch();
  other.mounts.push_back(host_mount("$PWD", "/work", false, 40));
  other.mounts.push_back(host_mount("/opt/tools", "/work/tools", true, 41));
  CHECK(fsys(other).empty());
  // A read-only parent protects its child already.
  Workload ro = hardened_launch();
  ro.mounts.push_back(host_mount("$PWD", "/work", true, 40));
  ro.mounts.push_back(host_mount("$PWD/.git", "/work/.git", true, 41));
  CHECK(fsys(ro).empty());
}

}  // namespace inv3_test
