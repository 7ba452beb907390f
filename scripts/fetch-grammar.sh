#!/usr/bin/env bash
# Puts the pinned tree-sitter-bash grammar (package-lock.json: its version and sha512) into
# node_modules/tree-sitter-bash straight from the npm registry, without Node.js: building
# sbreview needs only its C sources. The tarball is checked against the lock file's integrity
# before anything is unpacked; nothing of it is run. `npm ci` (scripts/deps.sh) installs the
# same files.
set -euo pipefail
cd "$(dirname "$0")/.."
name=tree-sitter-bash
dest=node_modules/$name
# "node_modules/tree-sitter-bash": { "version": "0.23.3", ..., "integrity": "sha512-..." }
entry=$(awk -v key="\"node_modules/$name\"" '
  !inside && index($0, key ": {") { inside = 1; next }
  inside && /^    }/ { exit }
  inside { print }' package-lock.json)
version=$(sed -n 's/.*"version": "\([^"]*\)".*/\1/p' <<<"$entry")
integrity=$(sed -n 's/.*"integrity": "sha512-\([^"]*\)".*/\1/p' <<<"$entry")
[[ -n $version && -n $integrity ]] || {
  echo "fetch-grammar: no $name version and sha512 in package-lock.json" >&2
  exit 1
}
if [[ -f $dest/package.json ]] && grep -q "\"version\": \"$version\"" "$dest/package.json" &&
  [[ -f $dest/src/parser.c ]]; then
  exit 0
fi
registry=${npm_config_registry:-https://registry.npmjs.org}
url="${registry%/}/$name/-/$name-$version.tgz"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "deps: fetching $name $version from the npm registry"
curl -fsSL --retry 3 -o "$tmp/pkg.tgz" "$url"
want=$(base64 -d <<<"$integrity" | od -An -v -tx1 | tr -d ' \n')
got=$(sha512sum "$tmp/pkg.tgz" | cut -d' ' -f1)
if [[ $want != "$got" ]]; then
  echo "fetch-grammar: $url does not match the sha512 of package-lock.json" >&2
  exit 1
fi
mkdir -p "$tmp/pkg"
tar -xzf "$tmp/pkg.tgz" -C "$tmp/pkg" --no-same-owner
rm -rf "$dest"
mkdir -p node_modules
mv "$tmp/pkg/package" "$dest"
