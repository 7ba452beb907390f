#!/usr/bin/env bash
# The hostile repository of docs/robustness.md, checked in each output format: wall time, CPU
# time and peak RSS of the whole process (/usr/bin/time), and the exit code. The issue's bound is
# under a minute and within 500 MB, exit 0 or 1, every hostile input named, valid SARIF.
#   bench/hostile.sh [BINARY]            OUT=/tmp/sbreview-hostile STREAM_MB=60 bench/hostile.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$(realpath "${1:-$here/../build/sbreview}")"
out="${OUT:-/tmp/sbreview-hostile}"
mb="${STREAM_MB:-60}"
[[ -x /usr/bin/time ]] || { echo "bench: /usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
[[ -f "$out/repo/stream.yaml" ]] || python3 "$here/gen_hostile.py" "$out/repo" "$mb"
echo "| format | exit | wall (s) | CPU (s) | peak RSS (MB) | report (MB) |"
echo "|---|---|---|---|---|---|"
for fmt in text json sarif; do
  report="$out/report.$fmt"
  rc=0
  (cd "$out/repo" && /usr/bin/time -f "%e %U %S %M" -o "$out/time.$fmt" \
    "$bin" check --format "$fmt" --output "$report" .) || rc=$?
  awk -v f="$fmt" -v rc="$rc" -v bytes="$(stat -c %s "$report")" \
    '{printf "| %s | %s | %s | %.2f | %.1f | %.1f |\n", f, rc, $1, $2 + $3, $4 / 1024, bytes / 1048576}' \
    "$out/time.$fmt"
done
python3 -c "import json,sys; json.load(open(sys.argv[1])); print('SARIF parses as JSON')" "$out/report.sarif"
