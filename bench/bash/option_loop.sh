#!/usr/bin/env bash
# Times `sbreview check` on one launcher whose option-parsing loop has N options
# (`while [[ $# -gt 0 ]]; case $1 in --optK) optK=$2; shift 2 ;; ... esac; done`) as a whole
# process, the median of R runs in wall and in CPU time (user + system: on a machine shared
# with other jobs the wall time is mostly waiting), and counts the launches it renders. Prints
# one Markdown table row.
# usage: bench/bash/option_loop.sh [N options] [R runs]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
n="${1:-200}"
runs="${2:-9}"
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
# The medians of `sbreview check DIR` over $runs runs: "WALL CPU" in ms.
median_ms() {
  local r t walls=() cpus=()
  local TIMEFORMAT='%3R %3U %3S'
  for ((r = 0; r < runs; r++)); do
    t=$({ time "$sbreview" check --fail-on none "$1" >/dev/null; } 2>&1)
    read -r real user sys <<<"$t"
    walls+=("$(awk -v x="$real" 'BEGIN { printf "%d", x * 1000 }')")
    cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')")
  done
  echo "$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "$((runs / 2 + 1))p")" \
    "$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "$((runs / 2 + 1))p")"
}
read -r total_wall total_cpu <<<"$(median_ms "$dir/launch.sh")"
# Loading the rule catalog and the rest of start-up: the same binary on an empty directory.
read -r startup_wall startup_cpu <<<"$(median_ms "$dir/empty")"
launches=$("$sbreview" check --dump-model "$dir/launch.sh" | grep -c '^workload ')
printf '| %d options | %d / %d ms | %d / %d ms | %d / %d ms | %d |\n' "$n" "$total_wall" "$total_cpu" \
  "$startup_wall" "$startup_cpu" $((total_wall - startup_wall)) $((total_cpu - startup_cpu)) "$launches"
