// Compose, devcontainer.json, Dockerfile and seccomp profiles into the model.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "analyzer/frontends/launch/launch.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/report/report.h"
#include "tests/fixture_harness.h"
#include "tests/source_file.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace launch_files_test {

using namespace sbr;
using test::file_of;

TEST_CASE("compose services become workloads with every security field", "[launch]") {
  SourceSet sources;
  sources.files.push_back(file_of(0, "app/compose.yaml", FileType::Compose, R"(services:
  agent:
    build:
      context: ./agent
    privileged: true
    cap_add: [NET_ADMIN]
    cap_drop:
      - ALL
    security_opt:
      - no-new-privileges:true
      - seccomp=./seccomp.json
    read_only: true
    volumes:
      - ./work:/work:rw
      - type: bind
        source: /var/run/docker.sock
        target: /var/run/docker.sock
        read_only: true
      - cache:/cache
    tmpfs:
      - /tmp:size=64m
    environment:
      MODE: review
      API_TOKEN:
    env_file: .env
    network_mode: "service:proxy"
    ports: ["8080:80"]
    pid: host
    devices: ["/dev/fuse"]
    deploy:
      resources:
        limits: {memory: 1g, cpus: "2", pids: 100}
        reservations:
          devices:
            - {driver: nvidia, count: all, capabilities: [gpu]}
    memswap_limit: -1
    runtime: runsc
    restart: unless-stopped
  proxy:
    image: squid:6
    environment: ["A=1", "B"]
    env_file:
      - path: ./proxy.env
    networks: [egress]
    extra_hosts: {"host.docker.internal": "host-gateway"}
)"));
  sources.files.push_back(file_of(1, "app/agent/Dockerfile", FileType::Dockerfile,
                                  "FROM debian:12\nENV PATH=/opt/bin:$PATH\nUSER agent\n"));
  FrontendContext ctx;
  ctx.sources = &sources;
  FilePart out;
  read_compose_file(sources.files[0], ctx, out);
  REQUIRE(out.problems.empty());
  REQUIRE(out.workloads.size() == 2);
  const Workload& a = out.workloads[0];
  CHECK(a.engine == Engine::Compose);
  CHECK(a.id.container == "agent");
  CHECK(a.container_from.at.line == 2);
  CHECK(a.identity.privileged->value);
  CHECK(a.identity.privileged->from.at.line == 5);
  CHECK(a.identity.cap_add[0].value == Capability::NetAdmin);
  CHECK(a.identity.cap_drop[0].value == Capability::All);
  CHECK_FALSE(a.identity.allow_privilege_escalation->value);
  CHECK(a.identity.seccomp->value.profile == "./seccomp.json");
  CHECK(a.identity.read_only_root->value);
  REQUIRE(a.mounts.size() == 4);
  CHECK(a.mounts[0].kind == MountKind::HostPath);
  CHECK(a.mounts[1].source == "/var/run/docker.sock");
  CHECK(a.mounts[1].read_only->value);
  CHECK(a.mounts[1].source_from.at.line == 16);
  CHECK(a.mounts[2].kind == MountKind::NamedVolume);
  CHECK(a.mounts[3].size_limit->value == "64m");
  REQUIRE(a.env.size() == 3);  // MODE, API_TOKEN, and the Dockerfile's PATH
  CHECK(a.env[1].source == EnvSource::HostCopy);
  CHECK(a.env[2].source == EnvSource::Symbolic);  // the Dockerfile's PATH=/opt/bin:$PATH
  CHECK_FALSE(a.env[0].on_argv);
  CHECK(a.env_bulk[0].name == "./app/.env");  // relative to the compose file, as a bind source
  CHECK(a.network.mode->value == NetMode::Container);
  REQUIRE(a.siblings.size() == 1);
  CHECK(a.siblings[0].name == "proxy");
  CHECK(a.network.ports[0].host_port == "8080");
  CHECK(a.network.host_pid->value);
  CHECK(a.resources.devices.size() == 1);
  CHECK(a.resources.memory_limit->value == "1g");
  CHECK(a.resources.cpu_limit->value == "2");
  CHECK(a.resources.pids_limit->value == 100);
  REQUIRE(a.resources.gpus.size() == 1);
  CHECK(a.resources.gpus[0].value == "all");
  CHECK(a.resources.memory_swap->value == "-1");
  CHECK(a.runtime_class->value == "runsc");
  CHECK(a.lifecycle.restart->value == "unless-stopped");
  // build: attaches the Dockerfile; its final USER stands in for the missing `user:`.
  CHECK(a.dockerfile == "app/agent/Dockerfile");
  REQUIRE(a.identity.user_name);
  CHECK(a.identity.user_name->value == "agent");
  CHECK(a.identity.user_name->from.at.file == 1);
  CHECK(a.identity.user_name->from.at.line == 3);

  const Workload& p = out.workloads[1];
  CHECK(p.env.size() == 2);
  CHECK(p.env[1].source == EnvSource::HostCopy);
  REQUIRE(p.env.size() == 2);
  CHECK(p.env_bulk[0].name == "./app/proxy.env");
  CHECK(p.network.mode->value == NetMode::Named);
  CHECK(p.network.mode_arg == "egress");
  CHECK(p.network.host_loopback.size() == 1);
}

TEST_CASE("a broken compose file is a problem, not a silent skip", "[launch]") {
  SourceFile f = file_of(0, "compose.yaml", FileType::Compose, "services:\n  a: [1, 2\n");
  FilePart out;
  read_compose_file(f, {}, out);
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].kind == ProblemKind::ParseError);
}

TEST_CASE("devcontainer.json: runArgs through the run parser, JSONC positions kept", "[launch]") {
  SourceSet sources;
  sources.files.push_back(file_of(0, ".devcontainer/devcontainer.json", FileType::Devcontainer, R"({
  // comments and trailing commas are fine
  "name": "agent",
  "build": {"dockerfile": "Containerfile", "context": ".."},
  "runArgs": ["--cap-add=NET_ADMIN", "--network", "none", "-e", "TOKEN=x", "--pids-limit=256",],
  "capAdd": ["SYS_PTRACE"],
  "privileged": false,
  "securityOpt": ["label=disable"],
  "init": true,
  "mounts": [
    "source=${localEnv:HOME}/.ssh,target=/home/vscode/.ssh,type=bind,readonly",
    {"source": "agent-cache", "target": "/cache", "type": "volume"},
  ],
  "containerEnv": {"MODE": "dev"},
  "appPort": [3000, "127.0.0.1:9000:9000"],
  "forwardPorts": [8080],
  "postStartCommand": "sudo /usr/local/bin/init-firewall.sh",
  "postCreateCommand": {"deps": "npm ci", "hooks": ["git", "config", "core.hooksPath", ".hooks"]},
})"));
  sources.files.push_back(
      file_of(1, ".devcontainer/Containerfile", FileType::Dockerfile, "FROM node:22\nUSER 1000\n"));
  FrontendContext ctx;
  ctx.sources = &sources;
  FilePart out;
  read_devcontainer_file(sources.files[0], ctx, out);
  REQUIRE(out.problems.empty());
  REQUIRE(out.workloads.size() == 1);
  const Workload& w = out.workloads[0];
  CHECK(w.engine == Engine::Devcontainer);
  CHECK(w.id.container == "agent");
  REQUIRE(w.identity.cap_add.size() == 2);
  CHECK(w.identity.cap_add[0].value == Capability::NetAdmin);
  CHECK(w.identity.cap_add[0].from.at.line == 5);
  CHECK(w.identity.cap_add[1].value == Capability::SysPtrace);
  CHECK(w.network.mode->value == NetMode::None);
  REQUIRE(w.env.size() == 2);
  CHECK(w.env[0].on_argv);  // runArgs reach docker run's command line
  CHECK(w.env[0].source == EnvSource::Literal);
  CHECK_FALSE(w.env[1].on_argv);
  CHECK(w.resources.pids_limit->value == 256);
  CHECK_FALSE(w.identity.privileged->value);
  CHECK(w.identity.selinux_disabled->value);
  CHECK(w.init->value);
  // mounts[2]: the workspace folder, bound read-write at /workspaces/NAME without workspaceMount.
  REQUIRE(w.mounts.size() == 3);
  CHECK(w.mounts[0].kind == MountKind::HostPath);
  CHECK(w.mounts[0].read_only->value);
  CHECK(w.mounts[0].target == "/home/vscode/.ssh");
  CHECK(w.mounts[1].kind == MountKind::NamedVolume);
  CHECK(w.mounts[2].kind == MountKind::HostPath);
  CHECK(w.mounts[2].target.starts_with("/workspaces/"));
  REQUIRE(w.network.ports.size() == 2);
  CHECK(w.network.ports[0].spec == "3000:3000");
  CHECK(w.network.ports[0].host_ip.empty());
  CHECK(w.network.ports[1].host_ip == "127.0.0.1");
  REQUIRE(w.setup_commands.size() == 3);
  CHECK(w.setup_commands[0].value == "postCreateCommand.deps: npm ci");
  CHECK(w.setup_commands[2].value == "postStartCommand: sudo /usr/local/bin/init-firewall.sh");
  CHECK(w.dockerfile == ".devcontainer/Containerfile");
  CHECK(w.identity.run_as_user->value == 1000);
}

TEST_CASE("Dockerfile facts: stages, final USER, ENV, ADD URL, pinning", "[launch]") {
  SourceFile f = file_of(3, "Dockerfile", FileType::Dockerfile, R"(# syntax=docker/dockerfile:1
ARG BASE=python:3.12-slim
FROM ${BASE} AS build
USER root
ENV OPENAI_API_KEY=sk-notreal
RUN pip install \
    requests
FROM build AS test
FROM debian:12@sha256:abc
ENV A=1 B="two words"
ENV LEGACY value with spaces
ADD https://example.com/x.tgz /opt/
ADD --checksum=sha256:00 https://example.com/y.tgz /opt/
user 1000:1000
RUN curl -fsSL https://example.com/i.sh | sh
)");
  FilePart out;
  read_dockerfile(f, {}, out);
  REQUIRE(out.images.size() == 1);
  const ImageBuild& b = out.images[0];
  REQUIRE(b.bases.size() == 3);
  CHECK(b.bases[0].reference == "${BASE}");
  CHECK_FALSE(b.bases[0].pinned);
  CHECK_FALSE(b.bases[0].is_stage);
  CHECK(b.bases[0].from.at.line == 3);
  CHECK(b.bases[1].is_stage);
  CHECK(b.bases[2].pinned);
  REQUIRE(b.final_user);
  CHECK(b.final_user->value == "1000:1000");
  CHECK(b.final_user->from.at.line == 14);
  REQUIRE(b.env.size() == 3);  // the last stage only
  CHECK(b.env[1].value == "two words");
  CHECK(b.env[2].name == "LEGACY");
  CHECK(b.env[2].value == "value with spaces");
  REQUIRE(b.added_urls.size() == 1);
  CHECK(b.added_urls[0].from.at.line == 12);
  REQUIRE(b.run_lines.size() == 2);
  CHECK(b.run_lines[0].value == "pip install  requests");
}

TEST_CASE("seccomp profiles: default action and unconditional allowances", "[launch]") {
  SourceFile f = file_of(0, "seccomp.json", FileType::Json, R"({
  "defaultAction": "SCMP_ACT_ERRNO",
  "syscalls": [
    {"names": ["bpf"], "action": "SCMP_ACT_ALLOW"},
    {"names": ["init_module"], "action": "SCMP_ACT_ALLOW", "includes": {"caps": ["CAP_SYS_MODULE"]}},
    {"names": ["ptrace"], "action": "SCMP_ACT_ALLOW", "includes": {"minKernel": "4.8"}},
    {"names": ["personality"], "action": "SCMP_ACT_ALLOW", "args": [{"index": 0, "value": 0, "op": "SCMP_CMP_EQ"}]},
    {"names": ["kexec_load"], "action": "SCMP_ACT_ERRNO"},
    {"names": ["perf_event_open"], "action": "SCMP_ACT_LOG", "includes": {"arches": ["x86_64"]}}
  ]
})");
  FilePart out;
  // Through the dispatcher: a JSON file naming a defaultAction is a profile, not a manifest.
  analyze_file(f, {}, out);
  REQUIRE(out.seccomp_profiles.size() == 1);
  const SeccompProfile& p = out.seccomp_profiles[0];
  CHECK(p.default_action->value == "SCMP_ACT_ERRNO");
  // Every entry is recorded as written, the denying one too: what an action means is judged by
  // the check (engine::default_action_allows), not by the frontend.
  REQUIRE(p.rules.size() == 6);
  CHECK(p.rules[0].syscall == "bpf");
  CHECK(p.rules[0].action == "SCMP_ACT_ALLOW");
  CHECK(p.rules[0].unconditional);
  CHECK(p.rules[0].from.at.line == 4);
  CHECK_FALSE(p.rules[1].unconditional);
  CHECK_FALSE(p.rules[2].unconditional);
  CHECK_FALSE(p.rules[3].unconditional);
  CHECK(p.rules[4].syscall == "kexec_load");
  CHECK(p.rules[4].action == "SCMP_ACT_ERRNO");
  CHECK(p.rules[5].syscall == "perf_event_open");
  CHECK(p.rules[5].unconditional);
}

TEST_CASE("golden model dumps: compose with a proxy sidecar, a firewalled devcontainer",
          "[launch]") {
  test::check_golden_dump("fixtures/launch/compose-proxy",
                          "fixtures/launch/golden/compose-proxy.dump");
  test::check_golden_dump("fixtures/launch/devcontainer-firewall",
                          "fixtures/launch/golden/devcontainer-firewall.dump");
}

TEST_CASE("interpolated values are not literals", "[launch]") {
  SourceFile f = file_of(0, "compose.yaml", FileType::Compose,
                         "services:\n  a:\n    environment:\n      API_KEY: ${API_KEY}\n      B: "
                         "\"$B\"\n      C: plain\n");
  FilePart out;
  read_compose_file(f, {}, out);
  REQUIRE(out.workloads.size() == 1);
  const auto& env = out.workloads[0].env;
  REQUIRE(env.size() == 3);
  CHECK(env[0].source == EnvSource::Symbolic);
  CHECK(env[1].source == EnvSource::Symbolic);
  CHECK(env[2].source == EnvSource::Literal);
}

TEST_CASE("garbage never crashes a launch reader and is never silent", "[launch]") {
  FilePart out;
  read_devcontainer_file(file_of(0, "devcontainer.json", FileType::Devcontainer, "[1, 2]"), {},
                         out);
  REQUIRE(out.problems.size() == 1);
  CHECK(out.problems[0].kind == ProblemKind::InvalidObject);
  read_devcontainer_file(file_of(0, "devcontainer.json", FileType::Devcontainer, "{\"a\": "), {},
                         out);
  CHECK(out.problems.size() == 2);
  const char* nasty[] = {
      "",       "\n\n",     "FROM",   "USER",     "ENV",     "ENV =", "ADD", "FROM --platform=x",
      "RUN \\", "ARG X=${", "FROM $", "FROM ${X", "\\\n\\\n"};
  for (const char* t : nasty) {
    read_dockerfile(file_of(0, "Dockerfile", FileType::Dockerfile, t), {}, out);
  }
  CHECK(out.images.size() == std::size(nasty));
  read_compose_file(
      file_of(0, "compose.yaml", FileType::Compose,
              "services:\n  a:\n    ports: [{}, [], \"::\", \"[\"]\n    volumes: [\":\", {}, "
              "\"a:b:c:d\"]\n"
              "    user: \"\"\n    network_mode: \"\"\n    cap_add: {x: 1}\n  b: 3\n"),
      {}, out);
  CHECK(out.workloads.size() == 1);
  read_seccomp_profile(
      file_of(0, "s.json", FileType::Json, "{\"defaultAction\": [], \"syscalls\": {\"names\": 1}}"),
      {}, out);
  read_seccomp_profile(file_of(0, "s.json", FileType::Json, "{\"defaultAction\": \"x\""), {}, out);
  CHECK(out.seccomp_profiles.size() == 1);
  CHECK(out.problems.back().kind == ProblemKind::ParseError);
}

}  // namespace launch_files_test
