#!/usr/bin/env python3
"""Writes a deterministic benchmark corpus for sbreview.

  gen_corpus.py OUT_DIR N [files|stream|both]

OUT_DIR/files/deploy-NNNNN.yaml  N files holding one Deployment each
OUT_DIR/stream/all.yaml          the same N Deployments as one multi-document stream

The Deployments vary their security settings (runtime class, privileges, capabilities,
limits, mounts, env) from a fixed seed, so every run measures the same input and the checks
take their different branches. No randomness from the environment; no network.
"""
import os
import random
import sys


def deployment(i: int, rng: random.Random) -> str:
    name = f"agent-{i:05d}"
    ns = rng.choice(["agents", "batch", "tenants", ""])
    lines = [
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata:",
        f"  name: {name}",
    ]
    if ns:
        lines.append(f"  namespace: {ns}")
    lines += [
        "  labels:",
        f"    app: {name}",
        "    team: ml-platform",
        "spec:",
        f"  replicas: {rng.randint(1, 3)}",
        "  selector:",
        "    matchLabels:",
        f"      app: {name}",
        "  template:",
        "    metadata:",
        "      labels:",
        f"        app: {name}",
        "    spec:",
    ]
    if rng.random() < 0.5:
        lines.append(f"      runtimeClassName: {rng.choice(['gvisor', 'kata-qemu', 'runc'])}")
    if rng.random() < 0.3:
        lines.append("      automountServiceAccountToken: false")
    if rng.random() < 0.05:
        lines.append("      hostNetwork: true")
    if rng.random() < 0.4:
        lines.append(f"      activeDeadlineSeconds: {rng.choice([600, 3600, 86400])}")
    lines += [
        "      securityContext:",
        f"        runAsNonRoot: {str(rng.random() < 0.7).lower()}",
        f"        runAsUser: {rng.choice([0, 1000, 65532])}",
    ]
    if rng.random() < 0.6:
        lines += ["        seccompProfile:", f"          type: {rng.choice(['RuntimeDefault', 'Unconfined'])}"]
    lines += [
        "      containers:",
        "      - name: agent",
        f"        image: registry.example/agent:{rng.randint(1, 9)}.{rng.randint(0, 20)}",
        "        command: [\"/usr/bin/agent\", \"--serve\"]",
        "        env:",
        "        - name: LOG_LEVEL",
        "          value: info",
        "        - name: MODEL_API_KEY",
        "          valueFrom:",
        "            secretKeyRef:",
        "              name: model-key",
        "              key: token",
        "        securityContext:",
        f"          allowPrivilegeEscalation: {str(rng.random() < 0.3).lower()}",
        f"          readOnlyRootFilesystem: {str(rng.random() < 0.6).lower()}",
    ]
    if rng.random() < 0.05:
        lines.append("          privileged: true")
    caps = rng.random()
    if caps < 0.6:
        lines += ["          capabilities:", "            drop: [ALL]"]
    elif caps < 0.7:
        lines += ["          capabilities:", f"            add: [{rng.choice(['NET_ADMIN', 'SYS_PTRACE', 'NET_RAW'])}]"]
    if rng.random() < 0.7:
        lines += ["        resources:", "          limits:"]
        if rng.random() < 0.9:
            lines.append(f"            memory: {rng.choice(['512Mi', '1Gi', '2Gi'])}")
        if rng.random() < 0.8:
            lines.append(f"            cpu: \"{rng.choice(['500m', '1', '2'])}\"")
        if rng.random() < 0.4:
            lines.append("            ephemeral-storage: 2Gi")
        if rng.random() < 0.5:
            lines += ["          requests:", "            memory: 256Mi", "            cpu: 250m"]
    lines += [
        "        volumeMounts:",
        "        - name: work",
        "          mountPath: /workspace",
        "        - name: tmp",
        "          mountPath: /tmp",
    ]
    vol = rng.random()
    if vol < 0.1:
        lines += ["        - name: home", "          mountPath: /home/agent"]
    lines += [
        "        ports:",
        f"        - containerPort: {rng.choice([8080, 3000, 8443])}",
        "      volumes:",
        "      - name: work",
        "        emptyDir: {}",
        "      - name: tmp",
        "        emptyDir:",
        "          sizeLimit: 512Mi",
    ]
    if vol < 0.05:
        lines += ["      - name: home", "        persistentVolumeClaim:", "          claimName: agent-home"]
    elif vol < 0.1:
        lines += ["      - name: home", "        hostPath:", "          path: /srv/agent-home"]
    return "\n".join(lines) + "\n"


def main() -> int:
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] not in ("files", "stream", "both")):
        print(__doc__, file=sys.stderr)
        return 2
    out, n = sys.argv[1], int(sys.argv[2])
    what = sys.argv[3] if len(sys.argv) == 4 else "both"
    rng = random.Random(20260630)
    docs = [deployment(i, rng) for i in range(n)]
    if what in ("files", "both"):
        os.makedirs(os.path.join(out, "files"), exist_ok=True)
        for i, d in enumerate(docs):
            with open(os.path.join(out, "files", f"deploy-{i:05d}.yaml"), "w") as f:
                f.write(d)
    if what in ("stream", "both"):
        os.makedirs(os.path.join(out, "stream"), exist_ok=True)
        with open(os.path.join(out, "stream", "all.yaml"), "w") as f:
            f.write("---\n".join(docs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
