// Files linked by what the configuration says (issue 8 §7): which repository file sits at an
// in-container path (bind mounts, COPY, working directory), what a command line runs, an
// OpenShift Template's parameters filled everywhere, and the devcontainer a pod builds itself
// (envbuilder with a remote URL, the devcontainer CLI).
#include <catch2/catch.hpp>

#include <string>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/frontends/container_paths.h"
#include "analyzer/frontends/gates/run_paths.h"
#include "analyzer/pipeline/analysis.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace container_links_test {

using namespace sbr;

namespace {

Mount bind(std::string source, std::string target, Frontend fe, FileId file) {
  Mount m;
  m.kind = MountKind::HostPath;
  m.source = std::move(source);
  m.target = std::move(target);
  m.source_from = Provenance{Location{file, 1, 1}, fe, {}};
  return m;
}

std::string file_at(const Workload& w, const std::string& path, const RepositoryFiles& repo,
                    PathUse use = PathUse::Program) {
  auto f = repository_file_at(w, path, use, repo);
  return f ? f->repo_path : "<none>";
}

const Workload* find(const Model& m, Engine engine, const std::string& name) {
  for (const Workload& w : m.workloads) {
    if (w.engine == engine && w.id.name == name) return &w;
  }
  return nullptr;
}

std::vector<Finding> findings_of(const Analysis& an, const Config& config) {
  return run_checks(an.model, Catalog::embedded(), config, {"2026-01-01"});
}

bool has(const std::vector<Finding>& fs, const char* rule, const std::string& part = "") {
  for (const Finding& f : fs) {
    if (f.rule_id == rule && f.message.find(part) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("a bind mount's source is resolved as the engine resolves it", "[links]") {
  FileTable t;
  const FileId script = t.add("bin/up.sh");
  const FileId compose = t.add("deploy/stack.yml");
  const FileId dev = t.add("svc/.devcontainer/devcontainer.json");
  t.add("bin/gate/fw.sh");
  t.add("gate/fw.sh");
  t.add("deploy/gate/apply.sh");
  t.add("svc/tools/fw.sh");
  const RepositoryFiles repo(t);
  // A launcher's relative source: the repository's top first, then the script's directory.
  CHECK(bind_source_in_repository(bind("./gate", "/g", Frontend::Bash, script), repo) == "gate");
  CHECK(bind_source_in_repository(bind("$PWD/gate/fw.sh", "/g", Frontend::Bash, script), repo) ==
        "gate/fw.sh");
  CHECK(bind_source_in_repository(bind("bin/gate", "/g", Frontend::Bash, script), repo) ==
        "bin/gate");
  // Compose sources arrive resolved against the compose file's directory.
  CHECK(bind_source_in_repository(bind("./deploy/gate", "/g", Frontend::Compose, compose), repo) ==
        "deploy/gate");
  // devcontainer runArgs keep the CLI's variable: the workspace folder holding .devcontainer.
  CHECK(bind_source_in_repository(
            bind("${localWorkspaceFolder}/tools", "/g", Frontend::Devcontainer, dev), repo) ==
        "svc/tools");
  // Outside the repository, or not there: nothing.
  CHECK_FALSE(bind_source_in_repository(bind("/etc/gate", "/g", Frontend::Bash, script), repo));
  CHECK_FALSE(bind_source_in_repository(bind("~/gate", "/g", Frontend::Bash, script), repo));
  CHECK_FALSE(
      bind_source_in_repository(bind("../up/gate", "/g", Frontend::Compose, compose), repo));
  CHECK_FALSE(bind_source_in_repository(bind("./missing", "/g", Frontend::Bash, script), repo));
  CHECK(devcontainer_workspace_folder("svc/.devcontainer/devcontainer.json") == "svc");
  CHECK(devcontainer_workspace_folder(".devcontainer/py/devcontainer.json").empty());
  CHECK(devcontainer_workspace_folder("app/.devcontainer.json") == "app");
}

TEST_CASE("an in-container path is the file of the deepest mount over it, else the image's",
          "[links]") {
  FileTable t;
  const FileId script = t.add("run.sh");
  t.add("gate/fw.sh");
  t.add("gate/rules/egress.nft");
  t.add("image/fw.sh");
  const RepositoryFiles repo(t);
  Workload w;
  w.mounts.push_back(bind(".", "/work", Frontend::Bash, script));
  w.mounts.push_back(bind("./gate", "/work/gate", Frontend::Bash, script));
  w.image_files.push_back({"/usr/local/bin/fw.sh", "image/fw.sh", {}});
  w.image_files.push_back({"/opt/fw.sh", "image/fw.sh", {}});
  CHECK(file_at(w, "/work/gate/fw.sh", repo) == "gate/fw.sh");
  CHECK(file_at(w, "/work/gate/rules/egress.nft", repo) == "gate/rules/egress.nft");
  CHECK(file_at(w, "/work/gate/../image/fw.sh", repo) == "image/fw.sh");
  CHECK(file_at(w, "/usr/local/bin/fw.sh", repo) == "image/fw.sh");
  // A bare program name runs from PATH; a script given to a shell starts in the working dir.
  CHECK(file_at(w, "fw.sh", repo) == "image/fw.sh");
  CHECK(file_at(w, "gate/fw.sh", repo, PathUse::ShellScript) == "<none>");  // no working dir
  w.working_dir = fact(std::string("/work"), Provenance{});
  CHECK(file_at(w, "gate/fw.sh", repo, PathUse::ShellScript) == "gate/fw.sh");
  CHECK(file_at(w, "./gate/fw.sh", repo, PathUse::File) == "gate/fw.sh");
  // A volume over a path the image filled: its content is the volume's, not known.
  Mount vol;
  vol.kind = MountKind::NamedVolume;
  vol.source = "tools";
  vol.target = "/opt";
  w.mounts.push_back(vol);
  CHECK(file_at(w, "/opt/fw.sh", repo) == "<none>");
  // A path the input leaves open, or under a mount of a host path outside the repository.
  CHECK(file_at(w, "$GATE/fw.sh", repo) == "<none>");
  w.mounts.push_back(bind("/srv/gates", "/srv/g", Frontend::Bash, script));
  CHECK(file_at(w, "/srv/g/fw.sh", repo) == "<none>");
  // A target component the input does not name (the checkout's folder) matches any one.
  Workload dev;
  dev.mounts.push_back(bind(".", "/workspaces/<workspace>", Frontend::Devcontainer, script));
  CHECK(file_at(dev, "/workspaces/agent/gate/fw.sh", repo) == "gate/fw.sh");
}

TEST_CASE("what a command line runs or loads, past the wrappers", "[links]") {
  auto paths = [](const std::string& text) {
    std::vector<std::string> out;
    for (const RunPath& p : run_paths_of_shell(text, Provenance{})) {
      out.push_back((p.loaded ? "load " : "run ") + p.path);
    }
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(paths("sudo -n /usr/local/bin/fw.sh") == V{"run /usr/local/bin/fw.sh"});
  CHECK(paths("sudo -u root -E env A=1 bash -eu .devcontainer/fw.sh --strict") ==
        V{"run .devcontainer/fw.sh"});
  CHECK(paths("nft -f /etc/sandbox/egress.nft && exec su-exec 1000 agent-loop") ==
        V{"load /etc/sandbox/egress.nft", "run agent-loop"});
  CHECK(paths("iptables-restore < /etc/fw/rules.v4; timeout -s KILL 30 /opt/check.sh") ==
        V{"load /etc/fw/rules.v4", "run /opt/check.sh"});
  CHECK(paths("sh -c '/opt/gate/apply.sh 2>/dev/null || exit 1'") ==
        V{"run /opt/gate/apply.sh", "run exit"});
  CHECK(paths("capsh --drop=cap_net_admin -- -c \"exec /opt/agent\"") == V{"run /opt/agent"});
  CHECK(paths(". /opt/env.sh") == V{"run /opt/env.sh"});
  // An argv: a word after a shell's -c is shell text; compose's string command is split.
  std::vector<Fact<std::string>> argv;
  for (const char* w : {"/sbin/tini", "--", "/bin/sh", "-c", "/opt/gate/fw.sh && exec agent"}) {
    argv.push_back(fact(std::string(w), Provenance{}));
  }
  auto from_argv = run_paths_of_argv(argv);
  REQUIRE(from_argv.size() == 2);
  CHECK(from_argv[0].path == "/opt/gate/fw.sh");
  std::vector<Fact<std::string>> one{
      fact(std::string("/opt/gate/apply.sh --strict"), Provenance{})};
  REQUIRE(run_paths_of_argv(one).size() == 1);
  CHECK(run_paths_of_argv(one)[0].path == "/opt/gate/apply.sh");
}

TEST_CASE("a compose command runs the gate script a bind mount puts there", "[links]") {
  test::TempDir dir("sbr-links");
  dir.write("deploy/gate/apply.sh",
            "#!/bin/sh\nnft -f - <<'R'\ntable inet f {\n  chain out {\n"
            "    type filter hook output priority 0; policy drop;\n  }\n}\nR\n");
  dir.write("gate/apply.sh", "#!/bin/sh\nnft add table inet other\n");
  dir.write("deploy/stack.yml",
            "services:\n  agent:\n    image: acme/agent:1\n    command: /opt/gate/apply.sh\n"
            "    volumes:\n      - ./gate:/opt/gate:ro\n");
  Config config;
  Analysis an = analyze({dir.path.string()}, config, {});
  const Workload* w = find(an.model, Engine::Compose, "deploy/stack.yml");
  REQUIRE(w != nullptr);
  REQUIRE(w->network.egress.size() == 1);
  CHECK(an.model.files.path(w->network.egress[0].from.at.file) == "deploy/gate/apply.sh");
  CHECK(w->unresolved_runs.empty());
}

TEST_CASE("a devcontainer's lifecycle command runs the script its Dockerfile copies", "[links]") {
  test::TempDir dir("sbr-links");
  const std::string fw = "#!/bin/bash\niptables -P OUTPUT DROP\nip6tables -P OUTPUT DROP\n";
  dir.write(".devcontainer/init-firewall.sh", fw);
  dir.write("tools/init-firewall.sh", "#!/bin/bash\niptables -P OUTPUT ACCEPT\n");
  dir.write(".devcontainer/Dockerfile",
            "FROM node:20\nCOPY init-firewall.sh /usr/local/bin/\nUSER node\n");
  dir.write(".devcontainer/devcontainer.json",
            "{\"build\": {\"dockerfile\": \"Dockerfile\"},\n"
            " \"postStartCommand\": \"sudo /usr/local/bin/init-firewall.sh\"}\n");
  Config config;
  Analysis an = analyze({dir.path.string()}, config, {});
  const Workload* w = find(an.model, Engine::Devcontainer, ".devcontainer/devcontainer.json");
  REQUIRE(w != nullptr);
  REQUIRE_FALSE(w->network.egress.empty());  // every gate of the copied script, none other
  for (const EgressGate& g : w->network.egress) {
    CHECK(an.model.files.path(g.from.at.file) == ".devcontainer/init-firewall.sh");
  }
  REQUIRE(w->working_dir);
  CHECK(w->working_dir->value == "/workspaces/<workspace>");
  CHECK_FALSE(has(findings_of(an, config), "SB0052"));

  // The same command with an image from a registry: nothing puts a repository file there.
  dir.write(".devcontainer/devcontainer.json",
            "{\"image\": \"mcr.microsoft.com/devcontainers/base:bookworm\",\n"
            " \"postStartCommand\": \"sudo /usr/local/bin/init-firewall.sh\"}\n");
  Analysis bare = analyze({dir.path.string()}, config, {});
  const Workload* b = find(bare.model, Engine::Devcontainer, ".devcontainer/devcontainer.json");
  REQUIRE(b != nullptr);
  CHECK(b->network.egress.empty());
  auto fs = findings_of(bare, config);
  CHECK(has(fs, "SB0052", "`/usr/local/bin/init-firewall.sh`"));
  CHECK(has(fs, "SB0052", "its postStartCommand runs"));
}

TEST_CASE("OpenShift Template parameters are filled in every value, as oc process does",
          "[links]") {
  test::TempDir dir("sbr-template");
  dir.write("template.yaml", R"(apiVersion: template.openshift.io/v1
kind: Template
metadata:
  name: agent
parameters:
  - name: UID
    value: "1000"
  - name: HOSTNET
    value: "true"
  - name: IMAGE
    value: quay.io/acme/agent:2
  - name: TOKEN
    required: true
  - name: SUFFIX
    generate: expression
    from: "[a-z]{5}"
objects:
  - apiVersion: v1
    kind: Pod
    metadata:
      name: agent-${SUFFIX}
    spec:
      hostNetwork: ${{HOSTNET}}
      containers:
        - name: main
          image: ${IMAGE}
          command: ["sh", "-c", "echo ${HOME} ${IMAGE}"]
          securityContext:
            runAsUser: ${{UID}}
            runAsGroup: ${UID}
          env:
            - name: GITHUB_TOKEN
              value: ${TOKEN}
)");
  Config config;
  Analysis an = analyze({dir.path.string()}, config, {});
  const Workload* w = find(an.model, Engine::Kubelet, "agent-<SUFFIX>");
  REQUIRE(w != nullptr);
  CHECK(w->image == "quay.io/acme/agent:2");
  REQUIRE(w->network.host_network);
  CHECK(w->network.host_network->value);  // ${{...}}: the value itself, a boolean
  REQUIRE(w->identity.run_as_user);
  CHECK(w->identity.run_as_user->value == 1000);
  CHECK_FALSE(w->identity.run_as_group);  // ${...} leaves a string: no number
  REQUIRE(w->command.size() == 3);
  // Only declared parameters are filled; ${HOME} is the shell's.
  CHECK(w->command[2].value == "echo ${HOME} quay.io/acme/agent:2");
  REQUIRE(w->env.size() == 1);
  CHECK(w->env[0].value == "<unknown $TOKEN>");
  CHECK(w->env[0].source == EnvSource::Symbolic);
  for (const Finding& f : findings_of(an, config)) {
    CHECK(f.message.find("${") == std::string::npos);
  }
}

TEST_CASE("envbuilder cloning a remote repository: linked when declared, a note otherwise",
          "[links]") {
  test::TempDir dir("sbr-envbuilder");
  dir.write(".devcontainer/devcontainer.json",
            "{\"image\": \"mcr.microsoft.com/devcontainers/base:bookworm\",\n"
            " \"features\": {\"ghcr.io/devcontainers/features/node:1\": {}}}\n");
  dir.write("deploy/pod.yaml", R"(apiVersion: v1
kind: Pod
metadata:
  name: env-agent
spec:
  containers:
    - name: workspace
      image: ghcr.io/coder/envbuilder:1.1.0
      env:
        - name: ENVBUILDER_GIT_URL
          value: https://bot:s3cret@github.com/Acme/agent-env.git#refs/heads/main
)");
  Config config;
  Analysis remote = analyze({dir.path.string()}, config, {});
  const Workload* pod = find(remote.model, Engine::Kubelet, "env-agent");
  REQUIRE(pod != nullptr);
  CHECK_FALSE(pod->runs_devcontainer);
  CHECK(find(remote.model, Engine::Devcontainer, ".devcontainer/devcontainer.json") != nullptr);
  auto fs = findings_of(remote, config);
  CHECK(has(fs, "SB0053", "https://github.com/Acme/agent-env.git"));
  CHECK(has(fs, "SB0053", "this repository's .devcontainer/devcontainer.json"));
  CHECK_FALSE(has(fs, "SB0053", "s3cret"));

  config.repository_urls = {"git@github.com:acme/agent-env"};
  Analysis declared = analyze({dir.path.string()}, config, {});
  pod = find(declared.model, Engine::Kubelet, "env-agent");
  REQUIRE(pod != nullptr);
  REQUIRE(pod->runs_devcontainer);
  CHECK(pod->runs_devcontainer->value == ".devcontainer/devcontainer.json");
  CHECK(pod->features.size() == 1);
  CHECK(find(declared.model, Engine::Devcontainer, ".devcontainer/devcontainer.json") == nullptr);
  CHECK_FALSE(has(findings_of(declared, config), "SB0053"));
}

TEST_CASE("the devcontainer CLI run inside a pod is linked to the file it names", "[links]") {
  test::TempDir dir("sbr-devcli");
  dir.write("envs/agent/.devcontainer/devcontainer.json",
            "{\"image\": \"mcr.microsoft.com/devcontainers/base:bookworm\",\n"
            " \"runArgs\": [\"--privileged\"]}\n");
  dir.write("envs/agent/k8s/runner.yaml", R"yaml(apiVersion: batch/v1
kind: Job
metadata:
  name: agent-run
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: runner
          image: node:20
          workingDir: /workspace
          command: ["sh", "-c"]
          args:
            - npx -y @devcontainers/cli@0.71 up --workspace-folder . && sleep infinity
        - name: elsewhere
          image: node:20
          args: ["devcontainer", "up", "--workspace-folder", "$(REPO_DIR)"]
)yaml");
  Config config;
  Analysis an = analyze({dir.path.string()}, config, {});
  const Workload* runner = nullptr;
  const Workload* elsewhere = nullptr;
  for (const Workload& w : an.model.workloads) {
    if (w.id.container == "runner") runner = &w;
    if (w.id.container == "elsewhere") elsewhere = &w;
  }
  REQUIRE(runner != nullptr);
  REQUIRE(runner->runs_devcontainer);
  CHECK(runner->runs_devcontainer->value == "envs/agent/.devcontainer/devcontainer.json");
  // The CLI starts it as a container of its own: its run options apply, so it stays judged.
  const Workload* dev =
      find(an.model, Engine::Devcontainer, "envs/agent/.devcontainer/devcontainer.json");
  REQUIRE(dev != nullptr);
  CHECK(dev->identity.privileged);
  REQUIRE(elsewhere != nullptr);
  CHECK_FALSE(elsewhere->runs_devcontainer);
  auto fs = findings_of(an, config);
  CHECK(has(fs, "SB0053",
            "container elsewhere builds and runs a devcontainer with the "
            "devcontainer CLI"));
  // Running a devcontainer is evidence of the agent's own container.
  CHECK(runner->threat == ThreatClass::UntrustedCode);
  CHECK(runner->threat_reason.find("builds and runs the devcontainer") != std::string::npos);
}

}  // namespace container_links_test
