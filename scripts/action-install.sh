#!/usr/bin/env bash
# The install step of action.yml: the Debian package of the action's own version, from its
# GitHub release, checked against the SHA-256 published with it; or, when there is none (a
# branch, a fork, a commit; a runner that is not Debian 12), nothing, and the action builds from
# source (cached). Inputs arrive in the environment only and are used quoted.
#
#   SBR_ACTION_PATH   the action's checkout            SBR_ACTION_REF   its ref (v0.1.0, main)
#   SBR_RELEASES      https://github.com/OWNER/REPO/releases/download
#   SBR_OS_RELEASE    /etc/os-release (tests point it elsewhere)
#   SBR_DRY_RUN=1     verify, do not install (tests)
#
# Writes `bin=PATH` (the installed sbreview, or empty) and `source-hash=HASH` (the action's
# sources, the build cache's key) to $GITHUB_OUTPUT (stdout when unset).
set -euo pipefail
path=${SBR_ACTION_PATH:?}
ref=${SBR_ACTION_REF:-}
releases=${SBR_RELEASES:-}
os_release=${SBR_OS_RELEASE:-/etc/os-release}
out=${GITHUB_OUTPUT:-/dev/stdout}

# The cache key of a build from source: every file that goes into the binary.
source_hash() {
  (cd "$path" && find CMakeLists.txt cmake analyzer invariants prover rules docs/rules \
    package-lock.json -type f -print0 2>/dev/null | LC_ALL=C sort -z | xargs -0 sha256sum |
    sha256sum | cut -c1-32)
}
echo "source-hash=$(source_hash)" >>"$out"

fallback() {
  echo "sbreview action: $1; building from source" >&2
  echo "bin=" >>"$out"
  exit 0
}

[[ $ref =~ ^v([0-9]+\.[0-9]+\.[0-9]+)$ ]] || fallback "ref '$ref' is not a release tag"
version=${BASH_REMATCH[1]}
[[ -n $releases ]] || fallback "no release location"
grep -qx 'VERSION_CODENAME=bookworm' "$os_release" 2>/dev/null ||
  fallback "the package is built for Debian 12 (bookworm), and this runner is not"
deb="sbreview_${version}_amd64.deb"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v curl >/dev/null || fallback "curl is not installed"
# A release without the asset (a tag pushed before its package was published) falls back.
if ! curl -fsSL --retry 3 -o "$tmp/$deb.sha256" "$releases/v$version/$deb.sha256"; then
  fallback "release v$version has no $deb.sha256"
fi
curl -fsSL --retry 3 -o "$tmp/$deb" "$releases/v$version/$deb" ||
  fallback "release v$version has no $deb"
# The published checksum names the file; anything else in it is refused, and a mismatch stops
# the job: a package that is not what was published must never run.
want=$(awk -v f="$deb" '$2 == f || $2 == "*" f { print $1 }' "$tmp/$deb.sha256")
[[ $want =~ ^[0-9a-f]{64}$ ]] || { echo "sbreview action: $deb.sha256 names no SHA-256 of $deb" >&2; exit 1; }
got=$(sha256sum "$tmp/$deb" | cut -d' ' -f1)
if [[ $got != "$want" ]]; then
  echo "sbreview action: $deb does not match its published SHA-256" >&2
  exit 1
fi
if [[ ${SBR_DRY_RUN:-0} == 1 ]]; then
  echo "sbreview action: $deb verified (dry run)" >&2
  echo "bin=$tmp/$deb" >>"$out"
  exit 0
fi
sudo=()
[[ $(id -u) == 0 ]] || sudo=(sudo)
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "$tmp/$deb" >/dev/null
echo "bin=/usr/bin/sbreview" >>"$out"
