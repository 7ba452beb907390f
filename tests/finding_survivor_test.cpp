// Findings that say the same thing at the same place about the same subject are one finding
// (check/runner.cpp); which of them is kept must follow from the findings themselves, not from
// whatever else the run holds: the kept one's fingerprint is what a baseline records.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/fixture_harness.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace finding_survivor_test {

namespace fs = std::filesystem;

TEST_CASE("of equal findings the one with the smallest identity is kept", "[fixtures]") {
  // One helper called for 40 images: 40 launches with one label ("run, line 4"), each with the
  // same missing CPU limit; their identities differ by image.
  fs::path dir = fs::temp_directory_path() / "sbr-finding-survivor";
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream s(dir / "launch.sh");
    s << "#!/usr/bin/env bash\nset -euo pipefail\nrun() {\n  podman run --rm --network none "
         "\"$@\"\n}\n";
    for (int i = 40; i >= 1; --i) s << "run ghcr.io/acme/img" << i << ":1\n";
  }
  auto r = sbr::test::run_fixture_dir(dir.string(), {}, true);
  int seen = 0;
  for (const auto& f : r.findings) {
    if (f.rule_id.str() != "SB6005") continue;
    ++seen;
    INFO(f.identity);
    // The smallest identity of the 40 (img1..img40 sort as text: img1 < img10 < ...).
    CHECK(f.identity.view().ends_with(":image=ghcr.io/acme/img1"));
  }
  CHECK(seen == 1);
  fs::remove_all(dir);
}

}  // namespace finding_survivor_test
