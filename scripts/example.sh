#!/usr/bin/env bash
# README command 1: set up, build sbreview (the command alone, not the tests), and review the
# bundled example agent sandbox.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
scripts/build.sh sbreview
echo "== sbreview check examples/agent-sandbox"
# The example is deliberately flawed: show its findings without failing the command.
build/sbreview check --fail-on none examples/agent-sandbox
