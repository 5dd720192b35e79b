#!/usr/bin/env python3
"""Latency and memory of `vgc lsp` on k8s.io/api v0.37.2, driven by a real LSP client (pygls' client, which
pytest-lsp is built on, with VS Code's capabilities from pytest-lsp), for docs/performance.md ("Language server").

    scripts/bench-lsp.py [--vgc target/release/vgc] [--debounce-ms 0] [--rounds 40]

Needs `go` (k8s.io/api and k8s.io/apimachinery v0.37.2 through the module cache or the module proxy) and a release
build (`cargo build --release -p vgc`). pytest-lsp 1.0.1 is installed into target/lsp-bench-venv on first use (the
script re-runs itself with that Python).

Measured, after `initialize` with the module as the workspace folder:
- memory: the server's resident set (VmRSS) and peak (VmHWM) after `didOpen` of every non-test .go file of the
  module and the checks that follow;
- diagnostics: a one-character edit of `core/v1/types.go` (the first `+k8s:maxItems=16` loses its `s`, the next
  edit puts it back, alternating) until the client has the file's new diagnostics (the server's first publication,
  the check's), and until it also has the file's lint warnings again (the second) — `--debounce-ms` of the server
  included (0 by default: the server's own work; an editor's default setup adds the debounce, 100 ms);
- hover on that tag; completion of tag names after `// +k8s:` and of JSON names after
  `+k8s:beta(since: "1.37")=+k8s:listMapKey=` (certificates/v1); go to definition from `listMapKey=type`.
Prints p50/p90/max in milliseconds.
"""

import argparse
import asyncio
import json
import os
import pathlib
import re
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
VENV = ROOT / "target" / "lsp-bench-venv"


def ensure_venv():
    try:
        import pytest_lsp  # noqa: F401

        return
    except ImportError:
        pass
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "pytest-lsp==1.0.1"],
            check=True,
        )
    os.execv(str(python), [str(python), *sys.argv])


def module_dir(module: str) -> pathlib.Path:
    out = subprocess.run(
        ["go", "mod", "download", "-json", module],
        check=True,
        capture_output=True,
        env={**os.environ, "GOFLAGS": "-mod=mod"},
        cwd="/tmp",
    )
    return pathlib.Path(json.loads(out.stdout)["Dir"])


def position(text: str, needle: str, shift: int = 0):
    from lsprotocol import types

    at = text.index(needle) + shift
    line = text.count("\n", 0, at)
    start = text.rfind("\n", 0, at) + 1
    return types.Position(line=line, character=len(text[start:at].encode("utf-16-le")) // 2)


def stats(name: str, ms: list) -> str:
    ms = sorted(ms)
    p = lambda q: ms[min(len(ms) - 1, int(round(q * (len(ms) - 1))))]
    return f"{name:<44} n={len(ms):<4} p50 {p(0.5):7.1f} ms   p90 {p(0.9):7.1f} ms   max {ms[-1]:7.1f} ms"


def proc_status(pid: int) -> dict:
    out = {}
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        k, _, v = line.partition(":")
        if k in ("VmRSS", "VmHWM"):
            out[k] = int(v.split()[0]) // 1024
    return out


async def main(args):
    from lsprotocol import types
    from pygls.lsp.client import BaseLanguageClient
    from pytest_lsp import client_capabilities

    download_api = module_dir("k8s.io/apimachinery@v0.37.2")
    api = module_dir("k8s.io/api@v0.37.2")
    del download_api
    client = BaseLanguageClient("vgc-bench", "1")
    arrivals = []  # (time, uri, diagnostics) of every publishDiagnostics

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(params: types.PublishDiagnosticsParams):
        arrivals.append((time.perf_counter(), params.uri, params.diagnostics))

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def on_log(params):
        pass

    # VS Code's capabilities register file watchers dynamically: the server asks, the client answers.
    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def on_register(params):
        return None

    await client.start_io(
        str(args.vgc),
        "lsp",
        "--debounce-ms",
        str(args.debounce_ms),
        env={**os.environ, "VGC_LSP_TIMINGS": "1"},
    )
    pid = client._server.pid
    # The server's own figures per check (VGC_LSP_TIMINGS=1): "… incremental check 12.3 ms (…), lint 4.5 ms, …".
    server_checks = []

    async def read_stderr():
        while line := await client._server.stderr.readline():
            text = line.decode(errors="replace")
            m = re.search(
                r" incremental check ([\d.]+) ms .*\), first publish ([\d.]+) ms, lint ([\d.]+) ms, publish ([\d.]+) ms",
                text,
            )
            if m:
                server_checks.append(tuple(float(g) for g in m.groups()))

    stderr_task = asyncio.create_task(read_stderr())
    await client.initialize_async(
        types.InitializeParams(
            process_id=os.getpid(),
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=api.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=api.as_uri(), name="api")],
        )
    )
    client.initialized(types.InitializedParams())

    async def quiet(seconds: float):
        """Waits until no diagnostics arrived for `seconds`."""
        while True:
            n = len(arrivals)
            await asyncio.sleep(seconds)
            if len(arrivals) == n:
                return

    files = sorted(p for p in api.rglob("*.go") if not p.name.endswith("_test.go"))
    t0 = time.perf_counter()
    for f in files:
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=f.as_uri(), language_id="go", version=1, text=f.read_text())
            )
        )
    await quiet(2.0)
    opened = time.perf_counter() - t0
    mem = proc_status(pid)
    size = sum(f.stat().st_size for f in files)
    print(f"opened {len(files)} files ({size / 1e6:.1f} MB) and checked: {opened - 2.0:.1f} s; "
          f"server RSS {mem['VmRSS']} MB, peak {mem['VmHWM']} MB")

    core = api / "core/v1/types.go"
    text = core.read_text()
    tag = "// +k8s:maxItems=16"
    at = text.index(tag)
    misspelt = text[:at] + "// +k8s:maxItem=16" + text[at + len(tag):]
    version = 1
    diag_ms = []
    full_ms = []  # until the publication that holds the lint warnings too
    lint_code = lambda ds: any(str(d.code).startswith("VGC03") for d in ds)
    for i in range(args.rounds):
        version += 1
        body = misspelt if i % 2 == 0 else text
        n = len(arrivals)
        start = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=core.as_uri(), version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=body)],
            )
        )
        while True:
            got = [a for a in arrivals[n:] if a[1] == core.as_uri()]
            done = [a for a in got if lint_code(a[2])]
            if got and len(diag_ms) == i:
                want = i % 2 == 0
                has = any(d.code == "VGC0102" for d in got[0][2])
                assert has == want, (i, got[0][2])
                diag_ms.append((got[0][0] - start) * 1000)
            if done:
                full_ms.append((done[0][0] - start) * 1000)
                break
            await asyncio.sleep(0.0005)
        await asyncio.sleep(0.15)
    # The buffer ends as on disk (an even number of rounds).
    mem_after = proc_status(pid)
    edits = server_checks[-args.rounds:]

    async def timed(n, call):
        out = []
        for _ in range(n):
            start = time.perf_counter()
            result = await call()
            out.append((time.perf_counter() - start) * 1000)
        return out, result

    doc = types.TextDocumentIdentifier(uri=core.as_uri())
    hover_ms, hover = await timed(
        args.rounds * 2,
        lambda: client.text_document_hover_async(
            types.HoverParams(text_document=doc, position=position(text, "+k8s:maxItems=16", 3))
        ),
    )
    assert hover.contents.value.startswith("**+k8s:maxItems**")
    names_ms, items = await timed(
        args.rounds * 2,
        lambda: client.text_document_completion_async(
            types.CompletionParams(text_document=doc, position=position(text, "// +k8s:maxItems=16", len("// +k8s:")))
        ),
    )
    assert any(i.label == "maxItems" for i in items)

    certs = api / "certificates/v1/types.go"
    ctext = certs.read_text()
    key = '// +k8s:beta(since: "1.37")=+k8s:listMapKey='
    typing = ctext.replace(key + "type", key, 1)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=certs.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=typing)],
        )
    )
    cdoc = types.TextDocumentIdentifier(uri=certs.as_uri())
    json_ms, items = await timed(
        args.rounds * 2,
        lambda: client.text_document_completion_async(
            types.CompletionParams(text_document=cdoc, position=position(typing, key, len(key)))
        ),
    )
    assert "type" in [i.label for i in items], items
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=certs.as_uri(), version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=ctext)],
        )
    )
    await quiet(0.5)
    def_ms, locs = await timed(
        args.rounds * 2,
        lambda: client.text_document_definition_async(
            types.DefinitionParams(text_document=cdoc, position=position(ctext, "+k8s:listMapKey=type", 16))
        ),
    )
    assert len(locs) == 1, locs
    print(stats(f"diagnostics after a one-character edit (debounce {args.debounce_ms} ms)", diag_ms))
    if edits:
        print(stats("  of which the server's check (vgc check's phases)", [e[0] for e in edits]))
        print(stats("  of which the first publication", [e[1] for e in edits]))
    print(stats("  ... then with vgc's lint rules' warnings too", full_ms))
    if edits:
        print(stats("  of which vgc's lint rules", [e[2] for e in edits]))
        print(stats("  of which the second publication", [e[3] for e in edits]))
    print(stats("hover on a tag", hover_ms))
    print(stats("completion: tag names", names_ms))
    print(stats("completion: JSON names (listMapKey=)", json_ms))
    print(stats("definition (listMapKey=type)", def_ms))
    print(f"server RSS after the edits {mem_after['VmRSS']} MB, peak {mem_after['VmHWM']} MB")
    await client.shutdown_async(None)
    client.exit(None)
    stderr_task.cancel()
    await client.stop()


if __name__ == "__main__":
    ensure_venv()
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--vgc", type=pathlib.Path, default=ROOT / "target" / "release" / "vgc")
    p.add_argument("--debounce-ms", type=int, default=0)
    p.add_argument("--rounds", type=int, default=40)
    asyncio.run(main(p.parse_args()))
