"""The chart part of the real-world run: every chart directory rendered alone.

A chart is a directory holding Chart.yaml that is not a subchart vendored under another chart's
`charts/` folder (that one renders through its parent). Its dependencies (Chart.yaml's
`dependencies:`, or requirements.yaml for apiVersion v1) are vendored when `charts/` holds a
directory with a Chart.yaml of that name or a `NAME-*.tgz` archive, or a `file://` repository
points at a directory that exists; helm refuses to render a chart with one that is not, so
those charts are counted apart.
"""
import glob
import os

import yaml


def find_chart_dirs(repo_dir):
    out = []
    for root, dirs, files in os.walk(repo_dir):
        dirs[:] = sorted(d for d in dirs if d not in (".git", "node_modules"))
        if "Chart.yaml" not in files:
            continue
        rel = os.path.relpath(root, repo_dir)
        parts = rel.split(os.sep)
        if "charts" in parts[:-1] and any(
                os.path.isfile(os.path.join(repo_dir, *parts[:i], "Chart.yaml"))
                for i in range(len(parts) - 1) if parts[i] == "charts"):
            continue  # a vendored subchart: rendered through its parent
        out.append(rel)
    return sorted(out)


def load_yaml(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            doc = yaml.safe_load(f)
        return doc if isinstance(doc, dict) else {}
    except (OSError, yaml.YAMLError):
        return {}


def dependencies(chart_dir):
    deps = load_yaml(os.path.join(chart_dir, "Chart.yaml")).get("dependencies") or []
    req = os.path.join(chart_dir, "requirements.yaml")
    if not deps and os.path.isfile(req):
        deps = load_yaml(req).get("dependencies") or []
    return [d for d in deps if isinstance(d, dict) and d.get("name")]


def vendored(chart_dir, dep):
    name = str(dep["name"])
    sub = os.path.join(chart_dir, "charts")
    if os.path.isfile(os.path.join(sub, name, "Chart.yaml")):
        return True
    if glob.glob(os.path.join(glob.escape(sub), glob.escape(name) + "-*.tgz")):
        return True
    repo = str(dep.get("repository") or "")
    if repo.startswith("file://"):
        return os.path.isfile(os.path.join(chart_dir, repo[len("file://"):], "Chart.yaml"))
    return False


def first_error(stderr):
    for line in stderr.splitlines():
        line = line.strip()
        if line:
            return line[:300]
    return "(no message)"


def run_charts(sbr, repo_dir, timeout, timed):
    """Library charts (`type: library`) are counted apart: helm renders nothing of them."""
    res = {"total": 0, "rendered": 0, "unvendored": 0, "unvendored_rendered": 0, "library": 0,
           "failed": [], "slowest_s": 0.0}
    for rel in find_chart_dirs(repo_dir):
        chart = os.path.join(repo_dir, rel)
        if load_yaml(os.path.join(chart, "Chart.yaml")).get("type") == "library":
            res["library"] += 1
            continue
        missing = [d["name"] for d in dependencies(chart) if not vendored(chart, d)]
        rc, wall, _, err = timed([sbr, "render", "helm", chart], timeout)
        ok = rc == 0
        res["total"] += 1
        res["rendered"] += ok
        res["slowest_s"] = max(res["slowest_s"], wall)
        if missing:
            res["unvendored"] += 1
            res["unvendored_rendered"] += ok
        if not ok:
            res["failed"].append({"chart": rel, "rc": rc, "unvendored": missing,
                                  "error": first_error(err)})
    return res
