// The fixture harness itself: a wrong annotation must fail, setup instructions must create what
// they say, and a subdirectory with its own configuration is judged with it.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace fixture_harness_test {

namespace {

struct Dir {
  std::string path;
  Dir() {
    char tmpl[] = "/tmp/sbr-harness-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~Dir() { std::system(("rm -rf '" + path + "'").c_str()); }
  void write(const std::string& rel, const std::string& text) const {
    std::string p = path + "/" + rel;
    std::system(("mkdir -p '" + p.substr(0, p.rfind('/')) + "'").c_str());
    std::ofstream(p) << text;
  }
};

std::string pod(const std::string& marker_before_name) {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n" +
         marker_before_name + "  - name: agent\n    image: registry.example/agent:1\n";
}

}  // namespace

TEST_CASE("annotations must equal what is reported", "[harness]") {
  Dir d;
  d.write("bad.yaml", pod("  # ruleid: SB6001\n"));
  auto r = sbr::test::run_fixture_dir(d.path, {"SB6001"}, false);
  CHECK(r.matches());
  CHECK(r.expected.count({"bad.yaml", 8, "SB6001"}) == 1);

  d.write("bad.yaml", pod(""));  // reported but not annotated
  r = sbr::test::run_fixture_dir(d.path, {"SB6001"}, false);
  CHECK_FALSE(r.matches());
  CHECK(r.describe().find("unexpected: bad.yaml:7 SB6001") != std::string::npos);

  d.write("bad.yaml", pod("  # ok: SB6001\n"));  // `ok:` on a line that is reported
  r = sbr::test::run_fixture_dir(d.path, {"SB6001"}, false);
  CHECK_FALSE(r.matches());
  CHECK(r.forbidden_hit.size() == 1);
}

TEST_CASE(".fixture-setup makes special files in a copy, never in the fixture", "[harness]") {
  Dir d;
  d.write("good.yaml", "a: 1\n");
  d.write(".fixture-setup", "# comment\nfifo bad.yaml\nsparse big.yaml 67108865\n");
  d.write("bad.yaml.expect", "0 SB0008\n");
  d.write("big.yaml.expect", "0 SB0004\n");
  auto r = sbr::test::run_fixture_dir(d.path, {}, false);
  INFO(r.describe());
  CHECK(r.matches());
  CHECK(access((d.path + "/bad.yaml").c_str(), F_OK) != 0);  // not created in the fixture
  CHECK(r.expected.size() == 2);
  CHECK(r.reported.count({"bad.yaml", 0, "SB0008"}) == 1);
  CHECK(r.reported.count({"big.yaml", 0, "SB0004"}) == 1);

  d.write(".fixture-setup", "symlink x /etc\n");
  CHECK_THROWS(sbr::test::run_fixture_dir(d.path, {}, false));
}

TEST_CASE("a subdirectory with its own .sbreview.yaml is a separate run", "[harness]") {
  Dir d;
  d.write("bad.yaml",
          "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n# ruleid: SB6004\nspec:\n"
          "  containers:\n  - name: a\n    image: x\n");
  d.write("declared/.sbreview.yaml", "cluster:\n  pod_pids_limit: 512\n");
  d.write("declared/pod.yaml",
          "apiVersion: v1\nkind: Pod\nmetadata:\n  name: q\n# ok: SB6004\n"
          "spec:\n  containers:\n  - name: a\n    image: x\n");
  auto r = sbr::test::run_fixture_dir(d.path, {"SB6004"}, false);
  INFO(r.describe());
  CHECK(r.matches());
  CHECK(r.reported.size() == 1);
}

TEST_CASE("closed world: a finding nobody annotated fails the fixture and is named", "[harness]") {
  Dir d;
  // An unhardened pod: SB6001 is annotated, everything else it reports is not.
  d.write("bad.yaml", pod("  # ruleid: SB6001\n"));
  auto scoped = sbr::test::run_fixture_dir(d.path, {"SB6001"}, false);
  INFO(scoped.describe());
  CHECK(scoped.matches());  // open world sees only the rule in scope

  auto closed = sbr::test::run_fixture_dir(d.path, {"SB6001"}, true);
  CHECK_FALSE(closed.matches());
  std::vector<std::string> named = closed.unannotated();
  std::string text = closed.describe();
  size_t others = 0;
  for (const auto& f : closed.findings) {
    if (f.rule_id == "SB6001") continue;
    ++others;
    std::string want = "bad.yaml:" + std::to_string(f.at.line) + " " + std::string(f.rule_id) +
                       " " + f.message.str();
    INFO(want);
    CHECK(std::find(named.begin(), named.end(), want) != named.end());
    CHECK(text.find("unexpected: " + want) != std::string::npos);
  }
  REQUIRE(others > 0);
  CHECK(named.size() == others);

  // Annotating every finding (here in a sidecar) closes the world; dropping one annotation
  // fails again and names exactly that finding.
  std::set<std::pair<unsigned, std::string>> all;
  for (const auto& f : closed.findings) all.insert({f.at.line, f.rule_id});
  auto write_expect = [&](const std::pair<unsigned, std::string>* skip) {
    std::string lines;
    for (const auto& e : all) {
      if (skip == nullptr || e != *skip) lines += std::to_string(e.first) + " " + e.second + "\n";
    }
    d.write("bad.yaml.expect", lines);
  };
  write_expect(nullptr);
  auto full = sbr::test::run_fixture_dir(d.path, {"SB6001"}, true);
  INFO(full.describe());
  CHECK(full.matches());
  CHECK(full.unannotated().empty());

  const auto dropped =
      *std::find_if(all.begin(), all.end(), [](const auto& e) { return e.second != "SB6001"; });
  write_expect(&dropped);
  auto one = sbr::test::run_fixture_dir(d.path, {"SB6001"}, true);
  CHECK_FALSE(one.matches());
  REQUIRE(one.unannotated().size() >= 1);
  for (const auto& u : one.unannotated()) {
    CHECK(u.rfind("bad.yaml:" + std::to_string(dropped.first) + " " + dropped.second + " ", 0) ==
          0);
  }
}

}  // namespace fixture_harness_test
