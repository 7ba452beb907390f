// Runs git in a test's repository with a fixed identity and no user or system configuration,
// so tests that build real repositories do not depend on the machine's git set-up.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace sbr::test {

inline void git(const std::filesystem::path& dir, const std::string& args) {
  std::string cmd = "cd '" + dir.string() +
                    "' && GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git -c user.name=t "
                    "-c user.email=t@example.invalid -c commit.gpgsign=false "
                    "-c init.defaultBranch=main " +
                    args + " >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
}

}  // namespace sbr::test
