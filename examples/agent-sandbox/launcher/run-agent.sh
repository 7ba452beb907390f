#!/usr/bin/env bash
# Starts the coding agent locally with podman, behind an nft egress gate.
# Deliberately flawed: see ../README.md.
set -uo pipefail

IMAGE="${AGENT_IMAGE:-localhost/coding-agent:dev}"
PREVIEW_PORT="${AGENT_PREVIEW_PORT:-5173}"

args=(--rm --cap-drop=ALL --security-opt=no-new-privileges --memory=4g --pids-limit=1024)
args+=(-v "$PWD:/workspace:Z")
args+=(-v "$HOME/.claude:/home/agent/.claude")
args+=(-p "$PREVIEW_PORT:$PREVIEW_PORT")

if [[ "${AGENT_DEBUG:-0}" == 1 ]]; then
  args+=(--network host)
fi

load_gate() {
  sudo nft -f - <<NFT || echo "warning: egress gate not loaded" >&2
table ip agent {
  chain out {
    type filter hook output priority 0; policy drop;
    tcp dport ${ALLOWED_PORT} accept
  }
}
NFT
}

load_gate
exec podman run "${args[@]}" -e "ANTHROPIC_API_KEY=${ANTHROPIC_API_KEY}" "$IMAGE" "$@"
