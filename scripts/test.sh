#!/usr/bin/env bash
# README command 2: set up, build, and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
SBR_WITH_PODMAN=1 scripts/deps.sh
scripts/build.sh
# The prover's tests launch containers (docs/prover.md). On cgroups v1 hosts crun fails and
# podman's default ulimits exceed root's hard limits: a containers.conf of the build, not /etc,
# makes plain `podman run` and `kube play` work (a CONTAINERS_CONF already set wins).
if [[ -z ${CONTAINERS_CONF:-} ]]; then
  cat > build/containers.conf <<'EOF'
[engine]
runtime = "runc"
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
EOF
  export CONTAINERS_CONF=$PWD/build/containers.conf
fi
cd build
ctest --output-on-failure -j "$(nproc)"
