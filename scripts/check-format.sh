#!/usr/bin/env bash
# Fails when a C++ file of ours differs from what the repository's .clang-format makes of it.
# Run by CTest ("style: clang-format"); `clang-format -i FILE` applies the style.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "clang-format is missing: run scripts/deps.sh" >&2; exit 1; }
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -co --exclude-standard -- 'analyzer/*.cpp' 'analyzer/*.h' \
    'invariants/*.cpp' 'invariants/*.h' 'tests/*.cpp' 'tests/*.h' 'prover/*.cpp' 'prover/*.h')
else
  mapfile -t files < <(find analyzer invariants tests -name '*.cpp' -o -name '*.h' | sort)
fi
bad=()
existing=()
for f in "${files[@]}"; do [[ -f $f ]] && existing+=("$f"); done
# One clang-format process per batch of files (a process per file took a minute of CI); the
# files it would change are read from its diagnostics, `FILE:LINE:COL: error: ...`.
mapfile -t bad < <(printf '%s\0' "${existing[@]}" |
  xargs -0 -n 100 -P "$(nproc)" clang-format --dry-run --Werror 2>&1 >/dev/null |
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
if ((${#bad[@]})); then
  printf 'clang-format would change %d file(s):\n' "${#bad[@]}"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "clang-format: ${#files[@]} files conform"
