#!/usr/bin/env python3
"""The repository's GitHub workflows, action.yml and .pre-commit-hooks.yaml are safe and well formed.

Workflows and the composite action must not use `pull_request_target`, must not put a `${{ }}`
expression inside a `run:` script (script injection: values go through `env:`), must declare
`permissions:` at the top level granting no write, and may write only `security-events`, only in a
job that uploads SARIF, or `contents`, only in the release workflow's publishing job, which runs
none of the repository's code. The release builds the package and its SHA-256; the action installs
the package of its own version and verifies it, else builds from source with a cache; the PR gate
caches the base branch's build under the base's tree. The pre-commit hooks must have the shape
pre-commit needs. The checks are first run on bad samples, each of which they must reject.

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


def pushed_tags_only(doc):
    on = doc.get("on", doc.get(True))
    return isinstance(on, dict) and list(on) == ["push"] and \
        isinstance(on["push"], dict) and set(on["push"]) == {"tags"}


def publishes_release(job):
    """A job that only attaches built files to a release: no checkout, only gh and checksums."""
    steps = job.get("steps") or []
    if any(str(st.get("uses", "")).startswith("actions/checkout@") for st in steps):
        return False
    runs = [str(st.get("run", "")) for st in steps if "run" in st]
    allowed = ("gh release ", "(cd dist && sha256sum -c")
    lines = [ln.strip() for r in runs for ln in r.splitlines() if ln.strip()]
    return bool(runs) and all(ln.startswith(allowed) or ln.startswith("||") for ln in lines)


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
        tag_only = pushed_tags_only(doc)
        for scope in granted:
            if scope == "security-events" and uploads:
                continue
            if scope == "contents" and tag_only and publishes_release(job):
                continue
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


def release_problems(doc, package_script):
    """What docs/install.md promises of a release: the package and its SHA-256, on tags only."""
    problems = []
    if not pushed_tags_only(doc):
        problems.append("not triggered by pushed tags alone")
    steps = [s for _, _, s in steps_of(doc)]
    if not any("scripts/release-package.sh" in str(s.get("run", "")) for s in steps):
        problems.append("no step runs scripts/release-package.sh")
    if not any("gh release upload" in str(s.get("run", "")) for s in steps):
        problems.append("nothing is attached to the release")
    if "sha256sum \"$deb\" >\"$deb.sha256\"" not in package_script:
        problems.append("scripts/release-package.sh does not write the package's SHA-256")
    return problems


def action_problems(doc, install_script):
    """The action installs its own version's package (verified), else builds from source, cached."""
    problems = []
    steps = (doc.get("runs") or {}).get("steps") or []
    install = [s for s in steps if s.get("id") == "install"]
    if not install or "scripts/action-install.sh" not in str(install[0].get("run", "")):
        problems.append("no install step running scripts/action-install.sh")
    cache = [s for s in steps if str(s.get("uses", "")).startswith("actions/cache@")]
    if not cache or "steps.install.outputs.source-hash" not in str((cache[0].get("with") or {})
                                                                     .get("key", "")):
        problems.append("no actions/cache step keyed on the sources' hash")
    builds = [str(s.get("run", "")) for s in steps if "build.sh" in str(s.get("run", ""))]
    if not builds or "build.sh\" sbreview" not in builds[0] or "deps.sh\" build" not in builds[0]:
        problems.append("the fallback does not build the command alone (deps.sh build, "
                        "build.sh sbreview)")
    if "sha256sum" not in install_script or "does not match its published SHA-256" not in \
            install_script:
        problems.append("scripts/action-install.sh does not verify the package's SHA-256")
    for bad in ("| sh", "| bash", "|sh", "|bash"):
        if bad in install_script:
            problems.append(f"scripts/action-install.sh pipes into a shell ({bad})")
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
    "release job runs the code": "on:\n  push:\n    tags: [v*]\npermissions: {}\njobs:\n  a:\n"
                                 "    permissions:\n      contents: write\n    steps:\n"
                                 "      - uses: actions/checkout@v4\n        with:\n"
                                 "          persist-credentials: false\n"
                                 "      - run: make && gh release upload v1 x\n",
    "contents write on a branch push": "on: push\npermissions: {}\njobs:\n  a:\n"
                                       "    permissions:\n      contents: write\n    steps:\n"
                                       "      - run: gh release upload v1 x\n",
}
BAD_ACTION = ("runs:\n  using: composite\n  steps:\n    - id: install\n      shell: bash\n"
              "      run: curl -fsSL https://example.org/install.sh | sh\n")
BAD_INSTALL_SCRIPT = "curl -fsSL \"$releases/x.deb\" -o x.deb && apt-get install ./x.deb\n"
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
    if not action_problems(yaml.safe_load(BAD_ACTION), BAD_INSTALL_SCRIPT):
        failures.append("self-test: the bad action passes")
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
    release = root / ".github/workflows/release.yml"
    if not release.exists():
        failures.append("no .github/workflows/release.yml")
    else:
        for p in release_problems(yaml.safe_load(release.read_text()),
                                  (root / "scripts/release-package.sh").read_text()):
            failures.append(f"{release.relative_to(root)}: {p}")
    for p in action_problems(yaml.safe_load((root / "action.yml").read_text()),
                             (root / "scripts/action-install.sh").read_text()):
        failures.append(f"action.yml: {p}")
    hooks = root / ".pre-commit-hooks.yaml"
    for p in hook_problems(yaml.safe_load(hooks.read_text())):
        failures.append(f".pre-commit-hooks.yaml: {p}")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{len(files)} workflows, action.yml, .pre-commit-hooks.yaml and "
          f"{len(BAD_WORKFLOWS) + len(BAD_HOOKS) + 1} bad samples: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
