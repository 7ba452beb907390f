#!/usr/bin/env python3
"""Compares two real-world runs: what appeared and what disappeared.

usage: compare.py OLD.json NEW.json [--findings]

Prints, per repository, the changes of exit status, time and memory past a threshold, finding
counts by rule, invariant-0 findings by cause, charts that started or stopped rendering and
scripts that bash accepts and sbreview calls broken, and message debris (debris.py). `--findings` also lists each finding (rule,
file:line, message) that appeared or disappeared. Exit 0 always: it reports, it does not judge.
"""
import argparse
import json
import signal
import sys


def load(path):
    with open(path) as f:
        doc = json.load(f)
    return doc, {r["repo"]: r for r in doc["repositories"]}


def counter_delta(old, new):
    out = []
    for k in sorted(set(old) | set(new)):
        a, b = old.get(k, 0), new.get(k, 0)
        if a != b:
            out.append(f"{k} {a}->{b}")
    return out


def set_delta(label, old, new):
    lines = [f"  + {label} {x}" for x in sorted(set(new) - set(old))]
    lines += [f"  - {label} {x}" for x in sorted(set(old) - set(new))]
    return lines


def inv0_keys(check):
    """Invariant-0 findings by what they say; their cause and severity are compared apart."""
    return {f"{x['rule']} {x['file']}:{x['line']} {x['message'][:120]}":
            f"{x['cause']}/{x['severity']}" for x in check.get("invariant0", [])}


def inv0_lines(old, new):
    a, b = inv0_keys(old), inv0_keys(new)
    lines = [f"  + inv-0 [{b[k]}] {k}" for k in sorted(set(b) - set(a))]
    lines += [f"  - inv-0 [{a[k]}] {k}" for k in sorted(set(a) - set(b))]
    lines += [f"  ~ inv-0 [{a[k]} -> {b[k]}] {k}" for k in sorted(set(a) & set(b))
              if a[k] != b[k]]
    return lines


def failed_charts(charts):
    return [f"{f['chart']}: {f['error'][:120]}" for f in charts["failed"]]


def compare_repo(old, new, show_findings):
    lines = []
    oc, nc = old["check"], new["check"]
    if oc["rc"] != nc["rc"]:
        lines.append(f"  exit {oc['rc']} -> {nc['rc']}")
    for key, unit, floor in (("wall_s", "s", 0.5), ("rss_mb", "MB", 20)):
        a, b = oc.get(key) or 0, nc.get(key) or 0
        if abs(a - b) > max(floor, 0.25 * a):
            lines.append(f"  {key} {a}{unit} -> {b}{unit}")
    for label, key in (("severity", "by_severity"), ("rule", "by_rule"),
                       ("inv-0 cause", "invariant0_by_cause"),
                       ("engine", "workloads_by_engine"), ("class", "workloads_by_class")):
        d = counter_delta(oc.get(key, {}), nc.get(key, {}))
        if d:
            lines.append(f"  {label}: " + ", ".join(d))
    lines += inv0_lines(oc, nc)
    och, nch = old["charts"], new["charts"]
    if (och["rendered"], och["total"]) != (nch["rendered"], nch["total"]):
        lines.append(f"  charts rendered {och['rendered']}/{och['total']} -> "
                     f"{nch['rendered']}/{nch['total']}")
    lines += set_delta("chart failing", failed_charts(och), failed_charts(nch))
    lines += set_delta("bash -n disagreement", old["scripts"]["disagree"],
                       new["scripts"]["disagree"])
    lines += set_delta("budget hit", old["scripts"]["budget_hit"], new["scripts"]["budget_hit"])
    lines += set_delta("debris", oc.get("debris", []), nc.get("debris", []))
    if show_findings:
        lines += set_delta("finding", oc.get("finding_keys", []), nc.get("finding_keys", []))
    return lines


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output quietly
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--findings", action="store_true")
    a = ap.parse_args()
    odoc, old = load(a.old)
    ndoc, new = load(a.new)
    print(f"# {odoc['commit']} -> {ndoc['commit']}")
    for repo in sorted(set(old) | set(new)):
        if repo not in new:
            print(f"{repo}: only in the old run")
            continue
        if repo not in old:
            print(f"{repo}: only in the new run")
            continue
        lines = compare_repo(old[repo], new[repo], a.findings)
        if lines:
            print(repo)
            print("\n".join(lines))
    tot = counter_delta({k: v for k, v in odoc["totals"].items() if not isinstance(v, dict)},
                        {k: v for k, v in ndoc["totals"].items() if not isinstance(v, dict)})
    print("totals: " + (", ".join(tot) if tot else "unchanged"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
