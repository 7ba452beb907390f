#!/usr/bin/env bash
# Configures and builds sbreview in build/ (release build with line tables; unity batches; ccache
# when it is installed, docs/architecture.md "Build and test times").
#
#   scripts/build.sh           everything: sbreview, the probe, the tests and the generated docs
#   scripts/build.sh sbreview  the command alone (README command 1, the GitHub Action)
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-all}
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
tests=ON
[[ $target == all ]] || tests=OFF
# Reconfiguring is cheap and keeps every object: the tests switch on and off without rebuilding
# the analyzer.
if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DSBR_BUILD_TESTS=$tests" \
    >/dev/null
elif ! grep -q "^SBR_BUILD_TESTS:BOOL=$tests\$" build/CMakeCache.txt; then
  cmake -S . -B build "-DSBR_BUILD_TESTS=$tests" >/dev/null
fi
if [[ $target == all ]]; then
  cmake --build build -j "$(nproc)"
else
  cmake --build build -j "$(nproc)" --target "$target"
fi
