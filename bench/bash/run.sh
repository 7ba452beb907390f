#!/usr/bin/env bash
# Times `sbreview check` against `shellcheck` on the same generated launchers, both as whole
# processes (start-up included), best of R runs each. Prints one Markdown table row.
# usage: bench/bash/run.sh [N launchers] [R runs] [JOBS]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
n="${1:-500}"
runs="${2:-3}"
jobs="${3:-1}"
sbreview="${SBREVIEW:-$root/build/sbreview}"
command -v shellcheck >/dev/null || { echo "shellcheck is not installed" >&2; exit 2; }
[[ -x $sbreview ]] || { echo "build sbreview first: $sbreview" >&2; exit 2; }

corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
python3 "$here/gen_corpus.py" "$corpus" "$n"
files=("$corpus"/*.sh)
bytes=$(cat "${files[@]}" | wc -c)

best() {  # best wall time in seconds of "$@" over $runs runs
  local b=""
  for ((r = 0; r < runs; r++)); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s.%N)
    b=$(echo "$t0 $t1 ${b:-999999}" | awk '{d=$2-$1; print (d<$3)?d:$3}')
  done
  echo "$b"
}

t_sbr=$(best "$sbreview" check --jobs "$jobs" --fail-on none "$corpus")
t_sc=$(best shellcheck -x -P "$corpus" "${files[@]}")
ratio=$(echo "$t_sc $t_sbr" | awk '{printf "%.1f", $1/$2}')
printf '| %d launchers (%d KB) | %d | %.3f s | %.3f s | %sx |\n' "$n" $((bytes / 1024)) "$jobs" "$t_sbr" "$t_sc" "$ratio"
