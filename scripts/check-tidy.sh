#!/usr/bin/env bash
# clang-tidy (the repository's .clang-tidy, every warning an error) over the C++ sources that
# changed: since $SBR_TIDY_BASE when set, else since the merge base with origin/main, else in
# the last commit. SBR_TIDY_ALL=1 checks every source (about 15 CPU-minutes on this project).
# Run by CTest ("style: clang-tidy") with the build directory as $1.
set -euo pipefail
build=${1:?usage: check-tidy.sh BUILD_DIR}
cd "$(dirname "$0")/.."
command -v clang-tidy >/dev/null || { echo "clang-tidy is missing: run scripts/deps.sh" >&2; exit 1; }
[[ -f $build/compile_commands.json ]] || { echo "no $build/compile_commands.json" >&2; exit 1; }
pattern='^(analyzer|invariants|prover)/.*\.cpp$'
if [[ ${SBR_TIDY_ALL:-0} == 1 ]] || ! git rev-parse --verify -q HEAD~1 >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files 2>/dev/null | grep -E "$pattern" || find analyzer invariants -name '*.cpp' | sort)
  what="every source"
else
  base=${SBR_TIDY_BASE:-}
  [[ -n $base ]] || base=$(git merge-base HEAD origin/main 2>/dev/null || true)
  [[ -n $base && $base != "$(git rev-parse HEAD)" ]] || base=HEAD~1
  mapfile -t files < <(git diff --name-only --diff-filter=AM "$base" -- | grep -E "$pattern" || true)
  what="sources changed since $(git rev-parse --short "$base")"
fi
if ((${#files[@]} == 0)); then
  echo "clang-tidy: no $what"
  exit 0
fi
echo "clang-tidy: ${#files[@]} $what"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 \
  clang-tidy -p "$build" --quiet --warnings-as-errors='*' >"$log" 2>&1 || status=$?
grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated' "$log" || true
exit "$status"
