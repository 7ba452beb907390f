#!/usr/bin/env bash
# Builds the Debian package of a release and its SHA-256 (.github/workflows/release.yml): the
# `sbreview` command, the static probe, the man page and the completion (cmake/install.cmake),
# packaged by cpack, in OUT_DIR as sbreview_VERSION_amd64.deb and sbreview_VERSION_amd64.deb.sha256
# (`sha256sum` format, which scripts/action-install.sh checks). With a TAG, the tag must be
# v<the version in CMakeLists.txt>: a package is never published under another version's name.
#
#   scripts/release-package.sh OUT_DIR [TAG]
set -euo pipefail
out=$(realpath -m "${1:?usage: release-package.sh OUT_DIR [TAG]}")
tag=${2:-}
cd "$(dirname "$0")/.."
version=$(sed -n 's/^project(sbreview VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[[ -n $version ]] || { echo "release: no version in CMakeLists.txt" >&2; exit 1; }
if [[ -n $tag && $tag != "v$version" ]]; then
  echo "release: tag $tag is not v$version, the version CMakeLists.txt builds" >&2
  exit 1
fi
scripts/deps.sh package
scripts/build.sh sbreview
cmake --build build --target sbreview_probe sbr_generated_docs
deb="sbreview_${version}_amd64.deb"
(cd build && cpack -G DEB >/dev/null)
mkdir -p "$out"
cp "build/$deb" "$out/$deb"
(cd "$out" && sha256sum "$deb" >"$deb.sha256")
cat "$out/$deb.sha256"
