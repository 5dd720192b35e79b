#!/usr/bin/env python3
"""Cold `vgc build` vs upstream validation-gen on the same k8s.io/api packages, in one run, interleaved.

    cargo build --release -p vgc && scripts/bench_cold.py [RUNS] [VERSION]     (defaults: 5, v0.37.2)

vgc: `vgc build <k8s.io/api> --roots TypesWithField=TypeMeta --custom-stub --out <empty dir>` (no cache; the
default, in-process formatting; `--rustfmt` is measured too, for reference).
validation-gen (pinned v0.37.2, installed through the Go module proxy): kubernetes' activation of every
group/version, as the real-input differential test sets it up: per group/version a package with
`+k8s:validation-gen=TypesWithField=TypeMeta` and `+k8s:validation-gen-input=k8s.io/api/<gv>`, plus meta/v1 with `*`
(no scheme registry, lint off as kubernetes' generated packages are linted separately); one validation-gen run over
all of them, generated files removed before every run. Each round runs both tools once; medians of RUNS rounds.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VGC = os.path.join(ROOT, "target", "release", "vgc")
WORK = os.path.join(ROOT, "target", "bench-cold")
GEN = "k8s.io/code-generator/cmd/validation-gen@v0.37.2"
# As tests/src/k8s_oracle.rs: packages upstream reads but does not generate for.
READ_ONLY = ["k8s.io/apimachinery/pkg/runtime", "k8s.io/apimachinery/pkg/runtime/schema",
             "k8s.io/apimachinery/pkg/api/resource", "k8s.io/apimachinery/pkg/util/intstr",
             "k8s.io/apimachinery/pkg/types", "k8s.io/apimachinery/pkg/watch", "k8s.io/apimachinery/pkg/fields",
             "k8s.io/apimachinery/pkg/labels", "k8s.io/apimachinery/pkg/selection", "time"]


def sh(*cmd, cwd=None, env=None):
    return subprocess.run(cmd, cwd=cwd, env=env, check=True, text=True, capture_output=True).stdout


def module_dir(mod):
    import json
    return json.loads(sh("go", "mod", "download", "-json", mod))["Dir"]


def group_versions(api):
    out = []
    for d, _, files in os.walk(api):
        if "types.go" in files and "/." not in d:
            rel = os.path.relpath(d, api)
            doc = os.path.join(d, "doc.go")
            text = open(doc, encoding="utf-8").read() if os.path.exists(doc) else ""
            if "+k8s:validation-gen=false" not in text:
                out.append(rel)
    return sorted(out)


def setup(version):
    api = module_dir(f"k8s.io/api@{version}")
    module_dir(f"k8s.io/apimachinery@{version}")
    work = os.path.join(WORK, "upstream")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    gobin = os.path.join(WORK, "gobin")
    if not os.path.exists(os.path.join(gobin, "validation-gen")):
        sh("go", "install", GEN, cwd=work, env={**os.environ, "GOBIN": gobin, "GOFLAGS": "-mod=mod"})
    with open(os.path.join(work, "go.mod"), "w") as f:
        f.write("module bench.example/gen\n\ngo 1.25\n")
    pkgs = []
    meta = os.path.join(work, "gen", "meta", "v1")
    os.makedirs(meta)
    with open(os.path.join(meta, "doc.go"), "w") as f:
        f.write("// +k8s:validation-gen=*\n// +k8s:validation-gen-input=k8s.io/apimachinery/pkg/apis/meta/v1\n"
                "// +k8s:validation-gen-scheme-registry=nil\n// +k8s:validation-gen-nolint\npackage v1\n")
    pkgs.append("./gen/meta/v1")
    for gv in group_versions(api):
        d = os.path.join(work, "gen", gv)
        os.makedirs(d)
        with open(os.path.join(d, "doc.go"), "w") as f:
            f.write(f"// +k8s:validation-gen=TypesWithField=TypeMeta\n// +k8s:validation-gen-input=k8s.io/api/{gv}\n"
                    f"// +k8s:validation-gen-scheme-registry=nil\n// +k8s:validation-gen-nolint\n"
                    f"package {gv.rsplit('/', 1)[-1]}\n")
        pkgs.append(f"./gen/{gv}")
    env = {**os.environ, "GOFLAGS": "-mod=mod"}
    sh("go", "get", f"k8s.io/api@{version}", f"k8s.io/apimachinery@{version}", cwd=work, env=env)
    with open(os.path.join(work, "header.txt"), "w") as f:
        f.write("")
    return api, work, os.path.join(gobin, "validation-gen"), pkgs


def time_upstream(work, gen, pkgs):
    for d, _, files in os.walk(os.path.join(work, "gen")):
        for n in files:
            if n == "zz_generated.validations.go":
                os.remove(os.path.join(d, n))
    t0 = time.perf_counter()
    ro = [a for p in READ_ONLY for a in ("--readonly-pkg", p)]
    p = subprocess.run([gen, "--go-header-file", "header.txt", "--output-file", "zz_generated.validations.go", *ro, *pkgs],
                       cwd=work, env={**os.environ, "GOFLAGS": "-mod=mod"}, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"validation-gen failed:\n{p.stderr[-3000:]}")
    return wall


def time_vgc(api, extra):
    out = tempfile.mkdtemp(prefix="vgc-cold-", dir=WORK)
    t0 = time.perf_counter()
    p = subprocess.run([VGC, "build", api, "--roots", "TypesWithField=TypeMeta", "--custom-stub", "--out", out, *extra],
                       capture_output=True, text=True)
    wall = time.perf_counter() - t0
    shutil.rmtree(out, ignore_errors=True)
    if p.returncode != 0:
        sys.exit(f"vgc failed:\n{p.stderr[-3000:]}")
    return wall


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    version = sys.argv[2] if len(sys.argv) > 2 else "v0.37.2"
    os.makedirs(WORK, exist_ok=True)
    api, work, gen, pkgs = setup(version)
    time_upstream(work, gen, pkgs)  # warm the Go build cache and the page cache for both
    time_vgc(api, [])
    up, cold, cold_fmt = [], [], []
    for _ in range(runs):
        up.append(time_upstream(work, gen, pkgs))
        cold.append(time_vgc(api, []))
        cold_fmt.append(time_vgc(api, ["--rustfmt"]))
    mu, mc, mf = statistics.median(up), statistics.median(cold), statistics.median(cold_fmt)
    print(f"k8s.io/api {version}, {len(pkgs)} packages, {runs} interleaved rounds")
    print(f"validation-gen: {' '.join(f'{x:.2f}' for x in up)} s, median {mu:.2f} s")
    print(f"vgc build, cold: {' '.join(f'{x * 1000:.0f}' for x in cold)} ms, median {mc * 1000:.0f} ms")
    print(f"vgc build --rustfmt, cold: {' '.join(f'{x * 1000:.0f}' for x in cold_fmt)} ms, median {mf * 1000:.0f} ms")
    print(f"ratio: {mu / mc:.1f}x (with --rustfmt: {mu / mf:.1f}x)")


if __name__ == "__main__":
    main()
