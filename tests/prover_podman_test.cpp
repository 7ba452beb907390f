// `sbreview prove` on this machine's podman, as a user runs it (the built binary, JSON out),
// on the fixtures under fixtures/prove and the prover's own rule fixtures. Hidden ([.podman]):
// CTest runs them once, serially, as "prover: real podman" (CMakeLists.txt). They need podman,
// runc, runsc and root, which scripts/test.sh installs; when podman is missing or broken they
// fail, saying so, within their time limit (never skipped, never hung).
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "prover/lib/process.h"
#include "tests/fixture_harness.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace prover_podman_test {

using namespace sbr;
using Json = nlohmann::json;

namespace {

constexpr int kProveMs = 120000;

// Why podman cannot run the probe here, "" when it can: `podman version`, then one real launch
// (a fixture with one workload). Asked once per test process, so that a broken podman fails
// every test at once with podman's own words instead of timing each of them out.
std::string podman_problem() {
  auto v = prove::run_process({"podman", "version", "--format", "{{.Client.Version}}"}, 30000);
  if (v.status != 0) {
    return v.timed_out ? "`podman version` did not answer in 30 s"
                       : "`podman version` failed: " + v.error + v.err;
  }
  auto r = prove::run_process({SBR_BINARY, "prove", "--format", "json", "--timeout", "20",
                               test::source_dir() + "/fixtures/prove/defaults"},
                              kProveMs);
  if (r.timed_out) return "`sbreview prove` on fixtures/prove/defaults did not finish";
  Json doc = Json::parse(r.out, nullptr, false);
  if (!doc.is_object()) return "`sbreview prove` failed: " + r.err;
  for (const Json& f : doc["findings"]) {
    if (f["rule"] == "SB0040") return "podman cannot run the probe: " + f["message"].dump();
  }
  return {};
}

void require_podman() {
  static const std::string problem = podman_problem();
  INFO(
      "podman, runc and root are needed here (scripts/test.sh installs podman and points "
      "CONTAINERS_CONF at a containers.conf that selects runc): "
      << problem);
  REQUIRE(problem.empty());
}

// Everything any prover run left: containers, pods, volumes and images with its label.
std::string leftovers() {
  std::string out;
  for (std::vector<std::string> what : {std::vector<std::string>{"podman", "ps", "-a", "-q"},
                                        {"podman", "pod", "ps", "-q"},
                                        {"podman", "volume", "ls", "-q"},
                                        {"podman", "images", "-q"}}) {
    what.insert(what.end(), {"--filter", "label=sbreview.prove.run"});
    out += prove::run_process(what, 30000).out;
  }
  return out;
}

struct Proved {
  int status = -1;
  Json doc;
  std::string err;
};

Proved prove_dir(const std::string& rel, std::vector<std::string> extra = {}) {
  require_podman();
  std::vector<std::string> argv = {SBR_BINARY, "prove", "--format", "json"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  argv.push_back(test::source_dir() + "/" + rel);
  auto r = prove::run_process(argv, kProveMs);
  Proved p;
  p.status = r.status;
  p.err = r.err;
  INFO(r.err);
  REQUIRE_FALSE(r.timed_out);
  p.doc = Json::parse(r.out, nullptr, false);
  REQUIRE(p.doc.is_object());
  CHECK(leftovers().empty());  // nothing of the run is left, whatever it found
  return p;
}

const Json* finding(const Proved& p, const std::string& rule, const std::string& file = "") {
  for (const Json& f : p.doc["findings"]) {
    if (f["rule"] == rule && (file.empty() || f["location"]["file"] == file)) return &f;
  }
  return nullptr;
}

std::string verdict(const Proved& p, const std::string& rule, const std::string& file = "") {
  const Json* f = finding(p, rule, file);
  INFO("no " << rule << " finding in " << p.doc.dump().substr(0, 2000));
  REQUIRE(f != nullptr);
  return (*f)["runtime"]["verdict"];
}

std::string control(const Json& launch, const std::string& prefix) {
  for (const Json& c : launch["controls"]) {
    if (c["control"].get<std::string>().rfind(prefix, 0) == 0) return c["verdict"];
  }
  return "absent";
}

// Closed world over the whole directory: what prove reports (the review's findings and the
// runtime's own) equals what the files annotate.
void check_closed_world(const Proved& p, const std::string& rel) {
  test::Annotations marks;
  std::string dir = test::source_dir() + "/" + rel;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::string file = std::filesystem::relative(e.path(), dir).string();
    test::collect_annotations(file, test::read_file(e.path().string()), marks);
  }
  std::set<test::Key> reported;
  std::string failures;
  for (const Json& f : p.doc["findings"]) {
    std::string file =
        f["location"]["file"].is_string() ? f["location"]["file"].get<std::string>() : "";
    reported.insert({file, f["location"]["line"].get<unsigned>(), f["rule"].get<std::string>()});
    if (f["rule"] == "SB0040") failures += f["message"].get<std::string>() + "\n";
    for (const Json& r : f["reasons"]) {
      reported.insert({file, f["location"]["line"].get<unsigned>(), r["rule"].get<std::string>()});
    }
  }
  std::string diff;
  for (const auto& k : reported) {
    if (!marks.expected.count(k))
      diff += "unannotated " + std::get<0>(k) + ":" + std::to_string(std::get<1>(k)) + " " +
              std::get<2>(k) + "\n";
  }
  for (const auto& k : marks.expected) {
    if (!reported.count(k))
      diff += "missing " + std::get<0>(k) + ":" + std::to_string(std::get<1>(k)) + " " +
              std::get<2>(k) + "\n";
  }
  INFO(diff);
  INFO("launches that failed:\n" << failures);
  CHECK(diff.empty());
}

}  // namespace

TEST_CASE("prove: the hardened launcher with a bare -p (the issue's done-when)", "[.podman]") {
  Proved p = prove_dir("fixtures/prove/agentbox");
  CHECK(p.status == 1);  // high findings, confirmed
  check_closed_world(p, "fixtures/prove/agentbox");
  CHECK(verdict(p, "SB5050") == "confirmed");
  CHECK(verdict(p, "SB1006") == "confirmed");
  CHECK(verdict(p, "SB5001") == "confirmed");
  const Json* bare = finding(p, "SB5050");
  CHECK((*bare)["runtime"]["observed"].get<std::string>().find("listens on 0.0.0.0") !=
        std::string::npos);
  CHECK((*bare)["runtime"]["runtime"] == "podman/runc");
  REQUIRE(p.doc["launches"].size() == 1);
  const Json& l = p.doc["launches"][0];
  for (const char* c :
       {"capabilities: all dropped", "no new privileges", "read-only root filesystem",
        "pids limit 512", "memory limit 2g", "CPU limit 2", "user uid 1000"}) {
    INFO(c);
    CHECK(control(l, c) == "confirmed");
  }
  for (const Json& f : p.doc["findings"]) CHECK(f["runtime"]["verdict"] != "refuted");
}

TEST_CASE("prove: a loopback -p binds loopback, --network none drops the mapping", "[.podman]") {
  Proved p = prove_dir("fixtures/prove/ports");
  check_closed_world(p, "fixtures/prove/ports");
  CHECK(verdict(p, "SB7080") == "confirmed");
  bool loopback = false;
  for (const Json& l : p.doc["launches"]) {
    if (control(l, "`127.0.0.1:5173:5173` bound to loopback") == "confirmed") loopback = true;
    if (l["name"].get<std::string>().find("offline") != std::string::npos) {
      CHECK(control(l, "network none") == "confirmed");
    }
  }
  CHECK(loopback);
}

TEST_CASE("prove: -v /etc:/host-etc:U and --device /dev/kvm change nothing on the host",
          "[.podman]") {
  struct stat before {
  }, after{};
  REQUIRE(stat("/etc", &before) == 0);
  size_t entries_before = 0, entries_after = 0;
  for (const auto& e : std::filesystem::directory_iterator("/etc")) entries_before += e.exists();
  Proved p = prove_dir("fixtures/prove/host-etc");
  REQUIRE(stat("/etc", &after) == 0);
  for (const auto& e : std::filesystem::directory_iterator("/etc")) entries_after += e.exists();
  CHECK(after.st_uid == before.st_uid);
  CHECK(after.st_gid == before.st_gid);
  CHECK(after.st_mode == before.st_mode);
  CHECK(after.st_ctim.tv_sec == before.st_ctim.tv_sec);
  CHECK(after.st_ctim.tv_nsec == before.st_ctim.tv_nsec);
  CHECK(entries_after == entries_before);
  check_closed_world(p, "fixtures/prove/host-etc");
  CHECK(verdict(p, "SB3011") == "unverifiable");
  CHECK(verdict(p, "SB1007") == "unverifiable");
  CHECK(verdict(p, "SB3001") == "confirmed");  // the stand-in is mounted writable
  std::string not_passed = p.doc["launches"][0]["not_passed"].dump();
  CHECK(not_passed.find("--device /dev/kvm") != std::string::npos);
  CHECK(not_passed.find(":U: changes host files") != std::string::npos);
}

TEST_CASE("prove: a Kubernetes Pod through podman kube play", "[.podman]") {
  Proved p = prove_dir("fixtures/prove/pod");
  check_closed_world(p, "fixtures/prove/pod");
  CHECK(verdict(p, "SB5008") == "confirmed");
  CHECK(verdict(p, "SB6004") == "unverifiable");
  REQUIRE(p.doc["launches"].size() == 1);
  const Json& l = p.doc["launches"][0];
  CHECK(l["launch"] == "podman kube play");
  for (const char* c : {"capabilities: all dropped", "no new privileges",
                        "read-only root filesystem", "memory limit 1Gi", "CPU limit 1",
                        "user uid 1000 gid 1000", "seccomp: the runtime's default profile"}) {
    INFO(c);
    CHECK(control(l, c) == "confirmed");
  }
  CHECK(l["not_passed"].dump().find("runAsNonRoot: podman kube play ignores it") !=
        std::string::npos);
}

TEST_CASE("prove: gVisor launches are recognised", "[.podman]") {
  INFO("runsc is needed here (scripts/test.sh installs it)");
  REQUIRE(prove::run_process({"runsc", "--version"}, 30000).status == 0);
  Proved p = prove_dir("fixtures/prove/gvisor");
  check_closed_world(p, "fixtures/prove/gvisor");
  REQUIRE(p.doc["launches"].size() == 2);
  for (const Json& l : p.doc["launches"]) {
    INFO(l.dump());
    CHECK(l["runtime"] == "podman/runsc");
    CHECK(control(l, "gVisor runtime") == "confirmed");
  }
}

TEST_CASE("prove: podman's default seccomp and pids limit refute a naive 'missing'", "[.podman]") {
  require_podman();
  test::TempDir tmp("sbr-prove");
  // A SARIF as a review that does not know podman's defaults would write it: the check's own
  // result for this launcher, copied as "seccomp unconfined" and "no pids limit".
  auto check = prove::run_process(
      {SBR_BINARY, "check", "--format", "sarif", test::source_dir() + "/fixtures/prove/defaults"},
      60000);
  Json sarif = Json::parse(check.out);
  Json& results = sarif["runs"][0]["results"];
  REQUIRE(results.size() == 1);
  for (const char* rule : {"SB2009", "SB6003"}) {
    Json naive = results[0];
    naive["ruleId"] = rule;
    naive.erase("ruleIndex");
    naive["partialFingerprints"]["sbreview/v3"] = std::string("naive-") + rule;
    results.push_back(naive);
  }
  std::string file = (tmp.path / "naive.sarif").string();
  std::ofstream(file) << sarif.dump();
  Proved p = prove_dir("fixtures/prove/defaults", {"--from", file});
  CHECK(verdict(p, "SB2009") == "refuted");
  CHECK(verdict(p, "SB6003") == "refuted");
  CHECK((*finding(p, "SB2009"))["runtime"]["observed"] == "seccomp mode 2");
  CHECK((*finding(p, "SB6003"))["runtime"]["observed"] == "cgroup v1 pids limit 2048");
  CHECK(verdict(p, "SB1006") == "confirmed");  // the one the review really reported
  size_t refutations = 0;
  for (const Json& f : p.doc["findings"]) refutations += f["rule"] == "SB0041";
  CHECK(refutations == 2);
}

TEST_CASE("prove: the prover's own rules on their fixtures", "[.podman]") {
  for (const char* dir : {"SB0040-runtime-launch-failed", "SB0041-runtime-refutes-finding",
                          "SB0042-runtime-control-absent"}) {
    std::string rel = std::string("fixtures/rules/") + dir;
    DYNAMIC_SECTION(rel) {
      // One run for bad.sh and good.sh: closed world over both, the rule in bad.sh only.
      Proved p = prove_dir(rel);
      check_closed_world(p, rel);
      std::string id = std::string(dir).substr(0, 6);
      CHECK(finding(p, id, "bad.sh") != nullptr);
      CHECK(finding(p, id, "good.sh") == nullptr);
    }
  }
}

TEST_CASE("prove: an interrupted run removes what it created", "[.podman]") {
  require_podman();
  test::TempDir runtime("sbr-prove-int");
  std::string err_file = (runtime.path / "stderr").string();
  std::filesystem::create_directory(runtime.path / "runs");
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    FILE* e = freopen(err_file.c_str(), "w", stderr);
    FILE* o = freopen("/dev/null", "w", stdout);
    (void)e;
    (void)o;
    std::string dir = (runtime.path / "runs").string();
    std::string fixtures = test::source_dir() + "/fixtures/prove";
    execl(SBR_BINARY, SBR_BINARY, "prove", "--runtime-dir", dir.c_str(), fixtures.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  // Interrupt once the first launch is done and others are under way.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  while (test::read_file(err_file).find("prove: [1/") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  INFO(test::read_file(err_file));
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGINT);
  CHECK(test::read_file(err_file).find("interrupted") != std::string::npos);
  CHECK(leftovers().empty());
  CHECK(std::filesystem::is_empty(runtime.path / "runs"));
}

TEST_CASE("prove --self-test: what this podman honours", "[.podman]") {
  require_podman();
  auto r = prove::run_process({SBR_BINARY, "prove", "--self-test", "--format", "json"}, kProveMs);
  INFO(r.err);
  REQUIRE(r.status == 0);
  Json doc = Json::parse(r.out);
  auto status = [&](const std::string& launch, const std::string& field) {
    for (const Json& row : doc["rows"]) {
      if (row["launch"] == launch && row["field"] == field) return row["status"].get<std::string>();
    }
    return std::string("absent");
  };
  CHECK(status("podman run", "--cap-drop=ALL") == "honoured");
  CHECK(status("podman run", "-p HOST:CTR (no address)") == "binds every interface");
  CHECK(status("podman run", "--network none with -p") == "mapping dropped");
  CHECK(status("podman run", "--runtime runsc") == "honoured");
  CHECK(status("podman kube play", "readOnlyRootFilesystem: true") == "honoured");
  CHECK(status("podman kube play", "hostPID: true") == "ignored");
  CHECK(status("podman kube play", "runAsNonRoot: true (no runAsUser)") == "ignored");
  CHECK(leftovers().empty());
}

}  // namespace prover_podman_test
