#!/usr/bin/env python3
"""The real-world run: sbreview over the unpacked corpus, one report per repository and in total.

usage: run.py CORPUS [--out DIR] [--repo OWNER/NAME ...] [--sbreview BIN] [--timeout S]

CORPUS holds OWNER+NAME folders (bench/realworld/unpack.py). For each repository:
  - `sbreview check --format json` over the whole tree: exit status, wall time, peak RSS
    (/usr/bin/time), findings by rule and severity, files by status, workloads by engine and
    threat class, every invariant-0 finding with its cause, every (rule, file, line, column)
    that more than one finding has (`duplicates`; `duplicate_findings` in the totals counts
    each finding past the first), and every message with what an unknown value or a redaction
    leaves behind (`debris`, debris.py; `debris_findings` in the totals);
  - every chart directory rendered alone (`sbreview render helm DIR`): rendered or the first
    error, charts whose dependencies are not vendored counted apart;
  - every shell script (by shebang or extension) checked with `bash -n`: scripts bash accepts
    but sbreview reports a syntax problem in (SB0001), scripts whose evaluation hit a budget
    (SB0007), unresolved sources (SB0012).
Writes DIR/report.json (compare two with compare.py) and DIR/report.md. `--repo` is the fast
mode: one repository (repeatable). Nothing is fetched; nothing of the corpus is executed
(bash -n only parses). docs/realworld.md says how to read the report.
"""
import argparse
import collections
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

import charts
import debris
import markdown_report
import scripts

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SEVERITIES = ["critical", "high", "medium", "low", "note"]
# The rules whose findings the bash columns count, by what they say about a script.
SYNTAX_RULE, BUDGET_RULE, SOURCE_RULE = "SB0001", "SB0007", "SB0012"


# A run past this much address space is stopped (and reported as its signal): a repository
# that makes sbreview grow without bound must not take the machine down with it.
MEMORY_CAP = 6 << 30


def cap_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def exit_status(code):
    """The exit code, or the signal's name when the process was killed (a crash, or the cap)."""
    if code >= 0:
        return code
    if code == -6:
        return "abort"
    return {-9: "killed", -11: "segfault"}.get(code, f"signal {-code}")


def timed(cmd, timeout, cwd=None):
    """Runs cmd under /usr/bin/time; returns (rc, wall seconds, peak RSS MiB, stderr text).

    rc is the exit code, "timeout", or the name of the signal that ended the process."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        full = ["/usr/bin/time", "-f", "%e %M", "-o", tf.name] + cmd
        start = time.monotonic()
        # Its own process group, so a timeout ends sbreview too and not only /usr/bin/time.
        p = subprocess.Popen(full, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             preexec_fn=cap_memory, start_new_session=True)
        try:
            _, errb = p.communicate(timeout=timeout)
            err = errb.decode(errors="replace")
            status = p.returncode
            # /usr/bin/time exits 128+N when its child died of signal N, and says so first in
            # its output file.
            if status > 128 and "terminated by signal" in open(tf.name).read():
                status = -(status - 128)
            rc = exit_status(status)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            rc, err = "timeout", ""
        wall = time.monotonic() - start
        fields = tf.read().split()
        rss = int(fields[-1]) / 1024 if len(fields) >= 2 and fields[-1].isdigit() else None
        if len(fields) >= 2 and rc != "timeout":
            try:
                wall = float(fields[-2])
            except ValueError:
                pass
        return rc, round(wall, 2), round(rss, 1) if rss else None, err


def finding_key(f):
    loc = f.get("location") or {}
    return f"{f['rule']} {loc.get('file')}:{loc.get('line')} {f['message'][:160]}"


def duplicate_findings(findings):
    """Findings that repeat another's (rule, file, line, column): one fact reported twice."""
    keys = collections.Counter()
    for f in findings:
        loc = f.get("location") or {}
        keys[(f["rule"], loc.get("file"), loc.get("line"), loc.get("column"))] += 1
    return sorted(f"{r} {f}:{l}:{c} x{n}" for (r, f, l, c), n in keys.items() if n > 1)


def summarise_check(doc):
    by_rule = collections.Counter(f["rule"] for f in doc["findings"])
    by_sev = collections.Counter(f["severity"] for f in doc["findings"])
    files = collections.Counter(f.get("status", "?") for f in doc.get("files", []))
    skipped = [f"{f['path']}: {f.get('reason', '')}" for f in doc.get("files", [])
               if f.get("status") == "skipped"]
    inv0 = []
    for f in doc["findings"]:
        if f["invariant"] != 0:
            continue
        loc = f.get("location") or {}
        inv0.append({"rule": f["rule"], "severity": f["severity"],
                     "cause": f.get("cause") or "unknown", "file": loc.get("file"),
                     "line": loc.get("line"), "message": f["message"]})
    workloads = doc.get("workloads", [])
    return {
        "findings": len(doc["findings"]),
        "by_severity": {s: by_sev.get(s, 0) for s in SEVERITIES},
        "by_rule": dict(sorted(by_rule.items())),
        "files": dict(sorted(files.items())),
        "skipped": skipped,
        "invariant0": inv0,
        "invariant0_by_cause": dict(sorted(collections.Counter(
            f"{x['cause']}/{x['severity']}" for x in inv0).items())),
        "workloads": len(workloads),
        "workloads_by_engine": dict(sorted(collections.Counter(
            w.get("engine", "?") for w in workloads).items())),
        "workloads_by_class": dict(sorted(collections.Counter(
            w.get("threat_class", "?") for w in workloads).items())),
        "finding_keys": sorted(finding_key(f) for f in doc["findings"]),
        "duplicates": duplicate_findings(doc["findings"]),
        "debris": debris.scan(doc["findings"]),
    }


def run_check(sbr, repo_dir, timeout):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        rc, wall, rss, err = timed(
            [sbr, "check", "--fail-on", "none", "--format", "json", "--output", out.name, "."],
            timeout, cwd=repo_dir)
        res = {"rc": rc, "wall_s": wall, "rss_mb": rss}
        try:
            doc = json.load(open(out.name))
        except (OSError, ValueError):
            res["error"] = err.strip().splitlines()[-1][:300] if err.strip() else "no report"
            return res
        res.update(summarise_check(doc))
        return res


def scripts_by_rule(check, rule):
    return sorted({x["file"] for x in check.get("invariant0", []) if x["rule"] == rule})


def run_repo(sbr, corpus, name, timeout):
    repo_dir = os.path.join(corpus, name)
    rec = {"repo": name.replace("+", "/", 1)}
    rec["check"] = run_check(sbr, repo_dir, timeout)
    rec["charts"] = charts.run_charts(sbr, repo_dir, timeout, timed)
    found = scripts.find_scripts(repo_dir)
    rejected_by_sbreview = set(scripts_by_rule(rec["check"], SYNTAX_RULE))
    rec["scripts"] = scripts.judge_scripts(repo_dir, found, rejected_by_sbreview)
    rec["scripts"]["budget_hit"] = scripts_by_rule(rec["check"], BUDGET_RULE)
    # In scripts only: SB0012 at another file (a compose or devcontainer file naming one that is
    # not in the tree) is not a source a script could not find.
    in_scripts = set(found)
    rec["scripts"]["unresolved_source"] = [
        f"{x['file']}:{x['line']}" for x in rec["check"].get("invariant0", [])
        if x["rule"] == SOURCE_RULE and x["file"] in in_scripts]
    return rec


def totals(records):
    t = collections.Counter()
    by_rule = collections.Counter()
    by_cause = collections.Counter()
    for r in records:
        c = r["check"]
        t["repositories"] += 1
        t["crashed_or_timeout"] += c["rc"] not in (0, 1)
        t["findings"] += c.get("findings", 0)
        # Each key "x N" is N findings of which N - 1 repeat the first.
        t["duplicate_findings"] += sum(int(d.rsplit("x", 1)[1]) - 1
                                       for d in c.get("duplicates", []))
        t["debris_findings"] += len(c.get("debris", []))
        for s, n in c.get("by_severity", {}).items():
            t[s] += n
        by_rule.update(c.get("by_rule", {}))
        by_cause.update(c.get("invariant0_by_cause", {}))
        t["over_10s"] += (c["wall_s"] or 0) > 10
        t["over_500mb"] += (c["rss_mb"] or 0) > 500
        ch = r["charts"]
        for k in ("total", "rendered", "unvendored", "unvendored_rendered", "library"):
            t["charts_" + k] += ch[k]
        sc = r["scripts"]
        t["scripts"] += sc["total"]
        t["scripts_bash_n_ok"] += sc["bash_n_ok"]
        t["scripts_disagree"] += len(sc["disagree"])
        t["scripts_budget_hit"] += len(sc["budget_hit"])
        t["unresolved_sources"] += len(sc["unresolved_source"])
        t["workloads"] += c.get("workloads", 0)
    out = dict(t)
    out["by_rule"] = dict(sorted(by_rule.items()))
    out["invariant0_by_cause"] = dict(sorted(by_cause.items()))
    return out


def sbreview_commit(sbr):
    """The commit the binary was built from, as `sbreview --version` says it."""
    p = subprocess.run([sbr, "--version"], capture_output=True, text=True)
    words = p.stdout.replace("(", " ").replace(")", " ").split()
    return words[words.index("commit") + 1] if "commit" in words else p.stdout.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus")
    ap.add_argument("--out", default="/tmp/realworld-report")
    ap.add_argument("--repo", action="append", default=[], help="OWNER/NAME (fast mode)")
    ap.add_argument("--sbreview", default=os.path.join(ROOT, "build", "sbreview"))
    ap.add_argument("--timeout", type=float, default=300)
    a = ap.parse_args()
    sbr = os.path.abspath(a.sbreview)
    names = sorted(d for d in os.listdir(a.corpus)
                   if os.path.isdir(os.path.join(a.corpus, d)) and "+" in d)
    if a.repo:
        wanted = {r.replace("/", "+", 1) for r in a.repo}
        missing = wanted - set(names)
        if missing:
            sys.exit(f"run.py: not in {a.corpus}: {', '.join(sorted(missing))}")
        names = [n for n in names if n in wanted]
    records = []
    for n in names:
        print(f"realworld: {n}", file=sys.stderr, flush=True)
        records.append(run_repo(sbr, a.corpus, n, a.timeout))
    report = {"commit": sbreview_commit(sbr), "sbreview": sbr, "date": time.strftime("%Y-%m-%d"),
              "repositories": records, "totals": totals(records)}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "report.json"), "w") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write(markdown_report.render(report))
    print(os.path.join(a.out, "report.md"))


if __name__ == "__main__":
    main()
