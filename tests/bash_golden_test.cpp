// Golden dumps of the launcher fixtures: a change in the renderer shows as a diff of the
// rendered argument lists and script facts, not as a scatter of rule failures.
// Regenerate with SBR_UPDATE_GOLDEN=1 build/sbreview_tests "[bash-golden]".
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "analyzer/pipeline/analysis.h"
#include "analyzer/render/bash/render.h"
#include "analyzer/report/script_dump.h"
#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_golden_test {

using namespace sbr;

namespace {

std::string dump_dir(const std::string& dir) {
  Config cfg;
  AnalyzeOptions ao;
  Analysis a = analyze({dir}, cfg, ao);
  std::ostringstream os;
  for (const ScriptFacts& s : a.model.scripts) report::dump_script(a.model, s, os);
  for (const Problem& p : a.model.problems) {
    os << "problem " << a.model.files.path(p.at.file) << ":" << p.at.line << ":" << p.at.column
       << " " << p.message << "\n";
  }
  return os.str();
}

}  // namespace

TEST_CASE("launcher fixtures match their golden dumps", "[bash][bash-golden]") {
  for (const char* name : {"agentbox", "agentbox-validated", "iptables-allowlist", "entrypoint"}) {
    DYNAMIC_SECTION(name) {
      std::string base = test::source_dir() + "/fixtures/launchers/";
      std::string got = dump_dir(base + name);
      std::string golden_path = base + "golden/" + name + ".dump";
      if (std::getenv("SBR_UPDATE_GOLDEN") != nullptr) {
        std::ofstream(golden_path) << got;
      }
      std::ifstream in(golden_path);
      std::stringstream want;
      want << in.rdbuf();
      CHECK(got == want.str());
    }
  }
}

TEST_CASE("dumps never print a secret value", "[bash]") {
  std::string dir = test::source_dir() + "/fixtures/launchers/agentbox";
  std::string d = dump_dir(dir);
  CHECK(d.find("ANTHROPIC_API_KEY=") != std::string::npos);
  // A literal key in a script is redacted in the dump.
  SourceFile f;
  f.id = 0;
  f.path = "x.sh";
  f.bytes = "podman run -e GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 img\n";
  f.readable = true;
  Model m;
  m.files.add("x.sh");
  ScriptFacts s;
  s.file = 0;
  s.invocations = bash::render_script(f, nullptr).invocations;
  std::ostringstream os;
  report::dump_script(m, s, os);
  CHECK(os.str().find("ghp_abcdef") == std::string::npos);
  CHECK(os.str().find("GITHUB_TOKEN=<redacted>") != std::string::npos);
}

}  // namespace bash_golden_test
