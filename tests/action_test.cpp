// action.yml's review step (scripts/action-run.sh) run locally: inputs arrive in environment
// variables and are never evaluated as shell, and the step writes SARIF (complete, for a diff),
// the step summary and annotations, and fails as --fail-on says.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/git_repo.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace action_test {

namespace fs = std::filesystem;

namespace {

// Runs the step in `dir` with `env`; its stdout goes to `out` (a file in `dir`).
int run_action(const fs::path& dir, const std::string& env, const std::string& out = "/dev/null") {
  std::string cmd = "cd '" + dir.string() + "' && SBR_BIN='" + SBR_BINARY + "' " + env + " '" +
                    SBR_SOURCE_DIR + "/scripts/action-run.sh' >'" + out + "' 2>/dev/null";
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace

TEST_CASE("the action's inputs are data, never shell", "[action]") {
  sbr::test::TempDir dir("sbr-action");
  fs::create_directories(dir.path / "k8s");
  std::ofstream(dir.path / "k8s/pod.yaml") << "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                                              "spec:\n  containers:\n  - name: c\n    image: x\n"
                                              "    securityContext: {privileged: true}\n";
  const fs::path planted = dir.path / "planted";
  // A pull request that controls `paths` tries to run a command: it must stay a (missing) path.
  std::string hostile = "SBR_PATHS='k8s $(touch " + planted.string() + ") ;touch " +
                        planted.string() + "' SBR_FAIL_ON=none";
  run_action(dir.path, hostile);
  CHECK_FALSE(fs::exists(planted));

  CHECK(run_action(dir.path, "SBR_PATHS=k8s SBR_FAIL_ON=high SBR_SARIF=out.sarif") == 1);
  CHECK(fs::file_size(dir.path / "out.sarif") > 0);
  CHECK(run_action(dir.path, "SBR_PATHS=k8s SBR_FAIL_ON=none SBR_SARIF=out.sarif") == 0);
  CHECK(run_action(dir.path, "SBR_PATHS=k8s SBR_FAIL_ON='high;id'") == 2);
}

TEST_CASE("the action writes the step summary, with a base, annotations and a full SARIF",
          "[action]") {
  sbr::test::TempDir dir("sbr-action-ci");
  auto pod = [&](bool privileged) {
    fs::create_directories(dir.path / "k8s");
    std::ofstream(dir.path / "k8s/pod.yaml")
        << "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
           "    image: x\n    securityContext: {privileged: "
        << (privileged ? "true" : "false") << "}\n";
  };
  pod(false);
  CHECK(run_action(dir.path, "SBR_PATHS=k8s SBR_FAIL_ON=none GITHUB_STEP_SUMMARY=summary.md") == 0);
  std::ifstream summary(dir.path / "summary.md");
  std::string first;
  std::getline(summary, first);
  CHECK(first.rfind("## sbreview: ", 0) == 0);

  sbr::test::git(dir.path, "init -q");
  sbr::test::git(dir.path, "add k8s");
  sbr::test::git(dir.path, "commit -q -m base");
  sbr::test::git(dir.path, "tag base");
  pod(true);
  sbr::test::git(dir.path, "commit -q -am privileged");
  CHECK(run_action(dir.path,
                   "SBR_PATHS=k8s SBR_BASE=base SBR_SARIF=d.sarif "
                   "GITHUB_STEP_SUMMARY=diff.md",
                   "annotations.txt") == 1);
  std::ifstream annotations(dir.path / "annotations.txt");
  std::string line;
  std::getline(annotations, line);
  CHECK(line.rfind("::error file=k8s/pod.yaml,line=8,", 0) == 0);
  std::ifstream sarif(dir.path / "d.sarif");
  std::string log((std::istreambuf_iterator<char>(sarif)), std::istreambuf_iterator<char>());
  CHECK(log.find("\"baselineState\": \"new\"") != std::string::npos);
  CHECK(log.find("\"baselineState\": \"unchanged\"") != std::string::npos);
  std::ifstream diff_summary(dir.path / "diff.md");
  std::getline(diff_summary, first);
  CHECK(first.rfind("## sbreview diff base&#46;&#46;HEAD: ", 0) == 0);
}

}  // namespace action_test
