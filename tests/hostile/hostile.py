#!/usr/bin/env python3
"""The hostile suite: inputs a pull request can carry to crash sbreview, hang it, make it take
gigabytes or hide a file from it, each generated at test time beside a privileged pod that must
still be reported (docs/robustness.md, "The hostile suite").

usage: hostile.py SBREVIEW CASE      run one case (CTest runs each as its own test)
       hostile.py --list             the cases, one per line

A case passes when sbreview exits 0 or 1 (2 where the case says so: a bad configuration) within
60 s and 500 MB of peak RSS, reports the privileged pod (SB1001 at pod.yaml), and meets the case's
own expectation (a finding of a rule, a budget's message). Nothing large is committed: every
input is written here, into a temporary directory.
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

POD = """apiVersion: v1
kind: Pod
metadata:
  name: beside
spec:
  containers:
    - name: agent
      image: ghcr.io/example/agent:1.0
      securityContext:
        privileged: true
"""
CHART = "apiVersion: v2\nname: hostile\nversion: 0.1.0\n"
LIMIT_S, LIMIT_MB = 60, 500
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def chart(files, templates):
    """A chart in chart/ with `templates` (name -> text), plus `files`."""
    out = {"chart/Chart.yaml": CHART, "chart/values.yaml": "{}\n"}
    out.update({f"chart/templates/{k}": v for k, v in templates.items()})
    out.update(files)
    return out


# ---- crashes ----------------------------------------------------------------------------------

@case
def helm_dict_contains_itself():
    """`set $d "a" $d`, then every way of walking it: print, deepCopy, has, uniq, toYaml."""
    uses = ["{{ $d }}", "{{ deepCopy $d }}", "{{ has $d (list $d) }}", "{{ uniq (list $d $d) }}",
            "{{ toYaml $d }}", "{{ toJson $d }}", "{{ mergeOverwrite (dict) $d }}"]
    templates = {f"t{k}.yaml": '{{- $d := dict }}{{- $_ := set $d "a" $d }}\nx: ' + u + "\n"
                 for k, u in enumerate(uses)}
    return chart({}, templates), "dict contain itself"


@case
def helm_value_nested_half_a_million_deep():
    loop = '{{- range until 100000 }}{{- $d = dict "a" $d }}{{- end }}'
    t = "{{- $d := dict }}" + loop * 5 + "\nx: {{ $d }}\n"
    return chart({}, {"deep.yaml": t}), "nested more than"


@case
def helm_define_includes_itself_in_nested_ifs():
    ifs, ends = "{{- if true }}" * 50, "{{- end }}" * 50
    t = ('{{- define "r" }}' + ifs + '{{ include "r" . }}' + ends + "{{- end }}\n"
         'x: {{ include "r" . }}\n')
    return chart({}, {"r.yaml": t}), "nested more than"


@case
def markdown_thirty_thousand_nested_quotes():
    return {"README.md": ">" * 30000 + " the agent cannot reach the host\n",
            "SECURITY.md": ">" * 50000 + "-" * 50000 + "\n"}, None


# ---- the harness ------------------------------------------------------------------------------

def write(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        mode = "wb" if isinstance(text, bytes) else "w"
        with open(path, mode) as f:
            f.write(text)


def cap():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def run_case(sbr, name):
    files, expect = CASES[name]()
    with tempfile.TemporaryDirectory() as tmp:
        write(tmp, files)
        write(tmp, {"pod.yaml": POD})
        start = time.monotonic()
        p = subprocess.run([sbr, "check", "--fail-on", "high", "--format", "text", "."], cwd=tmp,
                           capture_output=True, timeout=LIMIT_S * 2, preexec_fn=cap)
        wall = time.monotonic() - start
        rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    out = p.stdout.decode(errors="replace")
    problems = []
    if p.returncode not in (0, 1):
        problems.append(f"exit {p.returncode}: {p.stderr.decode(errors='replace')[-300:]}")
    if wall > LIMIT_S:
        problems.append(f"took {wall:.1f} s (limit {LIMIT_S})")
    if rss_mb > LIMIT_MB:
        problems.append(f"peak RSS {rss_mb:.0f} MB (limit {LIMIT_MB})")
    if "pod.yaml:10:" not in out or "[SB1001]" not in out:
        problems.append("the privileged pod beside it is not reported")
    if expect and expect not in out:
        problems.append(f"no finding says `{expect}`")
    print(f"{name}: exit {p.returncode}, {wall:.1f} s, {rss_mb:.0f} MB")
    for pr in problems:
        print("  FAILED: " + pr)
    return 1 if problems else 0


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    return run_case(os.path.abspath(sys.argv[1]), sys.argv[2])


if __name__ == "__main__":
    sys.exit(main())
