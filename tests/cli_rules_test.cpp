// `sbreview rules`, `explain`, `test-rules` and user rules end to end: the catalog listing,
// the embedded pages, self-testing rules (passing on a repository's rules, failing on a broken
// fixture with its line), a user rule reported under its own id in SARIF's tool.extensions, and
// `diff` judging with the BASE side's rules.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyzer/cli/cli.h"
#include "tests/fixture_harness.h"
#include "tests/git_repo.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace cli_rules_test {

using namespace sbr;
namespace fs = std::filesystem;

namespace {

struct Run {
  int code;
  std::string out, err;
};

Run cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

const std::string kAcme = "/fixtures/user-rules/acme-platform";

// A copy of the ACME fixture repository as a git repository (its top level is where
// .sbreview.yaml and .sbreview/rules/ are looked for).
void acme_repo(const fs::path& to) {
  fs::copy(test::source_dir() + kAcme, to, fs::copy_options::recursive);
  test::git(to, "init -q");
  test::git(to, "add -A");
  test::git(to, "commit -q -m acme");
}

}  // namespace

TEST_CASE("rules lists the catalog: data rules, the new past findings, each with its files",
          "[cli][rules]") {
  Run r = cli({"rules", "--format", "json"});
  REQUIRE(r.code == 0);
  auto doc = nlohmann::json::parse(r.out);
  size_t data = 0, moved = 0, fresh = 0;
  for (const auto& rule : doc["rules"]) {
    const std::string id = rule["id"];
    INFO(id);
    CHECK_FALSE(rule["origin"]["detail"].get<std::string>().empty());
    CHECK_FALSE(rule["prover"].get<std::string>().empty());
    CHECK(std::ifstream(test::source_dir() + "/" + rule["page"].get<std::string>()).good());
    bool is_data = rule["implemented_by"] == "data";
    data += is_data;
    // Ids SBn200-SBn299 are the past findings added with the rule language (issue 12).
    bool is_new = id.size() == 6 && id[3] == '2';
    fresh += is_new;
    moved += is_data && !is_new;
    if (is_data || is_new) {
      CHECK(fs::is_directory(test::source_dir() + "/" + rule["fixtures"].get<std::string>()));
    }
    if (!is_data) {
      CHECK(fs::exists(test::source_dir() + "/" + rule["implemented_by"].get<std::string>()));
    }
  }
  CHECK(moved >= 30);
  CHECK(fresh >= 20);
  CHECK(data >= moved + fresh);

  Run three = cli({"rules", "--invariant", "3"});
  REQUIRE(three.code == 0);
  CHECK(three.out.find("SB3201  critical 3 ssh-agent-socket-mounted") != std::string::npos);
  CHECK(three.out.find("SB1001") == std::string::npos);
  CHECK(cli({"rules", "--invariant", "9"}).code == 2);
}

TEST_CASE("explain prints the embedded page, the origin and how the prover confirms it",
          "[cli][rules]") {
  Run r = cli({"explain", "SB3201"});
  REQUIRE(r.code == 0);
  CHECK(r.out.rfind("# SB3201 ssh-agent-socket-mounted\n", 0) == 0);
  CHECK(r.out.find("## Origin\nVS Code dev containers") != std::string::npos);
  CHECK(r.out.find("## How the prover confirms it\nThe probe connects to the mounted socket") !=
        std::string::npos);
  CHECK(r.out.find("## Implemented by\ndata: its `match:` in rules/SB3201-") != std::string::npos);
  CHECK(cli({"explain", "privileged-container"}).out.rfind("# SB1001", 0) == 0);
  Run none = cli({"explain", "SB9999"});
  CHECK(none.code == 2);
  CHECK(none.err == "sbreview: no rule SB9999 (see `sbreview rules`)\n");
}

TEST_CASE("test-rules passes on a repository's rules and names the line of a broken fixture",
          "[cli][rules]") {
  test::TempDir t;
  fs::copy(test::source_dir() + kAcme, t.path / "acme", fs::copy_options::recursive);
  const std::string rules = (t.path / "acme/.sbreview/rules").string();
  Run ok = cli({"test-rules", rules});
  INFO(ok.out << ok.err);
  CHECK(ok.code == 0);
  CHECK(ok.out == "test-rules: 1 passed, 0 failed, 0 skipped\n");

  // The good fixture now uses a public image: the rule fires on a line that says `ok:`.
  fs::path good = t.path / "acme/.sbreview/rules/ACME-approved-registry/good.yaml";
  std::string text = test::read_file(good.string());
  text.replace(text.find("registry.acme.example/agents/"), 29, "docker.io/");
  std::ofstream(good, std::ios::binary) << text;
  Run broken = cli({"test-rules", rules});
  CHECK(broken.code == 1);
  CHECK(broken.out.find("FAIL ACME-approved-registry approved-registry\n") != std::string::npos);
  CHECK(broken.out.find("/ACME-approved-registry/good.yaml:16: ACME-approved-registry reported "
                        "on an `ok:` line") != std::string::npos);
  CHECK(broken.out.find("test-rules: 0 passed, 1 failed, 0 skipped\n") != std::string::npos);
}

TEST_CASE("test-rules passes on the project's own catalog, the prover's rules skipped",
          "[cli][rules]") {
  Run r = cli({"test-rules", test::source_dir() + "/rules"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find(" 0 failed, ") != std::string::npos);
  for (const char* id : {"SB0040", "SB0041", "SB0042"}) {
    CHECK(r.out.find(std::string("skip ") + id) != std::string::npos);
  }
}

TEST_CASE("a user rule in the repository's .sbreview/rules/ is reported under its own id",
          "[cli][rules][sarif]") {
  test::TempDir t;
  acme_repo(t.path / "repo");
  Run r = cli({"check", "--format", "sarif", "--fail-on", "none", (t.path / "repo").string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  auto log = nlohmann::json::parse(r.out);
  const auto& run = log["runs"][0];
  const auto& ext = run["tool"]["extensions"];
  REQUIRE(ext.size() == 1);
  CHECK(ext[0]["name"] == "sbreview-user-rules");
  REQUIRE(ext[0]["rules"].size() == 1);
  CHECK(ext[0]["rules"][0]["id"] == "ACME-approved-registry");
  CHECK(ext[0]["rules"][0]["properties"]["origin"]["kind"] == "past-review");
  for (const auto& rule : run["tool"]["driver"]["rules"])
    CHECK(rule["id"] != "ACME-approved-registry");
  size_t hits = 0;
  for (const auto& res : run["results"]) {
    if (res["ruleId"] != "ACME-approved-registry") continue;
    ++hits;
    CHECK(res["rule"]["toolComponent"]["index"] == 0);
    CHECK(res["rule"]["index"] == 0);
    CHECK(res["level"] == "error");
    CHECK(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
          "deploy/triage-agent.yaml");
  }
  CHECK(hits == 1);  // the rule's own fixtures under .sbreview/ are never analysed
}

TEST_CASE("a broken user rule is a configuration error with its position", "[cli][rules]") {
  test::TempDir t;
  acme_repo(t.path / "repo");
  fs::path rule = t.path / "repo/.sbreview/rules/ACME-approved-registry.yaml";
  std::string text = test::read_file(rule.string());
  text.replace(text.find("image: {present"), 5, "imagee");
  std::ofstream(rule, std::ios::binary) << text;
  Run r = cli({"check", (t.path / "repo").string()});
  CHECK(r.code == 2);
  CHECK(r.err.find(".sbreview/rules/ACME-approved-registry.yaml:21:5: unknown field `imagee` of "
                   "workload: did you mean `image`?\n") != std::string::npos);
}

TEST_CASE("diff judges with BASE's user rules: a change cannot rewrite its own rules",
          "[cli][rules][diff]") {
  test::TempDir t;
  fs::path repo = t.path / "repo";
  acme_repo(repo);
  // HEAD turns the rule off by narrowing it to nothing and adds a public image.
  fs::path rule = repo / ".sbreview/rules/ACME-approved-registry.yaml";
  std::string text = test::read_file(rule.string());
  text.replace(text.find("threat: [untrusted-code, multi-tenant]"), 38, "threat: trusted");
  test::write(rule, text);
  std::string job = test::read_file((repo / "deploy/triage-agent.yaml").string());
  job.replace(job.find("name: triage-agent"), 18, "name: triage-agent-2");
  test::write(repo / "deploy/second.yaml", job);
  test::git(repo, "add -A");
  test::git(repo, "commit -q -m head");
  auto d = test::diff(repo, {"HEAD~1..HEAD", "--format", "json", "--fail-on", "none"});
  INFO(d.err);
  REQUIRE(d.code == 0);
  auto doc = nlohmann::json::parse(d.out);
  size_t acme = 0;
  for (const auto& f : doc["findings"]) acme += f["rule"] == "ACME-approved-registry";
  CHECK(acme == 1);  // the new Job, judged by BASE's rule
}

}  // namespace cli_rules_test
