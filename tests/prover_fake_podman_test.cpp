// The prover's own time limit and cleanup, against a stand-in `podman` (a shell script first on
// PATH) that answers the session's questions and then hangs in `podman run`: deterministic, no
// containers. What real podman does is tested in prover_podman_test.cpp.
#include <signal.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "prover/lib/process.h"
#include "tests/fixture_harness.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace prover_fake_podman_test {

using namespace sbr;

namespace {

// Logs every call, one line each; `podman run` records its pid and never reports.
constexpr const char* kFakePodman = R"(#!/bin/sh
echo "$*" >> "$FAKE_PODMAN_DIR/calls"
case "$1" in
  version) echo 4.3.1 ;;
  import) echo sha256:0 ;;
  network) echo '[]' ;;
  run) echo $$ > "$FAKE_PODMAN_DIR/run.pid"; exec sleep 600 ;;
esac
exit 0
)";

struct Fake {
  test::TempDir dir{"sbr-fake-podman"};
  std::string runs;
  Fake() {
    dir.write("bin/podman", kFakePodman);
    chmod((dir.path / "bin/podman").c_str(), 0755);
    std::filesystem::create_directory(dir.path / "runs");
    runs = (dir.path / "runs").string();
  }
  std::vector<std::string> env() const {
    const char* path = std::getenv("PATH");
    return {"PATH=" + (dir.path / "bin").string() + ":" + (path ? path : "/usr/bin:/bin"),
            "FAKE_PODMAN_DIR=" + dir.path.string()};
  }
  std::vector<std::string> argv(int timeout_s) const {
    return {SBR_BINARY,      "prove",     "--format",
            "json",          "--timeout", std::to_string(timeout_s),
            "--runtime-dir", runs,        test::source_dir() + "/fixtures/prove/defaults"};
  }
  std::string calls() const { return test::read_file((dir.path / "calls").string()); }
  // The hung `podman run` is gone (killed and reaped), not left running.
  bool run_gone() const {
    int pid = std::atoi(test::read_file((dir.path / "run.pid").string()).c_str());
    return pid > 0 && kill(pid, 0) != 0;
  }
};

// The run's sweep: every container, pod and volume with its label, and its image.
void check_swept(const std::string& calls) {
  INFO(calls);
  CHECK(calls.find("rm -f -t 0 --filter label=sbreview.prove.run=sbrp-") != std::string::npos);
  CHECK(calls.find("volume prune -f --filter label=sbreview.prove.run=sbrp-") != std::string::npos);
  CHECK(calls.find("rmi -f -i localhost/sbreview-probe-sbrp-") != std::string::npos);
}

}  // namespace

TEST_CASE("prove: a launch that hangs times out, is reported and cleaned up", "[prover]") {
  Fake fake;
  auto start = std::chrono::steady_clock::now();
  auto r = prove::run_process(fake.argv(1), 60000, fake.env());
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(r.err);
  CHECK_FALSE(r.timed_out);
  CHECK(seconds < 30);   // the one-second limit, the container's removal and the sweep
  CHECK(r.status == 1);  // SB0040 is high
  CHECK(r.out.find("\"rule\": \"SB0040\"") != std::string::npos);
  CHECK(r.out.find("the launch timed out") != std::string::npos);
  CHECK(fake.run_gone());
  check_swept(fake.calls());
  CHECK(std::filesystem::is_empty(fake.runs));
}

TEST_CASE("prove: SIGTERM during a launch ends the run by that signal, cleaned up", "[prover]") {
  Fake fake;
  std::string error;
  auto child = prove::Child::spawn(fake.argv(600), error, fake.env());
  REQUIRE(child);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (fake.calls().find("\nrun ") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(fake.calls().find("\nrun ") != std::string::npos);
  kill(child->pid(), SIGTERM);
  bool late = false;
  int status = child->wait(30000, late);
  INFO(child->err());
  CHECK_FALSE(late);
  CHECK(status == 128 + SIGTERM);
  CHECK(child->err().find("interrupted") != std::string::npos);
  CHECK(fake.run_gone());
  check_swept(fake.calls());
  CHECK(std::filesystem::is_empty(fake.runs));
}

}  // namespace prover_fake_podman_test
