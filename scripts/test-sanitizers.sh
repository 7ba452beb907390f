#!/usr/bin/env bash
# The whole test suite under AddressSanitizer and UndefinedBehaviorSanitizer: the documented full
# run of docs/robustness.md. It uses the clang build of the fuzz campaigns (the `fuzz` preset, in
# build-fuzz/) with the tests switched on, the configuration that run was measured with, so one
# build serves the campaigns and the suite. Slower than CI's budget allows on two cores (about
# half an hour); CI runs the fuzz smoke tests instead. The style checks are left out: they test
# the sources, not the build.
#   scripts/test-sanitizers.sh [CTEST ARGS...]     e.g. -R fuzz
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
command -v clang++ >/dev/null || { echo "test-sanitizers: clang++ is needed (apt-get install clang)" >&2; exit 2; }
cmake --preset fuzz -DSBR_BUILD_TESTS=ON >/dev/null
cmake --build build-fuzz -j "$(nproc)"
cd build-fuzz
# Leaks matter too; a sanitizer error fails the test that hit it.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
ctest --output-on-failure -j "$(nproc)" -E "^style: " "$@"
