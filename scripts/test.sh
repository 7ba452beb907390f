#!/usr/bin/env bash
# README command 2: set up, build, and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)"
