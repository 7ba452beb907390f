// podman/docker argv -> Workload, on hand-built invocations (what the bash renderer produces).
#include <catch2/catch.hpp>

#include "analyzer/frontends/launch/launch.h"
#include "analyzer/frontends/launch/specs.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace launch_run_test {

using namespace sbr;

namespace {

// Each word sits on line 1 at a column equal to 10 * its index + 1, so tests can tell which
// word a fact came from.
Invocation inv_of(std::vector<std::string> args, std::string condition = "") {
  Invocation inv;
  for (std::size_t i = 0; i < args.size(); ++i) {
    Word w;
    w.text = args[i];
    w.from.at = Location{0, 1, static_cast<std::uint32_t>(10 * i + 1)};
    w.from.frontend = Frontend::Bash;
    w.from.edit_condition().text = condition;
    inv.argv.push_back(std::move(w));
  }
  inv.from = inv.argv.empty() ? Provenance{} : inv.argv[0].from;
  inv.sequence = 1;
  return inv;
}

std::uint32_t col(std::size_t index) {
  return static_cast<std::uint32_t>(10 * index + 1);
}

Workload run_one(std::vector<std::string> args, LaunchContext ctx = {}) {
  FilePart out;
  REQUIRE(workloads_from_invocation(inv_of(std::move(args)), ctx, out));
  REQUIRE(out.workloads.size() == 1);
  return out.workloads[0];
}

}  // namespace

TEST_CASE("engines and subcommands are recognised, other commands are not", "[launch]") {
  FilePart out;
  LaunchContext ctx;
  CHECK(workloads_from_invocation(inv_of({"podman", "run", "img"}), ctx, out));
  CHECK(workloads_from_invocation(inv_of({"/usr/bin/docker", "create", "img"}), ctx, out));
  CHECK(workloads_from_invocation(inv_of({"podman", "container", "run", "img"}), ctx, out));
  CHECK(workloads_from_invocation(inv_of({"docker", "container", "create", "img"}), ctx, out));
  CHECK(workloads_from_invocation(inv_of({"nerdctl", "run", "img"}), ctx, out));
  CHECK(workloads_from_invocation(inv_of({"podman", "--log-level", "debug", "run", "img"}), ctx,
                                  out));
  REQUIRE(out.workloads.size() == 6);
  CHECK(out.workloads[0].engine == Engine::Podman);
  CHECK(out.workloads[1].engine == Engine::Docker);
  CHECK(out.workloads[4].engine == Engine::Docker);  // nerdctl: docker-like defaults
  CHECK(out.workloads[5].image == "img");
  CHECK_FALSE(workloads_from_invocation(inv_of({"podman", "ps"}), ctx, out));
  CHECK_FALSE(workloads_from_invocation(inv_of({"docker", "pull", "img"}), ctx, out));
  CHECK_FALSE(workloads_from_invocation(inv_of({"nft", "-f", "x"}), ctx, out));
  CHECK_FALSE(workloads_from_invocation(inv_of({"echo", "run"}), ctx, out));
  CHECK(out.workloads.size() == 6);
}

TEST_CASE("an unresolved \"$ENGINE\" run is judged as docker unless configured", "[launch]") {
  Invocation inv = inv_of({"", "run", "img"});
  inv.argv[0].symbolic = true;
  inv.argv[0].origin = "env ENGINE";
  FilePart out;
  LaunchContext ctx;
  REQUIRE(workloads_from_invocation(inv, ctx, out));
  CHECK(out.workloads[0].engine == Engine::Docker);
  CHECK(out.workloads[0].engine_unresolved);
  ctx.configured_engine = Engine::Podman;
  REQUIRE(workloads_from_invocation(inv, ctx, out));
  CHECK(out.workloads[1].engine == Engine::Podman);
  CHECK_FALSE(out.workloads[1].engine_unresolved);
  // A symbolic command followed by something that is not run-like is not an engine.
  Invocation other = inv_of({"", "--version"});
  other.argv[0].symbolic = true;
  CHECK_FALSE(workloads_from_invocation(other, ctx, out));
}

TEST_CASE("options in --opt=v, --opt v and short forms, combined short flags", "[launch]") {
  Workload w =
      run_one({"podman", "run", "-it", "--rm", "-dit", "-p8080:80", "-e", "A=1", "--memory=512m",
               "--cap-drop", "ALL", "-itp", "9000:9000", "img", "sh", "-c", "echo hi"});
  CHECK(w.image == "img");
  REQUIRE(w.command.size() == 3);
  CHECK(w.command[0].value == "sh");
  CHECK(w.command[2].value == "echo hi");
  REQUIRE(w.network.ports.size() == 2);
  CHECK(w.network.ports[0].host_port == "8080");
  CHECK(w.network.ports[0].from.at.column == col(5));
  CHECK(w.network.ports[1].spec == "9000:9000");
  CHECK(w.network.ports[1].from.at.column == col(12));  // the value's own word
  REQUIRE(w.env.size() == 1);
  CHECK(w.env[0].from.at.column == col(7));
  REQUIRE(w.resources.memory_limit);
  CHECK(w.resources.memory_limit->value == "512m");
  CHECK(w.resources.memory_limit->from.at.column == col(8));
  REQUIRE(w.identity.cap_drop.size() == 1);
  CHECK(w.identity.cap_drop[0].value == Capability::All);
  CHECK(w.identity.cap_drop[0].from.at.column == col(10));
  REQUIRE(w.lifecycle.remove_on_exit);
  CHECK(w.lifecycle.remove_on_exit->value);
  CHECK(w.unknown_options.empty());
}

TEST_CASE("every publish form", "[launch]") {
  using launch::parse_publish;
  auto p = parse_publish("8080");
  REQUIRE(p);
  CHECK(p->container_port == "8080");
  CHECK(p->host_port.empty());
  CHECK(p->host_ip.empty());
  p = parse_publish("8000-8010:8000-8010/udp");
  REQUIRE(p);
  CHECK(p->host_port == "8000-8010");
  CHECK(p->protocol == "udp");
  p = parse_publish("127.0.0.1:8080:80");
  REQUIRE(p);
  CHECK(p->host_ip == "127.0.0.1");
  CHECK(p->container_port == "80");
  p = parse_publish("0.0.0.0::80/tcp");
  REQUIRE(p);
  CHECK(p->host_ip == "0.0.0.0");
  CHECK(p->host_port.empty());
  CHECK(p->protocol == "tcp");
  p = parse_publish("[::1]:8080:80");
  REQUIRE(p);
  CHECK(p->host_ip == "[::1]");
  CHECK(p->host_port == "8080");
  CHECK(launch::is_loopback_address(p->host_ip));
  p = parse_publish("::1:8080:80");  // compose's unbracketed IPv6
  REQUIRE(p);
  CHECK(p->host_ip == "::1");
  CHECK_FALSE(parse_publish("[::1:80"));
  CHECK_FALSE(parse_publish("web:http"));

  Workload w = run_one({"podman", "run", "-P", "img"});
  REQUIRE(w.network.ports.size() == 1);
  CHECK(w.network.ports[0].publish_all);
  CHECK(w.network.ports[0].from.at.column == col(2));
}

TEST_CASE("environment: values on argv, copies, files, the host's environment", "[launch]") {
  Invocation inv = inv_of({"docker", "run", "-e", "API_TOKEN=abc", "--env", "X", "--env=B=2", "-e",
                           "KEY=", "--env-file", "/tmp/e", "--env-host", "img"});
  inv.argv[8].symbolic = true;  // KEY=$KEY with $KEY unresolved
  FilePart out;
  REQUIRE(workloads_from_invocation(inv, {}, out));
  const Workload& w = out.workloads[0];
  REQUIRE(w.env.size() == 4);
  CHECK(w.env[0].name == "API_TOKEN");
  CHECK(w.env[0].source == EnvSource::Literal);
  CHECK(w.env[0].on_argv);
  CHECK(w.env[1].name == "X");
  CHECK(w.env[1].source == EnvSource::HostCopy);
  CHECK_FALSE(w.env[1].on_argv);
  CHECK(w.env[2].name == "B");
  CHECK(w.env[2].value == "2");
  CHECK(w.env[3].source == EnvSource::Symbolic);
  CHECK(w.env[3].on_argv);
  REQUIRE(w.env_bulk.size() == 2);
  CHECK(w.env_bulk[0].kind == EnvBulkKind::EnvFile);
  CHECK(w.env_bulk[0].name == "/tmp/e");
  CHECK(w.env_bulk[1].kind == EnvBulkKind::HostEnvironment);
}

TEST_CASE("security options", "[launch]") {
  Workload w = run_one({"podman",
                        "run",
                        "--security-opt",
                        "no-new-privileges",
                        "--security-opt=seccomp=./prof.json",
                        "--security-opt",
                        "apparmor=unconfined",
                        "--security-opt",
                        "label=type:spc_t",
                        "--security-opt",
                        "unmask=/proc/kcore:/proc/keys",
                        "--security-opt",
                        "systempaths=unconfined",
                        "--privileged",
                        "--user",
                        "1000:1001",
                        "--read-only",
                        "--userns",
                        "keep-id",
                        "--cap-add=NET_ADMIN,SYS_PTRACE",
                        "img"});
  REQUIRE(w.identity.allow_privilege_escalation);
  CHECK_FALSE(w.identity.allow_privilege_escalation->value);
  REQUIRE(w.identity.seccomp);
  CHECK(w.identity.seccomp->value.kind == SeccompKind::CustomFile);
  CHECK(w.identity.seccomp->value.profile == "./prof.json");
  CHECK(w.identity.apparmor->value == "Unconfined");
  CHECK(w.identity.selinux_type->value == "spc_t");
  CHECK(w.identity.unmasked_paths.size() == 2);
  CHECK(w.identity.systempaths_unconfined->value);
  CHECK(w.identity.privileged->value);
  CHECK(w.identity.run_as_user->value == 1000);
  CHECK(w.identity.run_as_group->value == 1001);
  CHECK(w.identity.read_only_root->value);
  CHECK(w.identity.userns->value == "keep-id");
  REQUIRE(w.identity.cap_add.size() == 2);
  CHECK(w.identity.cap_add[1].value == Capability::SysPtrace);

  Workload v =
      run_one({"docker", "run", "--security-opt", "no-new-privileges:true", "--security-opt",
               "seccomp=unconfined", "--security-opt", "label=disable", "-u", "agent", "img"});
  CHECK_FALSE(v.identity.allow_privilege_escalation->value);
  CHECK(v.identity.seccomp->value.kind == SeccompKind::Unconfined);
  CHECK(v.identity.selinux_disabled->value);
  CHECK(v.identity.user_name->value == "agent");
  CHECK_FALSE(v.identity.run_as_user);
  Workload r = run_one({"docker", "run", "--user=root", "--privileged=false", "img"});
  CHECK(r.identity.run_as_user->value == 0);
  CHECK_FALSE(r.identity.privileged->value);
}

TEST_CASE("volumes, mounts and tmpfs with every option", "[launch]") {
  Workload w = run_one({"podman", "run", "-v", "/srv/work:/work:rw,Z,U", "-v", "cache:/cache", "-v",
                        "$HOME/.ssh:/root/.ssh:ro,rshared", "--volume=/anon", "--mount",
                        "type=bind,src=/etc,dst=/host-etc,readonly,bind-propagation=rslave",
                        "--mount=type=tmpfs,dst=/scratch,tmpfs-size=64m", "--tmpfs",
                        "/tmp:rw,size=128m", "-v", "./skills:/skills:O,z", "img"});
  REQUIRE(w.mounts.size() == 8);
  const Mount& a = w.mounts[0];
  CHECK(a.kind == MountKind::HostPath);
  CHECK(a.source == "/srv/work");
  CHECK_FALSE(a.read_only->value);
  CHECK(a.relabel_private);
  CHECK(a.chown);
  CHECK(a.source_from.at.column == col(3));
  CHECK(w.mounts[1].kind == MountKind::NamedVolume);
  CHECK(w.mounts[2].kind == MountKind::HostPath);
  CHECK(w.mounts[2].read_only->value);
  CHECK(w.mounts[2].propagation->value == Propagation::Bidirectional);
  CHECK(w.mounts[3].kind == MountKind::NamedVolume);
  CHECK(w.mounts[3].target == "/anon");
  CHECK(w.mounts[4].kind == MountKind::HostPath);
  CHECK(w.mounts[4].target == "/host-etc");
  CHECK(w.mounts[4].read_only->value);
  CHECK(w.mounts[4].propagation->value == Propagation::HostToContainer);
  CHECK(w.mounts[5].kind == MountKind::Tmpfs);
  CHECK(w.mounts[5].size_limit->value == "64m");
  CHECK(w.mounts[6].kind == MountKind::Tmpfs);
  CHECK(w.mounts[6].size_limit->value == "128m");
  CHECK(w.mounts[6].target == "/tmp");
  CHECK(w.mounts[7].overlay);
  CHECK(w.mounts[7].relabel_shared);
  CHECK_FALSE(w.mounts[7].read_only);
}

TEST_CASE("network modes and host-loopback facts", "[launch]") {
  CHECK(run_one({"podman", "run", "--network", "none", "img"}).network.mode->value ==
        NetMode::None);
  Workload h = run_one({"docker", "run", "--net=host", "img"});
  CHECK(h.network.mode->value == NetMode::Host);
  CHECK(h.network.host_network->value);
  Workload c = run_one({"podman", "run", "--network", "container:proxy", "img"});
  CHECK(c.network.mode->value == NetMode::Container);
  CHECK(c.network.mode_arg == "proxy");
  REQUIRE(c.siblings.size() == 1);
  CHECK(c.siblings[0].name == "proxy");
  CHECK(c.siblings[0].shares_network);
  Workload n = run_one({"podman", "run", "--network", "agentnet", "img"});
  CHECK(n.network.mode->value == NetMode::Named);
  CHECK(n.network.mode_arg == "agentnet");
  CHECK(run_one({"podman", "run", "--network", "ns:/run/netns/x", "img"}).network.mode->value ==
        NetMode::Namespace);
  Workload s =
      run_one({"podman", "run", "--network", "slirp4netns:allow_host_loopback=true", "img"});
  CHECK(s.network.mode->value == NetMode::Slirp4netns);
  REQUIRE(s.network.host_loopback.size() == 1);
  CHECK(s.network.host_loopback[0].from.at.column == col(3));
  CHECK(
      run_one({"podman", "run", "--network", "slirp4netns", "img"}).network.host_loopback.empty());
  CHECK(run_one({"podman", "run", "--network", "pasta", "img"}).network.host_loopback.empty());
  CHECK(run_one({"podman", "run", "--network", "pasta:--map-gw", "img"})
            .network.host_loopback.size() == 1);
  Workload g = run_one({"docker", "run", "--add-host", "host.docker.internal:host-gateway",
                        "--add-host=db:10.0.0.5", "img"});
  CHECK(g.network.host_loopback.size() == 1);
  Workload ns =
      run_one({"podman", "run", "--pid=host", "--ipc", "host", "--uts", "private", "img"});
  CHECK(ns.network.host_pid->value);
  CHECK(ns.network.host_ipc->value);
  CHECK_FALSE(ns.network.host_uts->value);
}

TEST_CASE("resources, lifecycle, runtime, identity of the launch", "[launch]") {
  Invocation inv =
      inv_of({"podman",   "run",       "--memory-swap", "-1",        "--cpus=2", "--pids-limit",
              "256",      "--timeout", "3600",          "--restart", "no",       "--runtime",
              "runsc",    "--device",  "/dev/fuse",     "--gpus",    "all",      "--storage-opt",
              "size=10G", "--init",    "--name",        "agent",     "img"},
             "when MODE=full");
  inv.via_sudo = true;
  inv.sequence = 3;
  FilePart out;
  REQUIRE(workloads_from_invocation(inv, {}, out));
  const Workload& w = out.workloads[0];
  CHECK(w.resources.memory_swap->value == "-1");
  CHECK(w.resources.cpu_limit->value == "2");
  CHECK(w.resources.pids_limit->value == 256);
  CHECK(w.lifecycle.timeout->value == 3600);
  CHECK(w.lifecycle.restart->value == "no");
  CHECK(w.runtime_class->value == "runsc");
  CHECK(w.resources.devices.size() == 1);
  CHECK(w.resources.gpus[0].value == "all");
  CHECK(w.resources.ephemeral_limit->value == "10G");
  CHECK(w.init->value);
  CHECK(w.id.kind == "launcher");
  CHECK(w.id.container == "agent");
  CHECK(w.rootful->value);
  CHECK(w.lifecycle.controller == Controller::Launcher);
  // Every fact keeps the condition of the path it is on.
  CHECK(w.resources.pids_limit->from.condition().text == "when MODE=full");
  CHECK(w.object_from.at.column == 1);

  Workload unnamed = run_one({"podman", "run", "img"});
  CHECK(unnamed.id.container == "line 1");
}

TEST_CASE("unknown options are kept and never swallow the image silently", "[launch]") {
  Workload w = run_one({"podman", "run", "--frobnicate=3", "--cap-drop=ALL", "img", "arg"});
  CHECK(w.image == "img");
  REQUIRE(w.unknown_options.size() == 1);
  CHECK(w.unknown_options[0].value == "--frobnicate=3");

  Workload u = run_one({"podman", "run", "--frobnicate", "value", "img"});
  // Assumed a flag: "value" is taken as the image, and the model says it may be wrong.
  CHECK(u.image == "value");
  REQUIRE(u.unknown_options.size() == 2);
  CHECK(u.unknown_options[1].value.find("may take it as a value") != std::string::npos);

  // Known valued options take their value even when it looks like an image.
  Workload k = run_one({"docker", "run", "--hostname", "box", "--ulimit", "nofile=1024", "img"});
  CHECK(k.image == "img");
  CHECK(k.unknown_options.empty());
}

TEST_CASE("pod create options are inherited by containers joining the pod", "[launch]") {
  LaunchState state;
  LaunchContext ctx;
  ctx.state = &state;
  FilePart out;
  CHECK(
      workloads_from_invocation(inv_of({"podman", "pod", "create", "--name", "sbx", "-p", "8080:80",
                                        "--network", "slirp4netns:allow_host_loopback=true"}),
                                ctx, out));
  CHECK(out.workloads.empty());
  REQUIRE(state.pods.count("sbx") == 1);
  REQUIRE(workloads_from_invocation(inv_of({"podman", "run", "--pod", "sbx", "--read-only", "img"}),
                                    ctx, out));
  REQUIRE(out.workloads.size() == 1);
  const Workload& w = out.workloads[0];
  REQUIRE(w.network.ports.size() == 1);
  CHECK(w.network.ports[0].spec == "8080:80");
  CHECK(w.network.mode->value == NetMode::Slirp4netns);
  CHECK(w.network.host_loopback.size() == 1);
  CHECK(w.identity.read_only_root->value);
  REQUIRE(w.siblings.size() == 1);
  CHECK(w.siblings[0].name == "pod sbx");
  // Positional pod names (podman 4+).
  CHECK(workloads_from_invocation(inv_of({"podman", "pod", "create", "other"}), ctx, out));
  CHECK(state.pods.count("other") == 1);
  // Without an explicit state, one context carries the script's pods.
  LaunchContext plain;
  CHECK(workloads_from_invocation(inv_of({"podman", "pod", "create", "--network", "host", "p2"}),
                                  plain, out));
  REQUIRE(workloads_from_invocation(inv_of({"podman", "run", "--pod=p2", "img"}), plain, out));
  CHECK(out.workloads.back().network.host_network->value);
}

TEST_CASE("kube play hands the file to the Kubernetes frontend, or says it could not", "[launch]") {
  SourceSet sources;
  SourceFile launcher;
  launcher.id = 0;
  launcher.path = "scripts/run.sh";
  launcher.readable = true;
  SourceFile pod;
  pod.id = 1;
  pod.path = "deploy/pod.yaml";
  pod.type = FileType::Yaml;
  pod.readable = true;
  pod.bytes =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    "
      "image: x\n";
  sources.files = {launcher, pod};
  LaunchContext ctx;
  ctx.sources = &sources;
  ctx.script = 0;
  FilePart out;
  REQUIRE(workloads_from_invocation(inv_of({"podman", "kube", "play", "../deploy/pod.yaml"}), ctx,
                                    out));
  CHECK(out.problems.empty());
  REQUIRE(out.workloads.size() == 1);
  CHECK(out.workloads[0].engine == Engine::PodmanKubePlay);
  CHECK(out.workloads[0].id.container == "a");
  REQUIRE(workloads_from_invocation(inv_of({"podman", "kube", "play", "--replace", "missing.yaml"}),
                                    ctx, out));
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].kind == ProblemKind::RenderFailed);
  CHECK(out.problems[0].at.column == col(4));
}

TEST_CASE("a kube-played manifest is judged as podman runs it, not twice", "[launch]") {
  Model m;
  Workload k;
  k.engine = Engine::Kubelet;
  k.id = {"Pod", "", "", "p", "a", "deploy/pod.yaml"};
  k.object_from.at = Location{1, 2, 1};
  Workload played = k;
  played.engine = Engine::PodmanKubePlay;
  Workload other = k;
  other.id.name = "q";
  m.workloads = {k, played, other};
  link_launches(m);
  REQUIRE(m.workloads.size() == 2);
  CHECK(m.workloads[0].engine == Engine::PodmanKubePlay);
  CHECK(m.workloads[1].id.name == "q");
}

TEST_CASE("a --network host on one branch is not hidden by another branch's mode", "[launch]") {
  Invocation inv =
      inv_of({"podman", "run", "--network", "host", "--network", "slirp4netns", "img"});
  inv.argv[3].from.set_condition({"when NET=full", true});
  inv.argv[5].from.set_condition({"when NET!=full", false});
  FilePart out;
  REQUIRE(workloads_from_invocation(inv, {}, out));
  const Workload& w = out.workloads[0];
  // The default path's mode is the mode; the switched path's host mode stays visible.
  CHECK(w.network.mode->value == NetMode::Slirp4netns);
  REQUIRE(w.network.mode_alternatives.size() == 1);
  CHECK(w.network.mode_alternatives[0].value == NetMode::Host);
  CHECK(w.network.host_network->value);
  CHECK(w.network.host_network->from.condition().text == "when NET=full");
  // Reversed order: same outcome.
  Invocation rev = inv_of({"podman", "run", "--network", "none", "--network", "host", "img"});
  rev.argv[3].from.set_condition({"when NET!=full", false});
  rev.argv[5].from.set_condition({"when NET=full", true});
  FilePart out2;
  REQUIRE(workloads_from_invocation(rev, {}, out2));
  CHECK(out2.workloads[0].network.mode->value == NetMode::None);
  CHECK(out2.workloads[0].network.host_network->value);
  // An unconditional flag after a conditional one wins on every path.
  Invocation later = inv_of({"podman", "run", "--network", "host", "--network", "none", "img"});
  later.argv[3].from.set_condition({"when NET=full", false});
  FilePart out3;
  REQUIRE(workloads_from_invocation(later, {}, out3));
  CHECK(out3.workloads[0].network.mode->value == NetMode::None);
  CHECK_FALSE(out3.workloads[0].network.host_network->value);
  // On one path, the last flag wins as it does for the engine.
  Workload same = run_one({"podman", "run", "--network", "host", "--network", "none", "img"});
  CHECK(same.network.mode->value == NetMode::None);
}

TEST_CASE("an image built earlier in the script brings its Dockerfile's USER", "[launch]") {
  SourceSet sources;
  SourceFile launcher;
  launcher.id = 0;
  launcher.path = "bin/run.sh";
  launcher.readable = true;
  SourceFile df;
  df.id = 1;
  df.path = "image/Containerfile";
  df.type = FileType::Dockerfile;
  df.readable = true;
  df.bytes = "FROM debian:12\nUSER 1000:1000\n";
  sources.files = {launcher, df};
  LaunchContext ctx;
  ctx.sources = &sources;
  ctx.script = 0;
  FilePart out;
  CHECK_FALSE(workloads_from_invocation(
      inv_of({"podman", "build", "--build-arg", "X=1", "-t", "agent:dev", "../image"}), ctx, out));
  REQUIRE(workloads_from_invocation(inv_of({"podman", "run", "agent:dev"}), ctx, out));
  const Workload& w = out.workloads.back();
  CHECK(w.dockerfile == "image/Containerfile");
  REQUIRE(w.identity.run_as_user);
  CHECK(w.identity.run_as_user->value == 1000);
  CHECK(w.identity.run_as_user->from.at.file == 1);
  // --user on the command line wins over the image's USER.
  REQUIRE(workloads_from_invocation(inv_of({"podman", "run", "--user", "2000", "agent:dev"}), ctx,
                                    out));
  CHECK(out.workloads.back().identity.run_as_user->value == 2000);
}

TEST_CASE("truncated and odd argument lists are kept, not lost", "[launch]") {
  Workload a = run_one({"podman", "run", "--rm", "-p"});
  CHECK_FALSE(a.image.size());
  REQUIRE(a.unknown_options.size() == 1);  // -p without its value
  CHECK(a.unknown_options[0].value == "-p");
  Workload b = run_one({"docker", "run", "--", "--not-an-option", "x"});
  CHECK(b.image == "--not-an-option");
  Workload c = run_one({"podman", "run", "--=x", "-Z", "img"});
  CHECK(c.image == "img");
  CHECK(c.unknown_options.size() == 2);
  FilePart out;
  CHECK_FALSE(workloads_from_invocation(inv_of({"podman"}), {}, out));
  CHECK_FALSE(workloads_from_invocation(Invocation{}, {}, out));
}

TEST_CASE("an open word where an option goes is reported, never taken for the image", "[launch]") {
  Invocation inv = inv_of({"podman", "run", "--rm", "", "ghcr.io/acme/agent:1", "bash"});
  inv.argv[3].symbolic = true;
  inv.argv[3].origin = "env AGENT_MOUNTS";
  FilePart out;
  LaunchContext ctx;
  REQUIRE(workloads_from_invocation(inv, ctx, out));
  REQUIRE(out.workloads.size() == 1);
  CHECK(out.workloads[0].image == "ghcr.io/acme/agent:1");
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].kind == ProblemKind::ArgvPartlyUnknown);
  CHECK(out.problems[0].at.column == col(3));
  CHECK(out.problems[0].message.find("env AGENT_MOUNTS") != std::string::npos);

  // A flag word the environment chooses, parsed by its default.
  Invocation flag = inv_of({"podman", "run", "--dns=none", "ghcr.io/acme/agent:1"});
  flag.argv[2].symbolic = true;
  flag.argv[2].origin = "env AGENT_DNS, default --dns=none";
  FilePart out2;
  REQUIRE(workloads_from_invocation(flag, ctx, out2));
  REQUIRE(out2.problems.size() == 1);
  CHECK(out2.problems[0].kind == ProblemKind::ArgvPartlyUnknown);

  // Open values as an option's value or as the image are what the other rules judge.
  Invocation valued = inv_of({"podman", "run", "--network", "", "", "bash"});
  valued.argv[3].symbolic = true;
  valued.argv[4].symbolic = true;
  FilePart out3;
  REQUIRE(workloads_from_invocation(valued, ctx, out3));
  CHECK(out3.problems.empty());
}

}  // namespace launch_run_test
