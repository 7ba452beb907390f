// A compose project a launcher runs with a different set of overlays on each path
// (sdlcforge/ai-sandbox's index.sh): one name for the reader, each service named once.
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
namespace compose_variants_test {

using namespace sbr;

TEST_CASE("a project run with overlays chosen per path names each service once",
          "[compose][messages]") {
  MemoryTree t;
  t.add_file(
      "docker/docker-compose.yaml",
      "services:\n  ai-sandbox:\n    image: ghcr.io/acme/sandbox:1.0\n    cap_drop: [ALL]\n");
  for (const char* name : {"chromium", "proxy", "static", "mirror"}) {
    t.add_file(std::string("docker/docker-compose.") + name + ".yaml",
               "services:\n  ai-sandbox:\n    environment:\n      OVERLAY: \"" + std::string(name) +
                   "\"\n");
  }
  t.add_file("bin/ai-sandbox", R"(#!/bin/bash
set -euo pipefail
FILES="-f docker/docker-compose.yaml -f docker/docker-compose.proxy.yaml"
FILES="$FILES -f docker/docker-compose.static.yaml"
if [ "${WITH_CHROMIUM:-false}" = true ]; then
  FILES="$FILES -f docker/docker-compose.chromium.yaml"
fi
if [ "${MODE:-static}" = mirror ]; then
  FILES="$FILES -f docker/docker-compose.mirror.yaml"
fi
docker compose -p ai-sandbox $FILES up -d
)");
  Analysis a = analyze(t, Config{}, {});
  RunOptions run;
  run.today = "2026-06-15";
  std::vector<Finding> findings = run_checks(a.model, Catalog::embedded(), Config{}, run);
  const Finding* no_pids = nullptr;
  for (const Finding& f : findings) {
    if (f.rule_id.str() == "SB6003" && no_pids == nullptr) no_pids = &f;
  }
  REQUIRE(no_pids != nullptr);
  const std::string m = no_pids->message.str();
  INFO(m);
  CHECK(m.find("compose docker/docker-compose.yaml with its overlays, run by bin/ai-sandbox "
               "(ai-sandbox)") != std::string::npos);
  CHECK(m.find("ai-sandbox, ai-sandbox") == std::string::npos);
  // The default path's three files are listed; the three paths with four or five files share
  // one name, so the project is named once for them.
  CHECK(m.find("compose docker/docker-compose.yaml + docker/docker-compose.proxy.yaml + "
               "docker/docker-compose.static.yaml, run by bin/ai-sandbox (ai-sandbox) and") !=
        std::string::npos);
  CHECK(m.find("with its overlays") == m.rfind("with its overlays"));
}

}  // namespace compose_variants_test
