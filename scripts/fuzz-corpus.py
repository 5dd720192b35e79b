#!/usr/bin/env python3
"""Seeds fuzz/corpus/<target>/ from the repository's fixtures (issue 13; docs/reliability.md, "Fuzzing").

Usage: scripts/fuzz-corpus.py [CACHE_OUT_DIR]

- go_frontend, check_pipeline: every tests/fixtures, tests/conformance and examples/api *.go file.
- tag_parser: every distinct `+...` comment line of those files (the text after `// +`).
- go_structured: a few byte strings (the target builds its Go file from any bytes).
- validators: every case of tests/example-generated/tests/cases.json as its own JSON file.
- cache_readers: when CACHE_OUT_DIR (the output directory of a `vgc build`) is given, its manifest, IR cache and
  unit cache files, each behind every selector byte the target understands.

Files are named by the SHA-1 of their content, as libFuzzer names its own corpus entries; existing files stay.
"""
import hashlib
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


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
