#!/usr/bin/env python3
"""Validates a SARIF file the way GitHub code scanning will read it.

1. The SARIF Multitool with the SARIF and GitHub (GH*) ingestion rules. It exits 0 even when it
   finds errors, so its own SARIF log is read and results of level "error" are counted.
2. The SARIF 2.1.0 JSON schema (the draft 2020-12 copy shipped with the Multitool) via jsonschema.

usage: tests/tools/validate_sarif.py FILE.sarif [--repo DIR]
Exit status 0 when both pass; 1 with the errors printed otherwise; 2 when a tool is missing.
Multitool warnings are printed but do not fail.
"""
import argparse
import json
import os
import stat
import subprocess
import sys
import tempfile


def multitool_errors(multitool, sarif_path):
    if not os.access(multitool, os.X_OK):
        # `npm ci --ignore-scripts` leaves the binary without its execute bit.
        os.chmod(multitool, os.stat(multitool).st_mode | stat.S_IXUSR)
    env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1")
    with tempfile.TemporaryDirectory() as tmp:
        log_path = os.path.join(tmp, "validation.sarif")
        proc = subprocess.run(
            [multitool, "validate", sarif_path, "-o", log_path, "--log", "ForceOverwrite",
             "--rule-kind", "Sarif;Gh", "--level", "Error;Warning"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if not os.path.exists(log_path):
            return [f"the Multitool wrote no log (exit {proc.returncode}):\n{proc.stdout}"], []
        with open(log_path, encoding="utf-8-sig") as f:
            log = json.load(f)
    errors, warnings = [], []
    for run in log.get("runs", []):
        for note in run.get("invocations", [{}])[0].get("toolExecutionNotifications", []) or []:
            if note.get("level") == "error":
                errors.append("tool: " + note.get("message", {}).get("text", ""))
        for r in run.get("results", []):
            text = r.get("message", {}).get("text") or ""
            args = r.get("message", {}).get("arguments") or []
            where = ""
            for loc in r.get("locations", []):
                region = loc.get("physicalLocation", {}).get("region", {})
                if region:
                    where = f" (line {region.get('startLine')})"
            line = f"{r.get('ruleId')}{where}: {text} {args}"
            if r.get("level", "warning") == "error":
                errors.append(line)
            else:
                warnings.append(line)
    return errors, warnings


def schema_errors(schema_path, sarif_path):
    import jsonschema  # python3-jsonschema
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    with open(sarif_path, encoding="utf-8") as f:
        doc = json.load(f)
    validator_cls = jsonschema.validators.validator_for(schema)
    validator = validator_cls(schema)
    return [f"{'/'.join(str(p) for p in e.absolute_path)}: {e.message}"
            for e in validator.iter_errors(doc)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sarif")
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--repo", default=os.path.dirname(os.path.dirname(here)))
    args = parser.parse_args()
    package = os.path.join(args.repo, "node_modules", "@microsoft", "sarif-multitool-linux")
    multitool = os.path.join(package, "Sarif.Multitool")
    schema = os.path.join(package, "sarif-2.1.0.json")
    for needed in (multitool, schema):
        if not os.path.exists(needed):
            print(f"missing {needed}: run scripts/deps.sh (npm ci --ignore-scripts)", file=sys.stderr)
            return 2
    sarif = os.path.abspath(args.sarif)
    errors, warnings = multitool_errors(multitool, sarif)
    for w in warnings:
        print("multitool warning: " + w)
    for e in errors:
        print("multitool error: " + e)
    s_errors = schema_errors(schema, sarif)
    for e in s_errors:
        print("schema error: " + e)
    total = len(errors) + len(s_errors)
    print(f"{sarif}: {len(errors)} multitool errors, {len(warnings)} multitool warnings, "
          f"{len(s_errors)} schema errors")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
