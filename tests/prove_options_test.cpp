// `sbreview prove`'s command line: its own options, and what it refuses (no machine needed).
#include <catch2/catch.hpp>

#include "analyzer/cli/options.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace prove_options_test {

using namespace sbr;

namespace {

std::optional<std::string> parse(const std::vector<std::string>& args, Options& o) {
  bool help = false, version = false;
  return parse_args(args, o, help, version);
}

std::string error_of(const std::vector<std::string>& args) {
  Options o;
  return parse(args, o).value_or("");
}

}  // namespace

TEST_CASE("prove options: paths, formats, runtime directory, timeout and --from", "[prover][cli]") {
  Options o;
  REQUIRE_FALSE(parse({"prove", "--format", "sarif", "--output", "p.sarif", "--runtime-dir",
                       "/var/tmp/p", "--timeout=5", "--from", "check.sarif", "bin", "k8s"},
                      o));
  CHECK(o.command == "prove");
  CHECK(o.paths == std::vector<std::string>{"bin", "k8s"});
  CHECK(o.runtime_dir == "/var/tmp/p");
  CHECK(o.timeout == 5U);
  CHECK(o.from_sarif == "check.sarif");
  Options d;
  REQUIRE_FALSE(parse({"prove"}, d));
  CHECK_FALSE(d.timeout.has_value());  // 30 s, applied by the command
  Options s;
  REQUIRE_FALSE(parse({"prove", "--self-test", "--format", "json"}, s));
  CHECK(s.self_test);
}

TEST_CASE("prove options: what is refused", "[prover][cli]") {
  CHECK(error_of({"prove", "--timeout", "0"}) == "--timeout takes seconds, from 1 to 3600");
  CHECK(error_of({"prove", "--timeout", "5s"}) == "--timeout takes seconds, from 1 to 3600");
  CHECK(error_of({"prove", "--runtime-dir"}) == "--runtime-dir takes a directory");
  CHECK(error_of({"prove", "--format", "github"}) == "prove writes text, json or sarif");
  CHECK(error_of({"prove", "--revision", "HEAD"}) ==
        "prove launches the working tree; --revision is for check");
  CHECK(error_of({"prove", "--self-test", "--format", "sarif"}) ==
        "prove --self-test writes text or json");
  CHECK(error_of({"prove", "--self-test", "bin"}) ==
        "prove --self-test launches fixed probes; it takes no PATH or --from");
  // The prover's options belong to prove, whatever their value.
  for (const char* flag : {"--runtime-dir", "--timeout", "--from"}) {
    INFO(flag);
    CHECK(error_of({"check", flag, "30"}) ==
          "--runtime-dir, --timeout, --from and --self-test are for prove");
  }
  CHECK(error_of({"check", "--self-test"}) ==
        "--runtime-dir, --timeout, --from and --self-test are for prove");
}

}  // namespace prove_options_test
