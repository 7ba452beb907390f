#!/usr/bin/env python3
"""The real-world harness (bench/realworld/) on a corpus of two small repositories of our own:
run.py reports exit status, charts, scripts and invariant-0 causes, and compare.py lists what
appeared and disappeared between two runs.

usage: realworld_harness_test.py SBREVIEW
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "..", "bench", "realworld")

CHART = {
    "Chart.yaml": "apiVersion: v2\nname: agent\nversion: 0.1.0\n",
    "values.yaml": "image: ghcr.io/example/agent:1.0\n",
    "templates/pod.yaml": ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: agent\nspec:\n"
                           "  containers:\n    - name: agent\n      image: {{ .Values.image }}\n"),
}
# Valid bash that tree-sitter-bash cannot parse and sbreview does not recover (a gap it recovers,
# `exec 3<>/dev/tcp/...`, is SB0018 and no disagreement): bash -n accepts it, sbreview reports
# SB0001.
PROBE = ("#!/usr/bin/env bash\nset -euo pipefail\na=alpha\nb=beta\n"
         "if [ \"$a\" \\< \"$b\" ]; then echo sorted; fi\n")


def write(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


def run(*cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr}")
    return p.stdout


def check(cond, what):
    if not cond:
        sys.exit("FAILED: " + what)


def check_debris():
    """The message scan names each kind of debris and leaves quoted input and URLs alone."""
    sys.path.insert(0, BENCH)
    import debris  # noqa: E402 (bench/realworld is not a package)
    cases = {
        "launcher run.sh (gem-$project_name@run.sh:390) starts": ["identity"],
        "container cage- is started but no trap removes it": ["empty-tail"],
        "mounts host path $HOME/.sb/tools//home writable": ["empty-in-path"],
        "mounts /.git writable": ["empty-directory"],
        "launcher a.sh (f, line 3, f, line 3) mounts": ["place-twice"],
        "service <redacted>ql runs as root": ["redacted-in-word"],
        "command substitution `wget -O- https://example.com/x...` reaches sh -c": [],
        "base image `${BASE_IMAGE}` is not pinned: write `${BASE_IMAGE}@sha256:...`": [],
        "kustomize reads github.com/org/repo//overlays/prod": [],
        "mounts host path $HOME/.sb/tools/<unknown: $1>/home writable": [],
    }
    for message, want in cases.items():
        got = debris.kinds(message)
        check(got == want, f"debris of {message!r}: {got}, not {want}")


def main():
    check_debris()
    sbr = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        corpus = os.path.join(tmp, "corpus")
        write(os.path.join(corpus, "example+charts"), {"charts/agent/" + k: v
                                                       for k, v in CHART.items()})
        write(os.path.join(corpus, "example+launcher"), {"bin/wait.sh": PROBE,
                                                         "bin/ok.sh": "#!/bin/sh\necho ok\n"})
        old, new = os.path.join(tmp, "old"), os.path.join(tmp, "new")
        run(sys.executable, os.path.join(BENCH, "run.py"), corpus, "--out", old,
            "--sbreview", sbr, "--timeout", "60")
        report = json.load(open(os.path.join(old, "report.json")))
        repos = {r["repo"]: r for r in report["repositories"]}
        check(set(repos) == {"example/charts", "example/launcher"}, "both repositories run")
        charts = repos["example/charts"]
        check(charts["check"]["rc"] == 0, "exit status of the chart repository")
        check(charts["charts"]["total"] == 1 and charts["charts"]["rendered"] == 1,
              "the chart renders alone")
        check(charts["check"]["workloads"] == 1, "the chart's pod is a workload")
        launcher = repos["example/launcher"]
        check(launcher["scripts"]["total"] == 2 and launcher["scripts"]["bash_n_ok"] == 2,
              "both scripts found, both accepted by bash -n")
        check(launcher["scripts"]["disagree"] == ["bin/wait.sh"],
              "the script bash accepts and sbreview calls broken is listed")
        causes = [x["cause"] for x in launcher["check"]["invariant0"]]
        check(causes == ["analyzer"], f"the syntax gap is sbreview's: {causes}")
        check(report["totals"]["scripts_disagree"] == 1, "totals count the disagreement")
        check(report["totals"]["debris_findings"] == 0 and charts["check"]["debris"] == [],
              "no debris in the messages of the small corpus")
        md = open(os.path.join(old, "report.md")).read()
        check("| example/launcher | 0 |" in md and "bash: tree-sitter-bash cannot parse" in md,
              "the Markdown table and the gap ranking")

        # The fast mode on one repository, after the chart breaks: compare.py tells.
        write(os.path.join(corpus, "example+charts"),
              {"charts/agent/templates/pod.yaml": CHART["templates/pod.yaml"] +
               "      command: [{{ required \"command is required\" .Values.command }}]\n"})
        run(sys.executable, os.path.join(BENCH, "run.py"), corpus, "--out", new,
            "--sbreview", sbr, "--repo", "example/charts", "--repo", "example/launcher")
        out = run(sys.executable, os.path.join(BENCH, "compare.py"),
                  os.path.join(old, "report.json"), os.path.join(new, "report.json"))
        check("example/charts" in out and "charts rendered 1/1 -> 0/1" in out,
              f"the chart that stopped rendering:\n{out}")
        check("+ inv-0 [repository/high] SB0011" in out, f"the new invariant-0 finding:\n{out}")
        check("example/launcher" not in out, f"an unchanged repository is not listed:\n{out}")
    print("realworld harness: ok")


if __name__ == "__main__":
    main()
