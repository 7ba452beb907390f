// The report over the real pipeline: fingerprints survive lines inserted above a finding, and
// the binary writes byte-identical output whatever the thread count.
#include <stdlib.h>
#include <sys/stat.h>
#include <catch2/catch.hpp>

#include <array>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "analyzer/check/runner.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline/analysis.h"
#include "tests/fixture_harness.h"
#include "tests/report_fixture.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace report_pipeline_test {

using namespace sbr;

namespace {

std::string make_temp_dir() {
  char tmpl[] = "/tmp/sbr-report-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

const char* const kPod =
    "apiVersion: v1\n"
    "kind: Pod\n"
    "metadata:\n"
    "  name: agent\n"
    "  namespace: sandboxes\n"
    "spec:\n"
    "  containers:\n"
    "  - name: main\n"
    "    image: registry.example/agent:1.4\n"
    "    securityContext:\n"
    "      privileged: true\n";

// Two weak risk acceptances: invariant-0 findings located in the configuration.
const char* const kConfig =
    "version: 1\n"
    "acceptances:\n"
    "  - rule: SB1001\n"
    "    match: {name: agent}\n"
    "  - rule: SB2001\n"
    "    reason: the image drops it itself\n"
    "    expires: 2026-01-01\n";

struct Run {
  std::vector<Finding> findings;
  std::vector<std::string> files;
};

Run run_pipeline(const std::string& dir, const Catalog& catalog) {
  std::string cfg_path = dir + "/.sbreview.yaml";
  Config config;
  Analysis a = analyze({dir}, config, AnalyzeOptions{});
  // As the CLI does: the configuration's locations need a file id in this run's table.
  FileId id = a.model.files.add(".sbreview.yaml");
  auto parsed = parse_config(test::read_file(cfg_path), ".sbreview.yaml", id);
  REQUIRE(parsed);
  config = *parsed;
  RunOptions ro;
  ro.today = "2026-06-15";
  return {run_checks(a.model, catalog, config, ro), a.model.files.paths};
}

// The embedded catalog plus the acceptance rules, whose catalog entries may not have landed yet.
Catalog pipeline_catalog() {
  Catalog c = Catalog::embedded();
  if (!c.find("SB0009"))
    c.add(test::make_rule("SB0009", "acceptance-without-reason", 0, Severity::High));
  if (!c.find("SB0010")) c.add(test::make_rule("SB0010", "expired-acceptance", 0, Severity::High));
  return c;
}

}  // namespace

TEST_CASE("fingerprints do not move when lines are inserted above", "[report]") {
  Catalog catalog = pipeline_catalog();
  std::string a = make_temp_dir(), b = make_temp_dir();
  const std::string shift = "# one\n# two\n# three\n";
  write_file(a + "/pod.yaml", kPod);
  write_file(a + "/.sbreview.yaml", kConfig);
  write_file(b + "/pod.yaml", shift + kPod);
  write_file(b + "/.sbreview.yaml", shift + kConfig);
  Run ra = run_pipeline(a, catalog), rb = run_pipeline(b, catalog);

  std::multiset<std::pair<std::string, std::string>> fa, fb;
  std::multiset<std::tuple<std::string, std::string, unsigned>> la, lb;
  for (const Finding& f : ra.findings) {
    fa.insert({f.rule_id, f.fingerprint});
    la.insert({f.rule_id, ra.files[f.at.file], f.at.line + 3});
  }
  for (const Finding& f : rb.findings) {
    fb.insert({f.rule_id, f.fingerprint});
    lb.insert({f.rule_id, rb.files[f.at.file], f.at.line});
  }
  // Both acceptance findings fire today; workload rules add to the set as they land.
  std::set<std::string> rules;
  for (const auto& [rule, fp] : fa) rules.insert(rule);
  CHECK(rules.count("SB0009") == 1);
  CHECK(rules.count("SB0010") == 1);
  CHECK(la == lb);  // every finding moved down by exactly three lines...
  CHECK(fa == fb);  // ...and kept its fingerprint
  for (const auto& [rule, fp] : fa) CHECK(fp.size() == 16);
  std::filesystem::remove_all(a);
  std::filesystem::remove_all(b);
}

TEST_CASE("the binary writes identical bytes in ten runs with --jobs 1, 2 and 8", "[report]") {
  std::string dir = make_temp_dir();
  std::string fixtures = test::source_dir() + "/fixtures";
  std::string first;
  for (int run = 0; run < 10; ++run) {
    const int jobs = std::array<int, 3>{1, 2, 8}[run % 3];
    std::string base = dir + "/r" + std::to_string(run);
    std::string cmd =
        std::string(SBR_BINARY) + " check '" + fixtures + "' --today 2026-06-15 --jobs " +
        std::to_string(jobs) + " --fail-on none --format text --output " + base +
        ".txt --format json --output " + base + ".json --format sarif --output " + base + ".sarif";
    INFO(cmd);
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::string output = test::read_file(base + ".txt") + test::read_file(base + ".json") +
                         test::read_file(base + ".sarif");
    if (run == 0) {
      CHECK(test::read_file(base + ".sarif").find("\"version\": \"2.1.0\"") != std::string::npos);
      CHECK(test::read_file(base + ".json").find("\"findings\": [") != std::string::npos);
      first = output;
    }
    CHECK(!output.empty());
    CHECK(output == first);  // every byte of every format, whatever the run and thread count
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("the binary's paths: text relative to the working directory, SARIF to the repository",
          "[report]") {
  std::string dir = make_temp_dir();
  std::string cmd = "cd '" + test::source_dir() + "' && " + SBR_BINARY +
                    " check ./fixtures/rules/SB0001-parse-error/ --fail-on none --format text "
                    "--output " +
                    dir + "/out.txt --format sarif --output " + dir + "/out.sarif";
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::string text = test::read_file(dir + "/out.txt");
  CHECK(text.rfind("fixtures/rules/SB0001-parse-error/bad.yaml:9:6: high [SB0001]", 0) == 0);
  std::string sarif = test::read_file(dir + "/out.sarif");
  CHECK(sarif.find("\"uri\": \"fixtures/rules/SB0001-parse-error/bad.yaml\"") != std::string::npos);
  char* real = realpath(test::source_dir().c_str(), nullptr);
  REQUIRE(real != nullptr);
  CHECK(sarif.find(std::string("\"uri\": \"file://") + real + "/\"") != std::string::npos);
  std::free(real);
  std::filesystem::remove_all(dir);
}

}  // namespace report_pipeline_test
