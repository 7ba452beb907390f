#!/usr/bin/env python3
"""Writes the hostile repository of docs/robustness.md into DIR: a billion-laughs YAML, a
100,000-deep nested YAML, a 60 MB manifest stream, a binary file, a manifest with invalid UTF-8
whose pod is privileged, a UTF-16 manifest, a symlink to /etc/shadow, a symlink loop, a FIFO
named *.yaml, a bash file with 20,000 nested command substitutions and a self-recursive
function.   usage: gen_hostile.py DIR [STREAM_MB]"""
import os
import sys

out = sys.argv[1]
stream_mb = int(sys.argv[2]) if len(sys.argv) > 2 else 60
os.makedirs(out, exist_ok=True)


def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
for i in range(1, 10):
    lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
write("laughs.yaml", "\n".join(lines) + "\n")
write("deep.yaml", "[" * 100000 + "]" * 100000 + "\n")
pod = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p{i}\nspec:\n  containers:\n  - name: c\n"
       "    image: busybox@sha256:{d}\n    securityContext:\n      privileged: true\n---\n")
with open(os.path.join(out, "stream.yaml"), "w") as f:
    size, i = 0, 0
    while size < stream_mb * 1024 * 1024:
        doc = pod.format(i=i, d="0" * 64)
        f.write(doc)
        size += len(doc)
        i += 1
write("blob.yaml", b"\x00\x01\x02binary\x00" * 100)
write("badutf8.yaml", b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: caf\xe9\n"
      b"  annotations: {n: \"\xff\xfe\"}\nspec:\n  containers:\n  - name: c\n    image: x\n"
      b"    securityContext:\n      privileged: true\n")
write("utf16.yaml", "\ufeffapiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n".encode("utf-16-le"))
write("nest.sh", "#!/bin/bash\necho " + "$(" * 20000 + "true" + ")" * 20000 + "\n")
write("recurse.sh", "#!/bin/bash\nset -euo pipefail\nf() { f \"$@\"; podman run --rm img true; }\nf\n")
for name, target in [("shadow.yaml", "/etc/shadow"), ("loop1.yaml", "loop2.yaml"),
                     ("loop2.yaml", "loop1.yaml")]:
    path = os.path.join(out, name)
    if not os.path.lexists(path):
        os.symlink(target, path)
fifo = os.path.join(out, "fifo.yaml")
if not os.path.exists(fifo):
    os.mkfifo(fifo)
