#!/usr/bin/env bash
# Times `sbreview check` on one launcher whose option-parsing loop has N options
# (`while [[ $# -gt 0 ]]; case $1 in --optK) optK=$2; shift 2 ;; ... esac; done`), best of R
# runs as a whole process, and counts the launches it renders. Prints one Markdown table row.
# usage: bench/bash/option_loop.sh [N options] [R runs]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
n="${1:-200}"
runs="${2:-5}"
sbreview="${SBREVIEW:-$root/build/sbreview}"
[[ -x $sbreview ]] || { echo "build sbreview first: $sbreview" >&2; exit 2; }

dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
{
  echo '#!/usr/bin/env bash'
  echo 'set -euo pipefail'
  for ((k = 0; k < n; k++)); do echo "opt$k=default$k"; done
  echo 'while [[ $# -gt 0 ]]; do'
  echo '  case $1 in'
  for ((k = 0; k < n; k++)); do echo "    --opt$k) opt$k=\$2; shift 2 ;;"; done
  echo '    *) echo "unknown option $1" >&2; exit 2 ;;'
  echo '  esac'
  echo 'done'
  echo "podman run --rm --network none --label first=\"\$opt0\" --label last=\"\$opt$((n - 1))\" ghcr.io/acme/agent:1"
} >"$dir/launch.sh"

mkdir "$dir/empty"
best_ms() {  # best wall time in ms of `sbreview check DIR` over $runs runs
  local best=999999 r t0 t1 ms
  for ((r = 0; r < runs; r++)); do
    t0=$(date +%s%N)
    "$sbreview" check --fail-on none "$1" >/dev/null
    t1=$(date +%s%N)
    ms=$(((t1 - t0) / 1000000))
    ((ms < best)) && best=$ms
  done
  echo "$best"
}
total=$(best_ms "$dir/launch.sh")
startup=$(best_ms "$dir/empty")  # loading the rule catalog and the rest of start-up
launches=$("$sbreview" check --dump-model "$dir/launch.sh" | grep -c '^workload ')
printf '| %d options | %d ms | %d ms | %d ms | %d |\n' "$n" "$total" "$startup" $((total - startup)) "$launches"
