// The text report: compiler-style lines, the source line with a caret, remediation, related
// locations, acceptances, a summary; control characters never reach the terminal.
#include <catch2/catch.hpp>

#include "tests/report_fixture.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace report_text_test {

using namespace sbr;

TEST_CASE("text: a finding prints its line, the source line with a caret and what to do",
          "[report]") {
  test::ReportFixture fx;
  std::string out = fx.text();
  CHECK(out.find("k8s/agent.yaml:10:7: critical [SB1001] container main of Pod/default/agent is "
                 "privileged (invariant 1)\n"
                 " 10 |       privileged: true\n"
                 "    |       ^\n"
                 "  related: k8s/agent.yaml:5:1: the pod spec\n"
                 "  remediation: Fix privileged-container.\n") != std::string::npos);
}

TEST_CASE("text: whole-file, accepted and conditional findings", "[report]") {
  test::ReportFixture fx;
  std::string out = fx.text();
  // Line 0 is the whole file: no line, no column, no snippet.
  CHECK(out.find("broken.yaml: high [SB0002] file cannot be read: Permission denied "
                 "(invariant 0)\n  remediation: Fix unreadable-file.\n") != std::string::npos);
  CHECK(out.find("k8s/agent.yaml:7:5: note [SB6001] container main of Pod/default/agent has no "
                 "limits (invariant 6)\n"
                 " 7 |   - name: main\n"
                 "   |     ^\n"
                 "  accepted: the batch node enforces its own limits\n") != std::string::npos);
  // The tab before `podman` is kept in the caret line so the caret stays under the column.
  CHECK(out.find("launch.sh:3:2: low [SB7001] podman run is privileged (invariant 7)\n"
                 " 3 | \tpodman run --privileged agent\n"
                 "   | \t^\n"
                 "  condition: [[ $MODE == full ]]\n") != std::string::npos);
}

TEST_CASE("text: control characters are neutralised and UTF-8 keeps the caret aligned",
          "[report]") {
  test::ReportFixture fx;
  std::string out = fx.text();
  CHECK(out.find('\x1b') == std::string::npos);
  CHECK(out.find(" 2 | label: é?[31m: privileged\n"
                 "   |                ^\n") != std::string::npos);
}

TEST_CASE("text: the summary counts by severity and invariant and the run", "[report]") {
  test::ReportFixture fx;
  std::string out = fx.text();
  CHECK(out.find("\n6 findings: 2 critical, 2 high, 0 medium, 1 low, 1 note (1 accepted)\n"
                 "by invariant: 0 integrity: 1, 1 isolation: 2, 4 secrets: 1, 6 resources: 1, "
                 "7 lifecycle: 1\n"
                 "analysed 4 files, 1 Kubernetes document, 1 other YAML document\n") !=
        std::string::npos);
  // The boundary-vs-floor table follows the summary and ends the report.
  CHECK(out.find("document\n\nboundary vs floor (") != std::string::npos);
  CHECK(out.rfind("\nboundary vs floor (") > out.rfind("\nanalysed "));
}

TEST_CASE("text: no findings is one line, before the boundary table", "[report]") {
  test::ReportFixture fx;
  fx.findings.clear();
  std::string out = fx.text();
  const std::string line = "no findings (4 files, 1 Kubernetes document, 1 other YAML document)\n";
  REQUIRE(out.size() >= line.size());
  CHECK(out.substr(0, line.size()) == line);
  // What follows is only the boundary-vs-floor table (one per run, with or without findings).
  std::string rest = out.substr(line.size());
  CHECK((rest.empty() || rest.rfind("\nboundary vs floor (", 0) == 0));
  CHECK(fx.text(true).substr(0, line.size()) == line);
}

TEST_CASE("text: colour only when asked", "[report]") {
  test::ReportFixture fx;
  CHECK(fx.text(false).find('\x1b') == std::string::npos);
  std::string coloured = fx.text(true);
  CHECK(coloured.find("\x1b[1;31mcritical\x1b[0m") != std::string::npos);
  CHECK(coloured.find("\x1b[32m^\x1b[0m") != std::string::npos);
}

TEST_CASE("text: a long line is cut around the column, after redaction", "[report]") {
  test::ReportFixture fx;
  // One minified line: 299 'a', then the password as a value, then 299 'b'; the finding points
  // at it. (A secret glued inside a longer word is not that secret: redact.h.)
  std::string line = std::string(299, 'a') + "=" + test::kDbPassword + ";" + std::string(299, 'b');
  fx.sources.files[2].bytes = "#!/bin/bash\nx\n" + line + "\n";
  fx.findings[4].at = {2, 3, 301};
  fx.findings[4].set_condition({});
  std::string out = fx.text();
  std::string expected_line =
      "..." + std::string(79, 'a') + "=<redacted>;" + std::string(69, 'b') + "...";
  CHECK(out.find(" 3 | " + expected_line + "\n" + "   | " + std::string(83, ' ') + "^\n") !=
        std::string::npos);
  CHECK(out.find("hunter") == std::string::npos);
  // SARIF leaves the snippet out rather than repeating a huge line in every result.
  CHECK(fx.sarif().find(std::string(300, 'a')) == std::string::npos);
}

TEST_CASE("text: C1 controls and bidirectional overrides are neutralised", "[report]") {
  test::ReportFixture fx;
  fx.findings[2].message =
      "name \xc2\x9b"
      "31m and \xe2\x80\xae"
      "reversed\xe2\x81\xa6 ok é";
  std::string out = fx.text();
  CHECK(out.find("name ?31m and ?reversed? ok é (invariant 1)") != std::string::npos);
}

TEST_CASE("text: paths carry the display prefix so editors can open them", "[report]") {
  test::ReportFixture fx;
  ReportContext ctx = fx.ctx();
  ctx.display_prefix = "deploy/";
  std::ostringstream s;
  write_text(ctx, s, false);
  CHECK(s.str().find("\ndeploy/k8s/agent.yaml:10:7: critical [SB1001]") != std::string::npos);
  CHECK(s.str().find("  related: deploy/k8s/agent.yaml:5:1: the pod spec\n") != std::string::npos);
}

}  // namespace report_text_test
