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


@case
def markdown_table_of_five_thousand_columns_and_rows():
    table = "|a" * 5000 + "|\n" + "|-" * 5000 + "|\n" + "|x\n" * 5000
    return {"SECURITY.md": "# Security\n\n" + table}, "past sbreview's budget of 1000000"


@case
def markdown_thirty_rows_of_sixty_thousand_pipes():
    row = "|" * 60000 + "\n"
    return {"SECURITY.md": row + "|-" * 60000 + "|\n" + row * 30}, "cells, past sbreview's budget"


@case
def markdown_fifty_megabyte_readme():
    return {"README.md": "The agent cannot reach the host.\n" * 1_600_000}, "past sbreview's budget"


# ---- memory and time: the chart engine --------------------------------------------------------

@case
def helm_indent_of_repeat():
    t = 'x: {{ indent 10000 (repeat 100000 "\\n") }}\n'
    return chart({}, {"t.yaml": t}), "budget"


@case
def helm_string_doubling_in_range():
    t = '{{- $s := "ab" }}{{- range until 60 }}{{- $s = print $s $s }}{{- end }}\nx: {{ len $s }}\n'
    return chart({}, {"t.yaml": t}), "print would build"


@case
def helm_concat_doubling_in_range():
    t = ('{{- $a := list 1 }}{{- range until 60 }}{{- $a = concat $a $a }}{{- end }}\n'
         'x: {{ len $a }}\n')
    return chart({}, {"t.yaml": t}), "budget"


@case
def helm_shared_list_doubling_printed():
    t = ('{{- $a := list 1 }}{{- range until 60 }}{{- $a = list $a $a }}{{- end }}\n'
         'x: {{ toJson $a }}\n')
    return chart({}, {"t.yaml": t}), "budget"


def alias_bomb(levels=9):
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    for k in range(1, levels):
        refs = ",".join([f"*a{k - 1}"] * 10)
        lines.append(f"a{k}: &a{k} [{refs}]")
    return "\n".join(lines) + "\n"


@case
def helm_alias_bomb_values():
    return {"chart/Chart.yaml": CHART, "chart/values.yaml": alias_bomb(),
            "chart/templates/t.yaml": "x: {{ len .Values.a8 }}\n"}, "cause: analyzer"


@case
def helm_from_yaml_alias_bomb_twenty_times():
    t = "".join('{{- $v%d := .Files.Get "bomb.yaml" | fromYaml }}\n' % k for k in range(20))
    return chart({"chart/bomb.yaml": alias_bomb()}, {"t.yaml": t + "x: 1\n"}), "fromYaml: the YAML expands past"


@case
def helm_fourteen_megabytes_of_lines():
    t = '{{- range until 1000 }}{{- range until 7000 }}\n{{ end }}{{- end }}'
    return chart({}, {"t.yaml": t}), "lines, sbreview's budget"


@case
def helm_sixty_megabyte_template():
    return chart({}, {"big.yaml": "# " + "x" * 78 + "\n" * 1 + ("a: b\n" * 12_000_000)}), "budget"


@case
def helm_printf_wide():
    t = 'x: {{ printf "%99999999d" 1 }}\n'
    return chart({}, {"t.yaml": t}), "budget"


@case
def helm_files_glob_backtracking():
    name = "a" * 200
    t = 'x: {{ len (.Files.Glob "files/%s*b") }}\n' % ("*a" * 40)
    return chart({f"chart/files/{name}": "x\n"}, {"t.yaml": t}), None


@case
def helm_uniq_of_a_hundred_thousand():
    t = "x: {{ len (uniq (until 100000)) }}\n"
    return chart({}, {"t.yaml": t}), None


@case
def bash_pattern_backtracking():
    word = "a" * 200
    pattern = "*a" * 40 + "*b"
    sh = ("#!/bin/bash\n"
          f'x="{word}"\n'
          f'if [[ $x == {pattern} ]]; then podman run --privileged img; fi\n'
          f'case "$x" in {pattern}) podman run --privileged img ;; esac\n'
          f'y="${{x#{pattern}}}"\n')
    return {"run.sh": sh}, None


@case
def helm_slow_chart_meets_the_wall_clock():
    """200 templates of 2 million loop turns each, under every per-template budget: minutes."""
    t = "{{- range until 2000 }}{{- range until 1000 }}{{- $x := add 1 1 }}{{- end }}{{- end }}\nx: 1\n"
    files = chart({".sbreview.yaml": "limits:\n  wall_clock_seconds: 3\n"},
                  {f"t{k}.yaml": t for k in range(200)})
    return files, ("wall-clock limit of 3 s", "the pod may be left out")


@case
def helm_privileged_only_on_upgrade():
    """A privileged pod that helm renders only on an upgrade, or when a cluster lacks an object
    (`lookup`): the first install sbreview renders has neither."""
    pod = POD.replace("beside", "upgrade")
    templates = {"upgrade.yaml": "{{- if .Release.IsUpgrade }}\n" + pod + "{{- end }}\n",
                 "lookup.yaml": '{{- if (lookup "v1" "Pod" "" "x") }}\n' + pod + "{{- end }}\n"}
    return chart({}, templates), [
        "chart/templates/upgrade.yaml:11:", "[only when `.Release.IsUpgrade=true`",
        "chart/templates/lookup.yaml:1:", "decided by `lookup`"]


# ---- memory and time: bash and Dockerfiles ------------------------------------------------------

@case
def bash_function_doubling_its_arguments():
    arr = "a=(" + " ".join(f"x{k}" for k in range(100000)) + ")\n"
    sh = "#!/bin/bash\n" + arr + 'f() { f "$@" "$@"; }\nf a\n'
    # Stopped by the words of one expansion: each word held costs far more than its text.
    return {"run.sh": sh}, "an expansion of more than 16384 words"


@case
def bash_heredoc_of_sixteen_thousand_expansions():
    sh = ("#!/bin/bash\ny=xxxxxxxxxx\ncat <<EOF\n" + "$y\n" * 16000 + "EOF\n"
          "podman run --privileged ghcr.io/example/agent:1.0\n")
    return {"run.sh": sh}, "[SB1001]"


@case
def bash_a_million_lines():
    return {"run.sh": "#!/bin/bash\nx=aaaaaaaaaa\n" + ": $x\n" * 1000000}, "past 4 MiB"


@case
def dockerfile_twenty_megabyte_run():
    run = "RUN " + "echo aaaaaaaaaaaaaaaaaaaaaaaa && " * 700000 + "true\n"
    return {"Dockerfile": "FROM debian:12\n" + run}, "past 4 MiB"


@case
def bash_chain_of_thirty_thousand_ands():
    sh = "#!/bin/bash\n" + "echo aaaaaaaaaaaaaaaaaaaaaaaa && " * 30000 + "true\n"
    return {"run.sh": sh}, None


# ---- memory and time: Kubernetes YAML and the reports -------------------------------------------

def containers(n, indent="    "):
    return "".join(f"{indent}- name: c{k}\n{indent}  image: ghcr.io/example/agent:1.0\n"
                   for k in range(n))


@case
def yaml_fifty_megabyte_annotation_on_a_hundred_containers():
    pod = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  annotations:\n"
           '    big: "' + "x" * 50_000_000 + '"\nspec:\n  containers:\n' + containers(100))
    return {"big/pod.yaml": pod}, None


@case
def yaml_ten_thousand_pods_of_thirty_containers():
    docs = [f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p{k}\nspec:\n  containers:\n"
            + containers(30) for k in range(10000)]
    return {"many/pods.yaml": "---\n".join(docs)}, "containers, sbreview's budget for one file"


@case
def report_twenty_containers_on_one_fifty_megabyte_line():
    cs = ",".join('{"name":"c%d","image":"ghcr.io/example/agent:1.0",'
                  '"securityContext":{"privileged":true}}' % k for k in range(20))
    pod = ('{"apiVersion":"v1","kind":"Pod","metadata":{"name":"wide","annotations":{"a":"'
           + "x" * 50_000_000 + '"}},"spec":{"containers":[' + cs + "]}}")
    return {"wide/pod.json": pod}, None


# ---- memory and time: linking ------------------------------------------------------------------

RBAC = """apiVersion: v1
kind: ServiceAccount
metadata:
  name: agent
  namespace: default
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: agent
rules:
{rules}---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: agent
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: agent
subjects:
  - kind: ServiceAccount
    name: agent
    namespace: default
---
"""
DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: agent-{k}
  namespace: default
spec:
  selector:
    matchLabels: {{app: agent}}
  template:
    metadata:
      labels: {{app: agent}}
    spec:
      serviceAccountName: agent
      containers:
{containers}"""


@case
def rbac_role_copied_into_sixty_baselines():
    """60 rendered baselines of one chart, each with the role, its binding and 4 workloads."""
    rules = "".join(f'  - apiGroups: [""]\n    resources: [res{k}]\n    verbs: [get]\n'
                    for k in range(50)) + '  - apiGroups: [""]\n    resources: [secrets]\n    verbs: [get]\n'
    containers = "".join(f"        - name: c{k}\n          image: ghcr.io/example/agent:1.0\n"
                         for k in range(5))
    text = RBAC.format(rules=rules) + "---\n".join(
        DEPLOYMENT.format(k=k, containers=containers) for k in range(4))
    return {f"baseline/b{k}.yaml": text for k in range(60)}, "[SB4006]"


@case
def documents_naming_every_workload():
    """300 documents, each naming 300 manifests in code spans, beside 3,000 pods: linking each
    mention to the workloads was documents x mentions x workloads."""
    pods = "---\n".join(
        f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p{k}\nspec:\n  containers:\n"
        + containers(1) for k in range(10))
    files = {f"deploy/p{k}.yaml": pods for k in range(300)}
    names = " ".join(f"`deploy/p{k}.yaml`" for k in range(300))
    doc = "# Design\n\nThe agent runs with no network.\n\n" + names + "\n"
    files.update({f"docs/d{k}.md": doc for k in range(300)})
    return files, "more workloads in its scope contradict it too"


# ---- bash evasions: the launch runs with --privileged; it is modelled or the gate fails ----------

IMG = "ghcr.io/example/agent:1.0"
EVASIONS = {
    "empty_substring": 'x=abc\npodman run --${x:0:0}privileged ' + IMG,
    "base64": 'podman run $(echo LS1wcml2aWxlZ2Vk | base64 -d) ' + IMG,
    "brace_expansion": "podman run --{privileged,rm} " + IMG,
    "brace_bomb": "podman run --{privileged,x}" + "{a,b}" * 19 + " " + IMG,
    "ifs_split": 'IFS=,\nopts="--privileged,--rm"\npodman run $opts ' + IMG,
    "array_slice": 'a=(x --privileged --rm)\npodman run "${a[@]:1}" ' + IMG,
    "alias": "shopt -s expand_aliases\nalias prun='podman run --privileged'\nprun " + IMG,
    "nameref": 'flags=(--privileged)\ndeclare -n ref=flags\npodman run "${ref[@]}" ' + IMG,
}


def evasion(kind):
    def make():
        text = EVASIONS[kind]
        return {"run.sh": "#!/bin/bash\n" + text + "\n"}, {"any": [
            "run.sh:", "[SB1001]", "[SB0013]"]}
    make.__name__ = "bash_evasion_" + kind
    return make


for _kind in EVASIONS:
    case(evasion(_kind))


# ---- nothing skipped by a name, configuration read as input -------------------------------------

@case
def names_that_used_to_hide_a_pod():
    return {"deploy/node_modules/pod.yaml": POD, "deploy/.sbreview/pod.yaml": POD,
            "deploy/.sbreview.yaml": POD}, [
        "deploy/node_modules/pod.yaml:10:", "deploy/.sbreview/pod.yaml:10:",
        "deploy/.sbreview.yaml:10:"]


@case
def config_linked_out_of_the_repository():
    return {".sbreview.yaml": ("symlink", "/etc/passwd")}, {"stderr": "a symbolic link"}


@case
def config_is_a_fifo():
    return {".sbreview.yaml": ("fifo", None)}, {"stderr": "not a regular file"}


@case
def config_links_to_dev_zero():
    return {".sbreview.yaml": ("symlink", "/dev/zero")}, {"stderr": "a symbolic link"}


@case
def config_sparse_gigabyte():
    return {".sbreview.yaml": ("sparse", 1 << 30)}, {"stderr": "cannot read the configuration"}


@case
def rules_folder_linked_out_of_the_repository():
    return {".sbreview/rules": ("symlink", "/etc")}, {"stderr": "a symbolic link"}


@case
def config_error_naming_a_hostile_key():
    # YAML's escapes make the key hold a line feed, an ESC and a BEL.
    return {".sbreview.yaml": '"x\\n::error file=pod.yaml::pwned\\e]0;title\\a": 1\n'}, {
        "stderr": "sbreview:"}


# ---- the harness ------------------------------------------------------------------------------

def write(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(text, tuple):  # a special entry: ("symlink", target), ("fifo",), ("sparse", n)
            kind, arg = text
            if kind == "symlink":
                os.symlink(arg, path)
            elif kind == "fifo":
                os.mkfifo(path)
            else:
                with open(path, "wb") as f:
                    f.truncate(arg)
            continue
        mode = "wb" if isinstance(text, bytes) else "w"
        with open(path, mode) as f:
            f.write(text)


def cap():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def run_case(sbr, name):
    files, expect = CASES[name]()
    # A run stopped by its wall clock reports the files it left out (SB0007) instead.
    pod_may_be_left_out = isinstance(expect, tuple)
    if pod_may_be_left_out:
        expect = expect[0]
    # {"any": [where, rule, rule...]}: a finding at `where` of one of the rules (a launch either
    # modelled, SB1001, or reported as not known, SB0013: the gate fails either way).
    any_of = expect.get("any") if isinstance(expect, dict) else None
    if any_of:
        expect = None
    # A bad configuration is refused whole: exit 2, and stderr says why.
    refused = isinstance(expect, dict)
    says = expect["stderr"] if refused else None
    expect = None if refused else expect
    expects = expect if isinstance(expect, list) else [expect] if expect else []
    with tempfile.TemporaryDirectory() as tmp:
        write(tmp, files)
        write(tmp, {"pod.yaml": POD})
        start = time.monotonic()
        try:
            p = subprocess.run([sbr, "check", "--fail-on", "high", "--format", "text", "."],
                               cwd=tmp, capture_output=True, timeout=LIMIT_S * 2, preexec_fn=cap)
        except subprocess.TimeoutExpired:
            print(f"{name}: FAILED: killed after {LIMIT_S * 2} s")
            return 1
        wall = time.monotonic() - start
        rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    out = p.stdout.decode(errors="replace")
    err = p.stderr.decode(errors="replace")
    problems = []
    print(f"{name}: exit {p.returncode}, {wall:.1f} s, {rss_mb:.0f} MB")
    if refused:
        if p.returncode != 2 or says not in err:
            problems.append(f"expected exit 2 saying `{says}`; exit {p.returncode}: {err[-300:]}")
        if "\x1b" in err or "\n::" in err:
            problems.append("stderr carries repository text unescaped")
        return report(problems)
    if p.returncode not in (0, 1):
        problems.append(f"exit {p.returncode}: {err[-300:]}")
    if wall > LIMIT_S:
        problems.append(f"took {wall:.1f} s (limit {LIMIT_S})")
    if rss_mb > LIMIT_MB:
        problems.append(f"peak RSS {rss_mb:.0f} MB (limit {LIMIT_MB})")
    left_out = pod_may_be_left_out and "pod.yaml: high [SB0007] file not analysed" in out
    if ("pod.yaml:10:" not in out or "[SB1001]" not in out) and not left_out:
        problems.append("the privileged pod beside it is not reported")
    for e in expects:
        if e not in out:
            problems.append(f"no finding says `{e}`")
    if any_of:
        where, rules = any_of[0], any_of[1:]
        lines = [ln for ln in out.splitlines() if ln.startswith(where)]
        if not any(r in ln for ln in lines for r in rules) or p.returncode != 1:
            problems.append(f"no finding of {' or '.join(rules)} at {where} failing the gate")
    return report(problems)


def report(problems):
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
