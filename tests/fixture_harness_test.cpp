// The fixture harness itself: a wrong annotation must fail, setup instructions must create what
// they say, and a subdirectory with its own configuration is judged with it.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>

#include "tests/fixture_harness.h"

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
