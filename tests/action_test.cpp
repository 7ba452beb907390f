// action.yml's review step (scripts/action-run.sh) run locally: inputs arrive in environment
// variables and are never evaluated as shell, and the step writes SARIF and fails as --fail-on
// says.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/temp_dir.h"

namespace fs = std::filesystem;

namespace {

int run_action(const fs::path& dir, const std::string& env) {
  std::string cmd = "cd '" + dir.string() + "' && SBR_BIN='" + SBR_BINARY + "' " + env + " '" +
                    SBR_SOURCE_DIR + "/scripts/action-run.sh' >/dev/null 2>&1";
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
