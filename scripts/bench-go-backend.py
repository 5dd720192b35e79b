#!/usr/bin/env python3
"""vgc validation-gen against upstream validation-gen on a k8s.io/kubernetes-shaped tree (issue 38).

The tree is the one `cli/tests/go_kubernetes.rs` lays out: a root module `k8s.io/kubernetes` (go.mod replacing
k8s.io/api and k8s.io/apimachinery with ./staging/src/k8s.io/..., and a go.work using them, as the repository has)
holding k8s.io/kubernetes v1.37.2's `pkg/apis/**/doc.go` and its two hand-written `validation.go` files, and the
staging modules copied from the Go module cache (k8s.io/api and k8s.io/apimachinery v0.37.2). Both generators run
from the root the way `hack/update-codegen.sh` runs validation-gen: every directory holding a `+k8s:validation-gen=`
tag as an input (root and staging alike), `--readonly-pkg` for its five read-only packages, its header and output
file; with `--fixtures` also its `--test-output-root test/declarative_validation`, `--test-output-file-prefix` and
`--test-allowlist` (the declarative-validation coverage fixtures, 223 more files, which update-codegen.sh deletes
before it runs as it deletes the others; the tree holds the release's coverage-allowlist.yaml there).

Scenarios (median of N runs each; between runs the scenario's state is restored):
  cold        no generated files (update-codegen.sh deletes them first) and no `.vgc/` (vgc's caches)
  rm, warm    update-codegen.sh unchanged: generated files deleted, vgc's caches kept from the last run
  no-op       a rerun with nothing changed (the files of the last run in place)
  one tag     `+k8s:minimum` of core/v1 LeaseSpec.Priority in the staging copy of k8s.io/api set to a new value
Upstream validation-gen keeps no state, so its runs differ only by what Go's own caches hold. vgc runs twice: one-shot
(`VGC_NO_SERVER=1`), and as the client of `vgc validation-gen --serve` started with the same command after a complete
run (the build server, docs/go-backend.md; its `cold` row is left out: `.vgc/` holds the server's socket).

  scripts/bench-go-backend.py                      # builds target/release/vgc and validation-gen v0.37.2
  scripts/bench-go-backend.py -n 7 --vgc PATH       # another vgc binary, 7 runs per scenario
  scripts/bench-go-backend.py --work DIR            # keep the tree in DIR (default: a temporary directory)
  scripts/bench-go-backend.py --fixtures            # update-codegen.sh's whole command, the coverage fixtures too

Needs `go` (the modules are downloaded through the module proxy when missing; the timed runs use GOPROXY=off) and
`cargo` unless --vgc is given. Prints the machine, the population and a Markdown table.
"""

import argparse
import filecmp
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

KUBERNETES = "k8s.io/kubernetes@v1.37.2"
STAGING = ["k8s.io/api@v0.37.2", "k8s.io/apimachinery@v0.37.2"]
CODE_GENERATOR = "k8s.io/code-generator@v0.37.2"
OUT = "zz_generated.validations.go"
HEADER = "hack/boilerplate/boilerplate.generatego.txt"
READ_ONLY = [
    "k8s.io/apimachinery/pkg/api/resource",
    "k8s.io/apimachinery/pkg/runtime",
    "k8s.io/apimachinery/pkg/types",
    "k8s.io/apimachinery/pkg/util/intstr",
    "time",
]
FIXTURES = "test/declarative_validation"
FIXTURE_PREFIX = "zz_generated.validations."
ALLOWLIST = FIXTURES + "/coverage-allowlist.yaml"
FIXTURE_FLAGS = ["--test-output-root", FIXTURES, "--test-output-file-prefix", FIXTURE_PREFIX,
                 "--test-allowlist", ALLOWLIST]
EDITED = "staging/src/k8s.io/api/core/v1/types.go"
EDIT_BEFORE = "\t// +k8s:required\n\t// +k8s:minimum=0\n\t// +k8s:maximum=100000\n"

GO_MOD = """module k8s.io/kubernetes

go 1.26.0

require (
\tk8s.io/api v0.0.0
\tk8s.io/apimachinery v0.0.0
)

replace (
\tk8s.io/api => ./staging/src/k8s.io/api
\tk8s.io/apimachinery => ./staging/src/k8s.io/apimachinery
)
"""
GO_WORK = "go 1.26.0\n\nuse (\n\t.\n\t./staging/src/k8s.io/api\n\t./staging/src/k8s.io/apimachinery\n)\n"


def run(cmd, cwd, env=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if check and p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr}")
    return p


def download(module, cwd):
    env = dict(os.environ, GOFLAGS="-mod=mod")
    out = run(["go", "mod", "download", "-json", module], cwd, env)
    return json.loads(out.stdout)["Dir"]


def is_generated(name):
    """A file either generator writes: the package file, or a coverage fixture (`<prefix>…_test.go`)."""
    return name == OUT or (name.startswith(FIXTURE_PREFIX) and name.endswith("_test.go"))


def copy_tree(src, dst, keep=lambda p: True):
    for dirpath, _, files in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        for f in files:
            p = os.path.join(dirpath, f)
            if is_generated(f) or not keep(p):
                continue
            os.makedirs(os.path.join(dst, rel), exist_ok=True)
            with open(p, "rb") as i, open(os.path.join(dst, rel, f), "wb") as o:
                o.write(i.read())


def lay_out(root, work):
    kubernetes = download(KUBERNETES, work)
    for m in STAGING:
        copy_tree(download(m, work), os.path.join(root, "staging/src", m.split("@")[0]))
    copy_tree(
        os.path.join(kubernetes, "pkg/apis"),
        os.path.join(root, "pkg/apis"),
        lambda p: p.endswith("/doc.go")
        or p.endswith("/core/v1/validation.go")
        or p.endswith("/lifecycle/v1alpha1/validation.go"),
    )
    # The fixtures' allowlist (the hand-written tests beside it import packages this tree does not hold).
    os.makedirs(os.path.join(root, FIXTURES), exist_ok=True)
    shutil.copy(os.path.join(kubernetes, ALLOWLIST), os.path.join(root, ALLOWLIST))
    os.makedirs(os.path.join(root, "hack/boilerplate"), exist_ok=True)
    shutil.copy(os.path.join(kubernetes, HEADER), os.path.join(root, HEADER))
    with open(os.path.join(root, "go.mod"), "w") as f:
        f.write(GO_MOD)
    with open(os.path.join(root, "go.work"), "w") as f:
        f.write(GO_WORK)
    return kubernetes


def tagged_dirs(root):
    """The directories hack/update-codegen.sh passes: a .go file with a `// +k8s:validation-gen=` line."""
    dirs = set()
    for dirpath, subdirs, files in os.walk(root):
        subdirs[:] = [d for d in subdirs if d not in ("testdata", "vendor", ".vgc")]
        for f in files:
            if not f.endswith(".go"):
                continue
            with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as t:
                for line in t:
                    if line.startswith("//") and line[2:].lstrip().startswith("+k8s:validation-gen="):
                        dirs.add("./" + os.path.relpath(dirpath, root))
                        break
    return sorted(dirs)


def generated(root):
    out = []
    for dirpath, subdirs, files in os.walk(root):
        subdirs[:] = [d for d in subdirs if d != ".vgc"]
        out += [os.path.relpath(os.path.join(dirpath, f), root) for f in files if is_generated(f)]
    return sorted(out)


def remove_generated(root):
    for rel in generated(root):
        os.remove(os.path.join(root, rel))


def flags(dirs, fixtures=False):
    f = ["-v", "0", "--go-header-file", HEADER, "--output-file", OUT,
         "--lint-rules=known-tags-only,require-explicit-disablement"] + (FIXTURE_FLAGS if fixtures else [])
    for p in READ_ONLY:
        f += ["--readonly-pkg", p]
    return f + dirs


def set_up(doc, tool, prefix):
    """The command line (`doc` its help, `tool` what `--work` also holds), the vgc binary (built unless `--vgc`
    names one) and the k8s.io/kubernetes tree laid out in the work directory (a temporary one named `prefix`…
    unless `--work`): returns (args, repo, vgc, work, root, kubernetes)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=5, help="runs per scenario (default 5)")
    ap.add_argument("--vgc", help="the vgc binary (default: cargo build --release, target/release/vgc)")
    ap.add_argument("--work", help=f"directory for the tree and {tool} (default: a temporary one)")
    if tool == "validation-gen":
        ap.add_argument("--fixtures", action="store_true",
                        help="also write the coverage fixtures (--test-output-root …), as update-codegen.sh does")
    a = ap.parse_args()
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    vgc = a.vgc
    if not vgc:
        run(["cargo", "build", "--release", "-p", "vgc"], repo)
        vgc = os.path.join(repo, "target/release/vgc")
    vgc = os.path.abspath(vgc)
    work = a.work or tempfile.mkdtemp(prefix=prefix)
    os.makedirs(work, exist_ok=True)
    root = os.path.realpath(os.path.join(work, "kubernetes"))
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    kubernetes = lay_out(root, work)
    return a, repo, vgc, work, root, kubernetes


def build_go_tool(module_dir, pkg, out, root):
    """Builds the Go tool `pkg` of `module_dir` as `out`, then has go/packages resolve the tree's module graph once
    through the proxy; returns the environment the tool then runs in (offline)."""
    run(["go", "build", "-o", out, pkg], module_dir, dict(os.environ, GOFLAGS="-mod=mod", GOTOOLCHAIN="local"))
    run(["go", "list", "./...", "./staging/src/k8s.io/api/...", "./staging/src/k8s.io/apimachinery/..."],
        root, dict(os.environ, GOFLAGS="", GOTOOLCHAIN="local"))
    return dict(os.environ, GOFLAGS="", GOPROXY="off", GOTOOLCHAIN="local")


SERVER = "vgc-server"


def start_server(cmd, root):
    """Starts `cmd --serve` (vgc's build server of that command) in `root` and waits for its ready line; returns the
    process (its stderr drained on a thread so it never blocks)."""
    import threading
    p = subprocess.Popen(cmd + ["--serve"], cwd=root, stderr=subprocess.PIPE, text=True)
    seen = []
    for line in p.stderr:
        seen.append(line)
        if line.startswith("vgc serve: serving builds of this command at "):
            break
    else:
        sys.exit("the vgc build server did not start:\n" + "".join(seen))
    threading.Thread(target=lambda: [None for _ in p.stderr], daemon=True).start()
    return p


def cpu_model():
    """The CPU's model name from /proc/cpuinfo ("" where there is none)."""
    try:
        with open("/proc/cpuinfo") as f:
            return next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
    except OSError:
        return ""


def main():
    a, repo, vgc, work, root, kubernetes = set_up(__doc__, "validation-gen", "vgc-bench-go-")

    # Upstream validation-gen v0.37.2, built from the module cache; go/packages then resolves the tree's module
    # graph once through the proxy (go.mod files of the staging modules' requirements), and never again.
    upstream = os.path.join(work, "validation-gen")
    go_env = build_go_tool(download(CODE_GENERATOR, work), "./cmd/validation-gen", upstream, root)

    dirs = tagged_dirs(root)
    vgc_cmd = [vgc, "--upstream", "1.37", "validation-gen"] + flags(dirs, a.fixtures)
    tools = {
        "vgc": (vgc_cmd, dict(os.environ, VGC_NO_SERVER="1")),
        # The same command, answered by `vgc validation-gen --serve` started with it after the warm-up run.
        SERVER: (vgc_cmd, os.environ),
        "validation-gen": ([upstream] + flags(dirs, a.fixtures), go_env),
    }
    edited_path = os.path.join(root, EDITED)
    with open(edited_path) as f:
        original = f.read()
    assert original.count(EDIT_BEFORE) == 1, "the edited tag"

    def clean_state():
        remove_generated(root)
        shutil.rmtree(os.path.join(root, ".vgc"), ignore_errors=True)

    def set_minimum(value):
        with open(edited_path, "w") as f:
            f.write(original.replace(EDIT_BEFORE, EDIT_BEFORE.replace("minimum=0", f"minimum={value}")))

    edits = iter(range(1, 10_000))
    scenarios = [
        ("cold", clean_state),
        ("rm, warm", lambda: remove_generated(root)),
        ("no-op", lambda: None),
        ("one tag", lambda: set_minimum(next(edits))),
    ]
    times = {}
    samples_of = {}
    outputs = {}
    for tool, (cmd, env) in tools.items():
        clean_state()
        set_minimum(0)
        run(cmd, root, env)  # warm the OS page cache and Go's caches; every scenario starts from a complete run
        server = start_server(cmd, root) if tool == SERVER else None
        for name, prepare in scenarios:
            if server and name == "cold":
                continue  # `.vgc/` holds the server's socket: a cold run is the one-shot build's
            samples = []
            for _ in range(a.n):
                prepare()
                t0 = time.perf_counter()
                run(cmd, root, env)
                samples.append(time.perf_counter() - t0)
                if name == "one tag":
                    set_minimum(0)
                    run(cmd, root, env)
            times[(tool, name)] = statistics.median(samples)
            samples_of[(tool, name)] = samples
        # The files of a complete run at the original tags, kept for the comparison below.
        if server:
            remove_generated(root)
            served = run(cmd, root, env)
            assert "built by the vgc build server" in served.stderr, served.stderr
            server.terminate()
            server.wait()
        else:
            clean_state()
            run(cmd, root, env)
        keep = os.path.join(work, "out-" + tool)
        shutil.rmtree(keep, ignore_errors=True)
        for rel in generated(root):
            os.makedirs(os.path.dirname(os.path.join(keep, rel)), exist_ok=True)
            shutil.copy(os.path.join(root, rel), os.path.join(keep, rel))
        outputs[tool] = generated(root)
    clean_state()

    same = all(
        outputs[tool] == outputs["validation-gen"] and all(
            filecmp.cmp(os.path.join(work, "out-" + tool, r), os.path.join(work, "out-validation-gen", r),
                        shallow=False)
            for r in outputs[tool]
        )
        for tool in ("vgc", SERVER)
    )
    cpu = cpu_model()
    go_version = run(["go", "version"], root).stdout.strip()
    vgc_version = run([vgc, "--version"], root).stdout.strip()
    print(f"machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores, {cpu}")
    commit = run(["git", "rev-parse", "--short", "HEAD"], repo, check=False).stdout.strip()
    print(f"tools: {vgc_version} ({vgc}; repository at {commit}); "
          f"validation-gen {CODE_GENERATOR.split('@')[1]} built with {go_version}")
    print(f"population: {KUBERNETES} pkg/apis + staging {', '.join(STAGING)}; {len(dirs)} input packages, "
          f"{len(outputs['vgc'])} files written{' (coverage fixtures included)' if a.fixtures else ''}")
    print(f"outputs of vgc (one-shot and build server) and validation-gen: {'identical' if same else 'DIFFERENT'}")
    print(f"median of {a.n} runs, wall time\n")
    print("| scenario | vgc | vgc, build server | validation-gen | vgc / validation-gen | build server / validation-gen |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, _ in scenarios:
        v, u = times[("vgc", name)], times[("validation-gen", name)]
        srv = times.get((SERVER, name))
        cells = (f"{srv:.3f} s", f"{srv / u:.4f} ({u / srv:.0f}×)") if srv else ("—", "—")
        print(f"| {name} | {v:.3f} s | {cells[0]} | {u:.3f} s | {v / u:.3f} ({u / v:.0f}×) | {cells[1]} |")
    print("\nruns (s):")
    for name, _ in scenarios:
        for tool in tools:
            if (tool, name) in samples_of:
                print(f"  {name:9} {tool:17} " + ", ".join(f"{x:.3f}" for x in samples_of[(tool, name)]))
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
