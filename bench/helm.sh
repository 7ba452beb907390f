#!/usr/bin/env bash
# Times the chart engine: `sbreview render` of one 20-template chart, and `sbreview check` of a
# repository of 10 such charts against checking their pre-rendered output (issue 10's targets:
# <= 20 ms per chart, <= 1.5x). Medians of RUNS runs after a warm-up; prints a Markdown table.
#
#   bench/helm.sh [BINARY]     (default: build/sbreview)     RUNS=5 OUT=/tmp/sbreview-helm-bench
#
# INSTR=1 counts instructions instead (valgrind's callgrind, one run each: deterministic, so
# usable on a loaded machine), with the process start (`check` of an empty folder) apart.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$(realpath "${1:-$here/../build/sbreview}")"
runs="${RUNS:-5}"
out="${OUT:-/tmp/sbreview-helm-bench}"
[[ -x "$bin" ]] || { echo "bench: no sbreview binary at $bin (build first)" >&2; exit 2; }
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "bench: RUNS must be a number" >&2; exit 2; }

rm -rf "$out"
python3 "$here/gen_chart.py" "$out/one" 1
python3 "$here/gen_chart.py" "$out/ten" 10
# The pre-rendered twin of the ten charts: what `sbreview render` prints, one file per chart.
mkdir -p "$out/rendered"
for c in "$out"/ten/chart*; do
  "$bin" render "$c" | grep -v '^# Render root' >"$out/rendered/$(basename "$c").yaml"
done

ms() {  # wall-clock milliseconds of one run of "$@"
  local t0 t1
  t0=$(date +%s%N)
  "$@" >/dev/null 2>&1 || true
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() {
  ms "$@" >/dev/null
  for _ in $(seq "$runs"); do ms "$@"; done | median
}

if [[ ${INSTR:-0} == 1 ]]; then
  command -v valgrind >/dev/null || { echo "bench: INSTR=1 needs valgrind" >&2; exit 2; }
  instr() {  # millions of instructions of one run of "$@"
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
      awk '/Collected/ { printf "%d\n", $NF / 1000000 }'
  }
  mkdir -p "$out/empty"
  start=$(instr "$bin" check --fail-on none --jobs 1 "$out/empty")
  chk=$(instr "$bin" check --fail-on none --jobs 1 "$out/ten")
  pre=$(instr "$bin" check --fail-on none --jobs 1 "$out/rendered")
  echo "| measurement | instructions (M) |"
  echo "|---|---|"
  echo "| check of an empty folder (process start) | $start |"
  echo "| check ten charts (jobs 1) | $chk |"
  echo "| check their pre-rendered output (jobs 1) | $pre |"
  awk -v a="$chk" -v b="$pre" -v s="$start" 'BEGIN { printf "\nwhole process: %.2fx; above process start: %.2fx\n", a / b, (a - s) / (b - s) }'
  exit 0
fi

base=$(timed "$bin" render "$out/empty-does-not-exist")
one=$(timed "$bin" render "$out/one")
ten_render=$(timed "$bin" render "$out/ten")
ten_check=$(timed "$bin" check --fail-on none --jobs 1 "$out/ten")
pre_check=$(timed "$bin" check --fail-on none --jobs 1 "$out/rendered")
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| measurement | wall (ms) |"
echo "|---|---|"
echo "| process start, nothing to render | $base |"
echo "| render one 20-template chart | $one |"
echo "| render ten 20-template charts | $ten_render |"
echo "| check ten charts (jobs 1) | $ten_check |"
echo "| check their pre-rendered output (jobs 1) | $pre_check |"
awk -v a="$ten_check" -v b="$pre_check" 'BEGIN { if (b > 0) printf "\nchart check / pre-rendered check: %.2fx\n", a / b }'
