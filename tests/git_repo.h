// Runs git in a test's repository with a fixed identity and no user or system configuration,
// so tests that build real repositories do not depend on the machine's git set-up.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/cli/cli.h"

namespace sbr::test {

inline void git(const std::filesystem::path& dir, const std::string& args) {
  std::string cmd = "cd '" + dir.string() +
                    "' && GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git -c user.name=t "
                    "-c user.email=t@example.invalid -c commit.gpgsign=false "
                    "-c init.defaultBranch=main " +
                    args + " >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
}

// Writes `text` at `file`, creating the directories on the way.
inline void write(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

struct DiffRun {
  int code;
  std::string out, err;
};

// `sbreview diff ARGS -C repo` in process, on a fixed date (acceptance expiry).
inline DiffRun diff(const std::filesystem::path& repo, std::vector<std::string> args) {
  args.insert(args.begin(), {"diff"});
  args.insert(args.end(), {"-C", repo.string(), "--today", "2026-06-15"});
  std::ostringstream out, err;
  int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace sbr::test
