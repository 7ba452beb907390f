#!/usr/bin/env bash
# Times the whole `sbreview check` process on a generated corpus: wall clock and CPU time
# (user + system; medians of RUNS) and peak RSS (the largest of RUNS, from /usr/bin/time), in
# normal and --parse-only mode, with --jobs 1 and 2. Prints a Markdown table; docs/benchmark.md
# records the numbers. On a shared machine the wall clock includes waiting for a core: the load
# average is printed, and CPU time is the figure that does not depend on it.
#
#   bench/run.sh [BINARY]      (default: build/sbreview)
#   FILES=2000 STREAM=10000 RUNS=5 OUT=/tmp/sbreview-bench bench/run.sh
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$(realpath "${1:-$here/../build/sbreview}")"
files="${FILES:-2000}"
stream="${STREAM:-10000}"
runs="${RUNS:-5}"
out="${OUT:-/tmp/sbreview-bench}"

[[ -x "$bin" ]] || { echo "bench: no sbreview binary at $bin (build first)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench: /usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
[[ "$files" =~ ^[0-9]+$ && "$stream" =~ ^[0-9]+$ && "$runs" =~ ^[1-9][0-9]*$ ]] || {
  echo "bench: FILES, STREAM and RUNS must be numbers" >&2
  exit 2
}

# The corpus is deterministic: regenerate only when its size changed.
if [[ ! -f "$out/files-$files/.done" ]]; then
  rm -rf "$out/files-$files"
  python3 "$here/gen_corpus.py" "$out/files-$files" "$files" files
  touch "$out/files-$files/.done"
fi
if [[ ! -f "$out/stream-$stream/.done" ]]; then
  rm -rf "$out/stream-$stream"
  python3 "$here/gen_corpus.py" "$out/stream-$stream" "$stream" stream
  touch "$out/stream-$stream/.done"
fi

# One measurement: prints "WALL_MS CPU_MS RSS_KB". Runs from the corpus directory, where no
# .sbreview.yaml exists, with --fail-on none so that findings do not look like failures.
measure() {
  local dir="$1"
  shift
  local tfile
  tfile="$(mktemp)"
  local t0 t1
  t0=$(date +%s%N)
  (cd "$dir" && /usr/bin/time -f '%U %S %M' -o "$tfile" "$bin" check --fail-on none "$@" >/dev/null)
  t1=$(date +%s%N)
  local u s m
  read -r u s m < <(tail -n 1 "$tfile")
  echo "$(((t1 - t0) / 1000000)) $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }') $m"
  rm -f "$tfile"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Median wall, median CPU and maximum RSS over $runs runs (after a warm-up run for the page
# cache).
bench() {
  local dir="$1"
  shift
  measure "$dir" "$@" >/dev/null
  local walls=() cpus=() rss=0 w c r
  for ((i = 0; i < runs; i++)); do
    read -r w c r < <(measure "$dir" "$@")
    walls+=("$w")
    cpus+=("$c")
    ((r > rss)) && rss=$r
  done
  echo "$(printf '%s\n' "${walls[@]}" | median) $(printf '%s\n' "${cpus[@]}" | median) $rss"
}

echo "sbreview benchmark: $("$bin" --version), $(nproc) cores, median of $runs runs," \
  "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| corpus | mode | jobs | wall (ms) | CPU (ms) | peak RSS (MB) | check / parse-only (CPU) |"
echo "|---|---|---|---|---|---|---|"
for corpus in "files-$files:files" "stream-$stream:stream"; do
  dir="$out/${corpus%%:*}"
  label="${corpus%%:*}"
  [[ "$label" == files-* ]] && label="$files one-Deployment files" || label="one stream of $stream Deployments"
  for jobs in 1 2; do
    read -r pw pc pr < <(bench "$dir" --jobs "$jobs" --parse-only "${corpus##*:}")
    read -r cw cc cr < <(bench "$dir" --jobs "$jobs" "${corpus##*:}")
    ratio=$(awk -v c="$cc" -v p="$pc" 'BEGIN { if (p > 0) printf "%.2f", c / p; else print "n/a" }')
    mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
    echo "| $label | parse-only | $jobs | $pw | $pc | $(mb "$pr") | |"
    echo "| $label | check | $jobs | $cw | $cc | $(mb "$cr") | $ratio |"
  done
done
