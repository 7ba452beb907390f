#!/usr/bin/env python3
"""The action's install path (scripts/action-install.sh) against a release served on loopback:
the package of the action's own version is taken only when its published SHA-256 matches; a
branch ref, a missing release or another OS falls back to the build from source; and the
release script refuses a tag that is not the version it builds.

usage: check_action_install.py REPO_ROOT
"""
import functools
import hashlib
import http.server
import os
import pathlib
import subprocess
import sys
import tempfile
import threading


def serve(directory):
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def install(root, tmp, ref, releases, os_release):
    out = pathlib.Path(tmp) / "github_output"
    out.write_text("")
    env = dict(os.environ, SBR_ACTION_PATH=str(root), SBR_ACTION_REF=ref, SBR_RELEASES=releases,
               SBR_OS_RELEASE=str(os_release), SBR_DRY_RUN="1", GITHUB_OUTPUT=str(out))
    p = subprocess.run([str(root / "scripts/action-install.sh")], env=env, capture_output=True,
                       text=True, timeout=60)
    outputs = dict(line.split("=", 1) for line in out.read_text().splitlines() if "=" in line)
    return p.returncode, outputs, p.stderr


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        site = pathlib.Path(tmp) / "site"
        rel = site / "v0.1.0"
        rel.mkdir(parents=True)
        deb = rel / "sbreview_0.1.0_amd64.deb"
        deb.write_bytes(b"!<arch>\nnot really a package, but the bytes that were published\n")
        digest = hashlib.sha256(deb.read_bytes()).hexdigest()
        (rel / (deb.name + ".sha256")).write_text(f"{digest}  {deb.name}\n")
        bookworm = pathlib.Path(tmp) / "os-release-12"
        bookworm.write_text("ID=debian\nVERSION_ID=\"12\"\nVERSION_CODENAME=bookworm\n")
        noble = pathlib.Path(tmp) / "os-release-noble"
        noble.write_text("ID=ubuntu\nVERSION_CODENAME=noble\n")
        server = serve(site)
        url = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            rc, out, err = install(root, tmp, "v0.1.0", url, bookworm)
            check(rc == 0 and out.get("bin", "").endswith(deb.name),
                  f"the published package is taken: rc {rc}, {out}, {err}")
            check(len(out.get("source-hash", "")) == 32, f"a source hash for the cache: {out}")

            rc, out, err = install(root, tmp, "main", url, bookworm)
            check(rc == 0 and out.get("bin") == "" and "not a release tag" in err,
                  f"a branch builds from source: rc {rc}, {out}, {err}")

            rc, out, err = install(root, tmp, "v0.1.0", url, noble)
            check(rc == 0 and out.get("bin") == "" and "Debian 12" in err,
                  f"another OS builds from source: rc {rc}, {out}, {err}")

            rc, out, err = install(root, tmp, "v0.2.0", url, bookworm)
            check(rc == 0 and out.get("bin") == "" and "has no" in err,
                  f"a tag without a release builds from source: rc {rc}, {out}, {err}")

            deb.write_bytes(deb.read_bytes() + b"tampered")
            rc, out, err = install(root, tmp, "v0.1.0", url, bookworm)
            check(rc != 0 and out.get("bin") is None and "does not match" in err,
                  f"a package that is not what was published stops the job: rc {rc}, {out}, "
                  f"{err}")
        finally:
            server.shutdown()

        p = subprocess.run([str(root / "scripts/release-package.sh"), str(pathlib.Path(tmp) / "o"),
                            "v9.9.9"], capture_output=True, text=True, timeout=60)
        check(p.returncode != 0 and "is not v" in p.stderr,
              f"the release refuses another version's tag: {p.returncode} {p.stderr}")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"action install: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
