#!/usr/bin/env bash
# clang-tidy (the repository's .clang-tidy, every warning an error) over every C++ source of
# analyzer/, invariants/ and prover/. Run by CTest ("style: clang-tidy") with the build
# directory as $1.
#
# Every source, whatever the clone's depth: CI checks out one commit, with no parent to diff
# against, and a check that silently checks nothing is worse than none. The build compiles the
# layers in unity batches (docs/architecture.md, "Build and test times"), so its compile
# database names the batches: each batch is checked once, with a header filter that reports
# what lies in the sources it includes, which parses the shared headers once per batch instead
# of once per file (3 minutes instead of 15 CPU-minutes on 2 cores).
#
# SBR_TIDY_BASE=REV checks only the batches and files that hold sources changed since REV (a
# quick local run); the script fails when REV cannot be resolved.
set -euo pipefail
build=${1:?usage: check-tidy.sh BUILD_DIR}
cd "$(dirname "$0")/.."
command -v clang-tidy >/dev/null || { echo "clang-tidy is missing: run scripts/deps.sh" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 is missing: run scripts/deps.sh" >&2; exit 1; }
db=$build/compile_commands.json
[[ -f $db ]] || { echo "check-tidy: no $db: configure the build first" >&2; exit 1; }

changed=""
if [[ -n ${SBR_TIDY_BASE:-} ]]; then
  git rev-parse --verify -q "$SBR_TIDY_BASE^{commit}" >/dev/null ||
    { echo "check-tidy: SBR_TIDY_BASE=$SBR_TIDY_BASE names no commit" >&2; exit 1; }
  changed=$(git diff --name-only --diff-filter=AM "$SBR_TIDY_BASE" -- | tr '\n' ' ')
fi

# The translation units to check: a batch when it includes one of our sources (and, with a
# base, a changed one), a plain entry when it is one of our sources.
mapfile -t units < <(python3 - "$db" "$PWD" "$changed" <<'EOF'
import json, os, re, sys
db, root, changed = sys.argv[1], sys.argv[2], sys.argv[3].split()
ours = re.compile(r"^(analyzer|invariants|prover)/.*\.cpp$")
want = {os.path.join(root, c) for c in changed if ours.match(c)}
units = set()
for e in json.load(open(db)):
    f = os.path.normpath(os.path.join(e["directory"], e["file"]))
    if "/Unity/unity_" in f:
        included = re.findall(r'#include "([^"]+)"', open(f).read())
        mine = [i for i in included if ours.match(os.path.relpath(i, root))]
        if mine and (not changed or want.intersection(mine)):
            units.add(f)
    elif ours.match(os.path.relpath(f, root)) and (not changed or f in want):
        units.add(f)
print("\n".join(sorted(units)))
EOF
)
if ((${#units[@]} == 0)); then
  if [[ -n $changed || -n ${SBR_TIDY_BASE:-} ]]; then
    echo "clang-tidy: no source changed since $SBR_TIDY_BASE"
    exit 0
  fi
  echo "check-tidy: $db holds none of analyzer/, invariants/, prover/" >&2
  exit 1
fi
echo "clang-tidy: ${#units[@]} translation units"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# suspicious-include: a unity batch includes .cpp files by design.
printf '%s\n' "${units[@]}" | xargs -P "$(nproc)" -n 1 \
  clang-tidy -p "$build" --config-file=.clang-tidy --checks=-bugprone-suspicious-include \
  --header-filter="^$PWD/(analyzer|invariants|prover)/" --quiet --warnings-as-errors='*' \
  >"$log" 2>&1 || status=$?
grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated' "$log" || true
exit "$status"
