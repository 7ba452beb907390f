#!/usr/bin/env python3
"""The repository's GitHub workflows, action.yml and .pre-commit-hooks.yaml are safe and well formed.

Workflows and the composite action must not use `pull_request_target`, must not put a `${{ }}`
expression inside a `run:` script (script injection: values go through `env:`), must declare
`permissions:` at the top level granting no write, and may write only `security-events`, only in a
job that uploads SARIF. The pre-commit hooks must have the shape pre-commit needs. The checks are
first run on bad samples, each of which they must reject.

usage: check_workflows.py REPO_ROOT
"""
import pathlib
import sys

import yaml


def triggers(doc):
    # YAML 1.1 (PyYAML) reads the key `on` as the boolean true.
    on = doc.get("on", doc.get(True))
    if isinstance(on, str):
        return [on]
    return list(on or [])


def steps_of(doc):
    """(job name, job, step) for every step of a workflow or a composite action."""
    for name, job in (doc.get("jobs") or {}).items():
        for step in job.get("steps") or []:
            yield name, job, step
    for step in (doc.get("runs") or {}).get("steps") or []:
        yield "runs", {}, step


def writes(permissions):
    if permissions in ("write-all", "read-all"):
        return ["*"] if permissions == "write-all" else []
    return [k for k, v in (permissions or {}).items() if v == "write"]


def workflow_problems(doc, is_action):
    problems = []
    if "pull_request_target" in triggers(doc):
        problems.append("uses pull_request_target (runs with write access on fork code)")
    for job_name, _, step in steps_of(doc):
        if "${{" in str(step.get("run", "")):
            problems.append(f"job {job_name}: `${{{{` inside run: (pass it through env:)")
    if is_action:
        return problems
    if "permissions" not in doc:
        problems.append("no top-level permissions:")
    elif writes(doc["permissions"]):
        problems.append(f"top-level permissions grant write: {writes(doc['permissions'])}")
    for name, job in (doc.get("jobs") or {}).items():
        granted = writes(job.get("permissions"))
        uploads = any("upload-sarif" in str(s.get("uses", "")) for s in job.get("steps") or [])
        for scope in granted:
            if scope != "security-events" or not uploads:
                problems.append(f"job {name}: grants {scope}: write without needing it")
        if uploads and "security-events" not in granted:
            problems.append(f"job {name}: uploads SARIF without security-events: write")
        for step in job.get("steps") or []:
            if str(step.get("uses", "")).startswith("actions/checkout@") and \
                    (step.get("with") or {}).get("persist-credentials") is not False:
                problems.append(f"job {name}: actions/checkout keeps the token in .git/config")
    return problems


def hook_problems(hooks):
    problems = []
    if not isinstance(hooks, list) or not hooks:
        return ["not a non-empty list of hooks"]
    for hook in hooks:
        hid = hook.get("id") if isinstance(hook, dict) else None
        if not hid:
            problems.append("a hook without an id")
            continue
        for key in ("name", "entry", "language"):
            if not isinstance(hook.get(key), str) or not hook[key]:
                problems.append(f"{hid}: no {key}")
        if hook.get("language") != "system":
            problems.append(f"{hid}: language must be system (sbreview is installed)")
        if hook.get("pass_filenames") is not False:
            problems.append(f"{hid}: pass_filenames must be false (diff reads the whole tree)")
        if not str(hook.get("entry", "")).startswith("sbreview diff "):
            problems.append(f"{hid}: entry must run sbreview diff")
    return problems


def pr_gate_problems(doc):
    """What docs/ci.md promises of the PR gate."""
    problems = []
    if triggers(doc) != ["pull_request"]:
        problems.append(f"triggers {triggers(doc)}, not pull_request alone")
    steps = [s for _, _, s in steps_of(doc)]
    if not any(str(s.get("uses", "")).startswith("actions/checkout@") and
               (s.get("with") or {}).get("fetch-depth") == 0 for s in steps):
        problems.append("no checkout with fetch-depth: 0 (diff needs the base)")
    diff = [s for s in steps if 'sbreview" diff "origin/$BASE..HEAD"' in str(s.get("run", ""))]
    if not diff or (diff[0].get("env") or {}).get("BASE") != "${{ github.base_ref }}":
        problems.append("no diff origin/$BASE..HEAD step with BASE from github.base_ref in env:")
    for fmt in ("--format sarif", "--format markdown --output \"$GITHUB_STEP_SUMMARY\""):
        if diff and fmt not in diff[0]["run"]:
            problems.append(f"the diff step lacks {fmt}")
    if not any("upload-sarif" in str(s.get("uses", "")) and (s.get("with") or {}).get("category")
               for s in steps):
        problems.append("no upload-sarif step with a category")
    return problems


BAD_WORKFLOWS = {
    "pull_request_target": "on: pull_request_target\npermissions: {}\njobs: {}\n",
    "pull_request_target in a map": "on:\n  pull_request_target:\n    types: [opened]\n"
                                    "permissions: {}\njobs: {}\n",
    "expression in run": "on: pull_request\npermissions: {}\njobs:\n  a:\n    steps:\n"
                         "      - run: echo ${{ github.event.pull_request.title }}\n",
    "no permissions": "on: pull_request\njobs: {}\n",
    "top-level write": "on: push\npermissions: write-all\njobs: {}\n",
    "write without upload": "on: push\npermissions: {}\njobs:\n  a:\n    permissions:\n"
                            "      contents: write\n    steps: []\n",
    "checkout keeps the token": "on: push\npermissions: {}\njobs:\n  a:\n    steps:\n"
                                "      - uses: actions/checkout@v4\n",
}
BAD_HOOKS = {
    "filenames passed": "- {id: s, name: s, entry: sbreview diff HEAD, language: system}\n",
    "not system": "- {id: s, name: s, entry: sbreview diff HEAD, language: python, "
                  "pass_filenames: false}\n",
    "no entry": "- {id: s, name: s, language: system, pass_filenames: false}\n",
}


def main():
    root = pathlib.Path(sys.argv[1])
    failures = []
    for name, text in BAD_WORKFLOWS.items():
        if not workflow_problems(yaml.safe_load(text), is_action=False):
            failures.append(f"self-test: the bad workflow '{name}' passes")
    for name, text in BAD_HOOKS.items():
        if not hook_problems(yaml.safe_load(text)):
            failures.append(f"self-test: the bad hooks '{name}' pass")
    files = sorted((root / ".github/workflows").glob("*.y*ml"))
    names = {f.name for f in files}
    if not {"ci.yml", "pr-gate.yml"} <= names:
        failures.append(f"expected ci.yml and pr-gate.yml, found {sorted(names)}")
    for path in files + [root / "action.yml"]:
        doc = yaml.safe_load(path.read_text())
        for p in workflow_problems(doc, is_action=path.name == "action.yml"):
            failures.append(f"{path.relative_to(root)}: {p}")
    gate = root / ".github/workflows/pr-gate.yml"
    if gate.exists():
        for p in pr_gate_problems(yaml.safe_load(gate.read_text())):
            failures.append(f"{gate.relative_to(root)}: {p}")
    hooks = root / ".pre-commit-hooks.yaml"
    for p in hook_problems(yaml.safe_load(hooks.read_text())):
        failures.append(f".pre-commit-hooks.yaml: {p}")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{len(files)} workflows, action.yml, .pre-commit-hooks.yaml and "
          f"{len(BAD_WORKFLOWS) + len(BAD_HOOKS)} bad samples: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
