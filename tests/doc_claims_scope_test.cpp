// Which workloads a document is about (docs/doc-claims.md, "Which workloads a document is
// about"): a page deep in a documentation tree speaks about the project above the tree, and a
// project's test harness is not what its README describes unless the README names it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyzer/check/catalog.h"
#include "analyzer/check/runner.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"
#include "analyzer/source/memory_tree.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace doc_claims_scope_test {

using namespace sbr;

namespace {

// The findings of `rule` as "path:line".
std::vector<std::string> reported(const MemoryTree& t, std::string_view rule) {
  Analysis an = analyze(t, Config{}, {});
  std::vector<std::string> out;
  for (const Finding& f : run_checks(an.model, Catalog::embedded(), Config{}, {"2026-01-01"})) {
    if (f.rule_id == rule)
      out.push_back(an.model.files.path(f.at.file) + ":" + std::to_string(f.at.line));
  }
  return out;
}

const char* kLauncher =
    "#!/usr/bin/env bash\n"
    "set -euo pipefail\n"
    "podman run --rm --runtime=runsc --user 1000:1000 --cap-drop=ALL --network none \\\n"
    "  -v \"$PWD:/workspace\" -v /var/run/docker.sock:/var/run/docker.sock agent:1\n";

}  // namespace

TEST_CASE("a page deep in a docs/ tree is about the repository above the tree", "[doc-claims]") {
  MemoryTree t;
  t.add_file("bin/agent-box", kLauncher);
  t.add_file("docs/explanations/decisions/0004-isolation.md",
             "# Isolation\n\nThe sandbox has no Docker socket.\n");
  t.add_file("website/docs/security.md", "# Security\n\nThe sandbox has no Docker socket.\n");
  CHECK(reported(t, "SB1101") ==
        std::vector<std::string>{"docs/explanations/decisions/0004-isolation.md:3",
                                 "website/docs/security.md:3"});
  CHECK(reported(t, "SB0032").empty());
}

TEST_CASE("a test harness is in a README's scope only when the README names it", "[doc-claims]") {
  MemoryTree t;
  t.add_file("bin/agent-box",
             "#!/usr/bin/env bash\nset -euo pipefail\n"
             "podman run --rm --runtime=runsc --network none agent:1\n");
  t.add_file("tests/e2e/run.sh", kLauncher);
  t.add_file("README.md", "# agent-box\n\nThe sandbox has no Docker socket.\n");
  CHECK(reported(t, "SB1101").empty());
  t.add_file("SECURITY.md", "# Security\n\n`tests/e2e/run.sh` has no Docker socket.\n");
  CHECK(reported(t, "SB1101") == std::vector<std::string>{"SECURITY.md:3"});
}

// sdlcforge/ai-sandbox's docs name their compose service `ai-sandbox`; in a run over several
// repositories, YujiSuzuki/ai-sandbox has a service of the same name.
TEST_CASE("a service name is first the document's own project's", "[doc-claims]") {
  MemoryTree t;
  t.add_file("one/compose.yaml",
             "services:\n  ai-sandbox:\n    image: agent:1\n"
             "    network_mode: none\n    runtime: runsc\n");
  t.add_file("one/README.md", "# one\n\nThe `ai-sandbox` service has no network.\n");
  t.add_file("two/compose.yaml", "services:\n  ai-sandbox:\n    image: agent:1\n");
  CHECK(reported(t, "SB5100").empty());
  CHECK(reported(t, "SB5101").empty());
}

TEST_CASE("a plan, a proposal or a roadmap claims nothing about today", "[doc-claims]") {
  MemoryTree t;
  t.add_file("bin/agent-box", kLauncher);
  t.add_file("docs/plans/api-v2.md", "# API v2\n\nThe sandbox has no Docker socket.\n");
  t.add_file("docs/ROADMAP.md", "# Roadmap\n\nThe sandbox has no Docker socket.\n");
  CHECK(reported(t, "SB1101").empty());
  CHECK(reported(t, "SB0032").empty());
}

}  // namespace doc_claims_scope_test
