// SARIF that GitHub code scanning accepts: the Multitool (SARIF and GitHub ingestion rules) and
// the SARIF 2.1.0 JSON schema, through tests/tools/validate_sarif.py (runnable by hand too).
#include <stdlib.h>
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "tests/fixture_harness.h"
#include "tests/report_fixture.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace report_sarif_validation_test {

using namespace sbr;

namespace {

// Runs the validator on `sarif`; returns its exit status, its output in `log`.
int validate(const std::string& sarif, std::string& log) {
  std::string log_path = sarif + ".validation.txt";
  std::string cmd = "python3 '" + test::source_dir() + "/tests/tools/validate_sarif.py' '" + sarif +
                    "' > '" + log_path + "' 2>&1";
  int rc = std::system(cmd.c_str());
  log = test::read_file(log_path);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::string temp_dir() {
  char tmpl[] = "/tmp/sbr-sarif-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}

}  // namespace

TEST_CASE("the SARIF of a real run over fixtures/ passes the Multitool and the schema", "[sarif]") {
  std::string sarif = temp_dir() + "/fixtures.sarif";
  std::string cmd = std::string(SBR_BINARY) + " check '" + test::source_dir() +
                    "/fixtures' --today 2026-06-15 --fail-on none --format sarif --output '" +
                    sarif + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::string log;
  int rc = validate(sarif, log);
  INFO(log);
  CHECK(rc == 0);
  CHECK(log.find(" 0 multitool errors") != std::string::npos);
  CHECK(log.find(" 0 schema errors") != std::string::npos);
}

TEST_CASE("a SARIF with every result shape passes the Multitool and the schema", "[sarif]") {
  // Suppressions, related locations, conditions, whole-file problems and notifications.
  test::ReportFixture fx;
  fx.findings[2].message = "drop: [ALL] is missing";  // escaped once links are embedded
  fx.findings[2].related.push_back({Location{}, "an engine default, in no file"});
  std::string sarif = temp_dir() + "/shapes.sarif";
  std::ofstream(sarif, std::ios::binary) << fx.sarif();
  std::string log;
  int rc = validate(sarif, log);
  INFO(log);
  CHECK(rc == 0);
  CHECK(log.find(" 0 multitool errors") != std::string::npos);
}

TEST_CASE("the validator does catch what GitHub rejects", "[sarif]") {
  // A %SRCROOT% that does not end in '/' is an error GitHub rejects: if the validator let it
  // pass, the two tests above would prove nothing.
  test::ReportFixture fx;
  std::string text = fx.sarif();
  auto replace = [&](const std::string& from, const std::string& to) {
    size_t pos = text.find(from);
    REQUIRE(pos != std::string::npos);
    text.replace(pos, from.size(), to);
  };
  replace("\"file:///work/repo/\"", "\"file:///work/repo\"");
  std::string sarif = temp_dir() + "/broken.sarif";
  std::ofstream(sarif, std::ios::binary) << text;
  std::string log;
  int rc = validate(sarif, log);
  INFO(log);
  CHECK(rc == 1);
  CHECK(log.find("SARIF1004") != std::string::npos);
}

}  // namespace report_sarif_validation_test
