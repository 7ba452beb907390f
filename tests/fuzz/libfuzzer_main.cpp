// libFuzzer's entry point for one target, chosen at compile time (-DSBR_FUZZ_TARGET=launcher):
// the `fuzz` preset builds one binary per target (scripts/fuzz.sh, docs/robustness.md).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return sbr::fuzz::SBR_FUZZ_TARGET(data, size);
}
