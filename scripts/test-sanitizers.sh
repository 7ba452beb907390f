#!/usr/bin/env bash
# The whole test suite under AddressSanitizer and UndefinedBehaviorSanitizer (the `asan` preset
# of CMakePresets.json, in build-asan/): the documented full run of docs/robustness.md. Slower
# than CI's budget allows on two cores; CI runs the fuzz smoke tests instead.
#   scripts/test-sanitizers.sh [CTEST ARGS...]     e.g. -R fuzz  or  -E "style:"
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
[[ -f build-asan/CMakeCache.txt ]] || cmake --preset asan >/dev/null
cmake --build build-asan -j "$(nproc)"
cd build-asan
# Leaks matter too; a sanitizer error fails the test that hit it.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
ctest --output-on-failure -j "$(nproc)" -E "^style: " "$@"
