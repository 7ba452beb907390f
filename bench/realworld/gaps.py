"""The gaps of a real-world run, ranked by how many repositories each affects.

A gap is what keeps sbreview from reviewing a repository whole: a crash or a budget of time or
memory, an invariant-0 finding of cause `analyzer` or `environment` (grouped by what it says,
with names and numbers taken out), a chart that does not render, a script bash accepts and
sbreview does not. Findings of cause `repository` are the repositories' own and not listed.
"""
import collections
import re

HELM_FUNCTION = re.compile(r'function "(\w+)"')


def classify(x):
    """A short key for an invariant-0 finding: the same gap in two places gets one key."""
    m, rule = x["message"], x["rule"]
    if "does not implement helm" in m:
        f = HELM_FUNCTION.search(m)
        return "helm: function not implemented: " + (f.group(1) if f else "?")
    if "no template" in m and "associated" in m:
        if re.search(r'no template "[^"]*(/templates/|\.yaml"|\.tpl")', m):
            return "helm: include of a template file (the checksum idiom)"
        return "helm: include of a define nobody has"
    if "not vendored" in m:
        return ("helm: template needs a helper of an unvendored dependency" if "includes" in m
                else "helm: dependency not vendored")
    if "chart engine could not render" in m:
        why = m.split(": ", 1)[1] if ": " in m else m
        why = re.sub(r'"[^"]*"|`[^`]*`', "X", why)
        why = re.sub(r"\(line \d+\)", "", re.sub(r"\{\}\.\w+", "{}.X", why))
        return "helm runtime: " + why[:60]
    if "template parser stops" in m:
        return "helm: template parser: " + re.sub(r"^.*?: ", "", m.split("stops at", 1)[1])[:60]
    if rule == "SB0001":
        if "tree-sitter" in m:
            return "bash: tree-sitter-bash cannot parse valid bash"
        if "valid JSON" in m:
            return "json: the YAML reader cannot read valid JSON"
        return "parse: " + re.sub(r"\d+", "N", m)[:60]
    if rule == "SB0007":
        return "budget: " + re.sub(r"\d+", "N", m)[:60]
    if rule == "SB0012":
        return f"source not followed ({x['cause']})"
    if rule == "SB0011" and "kustomiz" in m:
        return "kustomize: " + re.sub(r"`[^`]*`", "X", m)[:70]
    if rule in ("SB0013", "SB0020", "SB0032", "SB0051"):
        return {"SB0013": "launch word left open (SB0013)",
                "SB0020": "chart switch not rendered flipped (SB0020)",
                "SB0032": "document claim not checkable (SB0032)",
                "SB0051": "devcontainer feature not modelled (SB0051)"}[rule]
    return f"{rule}: " + re.sub(r"\d+", "N", m)[:60]


def rank(records):
    """[(key, repositories, count)], most repositories first."""
    gaps = collections.defaultdict(lambda: [0, set()])

    def add(key, repo, n=1):
        gaps[key][0] += n
        gaps[key][1].add(repo)

    for r in records:
        repo, c = r["repo"], r["check"]
        if c["rc"] not in (0, 1):
            add(f"run ended: {c['rc']}", repo)
        if (c["wall_s"] or 0) > 10:
            add("run over 10 s", repo)
        if (c["rss_mb"] or 0) > 500:
            add("run over 500 MB", repo)
        for x in c.get("invariant0", []):
            if x["cause"] != "repository":
                add(classify(x), repo)
        for s in r["scripts"]["disagree"]:
            add("bash: a script bash -n accepts is reported broken", repo)
        for f in r["charts"]["failed"]:
            if not f["unvendored"]:
                add("chart (vendored) does not render alone", repo)
    return sorted(((k, sorted(v[1]), v[0]) for k, v in gaps.items()),
                  key=lambda g: (-len(g[1]), -g[2], g[0]))


def markdown(records):
    out = ["", "## Gaps, ranked by the repositories they affect", "",
           "| repositories | findings | gap | where |", "|---|---|---|---|"]
    for key, repos, n in rank(records):
        where = ", ".join(repos[:4]) + (f" and {len(repos) - 4} more" if len(repos) > 4 else "")
        out.append(f"| {len(repos)} | {n} | {key} | {where} |")
    return out
