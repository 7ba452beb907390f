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

namespace compose_variants_test {

TEST_CASE("compose resolves a launcher's project against --project-directory", "[compose]") {
  // YujiSuzuki/ai-sandbox's cli_sandbox: `docker-compose -f ./cli_sandbox/docker-compose.yml
  // --project-directory . run`, whose `build:` names `.sandbox/Dockerfile` at the top.
  MemoryTree t;
  t.add_file(".sandbox/Dockerfile",
             "FROM debian:12@sha256:" + std::string(64, 'a') + "\nUSER 1000:1000\n");
  t.add_file("cli_sandbox/docker-compose.yml",
             "services:\n  cli-sandbox:\n    image: workspace-cli-sandbox:latest\n    build:\n"
             "      context: .\n      dockerfile: .sandbox/Dockerfile\n");
  t.add_file("cli_sandbox/claude.sh", R"(#!/bin/bash
set -euo pipefail
docker-compose -f ./cli_sandbox/docker-compose.yml --project-directory . run --rm cli-sandbox claude
)");
  Analysis a = analyze(t, Config{}, {});
  const Workload* w = nullptr;
  for (const Workload& x : a.model.workloads) {
    if (x.id.container == "cli-sandbox") w = &x;
  }
  REQUIRE(w != nullptr);
  CHECK(w->id.render_root.find("cli_sandbox/claude.sh") != std::string::npos);
  CHECK(w->dockerfile == ".sandbox/Dockerfile");
  CHECK_FALSE(w->unseen_build.has_value());
  // Read alone (its own directory), the same build names cli_sandbox/.sandbox/Dockerfile.
  MemoryTree alone;
  alone.add_file("cli_sandbox/docker-compose.yml",
                 "services:\n  cli-sandbox:\n    build:\n      context: .\n"
                 "      dockerfile: .sandbox/Dockerfile\n");
  Analysis b = analyze(alone, Config{}, {});
  REQUIRE(b.model.workloads.size() == 1);
  REQUIRE(b.model.workloads[0].unseen_build.has_value());
  CHECK(b.model.workloads[0].unseen_build->dockerfile == "cli_sandbox/.sandbox/Dockerfile");
  CHECK_FALSE(b.model.workloads[0].unseen_build->from_environment);
}

TEST_CASE("compose interpolates a launcher's project with the variables it exports", "[compose]") {
  // sdlcforge/ai-sandbox: `export HOST_HOME=${HOME}` before `docker compose ... up`, and the
  // overlays mount `${HOST_HOME}/.claude` and `${HOST_HOME}/.config`.
  MemoryTree t;
  t.add_file("docker/docker-compose.yaml",
             "services:\n  ai-sandbox:\n    image: ghcr.io/acme/sandbox:1.0\n    volumes:\n"
             "      - ${HOST_HOME}/.claude:${HOST_HOME}/.claude\n"
             "      - ${SANDBOX_DATA}:/data\n      - ${TAG_DIR}/x:/x\n");
  t.add_file("bin/up", R"(#!/bin/bash
set -euo pipefail
export HOST_HOME=${HOME}
export SANDBOX_DATA="$1"
TAG_DIR=/opt/not-exported
docker compose -f docker/docker-compose.yaml up -d
)");
  Analysis a = analyze(t, Config{}, {});
  std::vector<std::string> sources;
  for (const Workload& w : a.model.workloads) {
    for (const Mount& m : w.mounts) sources.push_back(m.source);
  }
  CAPTURE(sources);
  REQUIRE(sources.size() == 3);
  CHECK(sources[0] == "$HOME/.claude");  // the host's home: ~/.claude
  // An argument is not known, and an unexported variable is not compose's: both stay unknown.
  CHECK(sources[1].find("<unknown $SANDBOX_DATA>") != std::string::npos);
  CHECK(sources[2].find("<unknown $TAG_DIR>") != std::string::npos);
}

}  // namespace compose_variants_test
