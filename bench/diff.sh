#!/usr/bin/env bash
# Times `sbreview diff` against `sbreview check` on a git repository of N one-Deployment files
# (bench/gen_corpus.py) whose last commit changes one file (it turns on `privileged`). Issue 9's
# target: diff at most 2.2x the time of one full check of HEAD. Prints medians of RUNS (wall
# and CPU: user + system) and the ratio; docs/benchmark.md records the numbers.
#
#   bench/diff.sh [BINARY]            (default: build/sbreview)
#   FILES=10000 RUNS=3 OUT=/tmp/sbreview-bench bench/diff.sh
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$(realpath "${1:-$here/../build/sbreview}")"
files="${FILES:-10000}"
runs="${RUNS:-3}"
out="${OUT:-/tmp/sbreview-bench}"
repo="$out/diff-repo-$files"

[[ -x "$bin" ]] || { echo "bench: no sbreview binary at $bin (build first)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench: /usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
[[ "$files" =~ ^[1-9][0-9]*$ && "$runs" =~ ^[1-9][0-9]*$ ]] || {
  echo "bench: FILES and RUNS must be numbers" >&2
  exit 2
}

g() { GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git -C "$repo" -c user.name=bench \
  -c user.email=bench@example.invalid -c commit.gpgsign=false "$@" >/dev/null; }

if [[ ! -f "$repo/.done" ]]; then
  rm -rf "$repo"
  python3 "$here/gen_corpus.py" "$repo" "$files" files
  g init -q
  g add -A
  g commit -q -m base
  g tag base
  first="$(cd "$repo" && find . -name '*.yaml' | sort | sed -n 1p)"
  # The change: one container of one file becomes privileged.
  python3 - "$repo/$first" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
s, n = re.subn(r"(\n(\s*)securityContext:\n)", r"\1\2  privileged: true\n", s, count=1)
if n == 0:
    s = s.replace("\n      containers:\n", "\n      hostPID: true\n      containers:\n", 1)
open(p, "w").write(s)
PY
  g commit -q -am change
  touch "$repo/.done"
fi

# One measurement: "WALL_MS CPU_MS".
measure() {
  local tfile t0 t1 u s
  tfile="$(mktemp)"
  t0=$(date +%s%N)
  (cd "$repo" && /usr/bin/time -f '%U %S' -o "$tfile" "$bin" "$@" --fail-on none >/dev/null 2>&1)
  t1=$(date +%s%N)
  read -r u s < <(tail -n 1 "$tfile")
  rm -f "$tfile"
  echo "$(((t1 - t0) / 1000000)) $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }')"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

run() {
  local walls=() cpus=() w c
  measure "$@" >/dev/null  # warm-up: page cache and the object database
  for ((i = 0; i < runs; i++)); do
    read -r w c < <(measure "$@")
    walls+=("$w")
    cpus+=("$c")
  done
  echo "$(printf '%s\n' "${walls[@]}" | median) $(printf '%s\n' "${cpus[@]}" | median)"
}

read -r cw cc < <(run check --revision HEAD --jobs 2 .)
read -r dw dc < <(run diff base..HEAD --jobs 2 .)
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command ($files files, one changed) | wall (ms) | CPU (ms) |"
echo "|---|---|---|"
echo "| check --revision HEAD | $cw | $cc |"
echo "| diff base..HEAD | $dw | $dc |"
awk -v a="$dc" -v b="$cc" -v x="$dw" -v y="$cw" \
  'BEGIN { printf "| diff / check | %.2fx | %.2fx |\n", x / y, a / b }'
