#!/usr/bin/env python3
"""`vgc openapi` on k8s.io/api beside kube-openapi's openapi-gen, the generator of the published OpenAPI (issue 39).

The tree is the one scripts/bench-go-backend.py lays out (a root module `k8s.io/kubernetes` with k8s.io/kubernetes
v1.37.2's `pkg/apis/**/doc.go`, and `staging/src/k8s.io/{api,apimachinery}` copied from the Go module cache at
v0.37.2, replaced in go.mod and used by a go.work, as the repository has them).

- vgc: `vgc openapi staging/src/k8s.io/api --out OUT` — OpenAPI v3 JSON documents with the declarative rules, one per
  group/version (59 files), its caches in `OUT/.vgc/`.
- openapi-gen: kube-openapi's `cmd/openapi-gen` at the version k8s.io/kubernetes v1.37.2's go.mod requires, built from
  the module cache, run from the root as `hack/update-codegen.sh`'s `codegen::openapi` runs it: every directory of the
  tree holding a Go file with a `// +k8s:` tag line and `+k8s:openapi` (here: the staging copies of k8s.io/api and
  k8s.io/apimachinery) as inputs, its header, `--output-file zz_generated.openapi.go`, `--output-dir
  pkg/generated/openapi`, `--output-pkg`, `--report-filename`, `--output-model-name-file zz_generated.model_name.go`.
  It writes Go source (`GetOpenAPIDefinitions`, the definitions the API server serves its spec from, without rules)
  and the model-name files; the two tools do not write the same thing, so the ratio compares the work each does for
  the same API tree, not equal outputs.

Scenarios (median of N runs each, the two tools interleaved run by run on the same machine load):
  cold      vgc: no `OUT/` (no documents, no `.vgc/` caches); openapi-gen: no `pkg/generated/openapi/` (the script
            deletes its file first, as update-codegen.sh does); Go's own build and module caches warm
  one tag   `+k8s:minimum` of a core/v1 field in the staging copy of k8s.io/api set to a new value per run, after a
            complete run at the previous value

  scripts/bench-openapi.py                      # builds target/release/vgc and openapi-gen
  scripts/bench-openapi.py -n 7 --vgc PATH       # another vgc binary, 7 runs per scenario
  scripts/bench-openapi.py --work DIR            # keep the tree in DIR (default: a temporary directory)

Needs `go` (modules downloaded through the module proxy when missing; the timed runs use GOPROXY=off) and `cargo`
unless --vgc is given. Prints the machine, the load average before and after, the population and a Markdown table.
"""

import importlib.util
import os
import platform
import re
import shutil
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("bench_go_backend", os.path.join(HERE, "bench-go-backend.py"))
tree = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tree)

KUBE_OPENAPI = "k8s.io/kube-openapi"
OUTPUT_FILE = "zz_generated.openapi.go"
MODEL_NAME_FILE = "zz_generated.model_name.go"
OUTPUT_DIR = "pkg/generated/openapi"
TAG_LINE = re.compile(r"^// *\+k8s:", re.M)


def kube_openapi_version(kubernetes):
    """The kube-openapi version k8s.io/kubernetes' go.mod requires."""
    with open(os.path.join(kubernetes, "go.mod")) as f:
        m = re.search(r"^\s*k8s\.io/kube-openapi (\S+)", f.read(), re.M)
    if not m:
        sys.exit("k8s.io/kubernetes' go.mod requires no k8s.io/kube-openapi")
    return m.group(1)


def openapi_dirs(root):
    """update-codegen.sh's tag_dirs: directories of Go files (not under testdata) with a `// +k8s:` tag line that
    contain `+k8s:openapi`."""
    dirs = set()
    for dirpath, subdirs, files in os.walk(root):
        subdirs[:] = [d for d in subdirs if d not in ("testdata", "vendor", ".vgc", "_output")]
        for f in files:
            if not f.endswith(".go"):
                continue
            with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as t:
                text = t.read()
            if TAG_LINE.search(text) and "+k8s:openapi" in text:
                dirs.add("./" + os.path.relpath(dirpath, root))
    return sorted(dirs)


def main():
    a, repo, vgc, work, root, kubernetes = tree.set_up(__doc__, "openapi-gen", "vgc-bench-openapi-")

    version = kube_openapi_version(kubernetes)
    openapi_gen = os.path.join(work, "openapi-gen")
    go_env = tree.build_go_tool(tree.download(f"{KUBE_OPENAPI}@{version}", work), "./cmd/openapi-gen", openapi_gen,
                                root)

    dirs = openapi_dirs(root)
    os.makedirs(os.path.join(root, "_output"), exist_ok=True)
    out = os.path.join(work, "openapi-out")
    tools = {
        "vgc openapi": ([vgc, "openapi", "staging/src/k8s.io/api", "--out", out], os.environ),
        "openapi-gen": ([openapi_gen, "-v", "1", "--go-header-file", tree.HEADER, "--output-file", OUTPUT_FILE,
                         "--output-dir", OUTPUT_DIR, "--output-pkg", "k8s.io/kubernetes/" + OUTPUT_DIR,
                         "--report-filename", "_output/api_violations.report",
                         "--output-model-name-file", MODEL_NAME_FILE] + dirs, go_env),
    }
    cold = {
        "vgc openapi": lambda: shutil.rmtree(out, ignore_errors=True),
        "openapi-gen": lambda: shutil.rmtree(os.path.join(root, OUTPUT_DIR), ignore_errors=True),
    }
    edited_path = os.path.join(root, tree.EDITED)
    with open(edited_path) as f:
        original = f.read()
    assert original.count(tree.EDIT_BEFORE) == 1, "the edited tag"

    def set_minimum(value):
        with open(edited_path, "w") as f:
            f.write(original.replace(tree.EDIT_BEFORE, tree.EDIT_BEFORE.replace("minimum=0", f"minimum={value}")))

    load_before = os.getloadavg()
    for tool, (cmd, env) in tools.items():
        tree.run(cmd, root, env)  # warm the OS page cache and Go's caches
    samples = {}
    edits = iter(range(1, 10_000))
    for scenario in ("cold", "one tag"):
        for _ in range(a.n):
            value = next(edits)
            for tool, (cmd, env) in tools.items():
                if scenario == "cold":
                    cold[tool]()
                else:
                    set_minimum(value)
                t0 = time.perf_counter()
                tree.run(cmd, root, env)
                samples.setdefault((tool, scenario), []).append(time.perf_counter() - t0)
                if scenario == "one tag":
                    set_minimum(0)
                    tree.run(cmd, root, env)  # the next edit starts from a complete run at the original tags
    load_after = os.getloadavg()

    docs = sorted(f for f in os.listdir(out) if f.endswith(".json"))
    docs_bytes = sum(os.path.getsize(os.path.join(out, f)) for f in docs)
    go_out = os.path.join(root, OUTPUT_DIR, OUTPUT_FILE)
    model_files = []
    for dirpath, _, files in os.walk(os.path.join(root, "staging")):
        if MODEL_NAME_FILE in files:
            model_files.append(os.path.join(dirpath, MODEL_NAME_FILE))
    cpu = tree.cpu_model()
    go_version = tree.run(["go", "version"], root).stdout.strip()
    vgc_version = tree.run([vgc, "--version"], root).stdout.strip()
    commit = tree.run(["git", "rev-parse", "--short", "HEAD"], repo, check=False).stdout.strip()
    print(f"machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores, {cpu}")
    print("load average (1, 5, 15 min): before " + ", ".join(f"{x:.2f}" for x in load_before)
          + "; after " + ", ".join(f"{x:.2f}" for x in load_after))
    print(f"tools: {vgc_version} ({vgc}; repository at {commit}); openapi-gen {KUBE_OPENAPI}@{version} built with "
          f"{go_version}")
    print(f"population: staging k8s.io/api and k8s.io/apimachinery v0.37.2 in a k8s.io/kubernetes v1.37.2 tree; "
          f"vgc openapi on staging/src/k8s.io/api: {len(docs)} documents, {docs_bytes:,} bytes; openapi-gen on "
          f"{len(dirs)} packages: {os.path.getsize(go_out):,} bytes of Go in {OUTPUT_DIR}/{OUTPUT_FILE}, "
          f"{len(model_files)} {MODEL_NAME_FILE} files")
    print(f"median of {a.n} runs, wall time; the tools write different things (JSON documents with the rules vs Go "
          f"definitions without them)\n")
    print("| scenario | vgc openapi | openapi-gen | vgc / openapi-gen |")
    print("|---|---:|---:|---:|")
    for scenario in ("cold", "one tag"):
        v = statistics.median(samples[("vgc openapi", scenario)])
        u = statistics.median(samples[("openapi-gen", scenario)])
        print(f"| {scenario} | {v:.3f} s | {u:.3f} s | {v / u:.3f} |")
    print("\nruns (s):")
    for (tool, scenario), xs in samples.items():
        print(f"  {scenario:8} {tool:12} " + ", ".join(f"{x:.3f}" for x in xs))
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
