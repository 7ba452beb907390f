// `sbreview diff`: real git repositories, both sides read from the object database. A change
// reports exactly what it introduces; line shifts, unchanged findings and BASE..BASE report
// nothing; what a change does to the gate itself (an acceptance it adds) is reported too.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "analyzer/cli/cli.h"
#include "tests/git_repo.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace diff_test {

using namespace sbr;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

using test::git;

using test::diff;
using test::write;
using Run = test::DiffRun;

std::string pod(const std::string& name, bool privileged) {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
         "\n  namespace: agents\nspec:\n  runtimeClassName: gvisor\n  containers:\n"
         "    - name: agent\n      image: ghcr.io/acme/agent@sha256:" +
         std::string(64, 'a') +
         "\n      securityContext:\n        privileged: " + (privileged ? "true" : "false") + "\n";
}

// A repository whose first commit has two pods and whose second commit shifts the lines of
// one and makes the other privileged.
struct Repo : test::TempDir {
  Repo() : test::TempDir("sbr-diff") {
    write(path / "k8s/a.yaml", pod("a", false));
    write(path / "k8s/b.yaml", pod("b", false));
    git(path, "init -q");
    git(path, "add -A");
    git(path, "commit -q -m base");
    git(path, "tag base");
    write(path / "k8s/a.yaml", "# moved down by a comment\n# and another\n" + pod("a", false));
    write(path / "k8s/b.yaml", pod("b", true));
    git(path, "commit -q -am change");
  }
};

std::vector<std::pair<std::string, std::string>> rules_and_files(const std::string& out) {
  std::vector<std::pair<std::string, std::string>> r;
  const json doc = json::parse(out);  // kept: the loop must not range over a temporary's member
  for (const auto& f : doc["findings"]) {
    r.emplace_back(f["rule"], f["location"]["file"]);
  }
  return r;
}

// The first commit of a test repository, tagged `base`.
void commit_base(const fs::path& path) {
  git(path, "init -q");
  git(path, "add -A");
  git(path, "commit -q -m base");
  git(path, "tag base");
}

}  // namespace

TEST_CASE("diff reports what a change introduces, not what a line shift moves", "[diff]") {
  Repo repo;
  Run r = diff(repo.path, {"base..HEAD", "--format", "json"});
  INFO(r.err);
  CHECK(r.code == 1);
  auto found = rules_and_files(r.out);
  REQUIRE_FALSE(found.empty());
  bool privileged = false;
  for (const auto& [rule, file] : found) {
    CHECK(file == "k8s/b.yaml");
    privileged = privileged || rule == "SB1001";
  }
  CHECK(privileged);
  // One new finding; the checks that privileged subsumes are fixed on b, nothing moves on a.
  CHECK(r.err.find("diff base..HEAD: 1 new, 3 fixed,") != std::string::npos);
}

TEST_CASE("diff of a revision with itself reports nothing and passes", "[diff]") {
  Repo repo;
  Run r = diff(repo.path, {"HEAD..HEAD", "--format", "json"});
  CHECK(r.code == 0);
  CHECK(json::parse(r.out)["findings"].empty());
  CHECK(r.err.find("0 new, 0 fixed") != std::string::npos);
}

TEST_CASE("a fix is listed with --show-fixed", "[diff]") {
  Repo repo;
  // Back from the privileged pod: SB1001 is fixed (the checks it subsumed come back as new).
  Run r = diff(repo.path, {"HEAD..base", "--show-fixed", "--format", "json"});
  CHECK(r.err.find("fixed: k8s/b.yaml:12:21 [SB1001]") != std::string::npos);
  for (const auto& [rule, file] : rules_and_files(r.out)) {
    CHECK(file == "k8s/b.yaml");
    CHECK(rule != "SB1001");
  }
  CHECK(diff(repo.path, {"HEAD..base", "--format", "json"}).err.find("fixed:") ==
        std::string::npos);
}

TEST_CASE("the working tree is HEAD when the range names only BASE", "[diff]") {
  Repo repo;
  write(repo.path / "k8s/a.yaml", pod("a", true));  // dirty: not committed
  Run r = diff(repo.path, {"HEAD", "--format", "json"});
  CHECK(r.code == 1);
  for (const auto& [rule, file] : rules_and_files(r.out)) CHECK(file == "k8s/a.yaml");
}

TEST_CASE("an acceptance the change adds is itself a new finding", "[diff]") {
  Repo repo;
  write(repo.path / ".sbreview.yaml",
        "version: 1\nacceptances:\n  - rule: SB1001\n    reason: the agent needs FUSE\n");
  git(repo.path, "add -A");
  git(repo.path, "commit -q -m accept");
  Run r = diff(repo.path, {"base..HEAD", "--format", "json"});
  CHECK(r.code == 1);
  bool integrity = false;
  const json doc = json::parse(r.out);
  for (const auto& f : doc["findings"]) {
    if (f["rule"] != "SB0014") continue;
    integrity = true;
    const std::string file = f["location"]["file"];
    CHECK(file.size() >= 14);
    CHECK(file.substr(file.size() - 14) == ".sbreview.yaml");
    CHECK(f["location"]["line"] == 3);
    CHECK(f["severity"] == "critical");  // the severity of what it hides
  }
  CHECK(integrity);
  // Between the commit that adds it and HEAD nothing is new: the gate is the base's.
  Run same = diff(repo.path, {"HEAD..HEAD", "--format", "json"});
  CHECK(same.code == 0);
}

TEST_CASE("SARIF of a diff marks new and unchanged results", "[diff]") {
  Repo repo;
  Run r = diff(repo.path, {"base..HEAD", "--format", "sarif"});
  const json results = json::parse(r.out)["runs"][0]["results"];
  size_t fresh = 0, unchanged = 0;
  for (const auto& x : results) {
    fresh += x["baselineState"] == "new";
    unchanged += x["baselineState"] == "unchanged";
  }
  CHECK(fresh > 0);
  CHECK(unchanged > 0);  // k8s/a.yaml's findings, kept so code scanning does not close them
}

TEST_CASE("a missing base is an error that names the fetch depth", "[diff]") {
  Repo repo;
  Run r = diff(repo.path, {"no-such-branch..HEAD"});
  CHECK(r.code == 2);
  CHECK(r.err.find("fetch-depth") != std::string::npos);
  CHECK(diff(repo.path, {"base...HEAD"}).code == 2);
}

TEST_CASE("a suppression comment the change adds is reported at the severity it hides", "[diff]") {
  Repo repo;  // HEAD makes b privileged; now it also silences that in the same change
  std::string b = pod("b", true);
  b.replace(b.find("privileged: true"), 16,
            "privileged: true  # sbreview-ignore SB1001 -- needs FUSE for the overlay");
  write(repo.path / "k8s/b.yaml", b);
  git(repo.path, "commit -q -am suppress");
  Run r = diff(repo.path, {"base..HEAD", "--format", "json"});
  INFO(r.out);
  CHECK(r.code == 1);
  bool integrity = false;
  const json doc = json::parse(r.out);
  for (const auto& f : doc["findings"]) {
    if (f["rule"] == "SB1001") CHECK(f["suppression_kind"] == "inSource");
    if (f["rule"] != "SB0014") continue;
    integrity = true;
    CHECK(f["severity"] == "critical");
    CHECK(f["location"]["file"] == "k8s/b.yaml");
    CHECK(f["location"]["line"] == 12);
  }
  CHECK(integrity);
  // Once BASE holds the same suppression, it is unchanged: nothing new.
  git(repo.path, "tag suppressed");
  write(repo.path / "k8s/a.yaml", "# a comment\n" + pod("a", false));
  git(repo.path, "commit -q -am unrelated");
  Run later = diff(repo.path, {"suppressed..HEAD", "--format", "json"});
  CHECK(later.code == 0);
  CHECK(json::parse(later.out)["findings"].empty());
}

TEST_CASE("a rule the change turns off in the configuration is reported at that entry", "[diff]") {
  Repo repo;
  write(repo.path / ".sbreview.yaml", "version: 1\nrules:\n  SB1001: {enabled: false}\n");
  git(repo.path, "add -A");
  git(repo.path, "commit -q -m quiet");
  Run r = diff(repo.path, {"base..HEAD", "--format", "json"});
  CHECK(r.code == 1);
  bool integrity = false;
  const json doc = json::parse(r.out);
  for (const auto& f : doc["findings"]) {
    if (f["rule"] != "SB0014") continue;
    integrity = true;
    CHECK(f["location"]["line"] == 3);
    CHECK(f["severity"] == "critical");
  }
  CHECK(integrity);
}

TEST_CASE("fixed findings are in JSON and absent in SARIF with --show-fixed", "[diff]") {
  Repo repo;
  Run j = diff(repo.path, {"HEAD..base", "--show-fixed", "--format", "json"});
  const json doc = json::parse(j.out);
  REQUIRE(doc.contains("fixed"));
  bool privileged = false;
  for (const auto& f : doc["fixed"]) {
    CHECK(f["location"]["file"] == "k8s/b.yaml");
    privileged = privileged || f["rule"] == "SB1001";
  }
  CHECK(privileged);
  Run s = diff(repo.path, {"HEAD..base", "--show-fixed", "--format", "sarif"});
  size_t absent = 0;
  const json results = json::parse(s.out)["runs"][0]["results"];
  for (const auto& x : results) absent += x["baselineState"] == "absent";
  CHECK(absent == doc["fixed"].size());
  CHECK_FALSE(
      json::parse(diff(repo.path, {"HEAD..base", "--format", "json"}).out).contains("fixed"));
}

TEST_CASE("a renamed file keeps its findings, one renamed out of reach hides them", "[diff]") {
  Repo repo;  // HEAD: b is privileged
  git(repo.path, "tag before");
  git(repo.path, "mv k8s/b.yaml k8s/agent-b.yaml");
  git(repo.path, "commit -q -m rename");
  Run moved = diff(repo.path, {"before..HEAD", "--format", "json"});
  INFO(moved.err);
  CHECK(moved.code == 0);
  CHECK(json::parse(moved.out)["findings"].empty());
  CHECK(moved.err.find("0 new, 0 fixed") != std::string::npos);

  git(repo.path, "tag renamed");
  git(repo.path, "mv k8s/agent-b.yaml k8s/agent-b.yaml.off");
  git(repo.path, "commit -q -m park");
  Run hidden = diff(repo.path, {"renamed..HEAD", "--format", "json"});
  CHECK(hidden.code == 1);
  bool privileged_hidden = false;
  const json doc = json::parse(hidden.out);
  for (const auto& f : doc["findings"]) {
    CHECK(f["rule"] == "SB0014");
    CHECK(f["location"]["file"] == "k8s/agent-b.yaml.off");
    const std::string message = f["message"];
    privileged_hidden = privileged_hidden || (f["severity"] == "critical" &&
                                              message.find("SB1001") != std::string::npos);
  }
  CHECK(privileged_hidden);
}

TEST_CASE("a manifest the change turns binary fails closed instead of losing its findings",
          "[diff]") {
  Repo repo;
  git(repo.path, "tag before");
  write(repo.path / "k8s/b.yaml", std::string("\0\x01PK\x03\x04", 6) + "zipped pod");
  git(repo.path, "commit -q -am binary");
  Run r = diff(repo.path, {"before..HEAD", "--format", "json"});
  CHECK(r.code == 1);
  bool parse_error = false;
  const json doc = json::parse(r.out);
  for (const auto& f : doc["findings"]) {
    parse_error = parse_error || (f["rule"] == "SB0001" && f["location"]["file"] == "k8s/b.yaml");
  }
  CHECK(parse_error);
}

TEST_CASE("a values change that turns on privileged is new, at the values line", "[diff]") {
  test::TempDir repo("sbr-diff-helm");
  const fs::path chart = repo.path / "charts/agent";
  write(chart / "Chart.yaml", "apiVersion: v2\nname: agent\nversion: 0.3.1\nappVersion: \"1.4\"\n");
  write(chart / "templates/pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}-agent\nspec:\n"
        "  runtimeClassName: gvisor\n  containers:\n    - name: agent\n"
        "      image: \"ghcr.io/acme/agent:{{ .Chart.AppVersion }}\"\n"
        "      securityContext:\n        {{- toYaml .Values.securityContext | nindent 8 }}\n");
  const std::string values =
      "# Values for the agent pod.\nsecurityContext:\n  runAsNonRoot: true\n";
  write(chart / "values.yaml", values + "  privileged: false\n");
  commit_base(repo.path);
  write(chart / "values.yaml", values + "  privileged: true\n");
  git(repo.path, "commit -q -am 'agent: privileged for docker-in-docker'");
  Run r = diff(repo.path, {"base..HEAD", "--format", "json"});
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  bool privileged = false;
  const json doc = json::parse(r.out);
  for (const auto& f : doc["findings"]) {
    CHECK(f["location"]["file"] == "charts/agent/values.yaml");
    if (f["rule"] != "SB1001") continue;
    privileged = true;
    CHECK(f["location"]["line"] == 4);
    bool template_step = false;
    for (const auto& v : f["via"]) {
      template_step = template_step || v["file"] == "charts/agent/templates/pod.yaml";
    }
    CHECK(template_step);
  }
  CHECK(privileged);
}

TEST_CASE("a pod the change adds in a path the base excludes is reported at its severity",
          "[diff]") {
  test::TempDir repo("sbr-diff-excl");
  write(repo.path / ".sbreview.yaml", "exclude: [vendor]\n");
  write(repo.path / "k8s/a.yaml", pod("a", false));
  write(repo.path / "vendor/old.yaml", pod("old", true));  // excluded before the change too
  commit_base(repo.path);
  write(repo.path / "vendor/deploy/pod.yaml", pod("hidden", true));
  git(repo.path, "add -A");
  git(repo.path, "commit -q -m change");
  Run r = diff(repo.path, {"base..HEAD", "--format", "json"});
  INFO(r.err);
  CHECK(r.code == 1);
  bool hidden_privileged = false;
  const json doc = json::parse(r.out);
  for (const auto& f : doc["findings"]) {
    CHECK(f["location"]["file"] == "vendor/deploy/pod.yaml");  // the old pod is not new
    std::string message = f["message"];
    if (message.find("excludes from review") != std::string::npos &&
        message.find("SB1001") != std::string::npos) {
      hidden_privileged = true;
      CHECK(f["severity"] == "critical");
    }
  }
  CHECK(hidden_privileged);
}

TEST_CASE("no name a change chooses hides a pod from diff", "[diff]") {
  test::TempDir repo("sbr-diff-names");
  write(repo.path / "k8s/a.yaml", pod("a", false));
  commit_base(repo.path);
  write(repo.path / "deploy/node_modules/pod.yaml", pod("n", true));
  write(repo.path / "deploy/.sbreview/pod.yaml", pod("s", true));
  write(repo.path / "deploy/.sbreview.yaml", pod("c", true));
  git(repo.path, "add -A");
  git(repo.path, "commit -q -m change");
  Run r = diff(repo.path, {"base..HEAD", "--format", "json"});
  INFO(r.err);
  CHECK(r.code == 1);
  std::set<std::string> privileged;
  for (const auto& [rule, file] : rules_and_files(r.out)) {
    if (rule == "SB1001") privileged.insert(file);
  }
  CHECK(privileged == std::set<std::string>{"deploy/.sbreview.yaml", "deploy/.sbreview/pod.yaml",
                                            "deploy/node_modules/pod.yaml"});
}

TEST_CASE("diff --show-fixed prints a hostile file name on one line, without escapes", "[diff]") {
  test::TempDir repo("sbr-diff-name");
  const std::string name = "k8s/x\n::error file=a::pwned\x1b]0;t\x07.yaml";
  write(repo.path / name, pod("a", true));
  commit_base(repo.path);
  git(repo.path, "rm -q -r k8s");
  git(repo.path, "commit -q -m change");
  Run r = diff(repo.path, {"base..HEAD", "--show-fixed", "--format", "json"});
  INFO(r.err);
  CHECK(r.err.find("fixed: k8s/x ::error file=a::pwned?]0;t?.yaml") != std::string::npos);
  CHECK(r.err.find("\n::") == std::string::npos);
  CHECK(r.err.find('\x1b') == std::string::npos);
}

}  // namespace diff_test
