"""The real-world run's report as Markdown: one table row per repository, the totals, then the
details a reader needs to act (charts that do not render, invariant-0 findings by cause,
scripts bash accepts and sbreview does not)."""
import collections

import gaps

SEVERITIES = ["critical", "high", "medium", "low", "note"]
CAUSES = ["repository", "analyzer", "environment", "unknown"]


def sev_cell(by_sev):
    return "/".join(str(by_sev.get(s, 0)) for s in SEVERITIES)


def cause_cell(by_cause):
    per = collections.Counter()
    for key, n in by_cause.items():
        per[key.split("/")[0]] += n
    return " ".join(f"{c[0]}{per[c]}" for c in CAUSES if per[c]) or "0"


def repo_row(r):
    c, ch, sc = r["check"], r["charts"], r["scripts"]
    charts = f"{ch['rendered']}/{ch['total']}" if ch["total"] else "-"
    if ch["unvendored"]:
        charts += f" ({ch['unvendored']} unvend.)"
    scripts = f"{sc['total']}" if sc["total"] else "-"
    if sc["disagree"] or sc["budget_hit"]:
        scripts += f" ({len(sc['disagree'])} bash-n, {len(sc['budget_hit'])} budget)"
    return (f"| {r['repo']} | {c['rc']} | {c['wall_s']} | {c['rss_mb']} | "
            f"{c.get('findings', '-')} | {sev_cell(c.get('by_severity', {}))} | "
            f"{cause_cell(c.get('invariant0_by_cause', {}))} | {c.get('workloads', '-')} | "
            f"{charts} | {scripts} |")


def details(records):
    out = ["", "## Charts that do not render", ""]
    for r in records:
        for f in r["charts"]["failed"]:
            unv = f" (not vendored: {', '.join(f['unvendored'])})" if f["unvendored"] else ""
            out.append(f"- {r['repo']} `{f['chart']}`{unv}: {f['error']}")
    out += ["", "## Invariant-0 findings by cause", ""]
    for cause in CAUSES:
        rows = [(r["repo"], x) for r in records for x in r["check"].get("invariant0", [])
                if x["cause"] == cause]
        if not rows:
            continue
        out += [f"### {cause} ({len(rows)})", ""]
        for repo, x in rows:
            out.append(f"- {repo} {x['rule']} {x['severity']} `{x['file']}:{x['line']}`: "
                       f"{x['message'][:200]}")
        out.append("")
    out += ["## Scripts bash -n accepts and sbreview calls broken", ""]
    out += [f"- {r['repo']} `{s}`" for r in records for s in r["scripts"]["disagree"]] or ["none"]
    out += ["", "## Scripts whose evaluation hit a budget", ""]
    out += [f"- {r['repo']} `{s}`" for r in records for s in r["scripts"]["budget_hit"]] or ["none"]
    return out


def render(report):
    t = report["totals"]
    lines = [f"# Real-world run at {report['commit']} ({report['date']})", "",
             "| repository | exit | wall s | RSS MB | findings | c/h/m/l/n | inv-0 by cause | "
             "workloads | charts rendered | scripts |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    lines += [repo_row(r) for r in report["repositories"]]
    lines += ["", "## Totals", ""]
    for k in sorted(t):
        if not isinstance(t[k], dict):
            lines.append(f"- {k}: {t[k]}")
    lines.append(f"- invariant-0 by cause/severity: {t['invariant0_by_cause']}")
    lines += gaps.markdown(report["repositories"])
    lines += details(report["repositories"])
    return "\n".join(lines) + "\n"
