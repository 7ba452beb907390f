// Compose as the engine reads it: interpolation before splitting, recognition by content,
// override files and extends; devcontainer features and the compose link.
#include <catch2/catch.hpp>

#include "analyzer/frontends/launch/launch.h"
#include "analyzer/source/source.h"
#include "tests/source_file.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace compose_project_test {

using namespace sbr;
using test::file_of;

namespace {

const Workload& service(const FilePart& out, const std::string& name) {
  for (const auto& w : out.workloads) {
    if (w.id.container == name) return w;
  }
  FAIL("no service " << name);
  return out.workloads.front();
}

}  // namespace

TEST_CASE("compose: values are interpolated before they are split", "[compose]") {
  SourceSet sources;
  sources.files.push_back(file_of(0, "deploy/stack.yml", FileType::Compose, R"(services:
  agent:
    image: ghcr.io/acme/agent:${TAG:-dev}
    ports:
      - "${PORT:-6080}:6080"
      - "${HOST_PORT}:7000"
    volumes:
      - ${CAGE_WORKSPACE:-.}:/workspace:rw
      - ${DATA}:/data
      - ./cache:/cache:ro
    user: "${UID_}:${GID_:-1000}"
    runtime: $RUNTIME
    environment:
      TOKEN: ${TOKEN}
      MODE: $$literal
)"));
  sources.files.push_back(file_of(1, "deploy/.env", FileType::Other, "RUNTIME=runsc\nTAG=1.2\n"));
  FrontendContext ctx{&sources, std::nullopt};
  FilePart out;
  read_compose_file(sources.files[0], ctx, out);
  const Workload& w = service(out, "agent");
  CHECK(w.image == "ghcr.io/acme/agent:1.2");
  REQUIRE(w.network.ports.size() == 2);
  CHECK(w.network.ports[0].host_port == "6080");
  CHECK(w.network.ports[0].host_ip.empty());  // every interface
  CHECK(w.network.ports[0].container_port == "6080");
  CHECK(w.network.ports[0].from.at.line == 5);
  // An unknown host port still publishes on every interface; the text never shows `${`.
  CHECK(w.network.ports[1].container_port == "7000");
  CHECK(w.network.ports[1].host_ip.empty());
  CHECK(w.network.ports[1].spec.find("${") == std::string::npos);
  REQUIRE(w.mounts.size() == 3);
  CHECK(w.mounts[0].kind == MountKind::HostPath);
  CHECK(w.mounts[0].source == "./deploy");  // the compose file's directory
  CHECK(w.mounts[0].target == "/workspace");
  CHECK_FALSE(w.mounts[0].read_only->value);
  CHECK(w.mounts[1].kind == MountKind::HostPath);  // an unknown host path, not a volume name
  CHECK(w.mounts[1].source == "<unknown $DATA>");
  CHECK(w.mounts[2].source == "./deploy/cache");
  REQUIRE(w.runtime_class);
  CHECK(w.runtime_class->value == "runsc");
  CHECK(w.runtime_class->from.at.line == 12);
  REQUIRE(w.env.size() == 2);
  CHECK(w.env[0].source == EnvSource::Symbolic);
  CHECK(w.env[1].value == "$literal");
  CHECK(w.env[1].source == EnvSource::Literal);
}

TEST_CASE("compose is recognised by content, Kubernetes YAML with services is not", "[compose]") {
  CHECK(looks_like_compose("services:\n  web:\n    image: nginx\n"));
  CHECK(looks_like_compose("x-a: &a {}\nservices:\n  web:\n    build: .\n  db:\n    image: pg\n"));
  CHECK_FALSE(looks_like_compose("apiVersion: v1\nkind: List\nservices:\n  web:\n    image: x\n"));
  CHECK_FALSE(looks_like_compose("services:\n  - name: web\n    image: x\n"));  // a list
  CHECK_FALSE(looks_like_compose("services:\n  web:\n    port: 80\n"));         // no image or build
  CHECK_FALSE(looks_like_compose("ingress:\n  services:\n    web:\n      image: x\n"));
  CHECK_FALSE(looks_like_compose("services: [\n"));
  // A Helm values file: image is a mapping of repository and tag.
  CHECK_FALSE(looks_like_compose("services:\n  api:\n    image:\n      repository: x\n"));
}

TEST_CASE("compose: override file and extends merge as compose merges them", "[compose]") {
  SourceSet sources;
  sources.files.push_back(file_of(0, "compose.yaml", FileType::Compose, R"(services:
  base:
    image: x
    cap_add: [CHOWN]
    volumes: ["./a:/data"]
    command: ["run", "base"]
  agent:
    extends: base
    user: "1000"
)"));
  sources.files.push_back(file_of(1, "compose.override.yaml", FileType::Compose, R"(services:
  agent:
    cap_add: [NET_ADMIN, CHOWN]
    volumes: ["./b:/data:ro"]
    command: ["run", "dev"]
)"));
  FrontendContext ctx{&sources, std::nullopt};
  FilePart from_override;
  read_compose_file(sources.files[1], ctx, from_override);
  CHECK(from_override.workloads.empty());  // read with its base, not again
  FilePart out;
  read_compose_file(sources.files[0], ctx, out);
  REQUIRE(out.workloads.size() == 2);
  const Workload& a = service(out, "agent");
  REQUIRE(a.identity.cap_add.size() == 2);  // a union: CHOWN once
  CHECK(a.identity.cap_add[1].from.at.file == 1);
  CHECK(a.identity.cap_add[1].from.at.line == 3);
  REQUIRE(a.mounts.size() == 1);  // merged by target
  CHECK(a.mounts[0].source == "./b");
  CHECK(a.mounts[0].source_from.at.file == 1);
  REQUIRE(a.command.size() == 2);  // replaced, not appended
  CHECK(a.command[1].value == "dev");
  REQUIRE(a.identity.run_as_user);
  CHECK(a.identity.run_as_user->value == 1000);
}

TEST_CASE("compose: internal networks deny egress at their declaration", "[compose]") {
  SourceFile f = file_of(0, "compose.yaml", FileType::Compose, R"(services:
  agent:
    image: a
    networks: [inside]
  proxy:
    image: squid
    networks:
      inside: {}
      outside: {}
networks:
  inside:
    internal: true
  outside: {}
)");
  FilePart out;
  read_compose_file(f, {}, out);
  const Workload& agent = service(out, "agent");
  REQUIRE(agent.network.egress.size() == 1);
  CHECK(agent.network.egress[0].kind == GateKind::InternalNetwork);
  CHECK(agent.network.egress[0].from.at.line == 12);
  CHECK(service(out, "proxy").network.egress.empty());  // also on a network with a way out
}

TEST_CASE("devcontainer features: docker-in-docker is privileged, others recorded", "[launch]") {
  SourceFile f = file_of(0, ".devcontainer/devcontainer.json", FileType::Devcontainer, R"({
  "image": "x",
  "features": {
    "ghcr.io/devcontainers/features/docker-in-docker:2": {},
    "ghcr.io/devcontainers/features/docker-outside-of-docker@sha256:00": {},
    "ghcr.io/devcontainers/features/git:1": {},
    "ghcr.io/someone/features/thing:1": {}
  },
  "initializeCommand": "make host-prep"
})");
  FilePart out;
  read_devcontainer_file(f, {}, out);
  REQUIRE(out.workloads.size() == 1);
  const Workload& w = out.workloads[0];
  REQUIRE(w.identity.privileged);
  CHECK(w.identity.privileged->value);
  CHECK(w.identity.privileged->from.at.line == 4);
  // The feature's socket, then the workspace folder the CLI binds when no workspaceMount is set.
  REQUIRE(w.mounts.size() == 2);
  CHECK(w.mounts[0].source == "/var/run/docker.sock");
  CHECK(w.mounts[0].source_from.at.line == 5);
  CHECK(w.mounts[1].kind == MountKind::HostPath);
  CHECK(w.mounts[1].target.starts_with("/workspaces/"));
  CHECK_FALSE((w.mounts[1].read_only && w.mounts[1].read_only->value));
  REQUIRE(w.features.size() == 4);
  CHECK(w.features[2].modelled);
  CHECK_FALSE(w.features[3].modelled);
  REQUIRE(w.host_commands.size() == 1);
  CHECK(w.host_commands[0].value == "initializeCommand: make host-prep");
  CHECK(w.setup_commands.empty());
}

TEST_CASE("a devcontainer on a compose service is that service, judged once", "[launch]") {
  Model m;
  Workload svc;
  svc.engine = Engine::Compose;
  svc.id.name = "compose.yaml";
  svc.id.container = "dev";
  Workload dev;
  dev.engine = Engine::Devcontainer;
  dev.compose_files = {"compose.yaml"};
  dev.compose_service = fact(std::string("dev"), Provenance{});
  dev.identity.privileged = fact(true, Provenance{});
  dev.host_commands.push_back(fact(std::string("initializeCommand: x"), Provenance{}));
  Workload other = dev;
  other.compose_service = fact(std::string("absent"), Provenance{});
  m.workloads = {svc, dev, other};
  link_launches(m);
  REQUIRE(m.workloads.size() == 2);  // the unlinked devcontainer stays
  CHECK(m.workloads[0].engine == Engine::Compose);
  REQUIRE(m.workloads[0].identity.privileged);
  CHECK(m.workloads[0].identity.privileged->value);
  CHECK(m.workloads[0].host_commands.size() == 1);
  CHECK(m.workloads[1].compose_service->value == "absent");
}

namespace {

Word word(const std::string& text, std::uint32_t column) {
  Word w;
  w.text = text;
  w.from.at = Location{2, 7, column};
  return w;
}

Invocation compose_up(const std::vector<std::string>& args) {
  Invocation inv;
  std::uint32_t column = 1;
  for (const auto& a : args) {
    inv.argv.push_back(word(a, column));
    column += static_cast<std::uint32_t>(a.size()) + 1;
  }
  return inv;
}

}  // namespace

TEST_CASE("compose: a launcher's `-f a -f b up` is one project of both files", "[compose]") {
  SourceSet sources;
  sources.files.push_back(file_of(0, "compose/base.yml", FileType::Compose, R"(services:
  agent:
    image: ghcr.io/acme/agent:1.0
    cap_drop: [ALL]
)"));
  sources.files.push_back(file_of(1, "compose/extra.yml", FileType::Other, R"(services:
  agent:
    cap_add: [NET_RAW]
)"));
  sources.files.push_back(file_of(2, "bin/up", FileType::Shell, "#!/bin/sh\n"));
  LaunchContext ctx;
  ctx.script = 2;
  ctx.sources = &sources;

  SECTION("layers in order, named after the files and the launcher, under its timeout") {
    Invocation inv = compose_up({"docker", "compose", "-f", "compose/base.yml",
                                 "--file=compose/extra.yml", "-p", "s1", "up", "--build"});
    inv.wrappers.push_back({"timeout", {"2h"}, "2h", {}});
    FilePart out;
    REQUIRE(workloads_from_invocation(inv, ctx, out));
    const Workload& w = service(out, "agent");
    CHECK(w.id.name == "compose/base.yml + compose/extra.yml, run by bin/up");
    CHECK(w.id.render_root == "bin/up");
    REQUIRE(w.identity.cap_add.size() == 1);
    CHECK(w.identity.cap_add[0].value == Capability::NetRaw);
    CHECK(w.identity.cap_add[0].from.at.file == 1);
    REQUIRE(w.lifecycle.timeout);
    CHECK(w.lifecycle.timeout->value == 7200);
    CHECK(out.problems.empty());
  }
  SECTION("past three files the project is named by its first file and the launcher") {
    // sdlcforge/ai-sandbox adds up to eight overlays, a different set on each path.
    for (int k = 0; k < 3; ++k) {
      sources.files.push_back(file_of(3 + k, "compose/overlay-" + std::to_string(k) + ".yml",
                                      FileType::Other,
                                      "services:\n  agent:\n    read_only: true\n"));
    }
    Invocation inv =
        compose_up({"docker", "compose", "-f", "compose/base.yml", "-f", "compose/extra.yml", "-f",
                    "compose/overlay-0.yml", "-f", "compose/overlay-1.yml", "up"});
    FilePart out;
    REQUIRE(workloads_from_invocation(inv, ctx, out));
    const Workload& w = service(out, "agent");
    CHECK(w.id.name == "compose/base.yml with its overlays, run by bin/up");
    CHECK(w.compose_files.size() == 4);
    CHECK(w.identity.read_only_root.has_value());
  }
  SECTION("a detached `up -d` outlives timeout(1); a missing file is a note at its word") {
    Invocation inv = compose_up(
        {"docker-compose", "-f", "compose/base.yml", "-f", "compose/local.yml", "up", "-d"});
    inv.wrappers.push_back({"timeout", {"2h"}, "2h", {}});
    FilePart out;
    REQUIRE(workloads_from_invocation(inv, ctx, out));
    CHECK_FALSE(service(out, "agent").lifecycle.timeout);
    REQUIRE(out.problems.size() == 1);
    CHECK(out.problems[0].kind == ProblemKind::SourceUnresolved);
    CHECK(out.problems[0].at.column == 39);  // the word compose/local.yml
  }
  SECTION("COMPOSE_FILE in the command's environment names the files when -f does not") {
    Invocation inv = compose_up({"docker", "compose", "up"});
    inv.env_prefix.push_back(word("COMPOSE_FILE=compose/base.yml:compose/extra.yml", 1));
    FilePart out;
    REQUIRE(workloads_from_invocation(inv, ctx, out));
    const Workload& w = service(out, "agent");
    CHECK(w.id.name == "compose/base.yml + compose/extra.yml, run by bin/up");
    REQUIRE(w.identity.cap_add.size() == 1);
    CHECK(w.identity.cap_add[0].from.at.file == 1);
    CHECK(out.problems.empty());

    // Another separator; and `-f` wins over the variable, as compose has it.
    Invocation sep = compose_up({"docker", "compose", "up"});
    sep.env_prefix.push_back(word("COMPOSE_PATH_SEPARATOR=,", 1));
    sep.env_prefix.push_back(word("COMPOSE_FILE=compose/base.yml,compose/extra.yml", 26));
    FilePart out_sep;
    REQUIRE(workloads_from_invocation(sep, ctx, out_sep));
    CHECK(service(out_sep, "agent").identity.cap_add.size() == 1);
    Invocation flag = compose_up({"docker", "compose", "-f", "compose/base.yml", "up"});
    flag.env_prefix.push_back(word("COMPOSE_FILE=compose/extra.yml", 1));
    FilePart out_flag;
    REQUIRE(workloads_from_invocation(flag, ctx, out_flag));
    CHECK(service(out_flag, "agent").id.name == "compose/base.yml, run by bin/up");
    CHECK(service(out_flag, "agent").identity.cap_add.empty());
  }
  SECTION("commands that start nothing, or read the default files, are not projects") {
    FilePart out;
    CHECK_FALSE(workloads_from_invocation(
        compose_up({"docker", "compose", "-f", "compose/base.yml", "down"}), ctx, out));
    CHECK_FALSE(workloads_from_invocation(compose_up({"docker", "compose", "up"}), ctx, out));
    CHECK(out.workloads.empty());
  }
}

}  // namespace compose_project_test
