#!/usr/bin/env bash
# The review step of action.yml, kept out of the YAML so that no input is ever interpolated into
# shell text: every input arrives in an environment variable and is used quoted. SBR_PATHS is
# split on blanks into separate arguments (paths with spaces need one input per path; a value
# is never evaluated, so `$(...)` or `;` in it is a file name, not a command).
set -euo pipefail

bin="${SBR_BIN:?SBR_BIN names the sbreview binary}"
fail_on="${SBR_FAIL_ON:-high}"
sarif="${SBR_SARIF:-sbreview.sarif}"
base="${SBR_BASE:-}"

paths=()
read -r -a paths <<<"${SBR_PATHS:-.}"
[ "${#paths[@]}" -gt 0 ] || paths=(.)

case "$fail_on" in
  critical | high | medium | low | none) ;;
  *)
    echo "sbreview action: fail-on must be critical, high, medium, low or none" >&2
    exit 2
    ;;
esac

# On a runner, the Markdown summary goes to the step's summary page.
summary=()
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  summary=(--format markdown --output "$GITHUB_STEP_SUMMARY")
fi

if [ -n "$base" ]; then
  # Only what the pull request introduces, judged by the base's configuration: annotations for
  # the new findings; the SARIF keeps the unchanged ones too (baselineState), as code scanning
  # needs, because every other format of the run is a new-only one.
  exec "$bin" diff "${base}..HEAD" --fail-on "$fail_on" \
    --format sarif --output "$sarif" --format github "${summary[@]}" -- "${paths[@]}"
fi
exec "$bin" check --fail-on "$fail_on" --format sarif --output "$sarif" --format text \
  "${summary[@]}" -- "${paths[@]}"
