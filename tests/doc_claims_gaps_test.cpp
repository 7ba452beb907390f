// Doc claims that name a platform ("on Linux", "under WSL") are judged on a launcher's paths
// for that platform; "implements layer N: AppArmor/seccomp profile P" is about the invocation
// or service the clause names; evidence outside the run is found in the repository around it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/source/memory_tree.h"
#include "analyzer/source/repository_files.h"
#include "invariants/doc_claims.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace doc_claims_gaps_test {

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
  const Claim& claim(std::uint32_t line) const {
    for (const Document& d : an.model.documents) {
      for (const Claim& c : d.claims) {
        if (c.at.line == line) return c;
      }
    }
    FAIL("no claim at line " << line);
    throw std::logic_error("unreachable");
  }
};

Run check(const MemoryTree& t, const RepositoryLookup* repo = nullptr, Config config = {}) {
  Run r;
  AnalyzeOptions ao;
  ao.repository = repo;
  r.an = analyze(t, config, ao);
  r.findings = run_checks(r.an.model, Catalog::embedded(), config, {"2026-01-01"});
  return r;
}

// A launcher with one branch per platform, the way real ones pick their runtime.
const char* const kPlatformLauncher =
    "#!/usr/bin/env bash\n"
    "set -euo pipefail\n"
    "ARGS=(--rm --cap-drop=ALL --user 1000:1000 --network none)\n"
    "case \"$(uname -s)\" in\n"
    "  Linux)\n"
    "    if uname -r | grep -qi microsoft; then\n"
    "      ARGS+=(--security-opt seccomp=/etc/box/seccomp.json)\n"
    "    else\n"
    "      ARGS+=(--runtime=runsc)\n"
    "    fi ;;\n"
    "  Darwin) ARGS+=(--security-opt label=disable) ;;\n"
    "esac\n"
    "if [[ $OSTYPE == darwin* ]]; then ARGS+=(--read-only); fi\n"
    "exec podman run \"${ARGS[@]}\" ghcr.io/example/agent:1 \"$@\"\n";

bool has_platform(const Condition& c, const std::string& p) {
  return std::any_of(c.atoms.begin(), c.atoms.end(),
                     [&](const CondAtom& a) { return a.platform == p; });
}

}  // namespace

TEST_CASE("a path condition knows which platform it runs on", "[claims][platform]") {
  auto when = [](std::string platform) {
    return Condition::when(CondAtom{"t", "not t", "", "", std::move(platform)}, false);
  };
  CHECK(on_platform(when("linux"), "linux"));
  CHECK(on_platform(when("linux"), "wsl"));  // uname -s says Linux under WSL
  CHECK_FALSE(on_platform(when("wsl"), "linux"));
  CHECK_FALSE(on_platform(when("!linux"), "wsl"));
  CHECK(on_platform(when("!wsl"), "linux"));
  CHECK_FALSE(on_platform(when("macos"), "linux"));
  CHECK(on_platform(when("macos"), ""));
  CHECK(on_platform(when(""), "macos"));
}

TEST_CASE("a launcher's platform tests are platform conditions, not switches",
          "[claims][platform]") {
  MemoryTree t;
  t.add_file("bin/box", kPlatformLauncher);
  Run r = check(t);
  REQUIRE(r.an.model.workloads.size() == 1);
  const Workload& w = r.an.model.workloads.front();
  REQUIRE(w.runtime_class);
  const Condition& runtime = w.runtime_class->from.condition();
  CHECK(has_platform(runtime, "linux"));
  CHECK(has_platform(runtime, "!wsl"));
  CHECK_FALSE(runtime.needs_switch);
  REQUIRE(w.identity.read_only_root);
  CHECK(has_platform(w.identity.read_only_root->from.condition(), "macos"));
  CHECK_FALSE(w.identity.read_only_root->from.condition().needs_switch);
}

TEST_CASE("a claim that names a platform is judged on that platform's paths",
          "[claims][platform]") {
  MemoryTree t;
  t.add_file("bin/box", kPlatformLauncher);
  t.add_file("SECURITY.md",
             "# Security\n"                                                 // 1
             "\n"                                                           // 2
             "On Linux the agent runs under gVisor.\n"                      // 3
             "\n"                                                           // 4
             "Under WSL the agent runs under gVisor too.\n"                 // 5
             "\n"                                                           // 6
             "On macOS the container has a read-only root filesystem.\n"    // 7
             "\n"                                                           // 8
             "On Linux the container has a read-only root filesystem.\n");  // 9
  Run r = check(t);
  CHECK(r.claim(3).platform == "linux");
  CHECK(r.claim(5).platform == "wsl");
  CHECK(inv::judge_claim(r.an.model, r.claim(3)).kind == inv::VerdictKind::Holds);
  CHECK(inv::judge_claim(r.an.model, r.claim(5)).kind == inv::VerdictKind::Contradicted);
  CHECK(inv::judge_claim(r.an.model, r.claim(7)).kind == inv::VerdictKind::Holds);
  CHECK(inv::judge_claim(r.an.model, r.claim(9)).kind == inv::VerdictKind::Contradicted);
  std::vector<std::uint32_t> lines;
  for (const Finding* f : r.of("SB1100")) lines.push_back(f->at.line);
  CHECK(lines == std::vector<std::uint32_t>{5});
  CHECK(r.of("SB0032").empty());  // none of them is "not checkable" any more
}

TEST_CASE("a launch inside another platform's branch is not judged for this platform",
          "[claims][platform]") {
  MemoryTree t;
  t.add_file("bin/box",
             "#!/bin/sh\n"
             "set -eu\n"
             "case \"$(uname)\" in\n"
             "  Darwin) exec podman run --rm --cap-drop=ALL ghcr.io/example/agent:1 ;;\n"
             "  *) exec podman run --rm ghcr.io/example/agent:1 ;;\n"
             "esac\n");
  t.add_file("README.md", "# box\n\nOn macOS the sandbox drops all capabilities.\n");
  Run r = check(t);
  REQUIRE(r.an.model.workloads.size() == 2);
  CHECK(inv::judge_claim(r.an.model, r.claim(3)).kind == inv::VerdictKind::Holds);
}

TEST_CASE("a layer claim is about the invocation or service it names", "[claims][layers]") {
  MemoryTree t;
  t.add_file("compose.yaml",
             "services:\n"
             "  agent:\n"
             "    image: ghcr.io/example/agent:1\n"
             "    runtime: runsc\n"
             "    security_opt: [no-new-privileges:true, apparmor=agent-sandbox]\n"
             "  proxy:\n"
             "    image: docker.io/ubuntu/squid:6.6\n"
             "    security_opt: [apparmor=squid-egress]\n");
  t.add_file("SECURITY.md",
             "# Layers\n"                                                                     // 1
             "\n"                                                                             // 2
             "- The `agent` service implements layer 2: AppArmor profile `agent-sandbox`.\n"  // 3
             "- The `proxy` service implements layer 3: AppArmor profile squid-egress.\n"     // 4
             "- The `agent` service implements layer 4: seccomp profile `agent.json`.\n");    // 5
  Run r = check(t);
  const Claim& proxy = r.claim(4);
  CHECK(proxy.form == ClaimForm::AppArmorProfile);
  CHECK(proxy.value == "squid-egress");
  CHECK(proxy.subject == "proxy");
  CHECK(inv::judge_claim(r.an.model, r.claim(3)).kind == inv::VerdictKind::Holds);
  CHECK(inv::judge_claim(r.an.model, proxy).kind == inv::VerdictKind::Holds);
  inv::ClaimVerdict seccomp = inv::judge_claim(r.an.model, r.claim(5));
  REQUIRE(seccomp.kind == inv::VerdictKind::Contradicted);
  REQUIRE(seccomp.contradictions.size() == 1);
  CHECK(seccomp.contradictions.front().workload->id.container == "agent");
}

TEST_CASE("evidence outside the run is found in the repository, never through a symlink",
          "[claims][evidence]") {
  MemoryTree repo;
  repo.add_file("tests/e2e/caps.bats", "run podman run --cap-drop=ALL x\n");
  repo.add_file("outside/secret.txt", "--cap-drop=ALL\n");
  repo.add_symlink("tests/e2e/linked.bats", "../../outside/secret.txt");
  repo.add_symlink("tests/linked-dir", "../outside");
  const std::string model =
      "| Threat | Stopped by | Evidence |\n"
      "|---|---|---|\n"
      "| caps | `--cap-drop=ALL` | `tests/e2e/caps.bats` |\n"
      "| link | `--cap-drop=ALL` | `tests/e2e/linked.bats` |\n"
      "| dir | `--cap-drop=ALL` | `tests/linked-dir/secret.txt` |\n"
      "| up | `--cap-drop=ALL` | `../../../../etc/passwd` |\n";
  repo.add_file("deploy/docs/threat-model.md", model);
  RepositoryLookup lookup(repo, "deploy");
  CHECK(lookup.files_at("tests/e2e/caps.bats").size() == 1);
  CHECK(lookup.files_at("tests/e2e/linked.bats").empty());
  CHECK(lookup.files_at("tests/linked-dir/secret.txt").empty());
  CHECK(lookup.files_at("tests").size() == 1);  // the folder's one regular file

  // The run is deploy/ alone: its threat model cites files of the repository's top.
  MemoryTree run;
  run.add_file("docs/threat-model.md", model);
  Run with = check(run, &lookup);
  std::vector<std::string> resolved;
  for (const ClaimEvidence& e : with.an.model.documents.front().evidence)
    resolved.push_back(e.resolved);
  CHECK(resolved == std::vector<std::string>{"tests/e2e/caps.bats", "", "", ""});
  Run without = check(run);
  CHECK(without.of("SB0030").size() == 4);
  CHECK(with.of("SB0030").size() == 3);
}

}  // namespace doc_claims_gaps_test
