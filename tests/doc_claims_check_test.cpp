// The doc-claim checks (invariants/doc_claims_*.cpp) over whole small repositories: a
// contradicted claim is reported at the document's line under its control's invariant with the
// configuration's location as related, a claim that holds reports nothing, evidence is resolved,
// and a document speaks about the workloads of its scope only.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/report/report.h"
#include "analyzer/source/memory_tree.h"
#include "invariants/doc_claims.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace doc_claims_check_test {

using namespace sbr;

namespace {

struct Run {
  Analysis an;
  std::vector<Finding> findings;

  std::vector<const Finding*> of(std::string_view rule) const {
    std::vector<const Finding*> out;
    for (const Finding& f : findings) {
      if (f.rule_id == rule) out.push_back(&f);
    }
    return out;
  }
  std::string path(const Location& at) const { return an.model.files.path(at.file); }
  std::string dump() const {
    std::ostringstream os;
    write_model_dump(an.model, os);
    return os.str();
  }
};

Run check(const MemoryTree& t, const Config& config = {}) {
  Run r;
  r.an = analyze(t, config, {});
  r.findings = run_checks(r.an.model, Catalog::embedded(), config, {"2026-01-01"});
  return r;
}

// A launcher whose flags come from a function, so that the facts have a provenance chain.
std::string launcher(const std::string& extra, const std::string& mounts = "") {
  return "#!/usr/bin/env bash\n"                                             // 1
         "set -euo pipefail\n"                                               // 2
         "opts() {\n"                                                        // 3
         "  flags+=(--rm --runtime=runsc --user 1000:1000 --read-only)\n"    // 4
         "  flags+=(--security-opt no-new-privileges --cap-drop=ALL)\n"      // 5
         "  flags+=(--memory=4g --cpus=2 --pids-limit=512 --timeout 600)\n"  // 6
         "  flags+=(" +
         extra +
         ")\n"         // 7
         "}\n"         // 8
         "flags=()\n"  // 9
         "opts\n"      // 10
         "podman run \"${flags[@]}\" --network none " +
         mounts + " localhost/agent:1\n";  // 11
}

}  // namespace

TEST_CASE("a contradicted claim: at the document's line, the launcher's flag related",
          "[doc-claims]") {
  MemoryTree t;
  t.add_file("bin/run.sh", launcher("--cap-add=NET_ADMIN"));
  t.add_file("README.md", "# Agent\n\nThe sandbox drops all capabilities.\n");
  Run r = check(t);
  auto f = r.of("SB2100");
  REQUIRE(f.size() == 1);
  CHECK(r.path(f[0]->at) == "README.md");
  CHECK(f[0]->at.line == 3);
  CHECK(f[0]->at.column == 13);
  CHECK(f[0]->invariant == 2);
  CHECK(f[0]->severity == Severity::High);
  CHECK(f[0]->message ==
        "README.md claims \"drops all capabilities\", but launcher bin/run.sh (line 11) adds "
        "NET_ADMIN back");
  REQUIRE_FALSE(f[0]->related.empty());
  CHECK(r.path(f[0]->related[0].at) == "bin/run.sh");
  CHECK(f[0]->related[0].at.line == 7);
  CHECK(f[0]->related[0].message == "the capability is added here");
  // The flag's way into the launch (the array element, then its use) follows as related steps.
  CHECK(f[0]->related.size() > 1);
}

TEST_CASE("a critical weakness under the claim gives the critical rule", "[doc-claims]") {
  MemoryTree t;
  std::string script = launcher("--cap-add=SYS_ADMIN");
  script.replace(script.find("--runtime=runsc "), 16, "");
  t.add_file("run.sh", script);
  t.add_file("SECURITY.md", "All capabilities are dropped.\n");
  Run r = check(t);
  REQUIRE(r.of("SB2101").size() == 1);
  CHECK(r.of("SB2101")[0]->severity == Severity::Critical);
  CHECK(r.of("SB2100").empty());
}

TEST_CASE("claims that hold report nothing, --dump-model shows their verdicts", "[doc-claims]") {
  MemoryTree t;
  t.add_file("run.sh", launcher("", "-v \"$HOME/.agents:/home/agent/.agents:ro\""));
  t.add_file("docs/threat-model.md",
             "| Attack | Stopped by |\n|---|---|\n"
             "| escalation | `--cap-drop=ALL`, `--security-opt no-new-privileges` |\n"
             "| fork bomb | `--pids-limit=512` |\n\n"
             "The root filesystem is read-only and there is no network.\n"
             "`~/.agents` is mounted read-only. It runs under gVisor as a non-root user.\n");
  Run r = check(t);
  for (const Finding& f : r.findings) {
    INFO(f.rule_id << " " << f.message);
    CHECK(r.path(f.at) != "docs/threat-model.md");
  }
  std::string dump = r.dump();
  CHECK(dump.find("document docs/threat-model.md (8 claims; about the workloads under the top "
                  "folder and those it names)") != std::string::npos);
  CHECK(dump.find("  claim cap-drop-all table `--cap-drop=ALL` @ docs/threat-model.md:3:17 "
                  "(asserted)\n    verdict: holds: 1 workload") != std::string::npos);
  CHECK(dump.find("verdict: contradicted") == std::string::npos);
}

TEST_CASE("evidence: a missing file is low, a file that never names the control a note",
          "[doc-claims]") {
  MemoryTree t;
  t.add_file("run.sh", launcher(""));
  t.add_file("tests/net.bats", "@test 'egress' { curl -m 5 https://example.com && false; }\n");
  t.add_file("tests/caps.bats", "@test 'caps' { podman inspect | grep -- --cap-drop; }\n");
  t.add_file("docs/threat-model.md",
             "| Attack | Mitigation | Verified by |\n|---|---|---|\n"
             "| escalation | `--cap-drop=ALL` | `tests/caps.bats` |\n"
             "| exfiltration | `--network none` | `tests/net.bats`, `tests/gone.bats` |\n");
  Run r = check(t);
  auto missing = r.of("SB0030");
  REQUIRE(missing.size() == 1);
  CHECK(missing[0]->at.line == 4);
  CHECK(missing[0]->at.column == 56);
  CHECK(missing[0]->severity == Severity::Low);
  auto silent = r.of("SB0031");
  REQUIRE(silent.size() == 1);
  CHECK(silent[0]->at.line == 4);
  CHECK(silent[0]->message ==
        "`tests/net.bats`, cited by docs/threat-model.md as evidence, never mentions "
        "`--network none` as a literal token");
  CHECK(silent[0]->severity == Severity::Note);
}

TEST_CASE("a claim only the default path of a switch breaks, and 'always'", "[doc-claims]") {
  MemoryTree t;
  t.add_file("run.sh",
             "#!/usr/bin/env bash\nset -euo pipefail\n"
             "net=(--network none)\n"
             "if [[ \"${AGENT_NET:-}\" == full ]]; then net=(--network host); fi\n"
             "podman run --rm --runtime=runsc --cap-drop=ALL \"${net[@]}\" localhost/a:1\n");
  t.add_file("README.md",
             "There is no network.\n\nThe launcher always blocks all outbound traffic.\n");
  Run r = check(t);
  // "no network" is about the default path, where it holds.
  for (const Finding& f : r.findings) CHECK(!(r.path(f.at) == "README.md" && f.at.line == 1));
  auto always = r.of("SB5101");
  REQUIRE(always.size() == 1);
  CHECK(always[0]->at.line == 3);
  CHECK(always[0]->message.find("shares the host's network namespace") != std::string::npos);
}

TEST_CASE("scope: a document speaks about its project folder and what it names", "[doc-claims]") {
  MemoryTree t;
  t.add_file("a/run.sh", launcher(""));
  t.add_file("b/run.sh", launcher("--cap-add=NET_RAW"));
  // docs/ climbs to a/, which does not hold b/run.sh.
  t.add_file("a/docs/model.md", "Every container drops all capabilities.\n");
  // b/README.md is about b/.
  t.add_file("b/README.md", "Every container drops all capabilities.\n");
  // A document with no workload in scope: not checkable.
  t.add_file("c/README.md", "Every container drops all capabilities.\n");
  Run r = check(t);
  auto f = r.of("SB2100");
  REQUIRE(f.size() == 1);
  CHECK(r.path(f[0]->at) == "b/README.md");
  auto nc = r.of("SB0032");
  REQUIRE(nc.size() == 1);
  CHECK(r.path(nc[0]->at) == "c/README.md");
  CHECK(nc[0]->message ==
        "c/README.md claims \"drops all capabilities\", which cannot be checked: no workload in "
        "the document's scope");

  // Configured: the same document about b/ instead.
  Config config;
  DocumentScope s;
  s.path = "a/docs/*.md";
  s.about = {"b/**"};
  config.documents.push_back(s);
  Run c = check(t, config);
  auto g = c.of("SB2100");
  REQUIRE(g.size() == 2);
  CHECK(c.path(g[0]->at) == "a/docs/model.md");
}

TEST_CASE("a Kubernetes field is not judged against a launcher", "[doc-claims]") {
  MemoryTree t;
  t.add_file("run.sh", launcher(""));
  t.add_file("README.md", "Pods set `readOnlyRootFilesystem: true`.\n");
  Run r = check(t);
  auto nc = r.of("SB0032");
  REQUIRE(nc.size() == 1);
  CHECK(nc[0]->message.find("no Kubernetes workload in the document's scope") != std::string::npos);
}

TEST_CASE("a runtime boundary is judged against sandboxes only and never the platform beside them",
          "[doc-claims]") {
  // kata's how-to: "running Kata" named `kata-deploy`, the installer DaemonSet, whose
  // ServiceAccount patches nodes (untrusted-input): it was the contradiction.
  MemoryTree t;
  t.add_file(
      "deploy/kata-deploy.yaml",
      "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: kata-deploy-sa\n"
      "  namespace: kube-system\n---\n"
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n"
      "  name: kata-deploy-role\nrules:\n  - apiGroups: [\"\"]\n"
      "    resources: [\"nodes\"]\n    verbs: [\"get\", \"patch\"]\n---\n"
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n"
      "  name: kata-deploy-rb\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n"
      "  kind: ClusterRole\n  name: kata-deploy-role\nsubjects:\n"
      "  - kind: ServiceAccount\n    name: kata-deploy-sa\n    namespace: kube-system\n"
      "---\n"
      "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: kata-deploy\n"
      "  namespace: kube-system\nspec:\n  selector:\n    matchLabels: {name: kata-deploy}\n"
      "  template:\n    metadata:\n      labels: {name: kata-deploy}\n    spec:\n"
      "      serviceAccountName: kata-deploy-sa\n      containers:\n"
      "        - name: kube-kata\n          image: quay.io/kata-containers/kata-deploy:3.2.0\n");
  t.add_file(
      "docs/how-to/run-with-kata.md",
      "# Run a pod with Kata\n\nInstall `kata-deploy` first. Pods that select the runtime class "
      "run in a Kata VM.\n");
  Run r = check(t);
  CHECK(r.of("SB1100").empty());
  CHECK(r.of("SB1101").empty());
  // The claim was read and judged: with no sandbox in its scope, it cannot be checked.
  auto nc = r.of("SB0032");
  REQUIRE(nc.size() == 1);
  CHECK(nc[0]->message.find("claims \"run in a Kata\", which cannot be checked") !=
        std::string::npos);
}

TEST_CASE("a conditional or hedged claim is a note, a negated one is nothing", "[doc-claims]") {
  MemoryTree t;
  t.add_file("run.sh", launcher(""));
  t.add_file("README.md",
             "When `--strict` is given, the root filesystem is read-only.\n\n"
             "We do not pass `--privileged`.\n\nWe do not use `--rm` either.\n");
  Run r = check(t);
  auto nc = r.of("SB0032");
  REQUIRE(nc.size() == 1);
  CHECK(nc[0]->at.line == 1);
  CHECK(nc[0]->message.find("conditional (`when`)") != std::string::npos);
}

TEST_CASE("examples are analysed only when configured, and named as examples", "[doc-claims]") {
  MemoryTree t;
  t.add_file("README.md", "# Use\n\n```bash\npodman run --privileged localhost/agent:1\n```\n");
  Run plain = check(t);
  CHECK(plain.of("SB1001").empty());
  CHECK(plain.dump().find("  example shell @ README.md:4:1 not analysed") != std::string::npos);

  Config config;
  DocumentScope s;
  s.path = "README.md";
  s.examples = true;
  config.documents.push_back(s);
  Run r = check(t, config);
  auto f = r.of("SB1001");
  REQUIRE(f.size() == 1);
  CHECK(r.path(f[0]->at) == "README.md");
  CHECK(f[0]->at.line == 4);
  CHECK(f[0]->message.rfind("example (README.md:4) launcher README.md", 0) == 0);
}

TEST_CASE("documents: in .sbreview.yaml", "[doc-claims][config]") {
  auto ok = parse_config(
      "documents:\n"
      "  - path: docs/*.md\n"
      "    about: [bin/agentbox, deploy]\n"
      "  - path: README.md\n"
      "    about: bin\n"
      "    examples: true\n"
      "  - path: CHANGELOG.md\n"
      "    claims: false\n",
      "c.yaml", 0);
  REQUIRE(ok);
  REQUIRE(ok->documents.size() == 3);
  CHECK(ok->documents[0].about == std::vector<std::string>{"bin/agentbox", "deploy"});
  CHECK(ok->documents[0].at.line == 2);
  CHECK(ok->documents[1].about == std::vector<std::string>{"bin"});
  CHECK(ok->documents[1].examples);
  CHECK_FALSE(ok->documents[2].claims);
  auto no_path = parse_config("documents:\n  - about: [bin]\n", "c.yaml", 0);
  REQUIRE_FALSE(no_path);
  CHECK(no_path.error().message == "c.yaml:2:5: a `documents` entry needs `path`");
  auto bad_key = parse_config("documents:\n  - path: a.md\n    scope: x\n", "c.yaml", 0);
  REQUIRE_FALSE(bad_key);
  CHECK(bad_key.error().message == "c.yaml:3:5: unknown key `scope` in a `documents` entry");
  auto bad_bool = parse_config("documents:\n  - path: a.md\n    examples: maybe\n", "c.yaml", 0);
  REQUIRE_FALSE(bad_bool);
  CHECK(bad_bool.error().message == "c.yaml:3:15: `examples` must be true or false");
}

// The repository whose documents tell the truth: every claim holds, nothing is reported, and
// the claims were read (so "nothing reported" is not "nothing extracted").
TEST_CASE("a repository whose claims all hold reports nothing", "[doc-claims][fixtures]") {
  const std::string dir = test::source_dir() + "/fixtures/claims/agentbox-holds";
  test::FixtureResult r = test::run_fixture_dir(dir, {}, true);
  INFO(r.describe());
  CHECK(r.findings.empty());
  std::string dump = test::model_dump_of("fixtures/claims/agentbox-holds");
  std::size_t holds = 0, claims = 0;
  for (std::size_t at = dump.find("  claim "); at != std::string::npos;
       at = dump.find("  claim ", at + 1)) {
    ++claims;
  }
  for (std::size_t at = dump.find("verdict: holds"); at != std::string::npos;
       at = dump.find("verdict: holds", at + 1)) {
    ++holds;
  }
  CHECK(claims >= 15);
  CHECK(holds == claims);
}

}  // namespace doc_claims_check_test
