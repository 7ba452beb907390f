#!/usr/bin/env python3
"""Writes a deterministic Helm chart corpus for bench/helm.sh (no network, fixed content).

    gen_chart.py OUT CHARTS [TEMPLATES]

Each of CHARTS charts has TEMPLATES templates (default 20): Deployments, Services and
ConfigMaps written the way `helm create` writes them (_helpers.tpl with name/fullname/labels,
`with`/`toYaml | nindent` blocks, `default`, `quote`, `range` over values, boolean switches
`autoscaling.enabled` and `debug.enabled`), plus a values.yaml.
"""
import os
import sys

HELPERS = """{{- define "bench.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- define "bench.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- define "bench.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 }}
app.kubernetes.io/name: {{ include "bench.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}
"""

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{{{ include "bench.fullname" . }}}}-w{n}
  labels:
    {{{{- include "bench.labels" . | nindent 4 }}}}
spec:
  {{{{- if not .Values.autoscaling.enabled }}}}
  replicas: {{{{ .Values.replicaCount }}}}
  {{{{- end }}}}
  selector:
    matchLabels:
      app: w{n}
  template:
    metadata:
      labels:
        app: w{n}
    spec:
      {{{{- with .Values.runtimeClassName }}}}
      runtimeClassName: {{{{ . }}}}
      {{{{- end }}}}
      securityContext:
        {{{{- toYaml .Values.podSecurityContext | nindent 8 }}}}
      containers:
        - name: worker
          image: "{{{{ .Values.image.repository }}}}:{{{{ .Values.image.tag | default .Chart.AppVersion }}}}"
          securityContext:
            {{{{- toYaml .Values.workers.w{n}.securityContext | nindent 12 }}}}
          env:
            {{{{- range $k, $v := .Values.env }}}}
            - name: {{{{ $k }}}}
              value: {{{{ $v | quote }}}}
            {{{{- end }}}}
          resources:
            {{{{- toYaml .Values.resources | nindent 12 }}}}
"""

SERVICE = """apiVersion: v1
kind: Service
metadata:
  name: {{{{ include "bench.fullname" . }}}}-s{n}
  labels:
    {{{{- include "bench.labels" . | nindent 4 }}}}
spec:
  type: {{{{ .Values.service.type }}}}
  ports:
    - port: {{{{ .Values.service.port }}}}
      targetPort: http
  selector:
    app: w{n}
"""

CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: {{{{ include "bench.fullname" . }}}}-c{n}
data:
  {{{{- range $k, $v := .Values.config }}}}
  {{{{ $k }}}}: {{{{ $v | quote }}}}
  {{{{- end }}}}
  {{{{- if .Values.debug.enabled }}}}
  LOG_LEVEL: debug
  {{{{- end }}}}
"""


def values(templates):
    lines = [
        "replicaCount: 1",
        "autoscaling:",
        "  enabled: false",
        "debug:",
        "  enabled: false",
        "image:",
        "  repository: ghcr.io/example/worker",
        '  tag: ""',
        'nameOverride: ""',
        'fullnameOverride: ""',
        "runtimeClassName: gvisor",
        "podSecurityContext:",
        "  runAsNonRoot: true",
        "  runAsUser: 10001",
        "service:",
        "  type: ClusterIP",
        "  port: 8080",
        "resources:",
        "  limits: {cpu: '1', memory: 1Gi}",
        "env:",
    ]
    lines += [f"  VAR_{k}: value-{k}" for k in range(8)]
    lines.append("config:")
    lines += [f"  key{k}: '{k}'" for k in range(8)]
    lines.append("workers:")
    for n in range(templates):
        lines += [f"  w{n}:", "    securityContext:", "      allowPrivilegeEscalation: false",
                  f"      privileged: {'true' if n % 7 == 3 else 'false'}",
                  "      capabilities: {drop: [ALL]}"]
    return "\n".join(lines) + "\n"


def main():
    out, charts = sys.argv[1], int(sys.argv[2])
    templates = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    for c in range(charts):
        root = os.path.join(out, f"chart{c:02d}")
        os.makedirs(os.path.join(root, "templates"), exist_ok=True)
        with open(os.path.join(root, "Chart.yaml"), "w") as f:
            f.write(f"apiVersion: v2\nname: bench{c:02d}\nversion: 1.0.{c}\nappVersion: \"2.0\"\n")
        with open(os.path.join(root, "values.yaml"), "w") as f:
            f.write(values(templates))
        with open(os.path.join(root, "templates", "_helpers.tpl"), "w") as f:
            f.write(HELPERS)
        kinds = [DEPLOYMENT, SERVICE, CONFIGMAP]
        for n in range(templates):
            with open(os.path.join(root, "templates", f"t{n:02d}.yaml"), "w") as f:
                f.write(kinds[n % 3].format(n=n))


if __name__ == "__main__":
    main()
