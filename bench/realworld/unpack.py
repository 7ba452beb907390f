#!/usr/bin/env python3
"""Unpacks the pinned commit of every repository of the real-world list into a scratch folder.

usage: unpack.py MIRROR OUT [--list repos.json] [--repo OWNER/NAME ...]

MIRROR holds one git snapshot per repository as MIRROR/OWNER+NAME/repo (what the workplace's
`fetch` brings) or MIRROR/OWNER+NAME.git; OUT receives OUT/OWNER+NAME. Nothing here is ever
committed: point OUT outside the project (docs/realworld.md). A repository already unpacked at
its commit (OUT/OWNER+NAME/.realworld-commit) is left alone.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_LIST = os.path.join(HERE, "..", "..", "..", "shared", "realworld", "repos.json")

# Their snapshots leave out files of 4 MiB and more, and a whole-tree archive stops at the first
# one: only the listed paths are unpacked (shared/realworld/README.md).
PATHS_ONLY = {"Foxerine/code-interpreter", "TencentCloud/CubeSandbox", "google/gvisor"}


def git_dir(mirror, repo):
    name = repo.replace("/", "+")
    for cand in (os.path.join(mirror, name, "repo"), os.path.join(mirror, name + ".git")):
        if os.path.isdir(cand):
            return cand
    return None


def unpack(entry, mirror, out):
    repo, commit = entry["repo"], entry["commit"]
    gd = git_dir(mirror, repo)
    if gd is None:
        return f"no snapshot under {mirror}"
    dest = os.path.join(out, repo.replace("/", "+"))
    stamp = os.path.join(dest, ".realworld-commit")
    if os.path.exists(stamp) and open(stamp).read().strip() == commit:
        return None
    ok = subprocess.run(["git", "--git-dir", gd, "cat-file", "-e", commit + "^{commit}"],
                        capture_output=True)
    if ok.returncode != 0:
        return f"commit {commit} not in the snapshot"
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    paths = [p.rstrip("/") for p in entry["paths"]] if repo in PATHS_ONLY else []
    arch = subprocess.Popen(["git", "--git-dir", gd, "archive", commit] + paths,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    tar = subprocess.run(["tar", "-x", "-C", dest], stdin=arch.stdout, capture_output=True)
    arch.wait()
    if tar.returncode != 0:
        return "tar: " + tar.stderr.decode(errors="replace").strip()[:200]
    with open(stamp, "w") as f:
        f.write(commit + "\n")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mirror")
    ap.add_argument("out")
    ap.add_argument("--list", default=DEFAULT_LIST)
    ap.add_argument("--repo", action="append", default=[])
    a = ap.parse_args()
    entries = json.load(open(a.list))
    if a.repo:
        entries = [e for e in entries if e["repo"] in a.repo]
    os.makedirs(a.out, exist_ok=True)
    failed = 0
    for e in entries:
        err = unpack(e, a.mirror, a.out)
        print(f"{e['repo']}: {err or 'ok'}", file=sys.stderr)
        failed += err is not None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
