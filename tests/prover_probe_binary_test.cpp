// Where `sbreview prove` finds its probe: <prefix>/libexec/sbreview/ for an installed binary
// (cmake/install.cmake puts the `sbreview_probe` target there), beside the binary in the build
// tree.
#include <catch2/catch.hpp>

#include "prover/lib/probe_binary.h"
#include "tests/temp_dir.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace prover_probe_binary_test {

using namespace sbr;

TEST_CASE("probe lookup: installed layout first, then beside the binary", "[prover]") {
  test::TempDir tmp("sbr-probe-find");
  std::string root = tmp.path.string();
  CHECK(prove::probe_candidates(root + "/usr/bin/sbreview") ==
        std::vector<std::string>{root + "/usr/libexec/sbreview/sbreview_probe",
                                 root + "/usr/bin/sbreview_probe"});

  auto none = prove::read_probe(root + "/usr/bin/sbreview");
  REQUIRE_FALSE(none);
  CHECK(none.error().message == "the probe (sbreview_probe) is not installed: looked for " + root +
                                    "/usr/libexec/sbreview/sbreview_probe, " + root +
                                    "/usr/bin/sbreview_probe");

  tmp.write("usr/bin/sbreview_probe", "\177ELF build tree");
  auto beside = prove::read_probe(root + "/usr/bin/sbreview");
  REQUIRE(beside);
  CHECK(*beside == "\177ELF build tree");

  tmp.write("usr/libexec/sbreview/sbreview_probe", "\177ELF installed");
  auto installed = prove::read_probe(root + "/usr/bin/sbreview");
  REQUIRE(installed);
  CHECK(*installed == "\177ELF installed");
}

TEST_CASE("probe lookup: a file that is not an executable is refused", "[prover]") {
  test::TempDir tmp("sbr-probe-find");
  tmp.write("bin/sbreview_probe", "#!/bin/sh\necho not a probe\n");
  auto r = prove::read_probe((tmp.path / "bin/sbreview").string());
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("is not an executable (ELF) file") != std::string::npos);
}

TEST_CASE("probe lookup: the build tree's sbreview finds the built probe", "[prover]") {
  auto r = prove::read_probe(SBR_BINARY);
  REQUIRE(r);
  CHECK(r->size() > 100000);  // static: libc and the JSON writer are inside
}

}  // namespace prover_probe_binary_test
