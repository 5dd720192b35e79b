#!/usr/bin/env python3
"""Makes a synthetic Go API tree N times the size of k8s.io/api, for benchmarks (never committed).

    scripts/synth_tree.py K8S_API_DIR OUT_DIR N

OUT_DIR becomes the module `example.com/synth` (k8s.io/api's go.mod with the module line renamed, so
k8s.io/apimachinery and the rest still resolve through the module cache) holding N copies of every k8s.io/api
group/version package, copy i under `g<i>/`. Imports of k8s.io/api packages are rewritten to the same copy, so each
copy is a self-contained k8s.io/api with the same types, tags and tag density; nothing else changes.
"""

import os
import re
import shutil
import sys


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    api, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    with open(os.path.join(api, "go.mod"), encoding="utf-8") as f:
        gomod = re.sub(r"(?m)^module k8s.io/api$", "module example.com/synth", f.read())
    with open(os.path.join(out, "go.mod"), "w", encoding="utf-8") as f:
        f.write(gomod)
    sources = []
    for root, dirs, files in os.walk(api):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")) and d not in ("testdata", "vendor"))
        rel = os.path.relpath(root, api)
        if rel == ".":
            continue  # the root package (doc.go) declares no API types
        for name in sorted(files):
            if name.endswith(".go") and not name.endswith("_test.go"):
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    sources.append((rel, name, f.read()))
    packages = set()
    for i in range(n):
        for rel, name, text in sources:
            dest = os.path.join(out, f"g{i}", rel)
            os.makedirs(dest, exist_ok=True)
            packages.add(dest)
            with open(os.path.join(dest, name), "w", encoding="utf-8") as f:
                f.write(text.replace('"k8s.io/api/', f'"example.com/synth/g{i}/'))
    print(f"{out}: {n} copies, {len(sources) * n} files, {len(packages)} package directories")


if __name__ == "__main__":
    main()
