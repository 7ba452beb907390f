// GitHub workflow commands: one command line per finding, the level by severity, file, line and
// column in properties, and every value escaped as GitHub's toolkit escapes it, so that a
// hostile message or file name can neither end the command early nor start a second one.
#include <catch2/catch.hpp>

#include "analyzer/report/report_util.h"
#include "tests/report_fixture.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace report_github_test {

using namespace sbr;

namespace {

std::string github(const ReportContext& ctx) {
  std::ostringstream s;
  write_github(ctx, s);
  return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The runner's side, as actions/runner's ActionCommand parses a line: the command, the
// properties up to the next "::", and the unescaped data after it.
struct Parsed {
  std::string command, properties, data;
};

std::string unescape(std::string s) {
  for (auto [from, to] :
       {std::pair{"%0D", "\r"}, {"%0A", "\n"}, {"%3A", ":"}, {"%2C", ","}, {"%25", "%"}}) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + 1)) {
      s.replace(at, 3, to);
    }
  }
  return s;
}

Parsed parse(const std::string& line) {
  REQUIRE(line.rfind("::", 0) == 0);
  size_t end = line.find("::", 2);
  REQUIRE(end != std::string::npos);
  std::string head = line.substr(2, end - 2);
  size_t space = head.find(' ');
  return {head.substr(0, space), space == std::string::npos ? "" : head.substr(space + 1),
          unescape(line.substr(end + 2))};
}

}  // namespace

TEST_CASE("github: one workflow command per finding, the level by severity", "[report]") {
  test::ReportFixture fx;
  auto lines = lines_of(github(fx.ctx()));
  REQUIRE(lines.size() == fx.findings.size());
  CHECK(lines[2] ==
        "::error file=k8s/agent.yaml,line=10,col=7,title=SB1001 Title of privileged-container"
        "::critical: container main of Pod/default/agent is privileged (invariant 1)");
  // A whole-file problem names the file only; an accepted finding is a notice with its reason.
  CHECK(lines[0].rfind("::error file=broken.yaml,title=SB0002 ", 0) == 0);
  CHECK(lines[1].rfind("::notice file=k8s/agent.yaml,line=7,col=5,", 0) == 0);
  CHECK(lines[1].find("Accepted: the batch node enforces its own limits") != std::string::npos);
  CHECK(lines[4].rfind("::notice file=launch.sh,line=3,col=2,title=SB7001 ", 0) == 0);
}

TEST_CASE("github: columns count characters and secrets are redacted", "[report]") {
  test::ReportFixture fx;
  std::string out = github(fx.ctx());
  // unicode.yaml line 2: byte column 17 after "é" (two bytes) is character 16.
  CHECK(out.find("::error file=unicode.yaml,line=2,col=16,") != std::string::npos);
  CHECK(out.find(test::kDbPassword) == std::string::npos);
  CHECK(out.find(test::kAnthropicKey) == std::string::npos);
}

TEST_CASE("github: escapes data and properties as the toolkit does", "[report]") {
  test::ReportFixture fx;
  FileId odd = fx.model.files.add("dir,with:odd%name\nx.yaml");
  Finding& f = fx.findings.back();
  f.at = {odd, 3, 0};
  f.message = "100% sure\r\nnext line";
  auto lines = lines_of(github(fx.ctx()));
  REQUIRE(lines.size() == fx.findings.size());
  CHECK(lines.back() ==
        "::error file=dir%2Cwith%3Aodd%25name%0Ax.yaml,line=3,title=SB1001 Title of "
        "privileged-container::critical: 100%25 sure%0D%0Anext line (invariant 1)");
  Parsed p = parse(lines.back());
  CHECK(p.data == "critical: 100% sure\r\nnext line (invariant 1)");
}

TEST_CASE("github: a hostile message cannot inject a second command", "[report]") {
  test::ReportFixture fx;
  for (Finding& f : fx.findings) {
    f.message =
        "x%0A::error file=.github/workflows/ci.yml::pwned\n::add-mask::y\r::stop-commands::z";
  }
  std::string out = github(fx.ctx());
  auto lines = lines_of(out);
  // Exactly one line per finding: no raw CR or LF reached the output.
  REQUIRE(lines.size() == fx.findings.size());
  CHECK(out.find('\r') == std::string::npos);
  for (const auto& line : lines) {
    Parsed p = parse(line);
    // The message is data only: the runner gets back the literal text, "%0A" included.
    CHECK(p.data.find("x%0A::error file=.github/workflows/ci.yml::pwned\n::add-mask::y\r") !=
          std::string::npos);
    CHECK(p.properties.find("pwned") == std::string::npos);
    CHECK((p.command == "error" || p.command == "warning" || p.command == "notice"));
  }
}

TEST_CASE("github: diff reports only new findings, output is deterministic", "[report]") {
  test::ReportFixture fx;
  ReportContext ctx = fx.ctx();
  ctx.baseline_states.assign(fx.findings.size(), "unchanged");
  ctx.baseline_states[3] = "new";
  auto lines = lines_of(github(ctx));
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("title=SB4001 ") != std::string::npos);
  CHECK(github(fx.ctx()) == github(fx.ctx()));
}

TEST_CASE("github: control characters and long messages are bounded", "[report]") {
  test::ReportFixture fx;
  fx.findings.back().message = "esc \x1b[31m red " + std::string(10000, 'a');
  std::string last = lines_of(github(fx.ctx())).back();
  CHECK(last.find('\x1b') == std::string::npos);
  CHECK(last.find("esc ?[31m red ") != std::string::npos);
  CHECK(last.size() < 4200);
  CHECK(last.find("...") != std::string::npos);
}

}  // namespace report_github_test
