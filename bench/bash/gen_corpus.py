#!/usr/bin/env python3
"""Writes a corpus of realistic agent-sandbox launchers for the ShellCheck comparison.

Each launcher is built from a few variants (args arrays across functions, env-switched
network, nft heredoc gates, cleanup traps, sourced helpers), so both tools see the shapes
real launchers have. Deterministic: the same N gives the same files.

usage: gen_corpus.py OUT_DIR [N]
"""
import os
import random
import sys

HEADER = """#!/usr/bin/env bash
# Launcher {i}: starts the coding agent for project {proj} in a throwaway container.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
# shellcheck source=lib/common.sh
source "$SCRIPT_DIR/lib/common.sh"

ENGINE="${{AGENTBOX_ENGINE:-podman}}"
IMAGE="${{AGENTBOX_IMAGE:-localhost/agent-{proj}:latest}}"
NAME="agent-{proj}-$$"
declare -a args=()
"""

FUNCS = [
    """
base_flags() {{
  args+=(--rm --name "$NAME" --cap-drop=ALL --security-opt=no-new-privileges)
  args+=(--pids-limit={pids} --memory={mem}g --cpus={cpus})
}}
""",
    """
add_mounts() {{
  args+=(-v "$PWD:/workspace:Z")
  if [[ -d "$HOME/.agents/skills" ]]; then
    args+=(-v "$HOME/.agents/skills:/home/agent/.agents/skills:ro")
  fi
}}
""",
    """
add_network() {{
  case "${{AGENTBOX_NET:-gated}}" in
    full) args+=(--network host) ;;
    none) args+=(--network none) ;;
    *) args+=(--network agentbox-gated) ;;
  esac
}}
""",
    """
load_gate() {{
  local port
  port="$(jq -r '.egress.port' "$SCRIPT_DIR/config/{proj}.json")"
  [[ $port =~ ^[0-9]+$ ]] || die "egress.port must be a number"
  sudo nft -f - <<EOF || die "gate did not load"
table inet agentbox_{proj} {{
  chain forward {{
    type filter hook forward priority 0; policy drop;
    ct state established,related accept
    ip daddr {proxy} tcp dport $port accept
  }}
}}
EOF
}}
""",
    """
start_proxy() {{
  "$ENGINE" run -d --name "$NAME-proxy" --network agentbox-gated localhost/egress-proxy:1
}}
""",
]

FOOTER = """
cleanup() {{
  "$ENGINE" rm -f "$NAME-proxy" >/dev/null 2>&1 || true
}}
trap cleanup EXIT INT TERM

base_flags
add_mounts
add_network
load_gate
start_proxy
for port in {ports}; do
  args+=(-p "127.0.0.1:$port:$port")
done
"$ENGINE" run "${{args[@]}}" "$IMAGE" "$@"
"""

COMMON = """# Helpers shared by the launchers.
die() { echo "agentbox: $*" >&2; exit 1; }
log() { echo "agentbox: $*" >&2; }
"""


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    rnd = random.Random(1)
    os.makedirs(os.path.join(out, "lib"), exist_ok=True)
    os.makedirs(os.path.join(out, "config"), exist_ok=True)
    with open(os.path.join(out, "lib", "common.sh"), "w") as f:
        f.write(COMMON)
    for i in range(n):
        proj = f"p{i:04d}"
        params = dict(i=i, proj=proj, pids=rnd.choice([256, 512, 1024]), mem=rnd.choice([2, 4, 8]),
                      cpus=rnd.choice([1, 2, 4]), proxy=f"10.89.{i % 250}.2",
                      ports=" ".join(str(5000 + rnd.randrange(1000)) for _ in range(rnd.randrange(1, 4))))
        body = HEADER.format(**params) + "".join(fn.format(**params) for fn in FUNCS) + FOOTER.format(**params)
        with open(os.path.join(out, f"launch-{proj}.sh"), "w") as f:
            f.write(body)
        with open(os.path.join(out, "config", f"{proj}.json"), "w") as f:
            f.write('{"egress": {"port": 443}}\n')


if __name__ == "__main__":
    main()
