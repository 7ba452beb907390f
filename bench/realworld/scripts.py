"""The shell part of the real-world run: which scripts bash accepts and sbreview does not.

A shell script is a file named `*.sh`/`*.bash`, or one whose first line is a `#!` for sh, bash,
dash or ksh (zsh and fish are other languages). `bash -n` parses without running anything.
"""
import os
import re
import subprocess

SHEBANG = re.compile(rb"^#!\s*\S*?(?:/env\s+(?:-\S+\s+)*)?\S*?\b(?:ba|da|k)?sh\b(?!\S)")
EXTENSIONS = (".sh", ".bash")


def is_script(path, name):
    if name.endswith(EXTENSIONS):
        return True
    try:
        with open(path, "rb") as f:
            return bool(SHEBANG.match(f.readline(256)))
    except OSError:
        return False


def find_scripts(repo_dir):
    out = []
    for root, dirs, files in os.walk(repo_dir):
        dirs[:] = sorted(d for d in dirs if d not in (".git", "node_modules"))
        for name in sorted(files):
            path = os.path.join(root, name)
            if os.path.isfile(path) and not os.path.islink(path) and is_script(path, name):
                out.append(os.path.relpath(path, repo_dir))
    return out


def bash_accepts(path):
    try:
        p = subprocess.run(["bash", "-n", path], capture_output=True, timeout=30)
        return p.returncode == 0
    except subprocess.TimeoutExpired:
        return False


def judge_scripts(repo_dir, found, rejected_by_sbreview):
    """rejected_by_sbreview: the repository-relative paths sbreview reported a syntax error in."""
    accepted = [s for s in found if bash_accepts(os.path.join(repo_dir, s))]
    disagree = sorted(s for s in accepted if s in rejected_by_sbreview)
    return {"total": len(found), "bash_n_ok": len(accepted), "disagree": disagree}
