#!/usr/bin/env bash
# Times `sbreview prove` on generated launchers and Pods (docs/benchmark.md, "The runtime
# prover"): N launches of a hardened `podman run` (each with a bare -p, as the prover's
# worst ordinary case: its host sockets are read and connected to) and K Pods through
# `podman kube play`. Prints the wall clock of the whole run, the per-workload average, the
# per-launch times the prover reports, and the load average (the machine is shared).
#
#   bench/prove.sh [BINARY]          (default: build/sbreview)
#   LAUNCHES=12 PODS=2 RUNS=3 bench/prove.sh
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$(realpath "${1:-$here/../build/sbreview}")"
launches="${LAUNCHES:-12}"
pods="${PODS:-2}"
runs="${RUNS:-3}"
out="$(mktemp -d /tmp/sbreview-prove-bench-XXXXXX)"
trap 'rm -rf "$out"' EXIT

{
  echo '#!/usr/bin/env bash'
  echo 'set -euo pipefail'
  echo 'opts=(--rm --cap-drop=ALL --security-opt no-new-privileges --read-only --user 1000:1000'
  echo '      --memory 512m --cpus 1 --pids-limit 256 --timeout 600)'
  for i in $(seq 1 "$launches"); do
    echo "podman run \"\${opts[@]}\" --name agent$i -p $((20000 + i)):8080 ghcr.io/acme/agent:$i task"
  done
} > "$out/launch.sh"
for i in $(seq 1 "$pods"); do
  cat > "$out/pod$i.yaml" <<EOF
apiVersion: v1
kind: Pod
metadata: {name: agent$i}
spec:
  containers:
    - name: agent
      image: ghcr.io/acme/agent:$i
      securityContext: {runAsUser: 1000, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: {drop: [ALL]}}
      resources: {limits: {memory: 512Mi, cpu: "1"}}
EOF
done

total=$((launches + pods))
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $launches launches + $pods pods; $runs runs"
for r in $(seq 1 "$runs"); do
  start=$(date +%s%N)
  "$bin" prove --format json --fail-on none "$out" > "$out/result.json" 2> "$out/progress"
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  echo "run $r: ${ms} ms, $((ms / total)) ms per workload"
  grep -o '([0-9.]* s)' "$out/progress" | tr -d '()s' | sort -n | awk '
    {a[NR]=$1} END {printf "  per launch: median %.2f s, max %.2f s\n", a[int((NR+1)/2)], a[NR]}'
done
