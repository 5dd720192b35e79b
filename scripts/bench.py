#!/usr/bin/env python3
"""Performance figures, side by side with upstream validation-gen, printed as Markdown tables with ratios.

    scripts/bench.sh            (needs go and the Go module proxy; about 4 minutes on 2 cores)

Inputs: k8s.io/api (newest release, through the Go module proxy) with kubernetes' activation
(`--roots TypesWithField=TypeMeta`), and synthetic trees 1x and 10x its size made by scripts/synth_tree.py.
Measures vgc check / lint / build (cold, no-op, one tag edited) wall time (median of several runs) and peak
memory, `vgc watch` (edit -> outputs written), the growth from 1x to 10x, and - from the real-input differential
test - upstream validation-gen's generation time on the same packages and the generated code's speed (Go vs Rust).
"""

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "target", "bench")
VGC = os.path.join(ROOT, "target", "release", "vgc")
ROOTS = ["--roots", "TypesWithField=TypeMeta"]


def sh(*cmd, cwd=None, env=None, capture=True):
    return subprocess.run(cmd, cwd=cwd, env=env, check=True, text=True, capture_output=capture).stdout


def run(cmd, runs=5, before=None):
    """Median wall seconds over `runs` runs (calling `before()` ahead of each) and the peak RSS in MB of the last."""
    walls = []
    peak = 0
    for _ in range(runs):
        if before:
            before()
        t0 = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], capture_output=True, text=True)
        walls.append(time.perf_counter() - t0)
        if p.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
        peak = int(p.stderr.strip().splitlines()[-1]) // 1024
    return statistics.median(walls), peak


def fmt(secs):
    return f"{secs * 1000:.0f} ms" if secs < 1 else f"{secs:.2f} s"


class Toggle:
    """Edits one tag, the first `+k8s:maxItems=A`, to a value not used before on every call (B, B+1, ...), so no
    edit finds its result in a cache left by an earlier one."""

    def __init__(self, path, a, b):
        self.path, self.tag, self.next = path, f"+k8s:maxItems={a}\n", b

    def __call__(self):
        with open(self.path, encoding="utf-8") as f:
            text = f.read()
        at = text.index(self.tag)
        new = f"+k8s:maxItems={self.next}\n"
        text = text[:at] + new + text[at + len(self.tag):]
        self.tag, self.next = new, self.next + 1
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(text)


def watch_edits(tree, out, toggle, n=7):
    """Starts `vgc watch`, edits a tag n times; returns the medians of the rebuild time vgc reports and of the
    end-to-end time from writing the file to the status line (debounce and inotify included)."""
    p = subprocess.Popen(
        [VGC, "watch", tree, *ROOTS, "--custom-stub", "--out", out, "--short"],
        stderr=subprocess.PIPE, text=True,
    )
    try:
        for line in p.stderr:
            if "watching" in line:
                break
        rebuild, e2e = [], []
        for _ in range(n):
            time.sleep(0.3)
            t0 = time.perf_counter()
            toggle()
            for line in p.stderr:
                if line.startswith("vgc watch:") and "changed files" in line:
                    break
            e2e.append(time.perf_counter() - t0)
            m = re.search(r"in ([0-9.]+) ms", line)
            rebuild.append(float(m.group(1)) / 1000 if m else float("nan"))
        return statistics.median(rebuild), statistics.median(e2e)
    finally:
        p.kill()
        p.wait()


def vgc_table(name, tree, edit_file, a, b, watch=True):
    out = os.path.join(WORK, f"out-{name}")
    build = [VGC, "build", tree, *ROOTS, "--custom-stub", "--out", out]
    rows = {}
    rows["check"] = run([VGC, "check", tree, *ROOTS])
    rows["lint"] = run([VGC, "lint", tree, *ROOTS])
    rows["build, cold (empty output directory)"] = run(build, runs=3, before=lambda: shutil.rmtree(out, True))
    run(build, runs=1)
    rows["build, no-op"] = run(build)
    toggle = Toggle(edit_file, a, b)
    rows["build, one tag edited"] = run(build, before=toggle)
    if watch:
        rebuild, e2e = watch_edits(tree, out, toggle)
        rows["watch, one tag edited: rebuild (vgc's figure)"] = (rebuild, None)
        rows["watch, one tag edited: file write -> outputs written"] = (e2e, None)
    return rows


def main():
    os.makedirs(WORK, exist_ok=True)
    meta = json.loads(sh("go", "mod", "download", "-json", "k8s.io/api@latest", cwd=WORK,
                         env={**os.environ, "GOFLAGS": "-mod=mod"}))
    version = meta["Version"]
    api = os.path.join(WORK, "api")
    shutil.rmtree(api, True)
    shutil.copytree(meta["Dir"], api)
    for root, dirs, files in os.walk(api):
        os.chmod(root, 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)
    sh("cargo", "build", "-q", "--release", "-p", "vgc", cwd=ROOT, capture=False)
    synth = {n: os.path.join(WORK, f"synth{n}") for n in (1, 10)}
    for n, d in synth.items():
        sh(sys.executable, os.path.join(ROOT, "scripts", "synth_tree.py"), api, d, str(n))

    cores = os.cpu_count()
    print(f"k8s.io/api {version}, {cores} cores, release build, median of 5 runs (cold: 3)\n")
    k8s = vgc_table("api", api, os.path.join(api, "resource/v1/types.go"), 16, 17)
    print("| vgc on k8s.io/api | wall | peak memory |\n|---|---|---|")
    for k, (wall, mb) in k8s.items():
        print(f"| {k} | {fmt(wall)} | {f'{mb} MB' if mb else '—'} |")

    print("\nSynthetic trees (scripts/synth_tree.py: N copies of k8s.io/api):\n")
    s1 = vgc_table("synth1", synth[1], os.path.join(synth[1], "g0/resource/v1/types.go"), 16, 17, watch=False)
    s10 = vgc_table("synth10", synth[10], os.path.join(synth[10], "g3/resource/v1/types.go"), 16, 17, watch=False)
    print("| vgc | 1x (60 group/versions) | 10x (600 group/versions) | 10x / 1x |\n|---|---|---|---|")
    for k in s1:
        (w1, m1), (w10, m10) = s1[k], s10[k]
        print(f"| {k} | {fmt(w1)}, {m1} MB | {fmt(w10)}, {m10} MB | {w10 / w1:.1f}x |")

    print("\nUpstream, from the real-input differential test (same packages, same activation):\n")
    env = {**os.environ, "VGC_SPEED": "1", "VGC_K8S_ORACLE_CASES": "20000"}
    test = subprocess.run(["cargo", "test", "-q", "-p", "vgc-tests", "--test", "k8s_e2e", "--", "--nocapture"],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    lines = [l for l in (test.stdout + test.stderr).splitlines() if l.startswith(("k8s-oracle", "speed"))]
    for l in lines:
        print(f"    {l}")
    m = re.search(r"upstream validation-gen ([0-9.]+)s", "\n".join(lines))
    if m:
        up = float(m.group(1))
        cold = k8s["build, cold (empty output directory)"][0]
        one = k8s["build, one tag edited"][0]
        print(f"\nvalidation-gen {up:.2f} s vs vgc cold build {fmt(cold)}: {up / cold:.1f}x faster "
              f"(vgc includes rustfmt); vs vgc one-tag rebuild {fmt(one)}: {up / one:.0f}x")


if __name__ == "__main__":
    main()
