// Suppressions: the comment grammar, where a comment applies, annotations, the configuration's
// suppressions and rule settings, what is reported about weak or unused suppressions, and
// baseline files. End to end through run_cli on files in a temporary directory.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analyzer/cli/cli.h"
#include "analyzer/frontends/suppressions.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace suppression_test {

using namespace sbr;
using json = nlohmann::json;

namespace {

std::vector<Suppression> comments_of(const std::string& text, FileType type = FileType::Yaml) {
  SourceFile f;
  f.type = type;
  f.id = 0;
  f.path = "x";
  f.bytes = text;
  f.readable = true;
  std::vector<Suppression> out;
  read_suppression_comments(f, out);
  return out;
}

struct Run {
  int code;
  json doc;
  std::string err;
};

Run check(const test::TempDir& dir, std::vector<std::string> extra = {},
          const std::string& format = "json") {
  std::vector<std::string> args{"check", "--today", "2026-06-15", "--format", format};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(dir.path.string());
  std::ostringstream out, err;
  int code = run_cli(args, out, err);
  json doc = json::parse(out.str(), nullptr, false);
  return {code, doc, err.str()};
}

// A hardened pod, made privileged at line 12, with `comment` on the line before and `trailing`
// after the privileged line.
std::string pod(const std::string& comment, const std::string& trailing = "",
                const std::string& annotation = "") {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: agent\n" +
         (annotation.empty()
              ? std::string()
              : "  annotations:\n    sbreview.dev/ignore: \"" + annotation + "\"\n") +
         "spec:\n  runtimeClassName: gvisor\n  automountServiceAccountToken: false\n  "
         "containers:\n    - name: agent\n"
         "      image: registry.example/agent:1\n      securityContext:\n" +
         (comment.empty() ? std::string() : "        " + comment + "\n") +
         "        privileged: true" + (trailing.empty() ? "" : "  " + trailing) + "\n";
}

const json* first(const json& doc, const std::string& rule) {
  for (const auto& f : doc["findings"]) {
    if (f["rule"] == rule) return &f;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("the suppression grammar: rules, expiry, reason, and how it can be wrong", "[suppress]") {
  Suppression s = parse_suppression(" SB1001, SB2008 until 2027-01-31 -- buildkit (SEC-140)");
  CHECK(s.error.empty());
  CHECK(s.rules == std::vector<std::string>{"SB1001", "SB2008"});
  CHECK(s.expires == "2027-01-31");
  CHECK(s.reason == "buildkit (SEC-140)");
  CHECK(parse_suppression(" SB1001").reason.empty());
  CHECK(parse_suppression(" SB1001 -- ").reason.empty());
  CHECK(parse_suppression(" SB1001 -- fine -->").reason == "fine");  // Markdown's closer
  CHECK_FALSE(parse_suppression(": SB1001 -- x").error.empty());
  CHECK_FALSE(parse_suppression(" privileged -- x").error.empty());
  CHECK_FALSE(parse_suppression(" SB1001 until 2027-13-01 -- x").error.empty());
  CHECK_FALSE(parse_suppression(" SB1001 until soon -- x").error.empty());
}

TEST_CASE("a comment covers its own line and, alone on a line, the next code line", "[suppress]") {
  auto s = comments_of(
      "a: 1  # sbreview-ignore SB1001 -- trailing\n"  // 1
      "# sbreview-ignore SB2008 -- above\n"           // 2
      "# another comment\n"                           // 3
      "\n"                                            // 4
      "b: 2\n"                                        // 5
      "c: \"# sbreview-ignore SB1001 -- in a string\"\n"
      "# see sbreview-ignore SB1001 -- prose\n"
      "# sbreview-ignored SB1001 -- another word\n"
      "// sbreview-ignore SB3003 -- not a YAML comment\n"
      "x\n");
  REQUIRE(s.size() == 2);
  CHECK(s[0].line == 1);
  CHECK(s[0].next_line == 0);  // a trailing comment covers only its line
  CHECK(s[0].at.column == 7);  // the comment, not the marker
  CHECK(s[1].line == 2);
  CHECK(s[1].next_line == 5);  // past the other comment and the blank line
}

TEST_CASE("each format's own comment: // in JSONC, <!-- --> in Markdown, never # there",
          "[suppress]") {
  auto json = comments_of(
      "{\n  // sbreview-ignore SB3003 -- the harness config is read-only\n"
      "  \"mounts\": []  # sbreview-ignore SB1001 -- not JSONC\n}\n",
      FileType::Devcontainer);
  REQUIRE(json.size() == 1);
  CHECK(json[0].rules == std::vector<std::string>{"SB3003"});
  CHECK(json[0].next_line == 3);
  auto md = comments_of(
      "# Suppressions\n\n```\n# sbreview-ignore SB1001 -- shown in a code block\n```\n"
      "<!-- sbreview-ignore SB8001 -- the claim is checked by hand -->\nThe agent has no "
      "network.\n",
      FileType::Markdown);
  REQUIRE(md.size() == 1);
  CHECK(md[0].rules == std::vector<std::string>{"SB8001"});
  CHECK(md[0].reason == "the claim is checked by hand");
  CHECK(md[0].next_line == 7);
}

TEST_CASE("a suppressed finding is a note with its reason and an in-source kind", "[suppress]") {
  test::TempDir dir("sbr-suppress");
  dir.write("pod.yaml", pod("", "# sbreview-ignore SB1001 -- needs FUSE for the overlay (SEC-9)"));
  Run r = check(dir, {"--fail-on", "critical"});
  const json* f = first(r.doc, "SB1001");
  REQUIRE(f != nullptr);
  CHECK((*f)["severity"] == "note");
  CHECK((*f)["accepted_reason"] == "needs FUSE for the overlay (SEC-9)");
  CHECK((*f)["suppression_kind"] == "inSource");
  CHECK(r.code == 0);  // the critical finding is suppressed
  Run sarif = check(dir, {}, "sarif");
  bool in_source = false;
  for (const auto& x : sarif.doc["runs"][0]["results"]) {
    if (x["ruleId"] != "SB1001") continue;
    in_source = x["suppressions"][0]["kind"] == "inSource" &&
                x["suppressions"][0]["justification"] == "needs FUSE for the overlay (SEC-9)";
  }
  CHECK(in_source);
  // Without the comment the same run fails.
  dir.write("pod.yaml", pod(""));
  CHECK(check(dir, {"--fail-on", "critical"}).code == 1);
}

TEST_CASE("weak suppressions are findings and do not suppress", "[suppress]") {
  test::TempDir dir("sbr-suppress");
  dir.write("a/pod.yaml", pod("# sbreview-ignore SB1001"));
  dir.write("b/pod.yaml", pod("# sbreview-ignore SB1001 until 2026-06-14 -- old decision"));
  dir.write("c/pod.yaml", pod("# sbreview-ignore SB6001 -- memory capped by the slice"));
  Run r = check(dir);
  std::map<std::string, std::vector<std::string>> by_file;
  for (const auto& f : r.doc["findings"]) {
    by_file[f["location"]["file"]].push_back(f["rule"]);
    if (f["rule"] == "SB1001") CHECK(f["accepted_reason"].is_null());
  }
  auto has = [&](const std::string& file, const std::string& rule) {
    const auto& v = by_file[file];
    return std::find(v.begin(), v.end(), rule) != v.end();
  };
  CHECK(has("a/pod.yaml", "SB0015"));
  CHECK(has("b/pod.yaml", "SB0016"));
  CHECK(has("c/pod.yaml", "SB0017"));  // SB6001 is not reported on that line
  CHECK(has("c/pod.yaml", "SB1001"));
  CHECK_FALSE(has("a/pod.yaml", "SB0017"));
}

TEST_CASE("an annotation suppresses the rule on every workload of its object", "[suppress]") {
  test::TempDir dir("sbr-suppress");
  dir.write("pod.yaml", pod("", "", "SB1001 -- kata VM node pool (SEC-4); SB1002 -- hostPID"));
  Run r = check(dir);
  const json* f = first(r.doc, "SB1001");
  REQUIRE(f != nullptr);
  CHECK((*f)["accepted_reason"] == "kata VM node pool (SEC-4)");
  const json* unused = first(r.doc, "SB0017");
  REQUIRE(unused != nullptr);  // the pod shares no host PID namespace: SB1002 matches nothing
  CHECK((*unused)["location"]["line"] == 6);  // the annotation's own line
  CHECK((*unused)["message"].get<std::string>().find("SB1002") !=
        std::string::npos);  // the annotation's line
}

TEST_CASE("configuration suppressions are external, rules can be turned off or re-rated",
          "[suppress]") {
  test::TempDir dir("sbr-suppress");
  dir.write("k8s/pod.yaml", pod(""));
  dir.write("cfg.yaml",
            "version: 1\nsuppressions:\n  - rule: SB1001\n    path: \"k8s/*\"\n"
            "    reason: the eval pool runs Kata VMs\nrules:\n  SB5011: {enabled: false}\n"
            "  SB6005: {severity: low}\n");
  Run r = check(dir, {"--config", (dir.path / "cfg.yaml").string()});
  const json* f = first(r.doc, "SB1001");
  REQUIRE(f != nullptr);
  CHECK((*f)["suppression_kind"] == "external");
  CHECK(first(r.doc, "SB5011") == nullptr);
  const json* cpu = first(r.doc, "SB6005");
  REQUIRE(cpu != nullptr);
  CHECK((*cpu)["severity"] == "low");

  dir.write("cfg.yaml", "version: 1\nrules:\n  SB0001: {enabled: false}\n");
  Run bad = check(dir, {"--config", (dir.path / "cfg.yaml").string()});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("cfg.yaml:3:3") != std::string::npos);
}

TEST_CASE("a baseline round trip reports only what is new", "[suppress]") {
  test::TempDir dir("sbr-baseline");
  dir.write("k8s/a.yaml", pod(""));
  const std::string file = (dir.path / "baseline.json").string();
  std::ostringstream out, err;
  REQUIRE(run_cli({"baseline", "--output", file, dir.path.string()}, out, err) == 0);
  Run known = check(dir, {"--baseline", file});
  CHECK(known.code == 0);
  CHECK(known.doc["findings"].empty());
  CHECK(known.err.find("known findings not reported") != std::string::npos);
  // A second pod with the same problems is new: its workload identity differs.
  std::string b = pod("");
  b.replace(b.find("name: agent"), 11, "name: other");
  dir.write("k8s/b.yaml", b);
  Run fresh = check(dir, {"--baseline", file});
  CHECK(fresh.code == 1);
  REQUIRE_FALSE(fresh.doc["findings"].empty());
  for (const auto& f : fresh.doc["findings"]) CHECK(f["location"]["file"] == "k8s/b.yaml");

  dir.write("baseline.json", "{\"version\": 1}");
  CHECK(check(dir, {"--baseline", file}).code == 2);
}

TEST_CASE("include limits what is read, exclude still applies inside it", "[suppress]") {
  test::TempDir dir("sbr-include");
  dir.write("deploy/pod.yaml", pod(""));
  dir.write("deploy/old/pod.yaml", pod(""));
  dir.write("scratch/pod.yaml", pod(""));
  dir.write("cfg.yaml", "version: 1\ninclude: [deploy]\nexclude: [deploy/old]\n");
  Run r = check(dir, {"--config", (dir.path / "cfg.yaml").string()});
  REQUIRE_FALSE(r.doc["findings"].empty());
  for (const auto& f : r.doc["findings"]) CHECK(f["location"]["file"] == "deploy/pod.yaml");
  CHECK(r.doc["summary"]["files"] == 1);  // deploy/pod.yaml: not scratch/, old/ or cfg.yaml
}

}  // namespace suppression_test
