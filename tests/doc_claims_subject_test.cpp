// Which sentences of a document are claims about the repository's workloads, and which
// workloads (issue 35): a how-to page that tells the reader to run a runtime, a list that
// documents environment variables and a changed limit claim nothing; a top-level docs/ page of
// a repository that holds several projects, none of them named, cannot be checked against all
// of them (kata-containers' docs against its installer, CSI plugin and webhook).
#include <catch2/catch.hpp>

#include <string>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/config/config.h"
#include "analyzer/frontends/markdown/vocabulary.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/source/memory_tree.h"
#include "invariants/doc_claims.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace doc_claims_subject_test {

using namespace sbr;

namespace {

Analysis analysed(const MemoryTree& t) {
  return analyze(t, Config{}, AnalyzeOptions{});
}

const Claim* claim_at(const Analysis& an, const std::string& doc, std::uint32_t line) {
  for (const Document& d : an.model.documents) {
    if (an.model.files.path(d.file) != doc) continue;
    for (const Claim& c : d.claims) {
      if (c.at.line == line) return &c;
    }
  }
  return nullptr;
}

std::string pod(const std::string& name) {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
         "\nspec:\n  containers:\n  - name: " + name + "\n    image: example/" + name + ":1.0\n";
}

}  // namespace

TEST_CASE("a how-to page that tells the reader to run the runtime claims nothing",
          "[claims][scope]") {
  MemoryTree t;
  t.add_file("tools/packaging/installer/deploy/installer.yaml", pod("installer"));
  t.add_file("docs/how-to/how-to-use-virtio-fs-with-kata.md",
             "# Kata Containers with virtio-fs\n"                                        // 1
             "\n"                                                                        // 2
             "This document describes the basics of running a kata container.\n"         // 3
             "\n"                                                                        // 4
             "For a running Kata container, this setting can be changed at run time.\n"  // 5
             "\n"                                                                        // 6
             "- [How to use Kata Containers and CRI-O](how-to-use-crio-and-kata.md)\n"   // 7
             "\n"                                                                        // 8
             "The installer runs every pod under Kata.\n");                              // 9
  Analysis an = analysed(t);
  const std::string doc = "docs/how-to/how-to-use-virtio-fs-with-kata.md";
  CHECK(claim_at(an, doc, 3) == nullptr);
  CHECK(claim_at(an, doc, 5) == nullptr);
  CHECK(claim_at(an, doc, 7) == nullptr);
  // A sentence that names what runs under the runtime is still a claim.
  const Claim* named = claim_at(an, doc, 9);
  REQUIRE(named != nullptr);
  CHECK(named->form == ClaimForm::HardenedRuntime);
  CHECK(inv::judge_claim(an.model, *named).kind == inv::VerdictKind::Contradicted);
}

TEST_CASE("words that document a variable or change a limit are not claims", "[claims][scope]") {
  MemoryTree t;
  t.add_file("deploy/agent.yaml", pod("agent"));
  t.add_file("README.md",
             "# Agent\n"                                                            // 1
             "\n"                                                                   // 2
             "- `KERNEL_CPUS_LIMIT` - CPU Limit\n"                                  // 3
             "- `KERNEL_MEMORY_LIMIT` - MEMORY Limit\n"                             // 4
             "\n"                                                                   // 5
             "**Fix**: Use a smaller model or increase the pod's memory limits.\n"  // 6
             "\n"                                                                   // 7
             "- **Unprivileged user namespaces** enabled on the host\n"             // 8
             "\n"                                                                   // 9
             "This time limit the scope to `connections:write` only.\n"             // 10
             "\n"                                                                   // 11
             "Every session has memory and CPU limits.\n");                         // 12
  Analysis an = analysed(t);
  for (std::uint32_t line : {3U, 4U, 6U, 8U, 10U}) {
    INFO("line " << line);
    CHECK(claim_at(an, "README.md", line) == nullptr);
  }
  const Claim* limits = claim_at(an, "README.md", 12);
  REQUIRE(limits != nullptr);
  CHECK(limits->form == ClaimForm::MemoryLimit);
}

TEST_CASE("the limits of the machine an engine or cluster runs on are not the sandbox's",
          "[claims][scope]") {
  // kagenti's install guide and kata's minikube guide.
  MemoryTree t;
  t.add_file("deploy/agent.yaml", pod("agent"));
  t.add_file("docs/install.md",
             "# Install\n"  // 1
             "\n"           // 2
             "Kind runs the platform on one control-plane node. That node\u2019s CPU and "
             "memory\n"                                                                     // 3
             "limits come from your container runtime (Podman machine, Docker Desktop).\n"  // 4
             "\n"                                                                           // 5
             "> - Adjust the `--memory 6144` line to suit your environment.\n"              // 6
             "\n"                                                                           // 7
             "Each agent pod has memory limits, so one agent cannot starve the node.\n");   // 8
  Analysis an = analysed(t);
  CHECK(claim_at(an, "docs/install.md", 3) == nullptr);
  const Claim* adjust = claim_at(an, "docs/install.md", 6);
  REQUIRE(adjust != nullptr);
  CHECK(adjust->mood == ClaimMood::Advice);
  const Claim* pods = claim_at(an, "docs/install.md", 8);
  REQUIRE(pods != nullptr);
  CHECK(pods->form == ClaimForm::MemoryLimit);
}

TEST_CASE("a top-level page of a repository of several projects names the one it describes",
          "[claims][scope]") {
  MemoryTree t;
  t.add_file("tools/packaging/installer/deploy/installer.yaml", pod("installer"));
  t.add_file("src/tools/csi-plugin/deploy/plugin.yaml", pod("csi-plugin"));
  t.add_file("tools/testing/webhook/deploy/webhook.yaml", pod("webhook"));
  t.add_file("sandbox/deploy/sandbox.yaml", pod("sandbox"));
  t.add_file("docs/security.md",
             "# Security\n"                               // 1
             "\n"                                         // 2
             "The container drops all capabilities.\n");  // 3
  t.add_file("docs/sandbox.md",
             "# The sandbox\n"                                           // 1
             "\n"                                                        // 2
             "The pods in `sandbox/deploy/` drop all capabilities.\n");  // 3
  Analysis an = analysed(t);
  const Claim* unnamed = claim_at(an, "docs/security.md", 3);
  REQUIRE(unnamed != nullptr);
  inv::ClaimVerdict v = inv::judge_claim(an.model, *unnamed);
  CHECK(v.kind == inv::VerdictKind::NotCheckable);
  CHECK(v.why.find("holds 4 projects") != std::string::npos);
  CHECK(v.why.find("`sandbox/`") != std::string::npos);
  const Claim* named = claim_at(an, "docs/sandbox.md", 3);
  REQUIRE(named != nullptr);
  inv::ClaimVerdict judged = inv::judge_claim(an.model, *named);
  REQUIRE(judged.kind == inv::VerdictKind::Contradicted);
  REQUIRE(judged.contradictions.size() == 1);
  CHECK(judged.contradictions.front().workload->id.name == "sandbox");
}

TEST_CASE("a repository whose top folder is a project keeps its documents' scope",
          "[claims][scope]") {
  MemoryTree t;
  t.add_file("compose.yaml", "services:\n  agent:\n    image: example/agent:1.0\n");
  t.add_file("tools/a/deploy/a.yaml", pod("a"));
  t.add_file("tools/b/deploy/b.yaml", pod("b"));
  t.add_file("tools/c/deploy/c.yaml", pod("c"));
  t.add_file("docs/security.md", "# Security\n\nThe agent runs under gVisor.\n");
  Analysis an = analysed(t);
  const Claim* c = claim_at(an, "docs/security.md", 3);
  REQUIRE(c != nullptr);
  CHECK(inv::judge_claim(an.model, *c).kind == inv::VerdictKind::Contradicted);
}

TEST_CASE("release notes record changes and claim nothing about today", "[claims][scope]") {
  MemoryTree t;
  t.add_file("deploy/agent.yaml", pod("agent"));
  t.add_file("docs/releases/4.1.0.md",
             "# 4.1.0\n"                                           // 1
             "\n"                                                  // 2
             "- The agent pod now has memory and CPU limits.\n");  // 3
  Analysis an = analysed(t);
  const Claim* c = claim_at(an, "docs/releases/4.1.0.md", 3);
  REQUIRE(c != nullptr);
  CHECK(c->mood == ClaimMood::Recorded);
  CHECK(inv::judge_claim(an.model, *c).kind == inv::VerdictKind::NotAClaim);
}

TEST_CASE("a comparison with other tools claims nothing about this configuration",
          "[claims][scope]") {
  // YujiSuzuki/ai-sandbox's docs/comparison.md: "Docker AI Sandboxes run AI agents in isolated
  // microVMs", of another product, was contradicted by this repository's containers.
  MemoryTree t;
  t.add_file("deploy/agent.yaml", pod("agent"));
  t.add_file("docs/comparison.md",
             "# Comparison\n"                                               // 1
             "\n"                                                           // 2
             "Docker AI Sandboxes run AI agents in isolated microVMs.\n");  // 3
  t.add_file("docs/security.md", "# Security\n\nThe agent runs in a microVM.\n");
  Analysis an = analysed(t);
  const Claim* c = claim_at(an, "docs/comparison.md", 3);
  REQUIRE(c != nullptr);
  CHECK(c->mood == ClaimMood::Compared);
  inv::ClaimVerdict v = inv::judge_claim(an.model, *c);
  CHECK(v.kind == inv::VerdictKind::NotAClaim);
  CHECK(v.why.find("a comparison (`comparison.md`)") == 0);
  // The same words in another document of the repository are still its claim.
  const Claim* own = claim_at(an, "docs/security.md", 3);
  REQUIRE(own != nullptr);
  CHECK(inv::judge_claim(an.model, *own).kind == inv::VerdictKind::Contradicted);
}

TEST_CASE("a jail inside the container is named by its tool or by its own flags",
          "[claims][scope]") {
  CHECK(sbr::md::inner_sandbox_named("bwrap runs `--cap-drop ALL`") == "bwrap");
  CHECK(sbr::md::inner_sandbox_named("the agent runs in a Bubblewrap jail") == "bwrap");
  CHECK(sbr::md::inner_sandbox_named("The base mount is `--ro-bind / /` and $HOME") == "bwrap");
  CHECK(sbr::md::inner_sandbox_named("Firejail profile per tool") == "firejail");
  CHECK(sbr::md::inner_sandbox_named("LANDLOCK rules limit writes") == "landlock");
  // The container's own flags, and words that only contain a tool's name, are not a jail.
  CHECK(sbr::md::inner_sandbox_named("podman runs `--cap-drop=ALL --read-only`").empty());
  CHECK(sbr::md::inner_sandbox_named("the unshared network").empty());
  CHECK(sbr::md::inner_sandbox_named("bwrapper script").empty());
}

TEST_CASE("a launch that only runs behind a switch is not on the default path a claim speaks of",
          "[claims][scope]") {
  // ContainAI's src/build.sh: `--build-setup` registers binfmt in a privileged helper that the
  // agent's sandbox never is; the README's "removed after each session" is about the sandbox.
  MemoryTree t;
  t.add_file("bin/agent-run",
             "#!/usr/bin/env bash\n"
             "set -euo pipefail\n"
             "if [[ \"${1:-}\" == --build-setup ]]; then\n"
             "  docker run --privileged tonistiigi/binfmt --install amd64,arm64\n"
             "  exit 0\n"
             "fi\n"
             "docker run --rm --network none ghcr.io/acme/agent:1 claude\n");
  t.add_file("README.md",
             "# Agent run\n"                                          // 1
             "\n"                                                     // 2
             "Containers are removed after each session.\n"           // 3
             "\n"                                                     // 4
             "Containers are always removed after each session.\n");  // 5
  Analysis an = analysed(t);
  const Claim* by_default = claim_at(an, "README.md", 3);
  REQUIRE(by_default != nullptr);
  CHECK(inv::judge_claim(an.model, *by_default).kind == inv::VerdictKind::Holds);
  // "always" speaks of every path, the switch's too.
  const Claim* always = claim_at(an, "README.md", 5);
  REQUIRE(always != nullptr);
  CHECK(inv::judge_claim(an.model, *always).kind == inv::VerdictKind::Contradicted);
}

}  // namespace doc_claims_subject_test
