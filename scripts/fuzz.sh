#!/usr/bin/env bash
# Fuzz campaigns (docs/robustness.md): builds the libFuzzer targets with clang, ASan and UBSan
# (the `fuzz` preset, in build-fuzz/) and runs each for SECONDS, starting from a copy of its
# committed seeds (tests/fuzz/corpus/<target>). Crashes land in build-fuzz/crashes/<target>/;
# one line per campaign (target, seconds, executions, new corpus size, crashes) is appended to
# build-fuzz/campaigns.log. Turn each crash into a regression test before fixing it.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 600 s, every target)
#   JOBS=2 scripts/fuzz.sh 3600 launcher                 (libFuzzer -jobs/-workers)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(kubernetes launcher containers chart splice config markdown sarif)
jobs=${JOBS:-1}

command -v clang++ >/dev/null || { echo "fuzz: clang++ is needed (apt-get install clang)" >&2; exit 2; }
[[ -f build-fuzz/CMakeCache.txt ]] || cmake --preset fuzz >/dev/null
cmake --build build-fuzz --target "${targets[@]/#/fuzz_}"

for t in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$t crashes=build-fuzz/crashes/$t
  mkdir -p "$corpus" "$crashes"
  cp -n tests/fuzz/corpus/"$t"/* "$corpus"/ 2>/dev/null || true
  log=build-fuzz/fuzz-$t.log
  rc=0
  # Leaks are reported by the sanitizer build of the test suite; here only crashes, hangs
  # (-timeout) and memory blow-ups (-rss_limit_mb) stop a run.
  ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "build-fuzz/fuzz_$t" "$corpus" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes/" \
    -jobs="$jobs" -workers="$jobs" >"$log" 2>&1 || rc=$?
  execs=$(grep -ho 'stat::number_of_executed_units: *[0-9]*' "$log" build-fuzz/fuzz-"$t"*.log fuzz-*.log 2>/dev/null |
    awk '{s += $2} END {print s + 0}')
  found=$(find "$crashes" -type f | wc -l)
  printf '%s\t%s\t%ss\t%s execs\t%s inputs\t%s crashes\texit %s\n' "$(date -u +%FT%TZ)" "$t" \
    "$seconds" "$execs" "$(ls "$corpus" | wc -l)" "$found" "$rc" | tee -a build-fuzz/campaigns.log
done
