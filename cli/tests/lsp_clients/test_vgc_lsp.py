"""`vgc lsp` driven by pytest-lsp's client (pygls), as an editor drives it: initialize with a real client's
capabilities (VS Code 1.65's, checked against the specification by pytest-lsp), open the bundled example and files
of a real k8s.io/api v0.37.2, edit, and read back diagnostics, hover, completion, definition, references and code
actions; then shut down.

Run by cli/tests/lsp_clients.rs, which installs pytest-lsp into a virtual environment and sets:
VGC_BIN (the vgc binary), VGC_EXAMPLE (examples/api), VGC_K8S_API (k8s.io/api@v0.37.2 in the Go module cache).
"""

import asyncio
import os
import pathlib

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

VGC = os.environ["VGC_BIN"]
EXAMPLE = pathlib.Path(os.environ["VGC_EXAMPLE"]).resolve()
K8S_API = pathlib.Path(os.environ["VGC_K8S_API"]).resolve()
# A whole k8s.io/api check under a debug build takes seconds; the waits allow for a slow machine.
TIMEOUT = float(os.environ.get("VGC_LSP_TIMEOUT", "120"))


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[VGC, "lsp", "--debounce-ms", "20"]),
)
async def client(lsp_client: LanguageClient):
    # VS Code's capabilities include dynamic registration of file watchers: the server asks for them
    # (`client/registerCapability`) once initialized, and a client must answer the request.
    lsp_client.registrations = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams):
        lsp_client.registrations.extend(params.registrations)
        return None

    yield
    await lsp_client.shutdown_session()


async def start(client: LanguageClient, root: pathlib.Path):
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
    )
    result = await client.initialize_session(params)
    assert result.server_info.name == "vgc"
    caps = result.capabilities
    assert caps.definition_provider and caps.references_provider and caps.code_action_provider
    return result


def open_doc(client: LanguageClient, path: pathlib.Path, text: str, version: int = 1):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=path.as_uri(), language_id="go", version=version, text=text
            )
        )
    )


def change(client: LanguageClient, path: pathlib.Path, text: str, version: int):
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def diagnostics_until(client: LanguageClient, uri: str, pred):
    """The diagnostics of `uri` once `pred` accepts them (waiting for further publications)."""

    async def wait():
        while True:
            got = client.diagnostics.get(uri)
            if got is not None and pred(got):
                return got
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    return await asyncio.wait_for(wait(), TIMEOUT)


def position(text: str, needle: str, shift: int = 0, nth: int = 0) -> types.Position:
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += shift
    line = text.count("\n", 0, at)
    start = text.rfind("\n", 0, at) + 1
    # UTF-16 units of the line up to the offset (the files are ASCII up to their tags, but count properly).
    col = len(text[start:at].encode("utf-16-le")) // 2
    return types.Position(line=line, character=col)


def line_of(text: str, needle: str, nth: int = 0) -> int:
    return position(text, needle, nth=nth).line


def doc_pos(path: pathlib.Path, pos: types.Position):
    return dict(text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=pos)


@pytest.mark.asyncio(loop_scope="function")
async def test_example_session(client: LanguageClient):
    await start(client, EXAMPLE)
    path = EXAMPLE / "widgets/v1/types.go"
    text = path.read_text()
    open_doc(client, path, text)
    uri = path.as_uri()

    # The file watchers the server asked for (files changed outside the editor are checked again).
    for _ in range(200):
        if client.registrations:
            break
        await asyncio.sleep(0.05)
    [reg] = client.registrations
    assert reg.method == "workspace/didChangeWatchedFiles"
    globs = [w["globPattern"] for w in reg.register_options["watchers"]]
    assert globs == ["**/*.go", "**/go.mod", "**/vgc.toml"], globs

    # A one-character edit: `+k8s:maxItems=3` becomes `+k8s:maxItem=3`.
    misspelt = text.replace("// +k8s:maxItems=3", "// +k8s:maxItem=3", 1)
    change(client, path, misspelt, 2)
    diags = await diagnostics_until(
        client, uri, lambda ds: any(d.code == "VGC0102" for d in ds)
    )
    d = next(d for d in diags if d.code == "VGC0102")
    assert d.source == "vgc" and d.severity == types.DiagnosticSeverity.Error
    assert d.message.startswith('unknown tag "k8s:maxItem"'), d.message
    assert "did you mean `k8s:maxItems`?" in d.message
    assert d.range.start == position(misspelt, "k8s:maxItem=3")

    # Its quick fix and its explanation.
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=d.range,
            context=types.CodeActionContext(diagnostics=[d]),
        )
    )
    fix = actions[0]
    assert fix.kind == types.CodeActionKind.QuickFix, actions
    assert fix.title == "Change `k8s:maxItem` to `k8s:maxItems`", fix.title
    (edit,) = fix.edit.changes[uri]
    assert edit.new_text == "k8s:maxItems" and edit.range == d.range
    explain = next(a for a in actions if isinstance(a, types.Command))
    assert explain.command == "vgc.explain" and list(explain.arguments) == ["VGC0102"], explain
    text_shown = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="vgc.explain", arguments=explain.arguments)
    )
    assert text_shown.startswith("VGC0102 (unknown-tag)"), text_shown

    # The client applies the fix: the diagnostic goes away.
    change(client, path, text, 3)
    await diagnostics_until(
        client, uri, lambda ds: not any(d.code == "VGC0102" for d in ds)
    )

    # Hover on a tag: its catalog entry.
    hover = await client.text_document_hover_async(
        types.HoverParams(**doc_pos(path, position(text, "+k8s:maxItems=3", 3)))
    )
    assert hover.contents.value.startswith("**+k8s:maxItems**"), hover.contents.value

    # Completion: tag names, formats, listMapKey's JSON names.
    typing = text.replace("// +k8s:listMapKey=name\n\t// +k8s:maxItems=3", "// +k8s:listMapKey=\n\t// +k8s:maxItems=3", 1)
    change(client, path, typing, 4)
    items = await client.text_document_completion_async(
        types.CompletionParams(**doc_pos(path, position(typing, "// +k8s:listMapKey=", len("// +k8s:listMapKey="))))
    )
    assert [i.label for i in items] == ["name", "number"], items
    items = await client.text_document_completion_async(
        types.CompletionParams(**doc_pos(path, position(typing, "// +k8s:", len("// +k8s:"))))
    )
    assert any(i.label == "required" for i in items)
    change(client, path, text, 5)

    # Definition: listMapKey=type on Conditions → Condition.Type; a type name → its declaration.
    loc = await client.text_document_definition_async(
        types.DefinitionParams(**doc_pos(path, position(text, "listMapKey=type", 12)))
    )
    assert [l.range.start.line for l in loc] == [line_of(text, 'Type string `json:"type"`')], loc
    loc = await client.text_document_definition_async(
        types.DefinitionParams(**doc_pos(path, position(text, "[]Condition", 4)))
    )
    assert [l.range.start.line for l in loc] == [line_of(text, "type Condition struct")], loc
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            context=types.ReferenceContext(include_declaration=False),
            **doc_pos(path, position(text, "unionMember", 3)),
        )
    )
    assert [r.range.start.line for r in refs] == [
        line_of(text, "Host *string"),
        line_of(text, "IP *string"),
    ], refs


@pytest.mark.asyncio(loop_scope="function")
async def test_k8s_api_session(client: LanguageClient):
    await start(client, K8S_API)
    core = K8S_API / "core/v1/types.go"
    text = core.read_text()
    open_doc(client, core, text)
    uri = core.as_uri()

    # A one-character edit of a real tag: the first `+k8s:maxItems=16` loses its `s`.
    at = text.index("// +k8s:maxItems=16")
    misspelt = text[:at] + "// +k8s:maxItem=16" + text[at + len("// +k8s:maxItems=16"):]
    change(client, core, misspelt, 2)
    diags = await diagnostics_until(
        client, uri, lambda ds: any(d.code == "VGC0102" for d in ds)
    )
    (d,) = [d for d in diags if d.code == "VGC0102"]
    assert d.range.start == position(misspelt, "k8s:maxItem=16"), d.range
    assert "did you mean `k8s:maxItems`?" in d.message, d.message
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=d.range,
            context=types.CodeActionContext(diagnostics=[d]),
        )
    )
    assert actions[0].edit.changes[uri][0].new_text == "k8s:maxItems", actions
    change(client, core, text, 3)
    await diagnostics_until(client, uri, lambda ds: not any(d.code == "VGC0102" for d in ds))

    hover = await client.text_document_hover_async(
        types.HoverParams(**doc_pos(core, position(text, "+k8s:maxItems=16", 3)))
    )
    assert hover.contents.value.startswith("**+k8s:maxItems**"), hover.contents.value

    # certificates/v1: `+k8s:beta(since: "1.37")=+k8s:listMapKey=type` and `item(type: "Approved")` name
    # CertificateSigningRequestCondition.Type.
    certs = K8S_API / "certificates/v1/types.go"
    ctext = certs.read_text()
    open_doc(client, certs, ctext)
    want = line_of(ctext, "Type RequestConditionType")
    for needle, shift in [("+k8s:listMapKey=type", 16), ('item(type: "Approved")', 6)]:
        loc = await client.text_document_definition_async(
            types.DefinitionParams(**doc_pos(certs, position(ctext, needle, shift)))
        )
        assert [(l.uri, l.range.start.line) for l in loc] == [(certs.as_uri(), want)], (needle, loc)
    # References of that field: the tag paths naming it (listMapKey=type and the two item(type: …) keys), by line.
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            context=types.ReferenceContext(include_declaration=False),
            **doc_pos(certs, position(ctext, "Type RequestConditionType", 1)),
        )
    )
    assert sorted({r.range.start.line for r in refs}) == sorted(
        {
            line_of(ctext, '+k8s:beta(since: "1.37")=+k8s:listMapKey=type'),
            line_of(ctext, 'item(type: "Approved")'),
            line_of(ctext, 'item(type: "Denied")'),
        }
    ), refs
    # A lint fix (VGC0317, `vgc lint --fix`'s canonical spelling) is a quick fix too.
    diags = await diagnostics_until(
        client, certs.as_uri(), lambda ds: any(d.code == "VGC0317" for d in ds)
    )
    spelling = next(d for d in diags if d.code == "VGC0317")
    assert spelling.range.start.line == line_of(ctext, '+k8s:alpha(since:"1.37")=+k8s:optional'), spelling
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=certs.as_uri()),
            range=spelling.range,
            context=types.CodeActionContext(diagnostics=[spelling]),
        )
    )
    (edit,) = actions[0].edit.changes[certs.as_uri()]
    assert edit.new_text == 'k8s:alpha(since: "1.37")=+k8s:optional', actions[0]
    assert actions[0].title.startswith("Replace `k8s:alpha(since:"), actions[0].title
    # Completion of the list's JSON names behind the beta wrapper.
    typing = ctext.replace('// +k8s:beta(since: "1.37")=+k8s:listMapKey=type', '// +k8s:beta(since: "1.37")=+k8s:listMapKey=', 1)
    change(client, certs, typing, 2)
    needle = '// +k8s:beta(since: "1.37")=+k8s:listMapKey='
    items = await client.text_document_completion_async(
        types.CompletionParams(**doc_pos(certs, position(typing, needle, len(needle))))
    )
    labels = [i.label for i in items]
    assert "type" in labels and "status" in labels and "lastUpdateTime" in labels, labels
    # References of a type: the fields using it (ObjectMeta is used by every kind's metadata).
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            context=types.ReferenceContext(include_declaration=False),
            **doc_pos(certs, position(ctext, "[]CertificateSigningRequestCondition", 4)),
        )
    )
    assert [r.range.start.line for r in refs] == [line_of(ctext, "Conditions []CertificateSigningRequestCondition")], refs
