// The threat class of the workloads of a stack: well-known service images, the orchestrator
// holding the runtime socket, the app server beside a compose sandbox, and the agent evidence
// that outweighs them all. Hand-built models for each signal, then the fixture stack end to end.
#include <catch2/catch.hpp>

#include "analyzer/engine/threat_class.h"
#include "analyzer/frontends/launch/launch_util.h"
#include "analyzer/pipeline/analysis.h"
#include "tests/fixture_harness.h"
#include "tests/inv_test_support.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace threat_class_stack_test {

using namespace sbr;
using sbr::test::at_line;

namespace {

Workload service(std::string name, std::string image = "") {
  Workload w;
  w.engine = Engine::Compose;
  w.lifecycle.controller = Controller::ComposeService;
  w.id.kind = "compose";
  w.id.name = "docker-compose.yml";
  w.id.container = std::move(name);
  w.image = std::move(image);
  w.container_from = w.object_from = at_line(3, Frontend::Compose);
  return w;
}

Model stack(std::vector<Workload> ws) {
  Model m;
  m.files.add("docker-compose.yml");
  m.workloads = std::move(ws);
  engine::infer_threat_classes(m);
  return m;
}

bool signal_in(const Workload& w, ThreatSignal s) {
  return std::any_of(w.threat_evidence.begin(), w.threat_evidence.end(),
                     [&](const ThreatEvidence& e) { return e.signal == s; });
}

Mount docker_socket() {
  Mount m;
  m.kind = MountKind::HostPath;
  m.source = "/var/run/docker.sock";
  m.target = "/var/run/docker.sock";
  m.mount_from = at_line(9, Frontend::Compose);
  return m;
}

EnvVar literal(std::string name, std::string value) {
  EnvVar e;
  e.name = std::move(name);
  e.value = std::move(value);
  e.from = at_line(12, Frontend::Compose);
  return e;
}

const Workload& named(const Model& m, const std::string& container) {
  for (const Workload& w : m.workloads) {
    if (w.id.container == container) return w;
  }
  FAIL("no workload " << container);
  return m.workloads.front();
}

// Each workload's class, in order.
std::vector<ThreatClass> classes(const Model& m) {
  std::vector<ThreatClass> out;
  for (const Workload& w : m.workloads) out.push_back(w.threat);
  return out;
}

}  // namespace

TEST_CASE("a well-known service image is untrusted-input, whatever its registry and tag",
          "[threat]") {
  Model m = stack({service("db", "postgres:16-alpine"),
                   service("cache", "ecr-public.aws.com/docker/library/redis:8.2.3-alpine"),
                   service("pg", "docker.io/bitnami/postgresql:17@sha256:0123"),
                   service("sclorg", "quay.io/sclorg/postgresql-16-c9s:latest"),
                   service("exporter", "prometheuscommunity/postgres-exporter:v0.15.0")});
  // Not the exporter: the exact name only, and no evidence is untrusted-code.
  CHECK(classes(m) == std::vector{ThreatClass::UntrustedInput, ThreatClass::UntrustedInput,
                                  ThreatClass::UntrustedInput, ThreatClass::UntrustedInput,
                                  ThreatClass::UntrustedCode});
  CHECK(m.workloads[0].threat_reason ==
        "its image postgres:16-alpine is a well-known database (postgres), a service of the "
        "platform");
  CHECK(m.workloads[4].threat_evidence.empty());
}

TEST_CASE("a platform pod's reloader and auth-proxy sidecars are platform services", "[threat]") {
  // kagent's Prometheus addon: the server and its configmap-reload sidecar are one pod.
  Model m = stack({service("reload", "jimmidyson/configmap-reload:v0.8.0"),
                   service("rbac", "quay.io/brancz/kube-rbac-proxy:v0.18.1"),
                   service("auth", "quay.io/oauth2-proxy/oauth2-proxy:v7.7.1")});
  CHECK(classes(m) == std::vector{ThreatClass::UntrustedInput, ThreatClass::UntrustedInput,
                                  ThreatClass::UntrustedInput});
}

TEST_CASE("an image named as a database is one", "[threat]") {
  // compose-for-agents' sock shop: weaveworksdemos/catalogue-db is MySQL with its data.
  Model m = stack({service("catalogue-db", "weaveworksdemos/catalogue-db:0.3.0"),
                   service("users", "acme/user-database:2"),
                   service("db", "acme/dbt-runner:1"),  // dbt is no database
                   service("catalogue", "weaveworksdemos/catalogue:0.3.5")});
  CHECK(classes(m) == std::vector{ThreatClass::UntrustedInput, ThreatClass::UntrustedInput,
                                  ThreatClass::UntrustedCode, ThreatClass::UntrustedCode});
  CHECK(m.workloads[0].threat_reason ==
        "its image weaveworksdemos/catalogue-db:0.3.0 is a database by its name, a service of "
        "the platform");
}

TEST_CASE("monitoring, identity and secret servers are platform services", "[threat]") {
  // kagent's grafana, kagenti's keycloak, the OpenTelemetry charts' collector, vault-helm.
  Model m = stack({service("grafana", "grafana/grafana:11.2.0"),
                   service("collector", "otel/opentelemetry-collector-contrib:0.111.0"),
                   service("idp", "quay.io/keycloak/keycloak:26.0"),
                   service("vault", "hashicorp/vault:1.18"),
                   service("agent", "ghcr.io/acme/grafana-agent-sandbox:1.0")});
  // Not the agent whose image name holds "grafana": the exact name only.
  CHECK(classes(m) == std::vector{ThreatClass::UntrustedInput, ThreatClass::UntrustedInput,
                                  ThreatClass::UntrustedInput, ThreatClass::UntrustedInput,
                                  ThreatClass::UntrustedCode});
  CHECK(m.workloads[0].threat_reason.find("(grafana)") != std::string::npos);
}

TEST_CASE("an image built FROM a service image is that service", "[threat]") {
  Model m;
  m.files.add("docker-compose.yml");
  m.files.add("web/Dockerfile");
  ImageBuild b;
  b.path = "web/Dockerfile";
  BaseImage builder{"node:22", false, false, false, at_line(1, Frontend::Dockerfile)};
  BaseImage last{"nginx:1.27-alpine", false, false, false,
                 Provenance{Location{1, 7, 1}, Frontend::Dockerfile}};
  b.bases = {builder, last};
  m.images.push_back(b);
  Workload web = service("web");
  web.dockerfile = "web/Dockerfile";
  m.workloads.push_back(web);
  engine::infer_threat_classes(m);
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedInput);
  CHECK(m.workloads[0].threat_reason.find("built FROM nginx:1.27-alpine (web/Dockerfile:7)") !=
        std::string::npos);
}

TEST_CASE("agent evidence outweighs a service image, and the reason says so", "[threat]") {
  Workload w = service("db", "postgres:16");
  w.command.push_back(fact<std::string>("codex", at_line(5, Frontend::Compose)));
  w.command.push_back(fact<std::string>("--full-auto", at_line(5, Frontend::Compose)));
  Model m = stack({w});
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedCode);
  CHECK(signal_in(m.workloads[0], ThreatSignal::ServiceImage));
  CHECK(m.workloads[0].threat_reason.find("this outweighs the platform evidence: its image "
                                          "postgres:16") != std::string::npos);
}

TEST_CASE("a code-interpreter image is untrusted-code evidence", "[threat]") {
  Workload w = service("interpreter", "e2bdev/code-interpreter:latest");
  w.mounts.push_back(docker_socket());
  Model m = stack({w});
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedCode);
  CHECK(signal_in(m.workloads[0], ThreatSignal::CodeImage));
  CHECK(signal_in(m.workloads[0], ThreatSignal::Orchestrator));  // recorded, outweighed
}

TEST_CASE("a compose service holding the runtime socket is the orchestrator", "[threat]") {
  Workload runner = service("runner");
  runner.mounts.push_back(docker_socket());
  Workload agent = service("agent");
  agent.mounts.push_back(docker_socket());
  agent.command.push_back(fact<std::string>("claude", at_line(20, Frontend::Compose)));
  Model m = stack({runner, agent});
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedInput);
  CHECK(m.workloads[0].threat_reason ==
        "it holds the container runtime socket /var/run/docker.sock (at /var/run/docker.sock): "
        "the orchestrator that starts the other containers");
  // An agent given the socket is an agent with an escape, not an orchestrator.
  CHECK(m.workloads[1].threat == ThreatClass::UntrustedCode);
}

TEST_CASE("a launch or a pod with the socket is not taken for an orchestrator", "[threat]") {
  Workload launch = test::hardened_launch();
  launch.mounts.push_back(docker_socket());
  Workload pod = test::hardened_pod("refactor-agent");
  pod.mounts.push_back(docker_socket());
  Model m = stack({launch, pod});
  for (const Workload& w : m.workloads) {
    CHECK(w.threat == ThreatClass::UntrustedCode);
    CHECK_FALSE(signal_in(w, ThreatSignal::Orchestrator));
  }
}

TEST_CASE("a service named as the sandbox is taken for it, its platform is not", "[threat]") {
  Model m = stack({service("oj-judge"), service("sandbox-web"),
                   service("gateway", "ghcr.io/foxerine/code-interpreter-gateway:latest"),
                   service("builder", "ghcr.io/foxerine/code-interpreter-worker:latest")});
  CHECK(signal_in(m.workloads[0], ThreatSignal::SandboxName));
  CHECK_FALSE(signal_in(m.workloads[1], ThreatSignal::SandboxName));
  CHECK_FALSE(signal_in(m.workloads[2], ThreatSignal::SandboxName));
  CHECK(signal_in(m.workloads[3], ThreatSignal::SandboxName));
  CHECK(m.workloads[3].threat_reason.find("its image ghcr.io/foxerine/code-interpreter-worker") ==
        0);
}

TEST_CASE("a service that talks to its project's sandbox is the app server", "[threat]") {
  Workload sandbox = service("sandbox");
  Workload api = service("api");
  api.depends_on.push_back(fact<std::string>("sandbox", at_line(14, Frontend::Compose)));
  Workload worker = service("worker");
  worker.env.push_back(literal("CODE_EXECUTION_ENDPOINT", "http://user:pw@sandbox:8194/run"));
  Workload flags = service("flags");
  flags.env.push_back(literal("MODE", "sandbox"));  // a word, not an address
  Model m = stack({sandbox, api, worker, flags});
  CHECK(named(m, "sandbox").threat == ThreatClass::UntrustedCode);
  CHECK(named(m, "api").threat == ThreatClass::UntrustedInput);
  CHECK(named(m, "api").threat_reason ==
        "it talks to compose service sandbox, which runs the untrusted code (depends_on sandbox, "
        "docker-compose.yml:14): the application around the sandbox");
  CHECK(named(m, "worker").threat == ThreatClass::UntrustedInput);
  // The host, never the value: the URL carries a password.
  CHECK(named(m, "worker").threat_reason.find("pw") == std::string::npos);
  CHECK(named(m, "flags").threat == ThreatClass::UntrustedCode);
}

TEST_CASE("the app server rule stays inside one compose project", "[threat]") {
  Workload sandbox = service("sandbox");
  sandbox.id.name = "other/docker-compose.yml";
  Workload api = service("api");
  api.depends_on.push_back(fact<std::string>("sandbox", at_line(14, Frontend::Compose)));
  Model m = stack({sandbox, api});
  CHECK(m.workloads[1].threat == ThreatClass::UntrustedCode);
}

namespace {

// sdlcforge/ai-sandbox's `firewall-init`: the sandbox's image, `network_mode:
// service:ai-sandbox`, `cap_add: [NET_ADMIN]`, running the egress firewall once.
Workload joins_with_net_admin(std::string name, std::string joined) {
  Workload w = service(std::move(name), "ai-sandbox:full");
  w.network.mode = fact(NetMode::Container, at_line(217, Frontend::Compose));
  w.network.mode_arg = std::move(joined);
  w.identity.cap_add.push_back(fact(Capability::NetAdmin, at_line(219, Frontend::Compose)));
  return w;
}

}  // namespace

TEST_CASE("a service that sets up the sandbox's network from inside it is the platform",
          "[threat]") {
  Workload sandbox = service("ai-sandbox", "ai-sandbox:full");
  Model m = stack({sandbox, joins_with_net_admin("firewall-init", "ai-sandbox")});
  const Workload& fw = named(m, "firewall-init");
  CHECK(fw.threat == ThreatClass::UntrustedInput);
  CHECK(signal_in(fw, ThreatSignal::NetworkSidecar));
  CHECK_FALSE(signal_in(fw, ThreatSignal::SandboxName));  // the image's name is the sandbox's
  CHECK(fw.threat_reason.find("it joins the network namespace of compose service ai-sandbox") == 0);
  // The sidecar's traffic does not make the sandbox a gateway: no platform evidence on it.
  CHECK(named(m, "ai-sandbox").threat_reason ==
        "its service name ai-sandbox says it is the sandbox (sandbox)");
}

TEST_CASE("joining with NET_ADMIN lowers neither an agent nor a joiner of the platform",
          "[threat]") {
  // The joined workload is not the sandbox (a proxy): a joiner with NET_ADMIN stays as it is.
  Model proxied =
      stack({service("proxy", "ubuntu/squid:6"), joins_with_net_admin("tools", "proxy")});
  CHECK(named(proxied, "tools").threat == ThreatClass::UntrustedCode);
  CHECK_FALSE(signal_in(named(proxied, "tools"), ThreatSignal::NetworkSidecar));
  // A joiner that is an agent by its own name or command stays one.
  Workload agent = joins_with_net_admin("sandbox-runner", "ai-sandbox");
  Workload harness = joins_with_net_admin("helper", "ai-sandbox");
  harness.command.push_back(fact<std::string>("claude", at_line(220, Frontend::Compose)));
  Model m = stack({service("ai-sandbox", "ai-sandbox:full"), agent, harness});
  CHECK(named(m, "sandbox-runner").threat == ThreatClass::UntrustedCode);
  CHECK(named(m, "helper").threat == ThreatClass::UntrustedCode);
  CHECK_FALSE(signal_in(named(m, "helper"), ThreatSignal::NetworkSidecar));
}

TEST_CASE("a pod has one class: a sidecar's image does not lower its pod", "[threat]") {
  Workload app = test::hardened_pod("inspector");
  Workload web = test::hardened_pod("nginx");
  web.image = "mirror.gcr.io/nginx:1.27-alpine";
  Model m = stack({app, web});
  CHECK(m.workloads[1].threat == ThreatClass::UntrustedCode);
  CHECK(signal_in(m.workloads[1], ThreatSignal::ServiceImage));  // recorded, outweighed
  CHECK(m.workloads[1].threat_reason.find("container inspector of its pod shows nothing") == 0);
}

TEST_CASE("an init container without evidence follows a pod of platform containers", "[threat]") {
  Workload db = test::hardened_pod("postgres");
  db.image = "docker.io/bitnami/postgresql:17";
  Workload init = test::hardened_pod("volume-permissions");
  init.image = "docker.io/bitnami/os-shell:12";
  init.role = ContainerRole::Init;
  Model m = stack({db, init});
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedInput);
  CHECK(m.workloads[1].threat == ThreatClass::UntrustedInput);
  CHECK(m.workloads[1].threat_reason ==
        "it prepares a pod whose containers are all platform (container postgres)");
}

TEST_CASE("the fixture stack: each workload gets the class a reviewer gives it", "[threat]") {
  const std::string dir = test::source_dir() + "/fixtures/launch/compose-platform";
  Analysis a = analyze({dir}, Config{}, AnalyzeOptions{});
  const Model& m = a.model;
  CHECK(named(m, "agent").threat == ThreatClass::UntrustedCode);
  CHECK(signal_in(named(m, "agent"), ThreatSignal::Harness));
  CHECK(signal_in(named(m, "api"), ThreatSignal::AppServer));
  CHECK(signal_in(named(m, "runner"), ThreatSignal::Orchestrator));
  for (const char* s : {"web", "db", "redis"}) {
    INFO(s);
    CHECK(signal_in(named(m, s), ThreatSignal::ServiceImage));
  }
  for (const char* s : {"api", "runner", "web", "db", "redis"}) {
    INFO(s);
    CHECK(named(m, s).threat == ThreatClass::UntrustedInput);
  }
  // What the class removes on the database: the critical "egress open while secrets are
  // inside" for its own password, and the ephemerality of `restart: always`.
  auto r = test::run_fixture_dir(dir, {}, true);
  for (const Finding& f : r.findings) {
    if (!f.subject.str().ends_with("/db")) continue;
    INFO(f.rule_id.str() << " " << f.message);
    CHECK(f.rule_id.str() != "SB5002");
    CHECK(f.rule_id.str() != "SB7005");
    CHECK(f.severity != Severity::Critical);
  }
}

}  // namespace threat_class_stack_test

namespace threat_class_stack_test {
namespace {

// A `docker run` of a launcher: its image and its command words, `open` naming the words the
// launcher leaves open.
Workload launch(std::string image, std::vector<std::string> words,
                std::vector<std::size_t> open = {}) {
  Workload w;
  w.engine = Engine::Docker;
  w.id.kind = "launcher";
  w.id.name = "bin/agent-import";
  w.image = std::move(image);
  for (std::size_t i = 0; i < words.size(); ++i) {
    w.command.push_back(
        fact(words[i], at_line(20 + static_cast<std::uint32_t>(i), Frontend::Bash)));
  }
  w.command_open = std::move(open);
  launch::read_script_commands(w);  // what the launch frontend reads of a `sh -c` text
  w.container_from = w.object_from = at_line(20, Frontend::Bash);
  return w;
}

}  // namespace

TEST_CASE("a launcher's file-handling step on a stock image is a helper, not the agent",
          "[threat]") {
  // novotnyllc/ContainAI's import: `docker run --rm -v "$vol":/target alpine sh -c '...'`.
  Model m =
      stack({launch("alpine", {"cat", "/target/claude/settings.json"}),
             launch("alpine:3.20", {"sh", "-c",
                                    "\n  mkdir -p /target/copilot &&\n  cat > "
                                    "/target/copilot/config.json 2>&1 && chown -R "
                                    "1000:1000 /target/copilot\n"}),
             launch("instrumentisto/rsync-ssh", {"/bin/sh", "-e", "-c", "rm -f /t/x"}),
             launch("alpine", {"sh", "-c", "mkdir -p -- \"/target/$1\"", "sh", "$VOL"}, {4}),
             // YujiSuzuki's credential export: tar piped into a subshell that unpacks it.
             launch("alpine", {"sh", "-c",
                               "cd /source && tar --exclude='.cache' -cf - . | (cd /target && "
                               "tar -xf -)"}),
             // ContainAI's orphan markers: `find` that deletes and prints, counted by `wc`.
             launch("alpine", {"sh", "-c",
                               "\n  find /plugins/claude/plugins/cache -name \".orphaned_at\" "
                               "-delete -print 2>/dev/null | wc -l || echo 0\n"}),
             // ContainAI's symlink check: comments, `for part do`, tests, `mktemp` in `$(...)`.
             launch("alpine",
                    {"sh", "-c",
                     "\n  # Check each path component for symlinks\n  prefix=/target\n"
                     "  set -- $1\n  for part do\n    [ -z \"$part\" ] && continue\n"
                     "    [ -L \"$prefix/$part\" ] && exit 1\n  done\n"
                     "  tmp=$(mktemp -p /target) && mv \"$tmp\" /target/.env\n",
                     "_", "$rel"},
                    {4}),
             // ContainAI's override copy: rsync's open operands after `--`.
             launch("instrumentisto/rsync-ssh",
                    {"rsync", "-a", "--", "/overrides/$rel", "/target/$rel"}, {3, 4})});
  for (const Workload& w : m.workloads) {
    INFO(w.threat_reason);
    CHECK(w.threat == ThreatClass::UntrustedInput);
    CHECK(signal_in(w, ThreatSignal::HelperStep));
  }
  // Blanks folded: the message shows the command on one line.
  CHECK(m.workloads[1].threat_reason.find("it runs `sh -c mkdir -p /target/copilot && cat") == 0);
  // A comment line of the text is not what the message shows.
  CHECK(m.workloads[6].threat_reason.find("it runs `sh -c prefix=/target set -- $1 for") == 0);
}

TEST_CASE("a command that runs code, or that the launcher leaves open, is no helper step",
          "[threat]") {
  Model m = stack({
      launch("alpine", {"sh", "-c", "make test"}),                 // runs workspace code
      launch("python:3.12", {"cat", "/w/x"}),                      // not a stock base image
      launch("ghcr.io/acme/agent:1", {"cat", "/w/x"}),             // its ENTRYPOINT may run
      launch("alpine", {"sh", "-c", "$SCRIPT"}, {2}),              // the text is open
      launch("alpine", {"sh", "-c", "cat \"$(sh /w/gen.sh)\""}),   // a substitution runs code
      launch("alpine", {"sh", "-c", "for f do \"$f\" /w; done"}),  // a program not written
      launch("instrumentisto/rsync-ssh", {"rsync", "-a", "$SRC", "/t"}, {2}),       // rsync -e ...
      launch("alpine", {"find", "/w", "-name", "*.sh", "-exec", "sh", "{}", ";"}),  // runs each
      launch("alpine", {"sh", "-c", "find /w -type f -execdir ./fix {} +"}),
      launch("ubuntu:24.04", {"sh", "-c", "npm i -g @anthropic-ai/claude-code && claude -p x"}),
  });
  for (const Workload& w : m.workloads) {
    INFO(w.image << ": " << w.threat_reason);
    CHECK(w.threat == ThreatClass::UntrustedCode);
    CHECK_FALSE(signal_in(w, ThreatSignal::HelperStep));
  }
  CHECK(signal_in(m.workloads.back(), ThreatSignal::Harness));
}

TEST_CASE("a file program's operands are files, not a harness", "[threat]") {
  // ContainAI's import: `mkdir -p /target/copilot` named the harness `copilot`.
  Model m = stack({launch("ghcr.io/acme/tools:1", {"sh", "-c", "mkdir -p /target/copilot"}),
                   launch("ghcr.io/acme/tools:1", {"cat", "claude.log"}),
                   launch("ghcr.io/acme/tools:1", {"sh", "-c", "cd /w && exec /usr/bin/claude"})});
  CHECK_FALSE(signal_in(m.workloads[0], ThreatSignal::Harness));
  CHECK_FALSE(signal_in(m.workloads[1], ThreatSignal::Harness));
  CHECK(signal_in(m.workloads[2], ThreatSignal::Harness));
}

TEST_CASE("docker compose run as a container is the platform's runtime client by its repository",
          "[threat]") {
  // CubeSandbox's one-click scripts: `docker run -v /var/run/docker.sock:... docker/compose`.
  Model m = stack({launch("docker/compose:1.29.2", {"-f", "/srv/dns/docker-compose.yaml", "up"}),
                   launch("ghcr.io/acme/compose:2", {"-f", "/srv/dns/docker-compose.yaml", "up"})});
  CHECK(m.workloads[0].threat == ThreatClass::UntrustedInput);
  CHECK(signal_in(m.workloads[0], ThreatSignal::ServiceImage));
  // Its last component alone says nothing: another `compose` image is not taken for it.
  CHECK(m.workloads[1].threat == ThreatClass::UntrustedCode);
  CHECK_FALSE(signal_in(m.workloads[1], ThreatSignal::ServiceImage));
}

}  // namespace threat_class_stack_test
