#!/usr/bin/env bash
# What data rules cost: times `sbreview check` on the 10,000-Deployment stream (bench/gen_corpus.py)
# without and with RULES generated user rules (bench/gen_rules.py, passed with --rules), with
# --jobs 1, and prints CPU time (user + system, median of RUNS after a warm-up run), wall clock
# and the ratio. The issue's target: 100 data rules on 10,000 workloads add at most 10%.
# CPU time is the figure that does not depend on the machine's load; the load average is printed.
#
#   bench/rules.sh [BINARY]      (default: build/sbreview)
#   STREAM=10000 RULES=100 RUNS=5 OUT=/tmp/sbreview-bench bench/rules.sh
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$(realpath "${1:-$here/../build/sbreview}")"
stream="${STREAM:-10000}"
rules="${RULES:-100}"
runs="${RUNS:-5}"
out="${OUT:-/tmp/sbreview-bench}"

[[ -x "$bin" ]] || { echo "bench: no sbreview binary at $bin (build first)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench: /usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
[[ "$stream" =~ ^[0-9]+$ && "$rules" =~ ^[0-9]+$ && "$runs" =~ ^[1-9][0-9]*$ ]] || {
  echo "bench: STREAM, RULES and RUNS must be numbers" >&2
  exit 2
}

if [[ ! -f "$out/stream-$stream/.done" ]]; then
  rm -rf "$out/stream-$stream"
  python3 "$here/gen_corpus.py" "$out/stream-$stream" "$stream" stream
  touch "$out/stream-$stream/.done"
fi
rdir="$out/rules-$rules"
rm -rf "$rdir"
python3 "$here/gen_rules.py" "$rdir" "$rules"

# One run: prints "WALL_MS CPU_MS FINDINGS".
measure() {
  local tfile report t0 t1 u s
  tfile="$(mktemp)"
  report="$(mktemp)"
  t0=$(date +%s%N)
  (cd "$out/stream-$stream" &&
    /usr/bin/time -f '%U %S' -o "$tfile" "$bin" check --fail-on none --jobs 1 --format json \
      --output "$report" "$@" stream)
  t1=$(date +%s%N)
  read -r u s < <(tail -n 1 "$tfile")
  echo "$(((t1 - t0) / 1000000))" \
    "$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }')" \
    "$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$report")"
  rm -f "$tfile" "$report"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

bench() {
  measure "$@" >/dev/null
  local walls=() cpus=() w c n
  for ((i = 0; i < runs; i++)); do
    read -r w c n < <(measure "$@")
    walls+=("$w")
    cpus+=("$c")
  done
  echo "$(printf '%s\n' "${walls[@]}" | median) $(printf '%s\n' "${cpus[@]}" | median) $n"
}

echo "sbreview data-rule benchmark: $("$bin" --version), $(nproc) cores, median of $runs runs," \
  "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| run | wall (ms) | CPU (ms) | findings | CPU / without |"
echo "|---|---|---|---|---|"
read -r bw bc bn < <(bench)
read -r rw rc rn < <(bench --rules "$rdir")
ratio=$(awk -v r="$rc" -v b="$bc" 'BEGIN { if (b > 0) printf "%.3f", r / b; else print "n/a" }')
echo "| $stream Deployments, built-in rules | $bw | $bc | $bn | |"
echo "| $stream Deployments, built-in + $rules user rules | $rw | $rc | $rn | $ratio |"
