"""What an unknown value or a redaction leaves in a message, counted on the real-world run.

tests/message_hygiene_test.cpp fails the build on these in the fixtures' and examples'
messages; the corpus is measured instead (issue 34: "0 debris by the scanning test"). The
patterns are that test's, for the kinds an evaluator gap leaves: an unknown value's identity
(`$name@file:line`), an empty substitution (`cage-`, `a//b` in a path, `/.git` for
`$ROOT/.git`), a place named twice, and `<redacted>` inside a word (a short secret value
redacted out of unrelated text). Quoted text in backticks is exempt, as in the test, except for
the identity, and URLs are left out (`https://`, kustomize's `repo//dir`).
"""
import re

# Quoted input, a URL, and base-image advice (`${BASE_IMAGE}@sha256:...` is the remedy's
# syntax, not an identity) are not the message's own words.
_QUOTED = re.compile(r"`[^`]*`")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s`]+")
_DIGEST_ADVICE = re.compile(r"@sha256:\.\.\.")

_KINDS = (
    ("identity", re.compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?@(?!sha256)"), False),
    ("empty-tail", re.compile(r"[A-Za-z0-9]-( |$)"), True),
    ("empty-in-path", re.compile(r"(^|[ (])[/$~.][^ :]*[A-Za-z0-9_.-]//"), True),
    ("empty-directory", re.compile(r"(^|[ (])/\.[A-Za-z_]"), True),
    ("place-twice", re.compile(r"([^(),]+, line [0-9]+), \1\b"), True),
    # A name joined by `-` or `.` is one word too: `<redacted>-job` is a Job named after a secret.
    ("redacted-in-word", re.compile(r"[A-Za-z0-9][-.]?<redacted>|<redacted>[-.]?[A-Za-z0-9]"), False),
)


def kinds(message):
    """The debris kinds in one message, in the order above."""
    text = _URL.sub(" ", _DIGEST_ADVICE.sub(" ", message))
    prose = _URL.sub(" ", _QUOTED.sub(" ", message))
    return [name for name, pattern, prose_only in _KINDS
            if pattern.search(prose if prose_only else text)]


def scan(findings):
    """`KIND RULE FILE:LINE` for each finding whose message has debris, sorted."""
    out = []
    for f in findings:
        loc = f.get("location") or {}
        for k in kinds(f.get("message", "")):
            out.append(f"{k} {f['rule']} {loc.get('file')}:{loc.get('line')}")
    return sorted(out)
