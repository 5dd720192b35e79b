#!/usr/bin/env python3
"""Scaling benchmark (issue 36): how vgc's time and memory grow with the size of one input dimension.

Three dimensions, each at sizes a factor apart, with the release binary (built here):

- list matching: `vgc validate` of one Widget (`cli/tests/validate/api`) whose list-map `ports` has N items and one
  duplicate — create, and update against an old object with one item changed (uniqueness, eachVal old-item
  lookup, update matching); N = 1,000 / 10,000 / 100,000;
- streams: `vgc validate` of one file of N small Widget documents; N = 10,000 / 100,000 / 500,000 (a million is
  110 MB, over the 64 MiB per-file input limit, R50);
- Go files: `vgc check` of a module whose one Go file of S MiB holds structs with tagged fields; S = 1 / 8 / 32.

Each run is timed (wall) and its peak RSS read (`/usr/bin/time -f %M`), best of `--runs` (default 3). The table gives,
for each step to the next size, the time and memory ratios and the growth per doubling of the input
(ratio ** (1 / log2(factor))): 2.0 is linear. Memory per item is (peak RSS - that of the smallest size) / items.

    scripts/bench-scaling.py [--runs N] [--quick]   # --quick: the two smaller sizes of each dimension

Inputs are generated into target/bench-scaling (never into the repository). Prints a Markdown table for
docs/performance.md.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "bench-scaling")
API = os.path.join(ROOT, "cli", "tests", "validate", "api")


def vgc_binary():
    subprocess.run(["cargo", "build", "--release", "-p", "vgc"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "release", "vgc")


def measure(cmd, runs):
    """Best wall time (s) and peak RSS (KB) of `cmd` over `runs` runs."""
    best_t, best_m = float("inf"), 0
    for _ in range(runs):
        start = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True)
        t = time.perf_counter() - start
        if p.returncode not in (0, 1):
            sys.exit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr[-2000:]}")
        rss = int(p.stderr.strip().splitlines()[-1])
        if t < best_t:
            best_t, best_m = t, rss
    return best_t, best_m


def widget_with_ports(n, old):
    ports = [{"name": f"p{i}", "port": i % 65535} for i in range(n)]
    if old:
        ports[5] = {"name": "p5", "port": 9}
    else:
        ports.append({"name": "p7", "port": 1})
    return {"apiVersion": "widgets.example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
            "spec": {"host": "web", "ports": ports}}


def list_inputs(n):
    new, old = os.path.join(WORK, f"ports-{n}.json"), os.path.join(WORK, f"ports-{n}-old.json")
    if not os.path.exists(old):
        with open(new, "w") as f:
            json.dump(widget_with_ports(n, False), f)
        with open(old, "w") as f:
            json.dump(widget_with_ports(n, True), f)
    return new, old


def stream_input(n):
    path = os.path.join(WORK, f"stream-{n}.yaml")
    if not os.path.exists(path):
        with open(path, "w") as f:
            for i in range(n):
                f.write(f"---\napiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: w{i}\n"
                        f"spec:\n  host: web\n  replicas: 2\n")
    return path


def go_module(mib):
    d = os.path.join(WORK, f"go-{mib}mib")
    types_go = os.path.join(d, "v1", "types.go")
    if not os.path.exists(types_go):
        os.makedirs(os.path.join(d, "v1"), exist_ok=True)
        with open(os.path.join(d, "go.mod"), "w") as f:
            f.write("module example.com/big\n\ngo 1.23\n")
        with open(os.path.join(d, "v1", "doc.go"), "w") as f:
            f.write("// +k8s:validation-gen=*\npackage v1\n")
        target = (mib << 20) - (64 << 10)  # under the 32 MiB source cap (MAX_SOURCE_BYTES)
        with open(types_go, "w") as f:
            f.write("package v1\n\n")
            i = 0
            while f.tell() < target:
                f.write(f"// T{i} is a type.\ntype T{i} struct {{\n")
                for j in range(8):
                    f.write(f"\t// F{j} is a field.\n\t// +k8s:optional\n\t// +k8s:maxLength={j + 8}\n"
                            f"\tF{j} string `json:\"f{j},omitempty\"`\n")
                f.write("}\n\n")
                i += 1
    return d


def growth(rows, label):
    """Markdown rows: size, time, RSS, and the step ratios."""
    out = []
    prev = None
    base_rss = rows[0][2]
    for size, t, rss, items in rows:
        if prev is None:
            out.append(f"| {label} | {size} | {t:.2f} s | {rss / 1024:.0f} MB | — | — |")
        else:
            psize, pt, prss, pitems = prev
            factor = items / pitems
            doublings = math.log2(factor)
            tr = t / pt
            mr = rss / prss
            per_item = (rss - base_rss) * 1024 / max(items - rows[0][3], 1)
            out.append(
                f"| {label} | {size} | {t:.2f} s | {rss / 1024:.0f} MB | {tr:.1f}× ({tr ** (1 / doublings):.2f}× per doubling)"
                f" | {mr:.1f}× ({per_item:.0f} B per added item) |")
        prev = (size, t, rss, items)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    vgc = vgc_binary()
    sizes_list = [1_000, 10_000, 100_000]
    sizes_stream = [10_000, 100_000, 500_000]  # 1,000,000 is 110 MB, over the 64 MiB per-file limit (R50)
    sizes_go = [1, 8, 32]
    if a.quick:
        sizes_list, sizes_stream, sizes_go = sizes_list[:2], sizes_stream[:2], sizes_go[:2]
    lines = ["| dimension | size | wall (best) | peak RSS | time growth | memory growth |", "|---|---|---|---|---|---|"]
    base = [vgc, "validate", "--api", API, "--no-cache"]
    create, update = [], []
    for n in sizes_list:
        new, old = list_inputs(n)
        t, m = measure(base + [new], a.runs)
        create.append((f"{n:,} list-map items", t, m, n))
        t, m = measure(base + [new, "--old", old], a.runs)
        update.append((f"{n:,} list-map items", t, m, n))
    lines += growth(create, "list matching, create")
    lines += growth(update, "list matching, update")
    stream = []
    for n in sizes_stream:
        path = stream_input(n)
        t, m = measure(base + [path], a.runs)
        stream.append((f"{n:,} documents", t, m, n))
    lines += growth(stream, "stream of documents")
    gofiles = []
    for mib in sizes_go:
        d = go_module(mib)
        t, m = measure([vgc, "check", d, "--short"], a.runs)
        gofiles.append((f"{mib} MiB Go file", t, m, mib << 20))
    lines += growth(gofiles, "Go file size")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
