// The real binary, end to end: exit codes, output pairs, --fail-on, the configuration file,
// risk acceptances, threat classes, and determinism across --jobs.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace cli_test {

namespace {

// A temporary directory that removes itself.
struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/sbr-cli-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
  std::string write(const std::string& rel, const std::string& text) const {
    std::string p = path + "/" + rel;
    std::string dir = p.substr(0, p.rfind('/'));
    std::system(("mkdir -p '" + dir + "'").c_str());
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
};

struct Run {
  int code = -1;
  std::string out, err;
};

// Runs `sbreview ARGS` from `cwd`, capturing stdout and stderr.
Run sbreview(const std::string& cwd, const std::string& args) {
  char errf[] = "/tmp/sbr-cli-err-XXXXXX";
  int fd = mkstemp(errf);
  REQUIRE(fd >= 0);
  close(fd);
  std::string cmd = "cd '" + cwd + "' && '" + std::string(SBR_BINARY) + "' " + args + " 2>" + errf;
  Run r;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.err = sbr::test::read_file(errf);
  unlink(errf);
  return r;
}

const char* kBroken = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [x\n";
const char* kFine = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: b\n";

// A Deployment without a memory limit (SB6001, high). No token and no secret inside, so that
// nothing about it is critical: under untrusted-input every finding is at most medium.
const char* kNoMemory = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: agent
  namespace: agents
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      automountServiceAccountToken: false
      containers:
      - name: agent
        image: registry.example/agent:1.4
        resources:
          limits:
            cpu: "1"
)";

}  // namespace

TEST_CASE("exit 0 on a clean tree, 1 on findings at the threshold, 2 on usage errors", "[cli]") {
  TempDir t;
  t.write("ok/settings.yaml", kFine);
  Run clean = sbreview(t.path, "check ok");
  CHECK(clean.code == 0);
  CHECK(clean.out.find("[SB") == std::string::npos);

  t.write("bad/broken.yaml", kBroken);
  Run bad = sbreview(t.path, "check bad");
  CHECK(bad.code == 1);
  CHECK(bad.out.rfind("bad/broken.yaml:", 0) == 0);  // relative to the working directory
  CHECK(bad.out.find("high [SB0001]") != std::string::npos);

  CHECK(sbreview(t.path, "check --fail-on critical bad").code == 0);
  CHECK(sbreview(t.path, "check --fail-on none bad").code == 0);
  CHECK(sbreview(t.path, "check --fail-on=low bad").code == 1);

  Run usage = sbreview(t.path, "check --frobnicate bad");
  CHECK(usage.code == 2);
  CHECK(usage.err.find("unknown option --frobnicate") != std::string::npos);
  CHECK(sbreview(t.path, "check --format xml bad").code == 2);
  CHECK(sbreview(t.path, "check --fail-on note bad").code == 2);
  CHECK(sbreview(t.path, "lint bad").code == 2);
  CHECK(sbreview(t.path, "check --jobs 0 bad").code == 2);
}

TEST_CASE("the --parse-only flag reads everything and prints nothing", "[cli]") {
  TempDir t;
  t.write("bad/broken.yaml", kBroken);
  Run r = sbreview(t.path, "check --parse-only bad");
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  CHECK(r.err.empty());
}

TEST_CASE("several --format/--output pairs are written in one run", "[cli]") {
  TempDir t;
  t.write("bad/broken.yaml", kBroken);
  Run r = sbreview(t.path,
                   "check --format json --output out/r.json --format sarif -o out/r.sarif "
                   "--format text bad");
  // out/ does not exist: writing fails loudly rather than dropping a report.
  CHECK(r.code == 2);
  CHECK(r.err.find("cannot write out/r.json") != std::string::npos);

  r = sbreview(t.path,
               "check --format json --output r.json --format sarif -o r.sarif --format text bad");
  CHECK(r.code == 1);
  CHECK(r.out.find("[SB0001]") != std::string::npos);  // the text view went to stdout
  std::string json = sbr::test::read_file(t.path + "/r.json"),
              sarif = sbr::test::read_file(t.path + "/r.sarif");
  REQUIRE(nlohmann::json::accept(json));
  REQUIRE(nlohmann::json::accept(sarif));
  auto j = nlohmann::json::parse(json);
  REQUIRE(j["findings"].size() == 1);
  CHECK(j["findings"][0]["rule"] == "SB0001");
  auto s = nlohmann::json::parse(sarif);
  CHECK(s["version"] == "2.1.0");
  REQUIRE(s["runs"][0]["results"].size() == 1);
  CHECK(s["runs"][0]["results"][0]["ruleId"] == "SB0001");
  CHECK(sbreview(t.path, "check --output a.txt --output b.txt bad").code == 2);
  CHECK(sbreview(t.path, "check --format text --output t.txt bad").out.empty());
  CHECK(sbr::test::read_file(t.path + "/t.txt").find("[SB0001]") != std::string::npos);
}

TEST_CASE("a configuration error is file:line:col on stderr and exit 2", "[cli]") {
  TempDir t;
  t.write("bad/broken.yaml", kBroken);
  t.write("cfg.yaml", "version: 1\nfail_on: high\ncolour: red\n");
  Run r = sbreview(t.path, "check --config cfg.yaml bad");
  CHECK(r.code == 2);
  CHECK(r.err == "sbreview: cfg.yaml:3:1: unknown key `colour` in the configuration\n");
  CHECK(r.out.empty());

  t.write("cfg2.yaml", "acceptances:\n  - rule: SB0001\n    expires: tomorrow\n    reason: x\n");
  r = sbreview(t.path, "check --config cfg2.yaml bad");
  CHECK(r.code == 2);
  CHECK(r.err.find("cfg2.yaml:3:14: `expires` must be a date YYYY-MM-DD") != std::string::npos);

  r = sbreview(t.path, "check --config missing.yaml bad");
  CHECK(r.code == 2);
}

TEST_CASE("the configuration's fail_on and integrity levels apply, the flag wins", "[cli]") {
  TempDir t;
  t.write("bad/broken.yaml", kBroken);
  t.write("c1.yaml", "fail_on: critical\n");
  CHECK(sbreview(t.path, "check --config c1.yaml bad").code == 0);
  CHECK(sbreview(t.path, "check --config c1.yaml --fail-on high bad").code == 1);
  t.write("c2.yaml", "integrity:\n  SB0001: low\n");
  Run r = sbreview(t.path, "check --config c2.yaml bad");
  CHECK(r.code == 0);
  CHECK(r.out.find("low [SB0001]") != std::string::npos);
}

TEST_CASE("an acceptance with a reason turns a finding into a note", "[cli]") {
  TempDir t;
  t.write("bad/broken.yaml", kBroken);
  t.write("accept.yaml",
          "acceptances:\n  - rule: SB0001\n    match: {path: broken.yaml}\n"
          "    reason: vendored fixture, parsed by its own tests\n    expires: \"2099-01-01\"\n");
  Run r = sbreview(t.path, "check --config accept.yaml bad");
  CHECK(r.code == 0);
  CHECK(r.out.find("note [SB0001]") != std::string::npos);

  // The same acceptance for another path does not apply.
  t.write("other.yaml",
          "acceptances:\n  - rule: SB0001\n    match: {path: elsewhere.yaml}\n    reason: x\n");
  CHECK(sbreview(t.path, "check --config other.yaml bad").code == 1);
}

TEST_CASE("an expired acceptance is reported and the finding comes back", "[cli]") {
  TempDir t;
  t.write("bad/broken.yaml", kBroken);
  t.write("accept.yaml",
          "acceptances:\n  - rule: SB0001\n    reason: temporary\n    expires: \"2026-03-01\"\n");
  Run before = sbreview(t.path, "check --config accept.yaml --today 2026-02-28 bad");
  CHECK(before.code == 0);
  CHECK(before.out.find("SB0010") == std::string::npos);
  Run after = sbreview(t.path, "check --config accept.yaml --today 2026-03-02 bad");
  CHECK(after.code == 1);
  CHECK(after.out.find("accept.yaml:2:5: high [SB0010] risk acceptance of SB0001 expired on "
                       "2026-03-01") != std::string::npos);
  CHECK(after.out.find("high [SB0001]") != std::string::npos);

  t.write("noreason.yaml", "acceptances:\n  - rule: SB0001\n");
  Run nr = sbreview(t.path, "check --config noreason.yaml bad");
  CHECK(nr.code == 1);
  CHECK(nr.out.find("noreason.yaml:2:5: high [SB0009]") != std::string::npos);
  CHECK(nr.out.find("high [SB0001]") != std::string::npos);
}

TEST_CASE("threat classes: untrusted-input lowers one level, trusted needs a reason", "[cli]") {
  TempDir t;
  t.write("k8s/agent.yaml", kNoMemory);
  Run base = sbreview(t.path, "check k8s");
  REQUIRE(base.out.find("high [SB6001]") != std::string::npos);
  CHECK(base.code == 1);

  t.write("input.yaml",
          "threat_classes:\n  - match: {kind: Deployment, name: agent}\n"
          "    class: untrusted-input\n");
  Run lowered = sbreview(t.path, "check --config input.yaml k8s");
  CHECK(lowered.out.find("medium [SB6001]") != std::string::npos);
  CHECK(lowered.code == 0);

  t.write("trusted.yaml", "threat_classes:\n  - match: {name: agent}\n    class: trusted\n");
  Run unreasoned = sbreview(t.path, "check --config trusted.yaml k8s");
  CHECK(unreasoned.code == 2);
  CHECK(unreasoned.err.find("trusted.yaml:2:5: class `trusted` needs a `reason`") !=
        std::string::npos);

  t.write("trusted2.yaml",
          "threat_classes:\n  - match: {name: agent}\n    class: trusted\n"
          "    reason: internal batch job on reviewed code only\n");
  Run trusted = sbreview(t.path, "check --config trusted2.yaml k8s");
  CHECK(trusted.code == 0);
  CHECK(trusted.out.find("SB6001") == std::string::npos);  // trusted keeps only critical
}

TEST_CASE("the sbreview.dev/threat-class annotation classifies a workload", "[cli]") {
  TempDir t;
  std::string annotated = kNoMemory;
  annotated.replace(annotated.find("  namespace: agents\n"), 19,
                    "  namespace: agents\n  annotations:\n    sbreview.dev/threat-class: "
                    "untrusted-input");
  t.write("k8s/agent.yaml", annotated);
  Run r = sbreview(t.path, "check k8s");
  CHECK(r.out.find("medium [SB6001]") != std::string::npos);
  CHECK(r.code == 0);

  // `trusted` cannot be set by an annotation: it needs a reason only the configuration holds.
  std::string trusted = annotated;
  trusted.replace(trusted.find("untrusted-input"), 15, "trusted");
  t.write("k8s/agent.yaml", trusted);
  r = sbreview(t.path, "check k8s");
  CHECK(r.out.find("high [SB6001]") != std::string::npos);
  CHECK(r.out.find("high [SB0005]") != std::string::npos);
  CHECK(r.code == 1);
}

TEST_CASE("options --jobs 1 and --jobs 2 give byte-identical output on the fixtures", "[cli]") {
  std::string root = sbr::test::source_dir();
  Run one = sbreview(root, "check --fail-on none --jobs 1 --today 2026-06-15 fixtures");
  Run two = sbreview(root, "check --fail-on none --jobs 2 --today 2026-06-15 fixtures");
  CHECK(one.code == 0);
  CHECK(two.code == 0);
  CHECK_FALSE(one.out.empty());
  CHECK(one.out == two.out);
  Run j1 =
      sbreview(root, "check --fail-on none --jobs 1 --format json --today 2026-06-15 fixtures");
  Run j2 =
      sbreview(root, "check --fail-on none --jobs 2 --format json --today 2026-06-15 fixtures");
  CHECK(j1.out == j2.out);
}

}  // namespace cli_test
