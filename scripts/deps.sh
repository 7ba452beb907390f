#!/usr/bin/env bash
# Installs what sbreview needs on Debian 12, as root, and does nothing when everything is
# already there (docs/install.md).
#
#   scripts/deps.sh build   what building `sbreview` needs (README command 1, the GitHub Action):
#                           compilers and -dev libraries, and the pinned tree-sitter-bash grammar
#                           fetched from the npm registry and checked against package-lock.json
#   scripts/deps.sh package the same, and what cpack's Debian package needs (the release)
#   scripts/deps.sh         all of it, for the tests too: tools (clang-format, clang-tidy,
#                           ShellCheck, Node.js), `npm ci --ignore-scripts` (no package scripts
#                           run), and with SBR_WITH_PODMAN=1 the runtime prover's podman
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
[[ $mode == build || $mode == package || $mode == all ]] ||
  { echo "usage: scripts/deps.sh [build|package]" >&2; exit 2; }

packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates curl
  libyaml-cpp-dev nlohmann-json3-dev libtree-sitter-dev libre2-dev libfmt-dev
  libgit2-dev libcmark-gfm-dev libcmark-gfm-extensions-dev zlib1g-dev
)
if [[ $mode == package ]]; then
  packages+=(dpkg-dev file)   # dpkg-shlibdeps computes the package's Depends
fi
if [[ $mode == all ]]; then
  packages+=(
    catch2 nodejs npm python3 python3-jsonschema python3-yaml shellcheck clang-format clang-tidy
    dpkg-dev file groff-base   # the Debian package and its test (docs/install.md)
    time                       # /usr/bin/time: peak RSS in bench/ and its harness test
  )
  # The runtime prover's tests (docs/prover.md; scripts/test.sh sets SBR_WITH_PODMAN=1): podman
  # with runc (crun fails on cgroups v1 hosts), catatonit for kube play's pause image, runsc for
  # gVisor, netavark and iptables for published ports. About two minutes on a fresh machine.
  if [[ "${SBR_WITH_PODMAN:-0}" == 1 ]]; then
    packages+=(podman runc catatonit busybox-static nftables iptables netavark uidmap runsc)
  fi
fi

missing=()
for p in "${packages[@]}"; do
  # nodejs/npm may come from elsewhere (nodesource, nvm): a working binary is enough.
  if [[ $p == nodejs ]] && command -v node >/dev/null; then continue; fi
  if [[ $p == npm ]] && command -v npm >/dev/null; then continue; fi
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  if [[ $(id -u) != 0 ]]; then
    echo "deps: missing Debian packages and not root: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ $mode != all ]]; then
  # The grammar alone, straight from the registry: building needs its C sources, not Node.js.
  scripts/fetch-grammar.sh
  exit 0
fi

# Kustomize (tests/kustomize_render_test.cpp): Debian's kubernetes-client is 1.20 with Kustomize
# v2.0.3, below the v5.0 sbreview needs, so nothing is installed; without a recent kubectl or
# kustomize those tests print SKIPPED (docs/kustomize.md).
if ! command -v kubectl >/dev/null && ! command -v kustomize >/dev/null; then
  echo "deps: no kubectl/kustomize (Kustomize >= v5.0): the Kustomize render tests will be skipped"
fi

# npm: reinstall only when the lock file changed since the last install.
stamp=node_modules/.sbreview-lock-stamp
if [[ ! -f $stamp ]] || ! cmp -s package-lock.json "$stamp"; then
  echo "deps: npm ci --ignore-scripts"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi
# Installed without scripts, the validator binary is not executable yet.
mt=node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
[[ -x $mt ]] || chmod u+x "$mt"
