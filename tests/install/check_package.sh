#!/usr/bin/env bash
# The Debian package (docs/install.md), unpacked into an empty root with `dpkg -x`, reviews the
# bundled example from a directory outside the repository with the same SARIF as the build
# tree's binary, and carries its man page and bash completion.
#   check_package.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# A command that fails under `set -e` says which, instead of ending the test silently.
trap 'echo "FAIL: line $LINENO: $BASH_COMMAND exited $?" >&2' ERR

(cd "$build" && cpack -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; fail "cpack"; }
debs=("$tmp"/pkg/sbreview_*.deb)
[[ -f ${debs[0]} ]] || fail "no sbreview_*.deb in $tmp/pkg"
deb=${debs[0]}

# Dependencies computed from the linked libraries; the prover's tools only suggested.
fields=$(dpkg-deb --field "$deb" Package Depends Suggests)
echo "$fields"
# Every shared library the binary needs comes from a package in Depends.
needed=$(readelf -d "$build/sbreview" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[[ -n $needed ]] || fail "readelf found no NEEDED entries"
# The owning package: Debian 12 merges /lib into /usr/lib, and a package may have registered
# either spelling of the path (libc6 registers /lib/...), so every spelling is asked.
owner() {
  local p out
  for p in "$1" "$(readlink -f "$1")" "${1#/usr}" "/usr${1#/usr}"; do
    out=$(dpkg-query -S "$p" 2>/dev/null) || continue
    echo "${out%%:*}"
    return 0
  done
}
for so in $needed; do
  # awk reads to the end: leaving at the first match closes the pipe under ldconfig, whose
  # SIGPIPE (141) fails the assignment under pipefail whenever ldconfig is still writing.
  path=$(ldconfig -p | awk -v so="$so" '$1 == so && path == "" {path = $NF} END {print path}')
  [[ -n $path ]] || fail "$so is not in the linker cache"
  pkg=$(owner "$path")
  [[ -n $pkg ]] || fail "no package owns $path ($(readlink -f "$path"))"
  grep -q "^Depends:.*\b$pkg\b" <<<"$fields" || fail "Depends lacks $pkg (for $so)"
done
grep -q "^Suggests:.*podman" <<<"$fields" || fail "Suggests lacks podman"
grep -q "^Suggests:.*runsc" <<<"$fields" || fail "Suggests lacks runsc"
if grep -q "^Depends:.*podman" <<<"$fields"; then fail "podman must not be a dependency"; fi

root=$tmp/root
dpkg -x "$deb" "$root"
bin=$root/usr/bin/sbreview
[[ -x $bin ]] || fail "usr/bin/sbreview missing"
[[ -f $root/usr/share/man/man1/sbreview.1.gz ]] || fail "man page missing"
[[ -f $root/usr/share/bash-completion/completions/sbreview ]] || fail "completion missing"
[[ -f $root/usr/share/doc/sbreview/copyright ]] || fail "copyright missing"
[[ -f $root/usr/share/doc/sbreview/rules/SB1001-privileged-container.md ]] || fail "rule pages missing"
if find "$root" -name 'sbreview_tests*' | grep -q .; then fail "the test binary is packaged"; fi
probe=$root/usr/libexec/sbreview/sbreview_probe
[[ -x $probe ]] || fail "usr/libexec/sbreview/sbreview_probe missing"
file "$probe" | grep -q 'statically linked' || fail "the probe is not static: $(file "$probe")"

# The same version and commit as the build tree.
[[ $("$bin" --version) == $("$build/sbreview" --version) ]] || fail "--version differs"

# From outside the repository, on a copy of the example: the same SARIF, byte for byte.
mkdir -p "$tmp/work"
cp -r "$src/examples/agent-sandbox" "$tmp/work/"
cd "$tmp/work"
rc=0; "$bin" check --format sarif --output "$tmp/package.sarif" agent-sandbox || rc=$?
[[ $rc == 0 || $rc == 1 ]] || fail "packaged binary exited $rc"
rc=0; "$build/sbreview" check --format sarif --output "$tmp/build.sarif" agent-sandbox || rc=$?
[[ $rc == 0 || $rc == 1 ]] || fail "build-tree binary exited $rc"
grep -q '"ruleId"' "$tmp/package.sarif" || fail "the packaged binary reported nothing"
cmp "$tmp/package.sarif" "$tmp/build.sarif" || fail "SARIF differs from the build tree's"

# The man page renders without warnings, and the completion completes.
zcat "$root/usr/share/man/man1/sbreview.1.gz" >"$tmp/sbreview.1"
if command -v groff >/dev/null; then
  groff -man -Tutf8 -ww -z "$tmp/sbreview.1" 2>"$tmp/groff.log" || fail "groff failed"
  [[ ! -s $tmp/groff.log ]] || { cat "$tmp/groff.log"; fail "groff warnings"; }
fi
grep -q '^\.SH OPTIONS' "$tmp/sbreview.1" || fail "man page has no OPTIONS"
got=$(bash -c 'source "$0"; COMP_WORDS=(sbreview ch); COMP_CWORD=1; _sbreview; echo "${COMPREPLY[*]}"' \
  "$root/usr/share/bash-completion/completions/sbreview")
[[ $got == check ]] || fail "completion of 'sbreview ch' gave '$got'"

# The packaged prove finds the packaged probe from its own path (no build tree beside it): a
# stand-in podman keeps the root filesystem prove imports, whose /probe must be that file. On
# an empty directory nothing is launched.
mkdir -p "$tmp/fake" "$tmp/empty"
cat >"$tmp/fake/podman" <<'EOF'
#!/bin/sh
case "$1" in
  version) echo 4.3.1 ;;
  import) for a; do case "$a" in *.tar) cp "$a" "$FAKE_DIR/imported.tar" ;; esac; done ;;
  network) echo '[]' ;;
esac
exit 0
EOF
chmod +x "$tmp/fake/podman"
rc=0; PATH=$tmp/fake:$PATH FAKE_DIR=$tmp "$bin" prove --format json --runtime-dir "$tmp" \
  "$tmp/empty" >"$tmp/prove.json" 2>"$tmp/prove.err" || rc=$?
[[ $rc == 0 ]] || { cat "$tmp/prove.err"; fail "packaged prove exited $rc"; }
[[ -f $tmp/imported.tar ]] || fail "packaged prove imported no probe image"
tar -xOf "$tmp/imported.tar" probe | cmp - "$probe" || fail "the imported probe is not the packaged one"
# Without it, prove stops before podman runs anything and names where it looked.
rm "$probe"
rc=0; PATH=$tmp/fake:$PATH FAKE_DIR=$tmp "$bin" prove --runtime-dir "$tmp" "$tmp/empty" \
  2>"$tmp/prove.err" || rc=$?
[[ $rc == 2 ]] || fail "prove without its probe exited $rc"
grep -qF "looked for $root/usr/libexec/sbreview/sbreview_probe" "$tmp/prove.err" ||
  { cat "$tmp/prove.err"; fail "prove without its probe did not name libexec"; }

echo "ok: $(basename "$deb"), $(stat -c %s "$deb") bytes"
