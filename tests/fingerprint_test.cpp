// Structural fingerprints (sbreview/v3): the edits that do not change a finding (rewording,
// lines or an unrelated launch or object above, another order of files and documents) leave
// every fingerprint as it was; changing the offending value changes it. Kubernetes and
// launcher inputs, through the whole pipeline on temporary directories.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/fingerprint.h"
#include "analyzer/check/runner.h"
#include "analyzer/pipeline/analysis.h"
#include "generated/rule_ids.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace fingerprint_test {

using namespace sbr;
namespace fs = std::filesystem;

namespace {

struct TempDir : test::TempDir {
  TempDir() : test::TempDir("sbr-fingerprint") {}
};

using Files = std::map<std::string, std::string>;

// Every finding of a run over `roots` (sub-directories of `t`), analysed in that order.
std::vector<Finding> run_in(const TempDir& t, const std::vector<std::string>& roots) {
  std::vector<std::string> paths;
  for (const auto& r : roots) paths.push_back((t.path / r).string());
  Config config;
  Analysis an = analyze(paths, config, {});
  return run_checks(an.model, Catalog::embedded(), config, {"2026-01-01"});
}

// Every finding of a run over `files`. With one root, file paths are relative to it, so runs
// in different temporary directories are comparable.
std::vector<Finding> run(const Files& files) {
  TempDir t;
  for (const auto& [rel, text] : files) t.write(rel, text);
  return run_in(t, {""});
}

// rule id -> its fingerprints, the shape compared across edits.
std::multiset<std::string> fingerprints(const std::vector<Finding>& fs) {
  std::multiset<std::string> out;
  for (const auto& f : fs) out.insert(std::string(f.rule_id) + " " + f.fingerprint);
  return out;
}

std::set<std::string> of_rule(const std::vector<Finding>& fs, std::string_view rule) {
  std::set<std::string> out;
  for (const auto& f : fs) {
    if (f.rule_id == rule) out.insert(f.fingerprint);
  }
  return out;
}

bool includes(const std::multiset<std::string>& big, const std::multiset<std::string>& small) {
  return std::includes(big.begin(), big.end(), small.begin(), small.end());
}

const char* const kLauncher =
    "#!/bin/bash\n"
    "set -euo pipefail\n"
    "start_agent() {\n"
    "  local flags=()\n"
    "  flags+=(--cap-add NET_ADMIN)\n"
    "  podman run --rm \"${flags[@]}\" -v /var/run/docker.sock:/var/run/docker.sock \\\n"
    "    localhost/agent:1 agent-loop\n"
    "}\n"
    "main() {\n"
    "  start_agent\n"
    "}\n"
    "main \"$@\"\n";

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  auto p = s.find(from);
  REQUIRE(p != std::string::npos);
  return s.replace(p, from.size(), to);
}

const char* const kDeployment =
    "apiVersion: apps/v1\n"
    "kind: Deployment\n"
    "metadata: {name: agent, namespace: sandboxes}\n"
    "spec:\n"
    "  template:\n"
    "    spec:\n"
    "      containers:\n"
    "      - name: main\n"
    "        image: agent:1\n"
    "        securityContext:\n"
    "          capabilities: {add: [NET_ADMIN]}\n"
    "        volumeMounts:\n"
    "        - {name: sock, mountPath: /var/run/docker.sock}\n"
    "        - {name: cache, mountPath: /cache}\n"
    "      volumes:\n"
    "      - name: sock\n"
    "        hostPath: {path: /var/run/docker.sock}\n"
    "      - name: cache\n"
    "        hostPath: {path: /srv/cache}\n";

const char* const kOtherPod =
    "apiVersion: v1\n"
    "kind: Pod\n"
    "metadata: {name: other, namespace: sandboxes}\n"
    "spec:\n"
    "  containers:\n"
    "  - name: c\n"
    "    image: other:1\n"
    "    securityContext: {privileged: true}\n";

}  // namespace

TEST_CASE("a fingerprint is made of structure, not of message text or lines", "[fingerprint]") {
  auto findings = run({{"run-agent.sh", kLauncher}, {"k8s/agent.yaml", kDeployment}});
  REQUIRE(findings.size() > 4);
  for (Finding f : findings) {
    std::string before = f.fingerprint;
    REQUIRE(before == fingerprint(f));
    f.message = "reworded: " + f.message.str() + " (and said differently)";
    f.at.line += 40;
    f.at.column += 3;
    for (auto& r : f.related) r.at.line += 40;
    CHECK(fingerprint(f) == before);
    f.fact_path = f.fact_path.str() + ".changed";
    CHECK(fingerprint(f) != before);
  }
}

TEST_CASE("the condition is a set of terms: the order they were joined in does not matter",
          "[fingerprint]") {
  Finding a;
  a.rule_id = rule::privileged_container;
  a.subject = "s";
  a.set_condition({"when MODE=full and GPU is set", true});
  Finding b = a;
  b.set_condition({"when GPU is set and MODE=full", true});
  CHECK(fingerprint(a) == fingerprint(b));
  b.set_condition({"when GPU is set and MODE=lite", true});
  CHECK(fingerprint(a) != fingerprint(b));
  b.set_condition({"when MODE=full and GPU is set", false});
  CHECK(fingerprint(a) != fingerprint(b));
}

TEST_CASE("launcher fingerprints survive lines and an unrelated launch above", "[fingerprint]") {
  auto base = run({{"run-agent.sh", kLauncher}});
  REQUIRE_FALSE(of_rule(base, "SB2004").empty());
  REQUIRE_FALSE(of_rule(base, "SB1005").empty());

  std::string lines_above =
      replaced(kLauncher, "set -euo pipefail\n",
               "set -euo pipefail\n# Starts the agent.\nLOG=/tmp/agent.log\necho starting\n\n");
  CHECK(fingerprints(run({{"run-agent.sh", lines_above}})) == fingerprints(base));

  // Another launch before the agent's, in its own function, called first: the agent's launch
  // is now the second launch of the script (`Invocation::sequence` moved) but not elsewhere.
  std::string launch_above =
      replaced(replaced(kLauncher, "main() {\n",
                        "prepare() {\n  podman run --rm localhost/helper:2 true\n}\nmain() {\n"),
               "  start_agent\n", "  prepare\n  start_agent\n");
  auto with_launch = run({{"run-agent.sh", launch_above}});
  CHECK(with_launch.size() > base.size());
  CHECK(includes(fingerprints(with_launch), fingerprints(base)));

  // The same, written inline just above the agent's launch in the same function.
  std::string inline_launch = replaced(kLauncher, "  podman run --rm \"${flags",
                                       "  podman run --rm localhost/helper:2 true\n"
                                       "  podman run --rm \"${flags");
  CHECK(includes(fingerprints(run({{"run-agent.sh", inline_launch}})), fingerprints(base)));
}

TEST_CASE("launcher fingerprints change with the offending value", "[fingerprint]") {
  auto base = run({{"run-agent.sh", kLauncher}});
  auto cap = run({{"run-agent.sh", replaced(kLauncher, "NET_ADMIN", "SYS_PTRACE")}});
  REQUIRE_FALSE(of_rule(cap, "SB2004").empty());
  CHECK(of_rule(cap, "SB2004") != of_rule(base, "SB2004"));
  CHECK(of_rule(cap, "SB1005") == of_rule(base, "SB1005"));

  auto sock =
      run({{"run-agent.sh",
            replaced(kLauncher, "-v /var/run/docker.sock:", "-v /run/podman/podman.sock:")}});
  REQUIRE_FALSE(of_rule(sock, "SB1005").empty());
  CHECK(of_rule(sock, "SB1005") != of_rule(base, "SB1005"));
  CHECK(of_rule(sock, "SB2004") == of_rule(base, "SB2004"));
}

TEST_CASE("a launch in another function is another workload", "[fingerprint]") {
  // Same flags, same image, launched from a different function: not the same launch.
  std::string moved = replaced(replaced(kLauncher, "start_agent() {", "start_worker() {"),
                               "  start_agent\n", "  start_worker\n");
  auto base = run({{"run-agent.sh", kLauncher}});
  auto other = run({{"run-agent.sh", moved}});
  REQUIRE_FALSE(of_rule(other, "SB2004").empty());
  CHECK(of_rule(other, "SB2004") != of_rule(base, "SB2004"));
}

TEST_CASE("Kubernetes fingerprints survive lines, objects and files in another order",
          "[fingerprint]") {
  auto base = run({{"k8s/agent.yaml", kDeployment}});
  REQUIRE_FALSE(of_rule(base, "SB2004").empty());
  REQUIRE_FALSE(of_rule(base, "SB3008").empty());

  std::string commented = std::string("# The agent.\n# Reviewed.\n\n") + kDeployment;
  CHECK(fingerprints(run({{"k8s/agent.yaml", commented}})) == fingerprints(base));

  // An unrelated object above, in the same file, then after it.
  std::string two = std::string(kOtherPod) + "---\n" + kDeployment;
  std::string two_swapped = std::string(kDeployment) + "---\n" + kOtherPod;
  auto first = run({{"k8s/agent.yaml", two}});
  CHECK(includes(fingerprints(first), fingerprints(base)));
  CHECK(fingerprints(run({{"k8s/agent.yaml", two_swapped}})) == fingerprints(first));

  // Two roots, given in either order (several roots keep their paths as given: one directory).
  TempDir t;
  t.write("a/agent.yaml", kDeployment);
  t.write("b/other.yaml", kOtherPod);
  auto ab = run_in(t, {"a", "b"});
  CHECK(ab.size() > base.size());
  CHECK(fingerprints(ab) == fingerprints(run_in(t, {"b", "a"})));
}

TEST_CASE("Kubernetes fingerprints change with the offending value", "[fingerprint]") {
  auto base = run({{"k8s/agent.yaml", kDeployment}});
  auto cap = run({{"k8s/agent.yaml", replaced(kDeployment, "NET_ADMIN", "SYS_PTRACE")}});
  CHECK(of_rule(cap, "SB2004") != of_rule(base, "SB2004"));
  CHECK(of_rule(cap, "SB3008") == of_rule(base, "SB3008"));
  auto host = run({{"k8s/agent.yaml", replaced(kDeployment, "hostPath: {path: /srv/cache",
                                               "hostPath: {path: /srv/models")}});
  REQUIRE_FALSE(of_rule(host, "SB3008").empty());
  CHECK(of_rule(host, "SB3008") != of_rule(base, "SB3008"));
  // Another container name is another workload.
  auto renamed = run({{"k8s/agent.yaml", replaced(kDeployment, "- name: main", "- name: side")}});
  CHECK(of_rule(renamed, "SB2004") != of_rule(base, "SB2004"));
}

TEST_CASE("the launch path names the functions on the way, the command and the container",
          "[fingerprint]") {
  TempDir t;
  t.write("run-agent.sh", replaced(kLauncher, "  podman run --rm \"${flags",
                                   "  podman run --rm localhost/helper:2 true\n"
                                   "  podman run --rm localhost/helper:3 true\n"
                                   "  docker container run --name web nginx:1\n"
                                   "  podman run --rm \"${flags"));
  t.write("top.sh", "#!/bin/sh\npodman run --rm alpine:3 true\n");
  Config config;
  Analysis an = analyze({t.path.string()}, config, {});
  std::vector<std::string> paths;
  for (const auto& w : an.model.workloads) paths.push_back(w.id.launch_path);
  CHECK(paths == std::vector<std::string>{
                     "main>start_agent>podman run:image=localhost/helper",
                     "main>start_agent>podman run:image=localhost/helper#2",
                     "main>start_agent>docker container run:name=web",
                     "main>start_agent>podman run:image=localhost/agent",
                     "podman run:image=alpine",
                 });
}

}  // namespace fingerprint_test
