#!/usr/bin/env python3
"""Seeds fuzz/corpus/<target>/ from the repository's fixtures (issue 13; docs/reliability.md, "Fuzzing").

Usage: scripts/fuzz-corpus.py [CACHE_OUT_DIR]
       scripts/fuzz-corpus.py --upstream SEED_DIR
       scripts/fuzz-corpus.py --journals JOURNAL...


- go_frontend, check_pipeline: every tests/fixtures, tests/conformance and examples/api *.go file.
- tag_parser: every distinct `+...` comment line of those files (the text after `// +`).
- go_structured: a few byte strings (the target builds its Go file from any bytes).
- validators: every case of tests/example-generated/tests/cases.json as its own JSON file.
- validate_reader: every cli/tests/validate/manifests file behind settings bytes choosing the API it is written for
  (plain, and with --strict, --no-defaults, a subresource, the beta gate), and the --old pairs of the CLI tests
  (new.yaml/old.yaml, gadgets.yaml/gadgets-old*.yaml) joined by the 0xFF separator.
- output_journal: journals for the target's layout (vgc's files and the user's, links, paths out of the output)
  in the raw form (selector byte 0), and a few byte strings in the structured form (selector byte 1). With
  --journals, the given journal.json files too (journals vgc wrote, left by a killed build: docs/reliability.md).
- cache_readers: when CACHE_OUT_DIR (the output directory of a `vgc build`) is given, its manifest, IR cache and
  unit cache files, each behind every selector byte the target understands.

With --upstream, seeds come from upstream instead and go to SEED_DIR/<target>/ (never into the committed corpus:
nothing from those modules is copied into the repository). The modules are fetched by name through the Go module
proxy (`go mod download -json`): every *.go file of k8s.io/code-generator's cmd/validation-gen/output_tests (pinned
version as in tests/src/harness.rs) and of k8s.io/api's API groups (types.go, doc.go, the files that carry tags),
for go_frontend and check_pipeline; their distinct `+...` comment lines for tag_parser. Pass SEED_DIR/<target> as a
second corpus directory to libFuzzer (docs/reliability.md, "Fuzzing").

Files are named by the SHA-1 of their content, as libFuzzer names its own corpus entries; existing files stay.
"""
import hashlib
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"


def put(target, data, corpus=CORPUS):
    if isinstance(data, str):
        data = data.encode()
    d = corpus / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


UPSTREAM = {
    # module: (version, folders whose *.go files seed)
    "k8s.io/code-generator": ("v0.37.2", ["cmd/validation-gen/output_tests"]),
    "k8s.io/api": ("v0.37.2", ["."]),
}


def seed_upstream(seed_dir):
    import subprocess

    seed_dir = pathlib.Path(seed_dir)
    tags = set()
    count = 0
    for module, (version, folders) in UPSTREAM.items():
        info = json.loads(
            subprocess.run(
                ["go", "mod", "download", "-json", f"{module}@{version}"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        root = pathlib.Path(info["Dir"])
        for folder in folders:
            for p in sorted((root / folder).rglob("*.go")):
                if p.name.startswith("zz_generated") or p.name.endswith("_test.go"):
                    continue
                data = p.read_bytes()
                if b"// +" not in data or len(data) > 256 * 1024:
                    continue
                put("go_frontend", data, seed_dir)
                put("check_pipeline", data, seed_dir)
                count += 1
                for m in re.finditer(rb"^\s*//\s*\+(.*)$", data, re.M):
                    tags.add(m.group(1))
    for t in sorted(tags):
        put("tag_parser", t, seed_dir)
    print(f"{count} Go files and {len(tags)} tag lines from {', '.join(f'{m}@{v[0]}' for m, v in UPSTREAM.items())} in {seed_dir}")


if len(sys.argv) > 2 and sys.argv[1] == "--upstream":
    seed_upstream(sys.argv[2])
    sys.exit(0)

if len(sys.argv) > 2 and sys.argv[1] == "--journals":
    for j in sys.argv[2:]:
        put("output_journal", b"\x00" + pathlib.Path(j).read_bytes())
    sys.exit(0)

go_files = sorted(
    p
    for base in ("tests/fixtures", "tests/conformance", "examples/api")
    for p in (ROOT / base).rglob("*.go")
)
tags = set()
for p in go_files:
    data = p.read_bytes()
    put("go_frontend", data)
    put("check_pipeline", data)
    for m in re.finditer(rb"^\s*//\s*\+(.*)$", data, re.M):
        tags.add(m.group(1))
for t in sorted(tags):
    put("tag_parser", t)

for seed in (bytes(i * 37 % 251 for i in range(512)), b"", b"\x00", b"\x01\x02\x03\x04\x05\x06\x07\x08", bytes(range(64)), b"\xff" * 64):
    put("go_structured", seed)

cases = json.loads((ROOT / "tests/example-generated/tests/cases.json").read_text())
for c in cases:
    c.pop("expect", None)
    c.pop("name", None)
    put("validators", json.dumps(c, sort_keys=True))

# validate_reader: byte a = API (0 api, 1 defaults-api, 2 strict-api) | 4 --strict | 8 --no-defaults | 16 status;
# byte b = 4 WidgetModes off, 12 on with the beta gate, 16 the release named, 32 the old file as an input too.
MANIFESTS = ROOT / "cli/tests/validate/manifests"
API_OF = {"gadgets": 1, "minified": 1, "strict-things": 2}
for p in sorted(MANIFESTS.iterdir()):
    api = next((a for prefix, a in API_OF.items() if p.name.startswith(prefix)), 0)
    data = p.read_bytes()
    for a, b in ((api, 0), (api | 4 | 8 | 16, 4 | 16), (api | 64, 12 | 1)):
        put("validate_reader", bytes([a, b]) + data)
for new, old in [("new.yaml", "old.yaml"), ("widgets.yaml", "old.yaml")] + [
    ("gadgets.yaml", o.name) for o in sorted(MANIFESTS.glob("gadgets-old*.yaml"))
]:
    api = 1 if new.startswith("gadgets") else 0
    put("validate_reader", bytes([api, 32]) + (MANIFESTS / new).read_bytes() + b"\xff" + (MANIFESTS / old).read_bytes())

# output_journal, raw form: journals naming the layout's files (fuzz/src/output_journal.rs).
for j in (
    {"writes": [["0", "src/lib.rs"], ["1", "src/new.rs"], ["2", "src/nested/new.rs"]], "removes": ["src/old.rs"]},
    {"writes": [["3", "Cargo.toml"], ["0", "src/old.rs"]], "removes": ["src/nested/deep.rs", "mine.rs", "src/user.rs"]},
    {"writes": [["3", "mine.rs"], ["0", "README.md"]], "removes": ["link-file.rs", "src/link-up.rs", "userdir"]},
    {"writes": [["0", "../sentinel/ours.rs"], ["1", "link-dir/ours.rs"], ["2", "up/out/mine.rs"]],
     "removes": ["link-dir/ours.rs", "../sentinel-ours.rs", "up/sentinel/ours.rs"]},
    {"writes": [["0", ".vgc/staging-zz/0"], ["1", ".vgc/units/.tmp1"]], "removes": [".vgc/lock"]},
    {"writes": [], "removes": []},
):
    put("output_journal", b"\x00" + json.dumps(j).encode())
put("output_journal", b"\x00")
put("output_journal", b"\x00{\"writes\": [[\"0\", \"src/li")
# Structured form: any bytes make a case.
for seed in (bytes(i * 37 % 251 for i in range(512)), bytes(range(64)), b"\xff" * 64, bytes(i * 11 % 256 for i in range(1024))):
    put("output_journal", b"\x01" + seed)

if len(sys.argv) > 1:
    out = pathlib.Path(sys.argv[1])
    # (file, selector for the whole file, selector for the body behind header and checksum)
    for p in sorted(q for q in out.rglob("*") if q.is_file() and ".vgc" in str(q.relative_to(out))):
        name = str(p.relative_to(out))
        raw, framed = (0, None) if "build" in name else (1, 2) if "ir" in name else (3, 4) if "unit" in name else (None, None)
        if raw is None:
            continue
        data = p.read_bytes()
        if len(data) > 32 * 1024:  # keep the corpus small
            continue
        put("cache_readers", bytes([raw]) + data)
        if framed is not None:
            put("cache_readers", bytes([framed]) + data.split(b"\n", 1)[-1][32:])
