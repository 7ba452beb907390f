// `diff` through the CI formats, on a real git repository: GitHub annotations and the Markdown
// summary carry only what the change adds (and what it fixes, with --show-fixed), while a SARIF
// written in the same run keeps the unchanged results that code scanning needs.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analyzer/cli/cli.h"
#include "tests/git_repo.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace diff_summary_formats_test {

using namespace sbr;
namespace fs = std::filesystem;

namespace {

using test::diff;
using test::write;
using Run = test::DiffRun;

std::string deployment(const std::string& name, bool privileged) {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
         "\n  namespace: agents\nspec:\n  selector:\n    matchLabels: {app: " + name +
         "}\n  template:\n    metadata:\n      labels: {app: " + name +
         "}\n    spec:\n      runtimeClassName: gvisor\n      containers:\n"
         "        - name: agent\n          image: ghcr.io/acme/agent@sha256:" +
         std::string(64, 'b') + "\n          securityContext:\n            privileged: " +
         (privileged ? "true" : "false") + "\n";
}

// Base: two deployments. Change: lines shifted in one, the other made privileged.
struct Repo : test::TempDir {
  Repo() : test::TempDir("sbr-diff-ci") {
    write(path / "deploy/web.yaml", deployment("web", false));
    write(path / "deploy/agent.yaml", deployment("agent", false));
    test::git(path, "init -q");
    test::git(path, "add -A");
    test::git(path, "commit -q -m base");
    test::git(path, "tag base");
    write(path / "deploy/web.yaml", "---\n# web tier\n" + deployment("web", false));
    write(path / "deploy/agent.yaml", deployment("agent", true));
    test::git(path, "commit -q -am 'agent: privileged for FUSE'");
  }
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("diff --format github annotates only the new findings", "[diff][report]") {
  Repo repo;
  Run r = diff(repo.path, {"base..HEAD", "--format", "github"});
  CHECK(r.code == 1);
  auto lines = lines_of(r.out);
  REQUIRE_FALSE(lines.empty());
  bool privileged = false;
  for (const auto& l : lines) {
    CHECK(l.find(" file=deploy/agent.yaml,line=") != std::string::npos);
    privileged = privileged || l.rfind(
                                   "::error file=deploy/agent.yaml,line=18,col=25,"
                                   "title=SB1001 ",
                                   0) == 0;
  }
  CHECK(privileged);
  Run same = diff(repo.path, {"HEAD..HEAD", "--format", "github"});
  CHECK(same.code == 0);
  CHECK(same.out.empty());
}

TEST_CASE("diff --format markdown summarises the new findings, SARIF keeps the rest",
          "[diff][report]") {
  Repo repo;
  const fs::path sarif = repo.path / "out.sarif";
  Run r = diff(repo.path, {"base..HEAD", "--format", "markdown", "--format", "sarif", "--output",
                           sarif.string()});
  CHECK(r.code == 1);
  CHECK(r.out.rfind("## sbreview diff base&#46;&#46;HEAD: ", 0) == 0);
  CHECK(r.out.find("### New findings\n\n") != std::string::npos);
  CHECK(r.out.find("### Fixed") == std::string::npos);
  size_t items = count(r.out, "\n- **");
  CHECK(items > 0);
  CHECK(count(r.out, " deploy/agent&#46;yaml\\:") == items);
  CHECK(r.out.find("web&#46;yaml") == std::string::npos);
  CHECK(r.out.find("](https://github.com/sbreview/sbreview/blob/main/docs/rules/SB1001-") !=
        std::string::npos);

  std::ifstream in(sarif);
  const nlohmann::json log = nlohmann::json::parse(in);
  size_t fresh = 0, unchanged = 0;
  for (const auto& x : log["runs"][0]["results"]) {
    fresh += x["baselineState"] == "new";
    unchanged += x["baselineState"] == "unchanged";
  }
  CHECK(fresh == items);
  CHECK(unchanged > 0);  // deploy/web.yaml's findings, whose lines moved
}

TEST_CASE("diff --format markdown --show-fixed lists the fixed findings", "[diff][report]") {
  Repo repo;
  Run r = diff(repo.path, {"HEAD..base", "--show-fixed", "--format", "markdown"});
  CHECK(r.out.find(" fixed\n\n") != std::string::npos);
  size_t fixed_at = r.out.find("### Fixed\n\n");
  REQUIRE(fixed_at != std::string::npos);
  CHECK(r.out.find("- **critical** [SB1001](", fixed_at) != std::string::npos);
  CHECK(r.out.find(") deploy/agent&#46;yaml\\:18\\:25: ", fixed_at) != std::string::npos);
  // Without --show-fixed the section is absent.
  CHECK(diff(repo.path, {"HEAD..base", "--format", "markdown"}).out.find("### Fixed") ==
        std::string::npos);
}

}  // namespace diff_summary_formats_test
