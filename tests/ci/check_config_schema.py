#!/usr/bin/env python3
"""docs/sbreview.schema.json against what sbreview accepts.

Every .sbreview.yaml under fixtures/ and examples/ must validate; each configuration in BAD must
be rejected by the schema and, for the sections sbreview reads today, by sbreview itself (exit 2),
so the schema cannot drift from analyzer/config/config.cpp in either direction unnoticed.

usage: check_config_schema.py REPO_ROOT SBREVIEW_BINARY
"""
import json
import pathlib
import subprocess
import sys
import tempfile

import jsonschema
import yaml


class ConfigLoader(yaml.SafeLoader):
    """YAML as sbreview reads it: an unquoted date stays a string (sbreview reads scalars)."""


ConfigLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}

# name -> (configuration, whether sbreview reads every section of it today and must accept it)
GOOD = {
    "every section": ("""
version: 1
threat_classes:
  - match: {kind: Job, namespace: ci-*}
    class: trusted
    reason: our own CI, no agent
  - match: {name: agent-*}
    class: untrusted-code
acceptances:
  - rule: SB6001
    match: {kind: Deployment, name: batch}
    reason: the node enforces limits
    expires: 2027-01-31
secrets:
  intended: [ANTHROPIC_API_KEY]
workspace: /workspace
repository:
  urls: [https://github.com/acme/agent-env.git, "git@github.com:acme/agent-env"]
engine: podman
cluster:
  default_runtime_class: gvisor
  seccomp_default: true
  pod_pids_limit: 4096
fail_on: medium
exclude: ["vendor/**", "testdata/**"]
integrity:
  SB0002: medium
""", True),
    "rules, suppressions and include": ("""
include: [deploy, charts]
rules:
  SB7002: {enabled: false}
  SB6001: {severity: low}
suppressions:
  - rule: SB3008
    path: charts/legacy/**
    reason: read-only cache, tracked in #123
    expires: "2027-06-30"
""", True),
    "limits": ("""
limits:
  max_file_bytes: 16777216
  max_documents: 50000
  wall_clock_seconds: 0
  memory_megabytes: 2048
""", True),
    "documents": ("""
documents:
  - path: docs/threat-model.md
    about: [bin/agentbox, deploy/**]
  - path: README.md
    about: bin
    examples: true
  - path: docs/rules/*.md
    claims: false
""", True),
    "helm values per chart": ("""
helm:
  kube_version: "1.30"
  api_versions: [monitoring.coreos.com/v1]
  charts:
    - path: deploy/charts/agent
      values: [deploy/values-prod.yaml]
      set: ["debug.enabled=false"]
      set_string: ["image.tag=0123"]
      set_file: ["motd=deploy/motd.txt"]
""", True),
}

# name -> (configuration, whether sbreview reads that section today and must reject it too)
BAD = {
    "unknown top-level key": ("colour: red\n", True),
    "unknown selector key": ("threat_classes:\n  - match: {image: x}\n    class: trusted\n    reason: r\n", True),
    "trusted without a reason": ("threat_classes:\n  - match: {name: a}\n    class: trusted\n", True),
    "unknown threat class": ("threat_classes:\n  - match: {name: a}\n    class: hostile\n", True),
    "acceptance without a rule": ("acceptances:\n  - reason: r\n", True),
    "expiry not a date": ("acceptances:\n  - rule: SB1001\n    expires: next week\n", True),
    "fail_on note": ("fail_on: note\n", True),
    "version 2": ("version: 2\n", True),
    "engine kubelet": ("engine: kubelet\n", True),
    "repository urls not a list": ("repository:\n  urls: {a: b}\n", True),
    "unknown repository key": ("repository:\n  url: https://example.com/x.git\n", True),
    "pids limit zero": ("cluster:\n  pod_pids_limit: 0\n", True),
    "seccomp_default not a boolean": ("cluster:\n  seccomp_default: sometimes\n", True),
    "integrity on a non-SB0 rule": ("integrity:\n  SB1001: low\n", True),
    "exclude not a list": ("exclude: vendor\n", True),
    "rule override with an unknown key": ("rules:\n  SB1001: {disabled: true}\n", True),
    "an invariant-0 rule turned off": ("rules:\n  SB0001: {enabled: false}\n", True),
    "suppression without a path": ("suppressions:\n  - {rule: SB1001, reason: r}\n", True),
    "include not a list": ("include: deploy\n", True),
    "limits with an unknown key": ("limits:\n  max_files: 3\n", True),
    "max_documents zero": ("limits:\n  max_documents: 0\n", True),
    "max_file_bytes not a number": ("limits:\n  max_file_bytes: 64M\n", True),
    "a document entry without a path": ("documents:\n  - about: [bin]\n", True),
    "a document entry with an unknown key": ("documents:\n  - path: README.md\n    scope: x\n", True),
    "examples not a boolean": ("documents:\n  - path: README.md\n    examples: sometimes\n", True),
    "helm chart without a path": ("helm:\n  charts:\n    - values: [v.yaml]\n", True),
    "helm set without =": ("helm:\n  charts:\n    - path: c\n      set: [debug]\n", True),
    "helm kube_version not a version": ("helm:\n  kube_version: latest\n", True),
    "helm unknown key": ("helm:\n  repositories: [x]\n", True),
}


def load(text):
    return yaml.load(text, Loader=ConfigLoader) or {}


def sbreview_status(binary, text):
    with tempfile.TemporaryDirectory() as tmp:
        config = pathlib.Path(tmp, "config.yaml")
        config.write_text(text)
        run = subprocess.run([binary, "check", "--config", str(config), "--format", "json", tmp],
                             capture_output=True, text=True, check=False)
        return run.returncode, run.stderr


def main():
    root, binary = pathlib.Path(sys.argv[1]), sys.argv[2]
    schema = json.loads((root / "docs/sbreview.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = []
    files = sorted(p for d in ("fixtures", "examples") for p in (root / d).rglob(".sbreview.yaml"))
    if len(files) < 10:
        failures.append(f"expected the repository's configurations, found {len(files)}")
    for path in files:
        for error in validator.iter_errors(load(path.read_text())):
            failures.append(f"{path.relative_to(root)}: {error.json_path}: {error.message}")
    for name, (text, read_today) in GOOD.items():
        for error in validator.iter_errors(load(text)):
            failures.append(f"good config '{name}': {error.json_path}: {error.message}")
        if read_today and sbreview_status(binary, text)[0] == 2:
            failures.append(f"good config '{name}' is rejected by sbreview (schema too lax?)")
    for name, (text, read_today) in BAD.items():
        if validator.is_valid(load(text)):
            failures.append(f"bad config '{name}' passes the schema")
        status, stderr = sbreview_status(binary, text) if read_today else (2, "config.yaml:")
        if status != 2 or "config.yaml:" not in stderr:
            failures.append(f"bad config '{name}' is not rejected by sbreview (schema too strict?)")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{len(files)} repository configurations, {len(GOOD)} good and {len(BAD)} bad samples: "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
