// Hostile nesting through the whole binary: each input a pull request could carry ends in an
// SB0007 budget finding at its place and an ordinary exit (1: a high finding), never a crash,
// for every recursive walk: command substitutions, ifs, subshells, arithmetic, parameter
// defaults, nested function calls and a chain of sourced files.
#include <sys/wait.h>
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <string>

#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace bash_hostile_binary_test {

namespace {

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

struct Run {
  int exit_code = -1;
  bool signalled = false;
  std::string out;
};

Run check(const sbr::test::TempDir& dir) {
  std::string cmd =
      std::string(SBR_BINARY) + " check --format json --jobs 1 '" + dir.path.string() + "' 2>&1";
  Run r;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.signalled = WIFSIGNALED(status);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

struct Hostile {
  const char* name;
  std::string script;
};

}  // namespace

TEST_CASE("hostile nesting ends in SB0007 and exit 1 from the binary, never a crash",
          "[bash-nesting][binary]") {
  const Hostile cases[] = {
      {"2,000 nested $(",
       "echo " + repeat("$(echo ", 2000) + "x" + repeat(")", 2000) + "\ndocker run img\n"},
      {"3,000 nested if",
       repeat("if true; then\n", 3000) + "docker run img\n" + repeat("fi\n", 3000)},
      {"5,000 nested subshells", repeat("( ", 5000) + "docker run img" + repeat(" )", 5000) + "\n"},
      {"deep arithmetic", "n=$((" + repeat("(", 5000) + "1" + repeat(")", 5000) + "))\n"},
      {"deep ${a:-${b:-...}}",
       "x=\"" + repeat("${a:-", 3000) + "v" + repeat("}", 3000) + "\"\ndocker run img\n"},
      {"3,000 nested function calls",
       [] {
         std::string s;
         for (int i = 0; i < 3000; ++i)
           s += "f" + std::to_string(i) + "() { f" + std::to_string(i + 1) + "; }\n";
         return s + "f0\n";
       }()},
      {"3,000 nested [[ ( ) ]]",
       "if [[ " + repeat("( ", 3000) + "-n x" + repeat(" )", 3000) + " ]]; then :; fi\n"},
  };
  for (const Hostile& h : cases) {
    INFO(h.name);
    sbr::test::TempDir dir("sbr-hostile");
    dir.write("run.sh", "#!/bin/bash\nset -euo pipefail\n" + h.script);
    Run r = check(dir);
    CHECK_FALSE(r.signalled);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("\"rule\": \"SB0007\"") != std::string::npos);
  }
}

TEST_CASE("a chain of 200 sourced files ends in SB0007 from the binary", "[bash-nesting][binary]") {
  sbr::test::TempDir dir("sbr-hostile");
  // `source ./x` is relative to the working directory: the launcher's, here the root.
  dir.write("run.sh", "#!/bin/bash\nsource ./s0.sh\n");
  for (int i = 0; i < 200; ++i)
    dir.write("s" + std::to_string(i) + ".sh", "source ./s" + std::to_string(i + 1) + ".sh\n");
  Run r = check(dir);
  CHECK_FALSE(r.signalled);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("`source` nested too deeply") != std::string::npos);
}

}  // namespace bash_hostile_binary_test
