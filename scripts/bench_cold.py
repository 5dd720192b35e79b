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
Every timed run starts after `sync` and a 0.2 s pause, so no run pays for the previous one's writeback.
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
    gen = os.path.join(gobin, "validation-gen")
    custom_stubs(work, gen, pkgs)
    return api, work, gen, pkgs


BUILTIN = {"bool", "string", "byte", "rune", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
           "uint32", "uint64", "float32", "float64", "any"}


def custom_stubs(work, gen, pkgs):
    """Writes the hand-written `ValidateCustom_*` functions that upstream's `+k8s:customValidation` requires
    (accept-everything stubs, like vgc's `--custom-stub`), learnt from validation-gen's own errors: a missing
    function is reported by name, a wrongly typed one with the signature it must have. Nothing comes from vgc."""
    import re
    stubs = {}  # (package dir, function) -> parameter list or None
    for _ in range(50):
        p = run_upstream(work, gen, pkgs)
        if p.returncode == 0:
            return
        missing = re.search(r"expected hand-written function (\S+)\.(ValidateCustom_\w+) was not found", p.stderr)
        typed = re.search(r"(\S+)\.(ValidateCustom_\w+) must have signature func\((.*)\) field\.ErrorList", p.stderr)
        if missing:
            stubs[(missing.group(1), missing.group(2))] = None
        elif typed:
            stubs[(typed.group(1), typed.group(2))] = typed.group(3)
        else:
            sys.exit(f"validation-gen failed:\n{p.stderr[-3000:]}")
        write_stubs(work, stubs)
    sys.exit("validation-gen kept asking for custom validation functions")


def write_stubs(work, stubs):
    import re
    by_dir = {}
    for (pkg, name), params in stubs.items():
        by_dir.setdefault(pkg.removeprefix("bench.example/gen/"), []).append((name, params))
    for rel, fns in by_dir.items():
        # Names the signature leaves unqualified are types of the package's validation-gen-input, imported as `in`.
        doc = open(os.path.join(work, rel, "doc.go"), encoding="utf-8").read()
        inp = re.search(r"validation-gen-input=(\S+)", doc).group(1)
        imports, funcs = set(), []
        for name, params in sorted(fns):
            if params is None:  # only the name is known yet: validation-gen's next run gives the signature
                funcs.append(f"func {name}() {{}}")
                continue
            head, _, ty = params.rpartition(" ")
            def qualify(m):
                if m.group(0) in BUILTIN:
                    return m.group(0)
                imports.add(f'in "{inp}"')
                return "in." + m.group(0)
            ty = re.sub(r"(?<![\w.])[A-Za-z_]\w*(?![\w.])", qualify, ty)
            imports.update(['"context"', '"k8s.io/apimachinery/pkg/api/operation"',
                            '"k8s.io/apimachinery/pkg/util/validation/field"'])
            funcs.append(f"func {name}({head} {ty}) field.ErrorList {{ return nil }}")
        lines = ["package " + rel.rsplit("/", 1)[-1], ""]
        if imports:
            lines += ["import (", *(f"\t{i}" for i in sorted(imports)), ")", ""]
        with open(os.path.join(work, rel, "zz_custom_stub.go"), "w") as f:
            f.write("\n".join(lines + funcs) + "\n")


def run_upstream(work, gen, pkgs):
    ro = [a for p in READ_ONLY for a in ("--readonly-pkg", p)]
    return subprocess.run([gen, "--go-header-file", "header.txt", "--output-file", "zz_generated.validations.go",
                           *ro, *pkgs], cwd=work, env={**os.environ, "GOFLAGS": "-mod=mod"}, capture_output=True,
                          text=True)


def settle():
    """Starts a timed run with no writes of the previous one pending: the kernel writes back the last run's files
    (and deletes) on the same two cores otherwise, inside whichever run comes next. Applied to both tools."""
    os.sync()
    time.sleep(0.2)


def time_upstream(work, gen, pkgs):
    for d, _, files in os.walk(os.path.join(work, "gen")):
        for n in files:
            if n == "zz_generated.validations.go":
                os.remove(os.path.join(d, n))
    settle()
    t0 = time.perf_counter()
    p = run_upstream(work, gen, pkgs)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"validation-gen failed:\n{p.stderr[-3000:]}")
    return wall


def time_vgc(api, extra):
    out = tempfile.mkdtemp(prefix="vgc-cold-", dir=WORK)
    settle()
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
