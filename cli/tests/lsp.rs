//! `vgc lsp` driven as an editor drives it: the built binary spawned, JSON-RPC with `Content-Length` framing on its
//! stdin/stdout, a temporary Go module opened, edited, hovered and completed in, then shut down.

use serde_json::{Value, json};
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The package clause with upstream's activation tag (`doc.go`).
const DOC_GO: &str = "// +k8s:validation-gen=TypesWithField=TypeMeta\npackage v1\n";

/// `types.go` with `tag` on the line before `Name` — after a block comment holding `é` (two bytes, one UTF-16 unit),
/// so the published column proves the byte-to-UTF-16 conversion.
fn types_go(tag: &str) -> String {
    format!(
        "package v1\n\ntype TypeMeta struct{{}}\n\ntype Order struct {{\n\tTypeMeta `json:\",inline\"`\n\t/* é */ // {tag}\n\tName string `json:\"name\"`\n}}\n"
    )
}

/// A running `vgc lsp` and the messages it sent.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    from: Receiver<Value>,
    next_id: i64,
}

impl Server {
    fn start(cwd: &std::path::Path) -> Self {
        Self::start_with(cwd, &[])
    }

    /// `vgc lsp` in `cwd` with the environment variables `env` set.
    fn start_with(cwd: &std::path::Path, env: &[(&str, &str)]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_vgc"))
            .args(["lsp", "--debounce-ms", "20"])
            .envs(env.iter().copied())
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("vgc lsp starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, from) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = None;
                let mut line = String::new();
                loop {
                    line.clear();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let l = line.trim_end();
                    if l.is_empty() {
                        break;
                    }
                    if let Some(v) = l.strip_prefix("Content-Length: ") {
                        len = v.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; len.expect("Content-Length")];
                r.read_exact(&mut body).expect("body");
                let v: Value = serde_json::from_slice(&body).expect("the server sends JSON");
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Self {
            child,
            stdin,
            from,
            next_id: 0,
        }
    }

    fn raw(&mut self, body: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        write!(stdin, "Content-Length: {}\r\n\r\n", body.len()).expect("header");
        stdin.write_all(body).expect("body");
        stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        let m = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.raw(m.to_string().as_bytes());
    }

    /// Sends a request and waits for its response (other messages read meanwhile are dropped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let m = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.raw(m.to_string().as_bytes());
        self.wait(&format!("the response to {method}"), |m| {
            m["id"] == json!(id)
        })
    }

    /// The next message `pred` accepts, within 30 s (with `LSP_TEST_TRACE` set, the messages passed over are
    /// printed).
    fn wait(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from.recv_timeout(left) {
                Ok(m) if pred(&m) => return m,
                Ok(m) => {
                    if std::env::var_os("LSP_TEST_TRACE").is_some() {
                        eprintln!(
                            "skipped: {}",
                            &m.to_string()[..m.to_string().len().min(300)]
                        );
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timed out waiting for {what}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the server ended before {what}"),
            }
        }
    }

    /// `initialize` (with `root` as the `rootUri`, if any) and `initialized`; the `initialize` response.
    fn initialize(&mut self, root: Option<&std::path::Path>) -> Value {
        let params = match root {
            Some(root) => {
                json!({"processId": null, "rootUri": format!("file://{}", root.display()), "capabilities": {}})
            }
            None => json!({"processId": null, "capabilities": {}}),
        };
        let init = self.request("initialize", params);
        self.notify("initialized", json!({}));
        init
    }

    /// `didOpen` of `uri` (version 1) holding `text`.
    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "go", "version": 1, "text": text}}),
        );
    }

    /// `didChange` of `uri` to `version`, the whole text replaced by `text`.
    fn change(&mut self, uri: &str, version: impl Into<Value>, text: &str) {
        let version = version.into();
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    /// The response to `method` at position `p` of `uri` (references without the declaration).
    fn at(&mut self, method: &str, uri: &str, p: Value) -> Value {
        let mut params = json!({"textDocument": {"uri": uri}, "position": p});
        if method == "textDocument/references" {
            params["context"] = json!({"includeDeclaration": false});
        }
        self.request(method, params)
    }

    /// `shutdown` then `exit`; the `shutdown` response.
    fn shutdown(&mut self) -> Value {
        let shutdown = self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        shutdown
    }

    /// The `publishDiagnostics` for `uri` until one `done` accepts; that one.
    fn diagnostics_until(&mut self, uri: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        loop {
            let d = self.diagnostics(uri);
            if done(&d) {
                return d;
            }
        }
    }

    /// The next `publishDiagnostics` for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let m = self.wait(&format!("diagnostics of {uri}"), |m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        m["params"]["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .clone()
    }
}

#[test]
fn an_editor_session_diagnostics_hover_completion_and_shutdown() {
    // On disk the tag is right: the misspelling exists only in the editor's buffer.
    let (_dir, root, uri) = module(&types_go("+k8s:required"));

    let mut s = Server::start(&root);
    let init = s.initialize(Some(&root));
    assert_eq!(init["result"]["serverInfo"]["name"], "vgc", "{init}");
    assert!(
        init["result"]["capabilities"]["hoverProvider"] == true,
        "{init}"
    );

    // A message that is not JSON-RPC does not kill the server: it answers the next request.
    s.raw(b"{ this is not json");
    s.raw(br#"{"jsonrpc": "2.0", "no": "method"}"#);

    let misspelt = types_go("+k8s:requred");
    s.open(&uri, &misspelt);
    let d = s.diagnostics_until(&uri, |d| !d.is_empty());
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["code"], "VGC0102", "{d:?}");
    assert_eq!(d[0]["severity"], 1, "{d:?}");
    assert_eq!(d[0]["source"], "vgc", "{d:?}");
    let message = d[0]["message"].as_str().expect("message");
    assert!(
        message.starts_with("unknown tag \"k8s:requred\""),
        "{message}"
    );
    // `\t/* é */ // +k8s:requred`: the tag's name `k8s:requred` is bytes 14..25 of line 6, UTF-16 units 13..24.
    assert_eq!(
        d[0]["range"],
        json!({"start": {"line": 6, "character": 13}, "end": {"line": 6, "character": 24}}),
        "{d:?}"
    );
    assert!(
        message.contains("\nhint: did you mean `k8s:required`?"),
        "{message}"
    );

    // No catalog entry for a tag the catalog does not know: the hover explains the diagnostic's code.
    let hover = s.at(
        "textDocument/hover",
        &uri,
        json!({"line": 6, "character": 16}),
    );
    let shown = hover_text(&hover);
    assert!(shown.starts_with("VGC0102 (unknown-tag)"), "{hover}");
    let fixed = types_go("+k8s:required");
    s.change(&uri, 2, &fixed);
    assert_eq!(
        s.diagnostics(&uri),
        Vec::<Value>::new(),
        "the fix clears them"
    );

    let hover = s.at(
        "textDocument/hover",
        &uri,
        json!({"line": 6, "character": 16}),
    );
    let text = hover_text(&hover);
    assert!(text.starts_with("**+k8s:required**"), "{text}");
    assert!(text.contains("Example:"), "{text}");
    assert_eq!(
        hover["result"]["range"],
        json!({"start": {"line": 6, "character": 12}, "end": {"line": 6, "character": 25}})
    );

    let typing = types_go("+k8s:");
    s.change(&uri, 3, &typing);
    let completion = s.at(
        "textDocument/completion",
        &uri,
        json!({"line": 6, "character": 17}),
    );
    let items = completion["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{completion}"));
    let required = items
        .iter()
        .find(|i| i["label"] == "required")
        .unwrap_or_else(|| panic!("no `required` in {completion}"));
    assert!(
        required["detail"].as_str().is_some_and(|d| !d.is_empty()),
        "{required}"
    );
    let formats = types_go("+k8s:format=");
    s.change(&uri, 4, &formats);
    let completion = s.at(
        "textDocument/completion",
        &uri,
        json!({"line": 6, "character": 24}),
    );
    let items = completion["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{completion}"));
    assert!(
        items.iter().any(|i| i["label"] == "k8s-short-name"),
        "{completion}"
    );

    // An unknown request is an error response, not a dead server.
    let unknown = s.request("vgc/noSuchMethod", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");

    let shutdown = s.shutdown();
    assert_eq!(shutdown["result"], Value::Null, "{shutdown}");
    drop(s.stdin.take());
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(st) = s.child.try_wait().expect("wait") {
            break st;
        }
        assert!(
            Instant::now() < deadline,
            "vgc lsp did not exit after `exit`"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
}

#[test]
fn closing_a_buffer_checks_the_file_on_disk_again() {
    let (_dir, root, uri) = module(&types_go("+k8s:required"));
    let mut s = Server::start(&root);
    s.initialize(None);
    s.open(&uri, &types_go("+k8s:maxLenght=3"));
    let d = s.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("unknown tag \"k8s:maxLenght\"")),
        "{d:?}"
    );
    s.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(
        s.diagnostics(&uri),
        Vec::<Value>::new(),
        "the file on disk is right"
    );
    s.shutdown();
}

/// A temporary module (`go.mod`, `apis/v1/doc.go`) whose `apis/v1/types.go` holds `types`: the directory (removed
/// when dropped), its canonical path and the URI of `types.go`.
fn module(types: &str) -> (tempfile::TempDir, std::path::PathBuf, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    std::fs::write(root.join("go.mod"), "module example.com/p\n\ngo 1.25\n").expect("go.mod");
    std::fs::create_dir_all(root.join("apis/v1")).expect("mkdir");
    std::fs::write(root.join("apis/v1/doc.go"), DOC_GO).expect("doc.go");
    std::fs::write(root.join("apis/v1/types.go"), types).expect("types.go");
    let uri = format!("file://{}", root.join("apis/v1/types.go").display());
    (dir, root, uri)
}

/// The text of a hover response.
fn hover_text(h: &Value) -> &str {
    h["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("{h}"))
}

/// The labels of a completion response's items.
fn completion_labels(c: &Value) -> Vec<String> {
    c["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{c}"))
        .iter()
        .filter_map(|i| i["label"].as_str().map(str::to_string))
        .collect()
}

/// The bundled example's `widgets/v1/types.go` (canonical path), its URI and text.
fn example() -> (std::path::PathBuf, String, String) {
    let root = std::fs::canonicalize(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/api"))
        .expect("examples/api");
    let file = root.join("widgets/v1/types.go");
    let uri = format!("file://{}", file.display());
    let text = std::fs::read_to_string(&file).expect("types.go");
    (root, uri, text)
}

/// The LSP position (0-based line, UTF-16 column; the example is ASCII) of the `nth` (0-based) occurrence of
/// `needle` in `text`, moved `shift` bytes into it.
fn pos(text: &str, needle: &str, nth: usize, shift: usize) -> Value {
    let at = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle:?} #{nth} not in the text"))
        .0
        + shift;
    let line = text[..at].matches('\n').count();
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": col})
}

/// The 0-based line of the `nth` occurrence of `needle`.
fn line_of(text: &str, needle: &str, nth: usize) -> u64 {
    pos(text, needle, nth, 0)["line"].as_u64().expect("line")
}

/// The start lines of the locations of a definition or references result.
fn lines(v: &Value) -> Vec<u64> {
    v["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{v}"))
        .iter()
        .map(|l| l["range"]["start"]["line"].as_u64().expect("line"))
        .collect()
}

/// Opens the example and waits for its first check (the workspace's diagnostics, whatever they are).
fn open_example(s: &mut Server, root: &std::path::Path, uri: &str, text: &str) {
    s.initialize(Some(root));
    s.open(uri, text);
}

/// Issue 40: go to definition from field paths in tags (`listMapKey`, `item(…)`'s keys, `subfield(…)`), from a
/// union member to the union's members, from a type name to its declaration; references of a type are the fields
/// using it.
#[test]
fn definition_and_references_in_the_example() {
    let (root, uri, text) = example();
    let mut s = Server::start(&root);
    open_example(&mut s, &root, &uri, &text);
    // The response to `method` at `p`, whose locations start on the lines `want`.
    let check = |s: &mut Server, method: &str, p: Value, want: &[u64]| {
        let v = s.at(method, &uri, p);
        assert_eq!(lines(&v), want, "{v}");
        v
    };
    let condition_type = line_of(&text, "Type string `json:\"type\"`", 0);
    // `+k8s:listMapKey=type` on Conditions: Condition.Type.
    let d = check(
        &mut s,
        "textDocument/definition",
        pos(&text, "listMapKey=type", 0, 12),
        &[condition_type],
    );
    assert_eq!(d["result"][0]["uri"], uri.as_str());
    // References of Condition.Type: the tag paths naming it — `listMapKey=type` and the three `item(type: …)` keys.
    let r = check(
        &mut s,
        "textDocument/references",
        pos(&text, "Type string `json:\"type\"`", 0, 1),
        &[
            line_of(&text, "listMapKey=type", 0),
            line_of(&text, "item(type: \"Ready\")=+k8s:immutable", 0),
            line_of(&text, "item(type: \"Ready\")=+k8s:zeroOrOneOfMember", 0),
            line_of(&text, "item(type: \"Failed\")", 0),
            line_of(&text, "item(type: \"Progress\")", 0),
        ],
    );
    assert_eq!(
        r["result"][0]["range"]["start"],
        pos(&text, "listMapKey=type", 0, 11),
        "{r}"
    );
    // `+k8s:item(type: "Ready")`: the key names Condition.Type too.
    check(
        &mut s,
        "textDocument/definition",
        pos(&text, "item(type: \"Ready\")", 0, 6),
        &[condition_type],
    );
    // `+k8s:item(type: "Progress")=+k8s:subfield(status)`: the subfield of the item is Condition.Status.
    check(
        &mut s,
        "textDocument/definition",
        pos(&text, "subfield(status)", 0, 10),
        &[line_of(&text, "Status string", 0)],
    );
    // `+k8s:subfield(mode)` on Network *Network: Network.Mode.
    check(
        &mut s,
        "textDocument/definition",
        pos(&text, "subfield(mode)", 0, 10),
        &[line_of(&text, "Mode string `json:\"mode\"`", 1)],
    );
    // `+k8s:listMapKey=name` on Ports []Port: Port.Name.
    check(
        &mut s,
        "textDocument/definition",
        pos(&text, "listMapKey=name", 0, 12),
        &[line_of(&text, "Name string `json:\"name\"`", 0)],
    );
    // A union member: the union's members, Host and IP.
    let endpoint_host = line_of(&text, "Host *string", 0);
    let endpoint_ip = line_of(&text, "IP *string", 0);
    check(
        &mut s,
        "textDocument/references",
        pos(&text, "unionMember", 0, 3),
        &[endpoint_host, endpoint_ip],
    );
    check(
        &mut s,
        "textDocument/definition",
        pos(&text, "unionMember", 0, 3),
        &[endpoint_host, endpoint_ip],
    );
    // Source's union: the discriminator and both members, not the zeroOrOneOf group.
    check(
        &mut s,
        "textDocument/references",
        pos(&text, "unionDiscriminator", 0, 3),
        &[
            line_of(&text, "Type SourceType", 0),
            line_of(&text, "Git *GitSource", 0),
            line_of(&text, "Container *string", 0),
        ],
    );
    // The sibling a dependent-field tag names: the field; the field's references include the tag.
    check(
        &mut s,
        "textDocument/definition",
        pos(&text, "dependentRequired(max)", 0, 19),
        &[line_of(&text, "Max *int32", 0)],
    );
    check(
        &mut s,
        "textDocument/definition",
        pos(&text, "dependentForbidden(fixed)", 0, 20),
        &[line_of(&text, "Fixed *int32", 0)],
    );
    check(
        &mut s,
        "textDocument/references",
        pos(&text, "Max *int32", 0, 0),
        &[line_of(&text, "dependentRequired(max)", 0)],
    );
    // A type name in a field's type: its declaration; and the fields using it.
    check(
        &mut s,
        "textDocument/definition",
        pos(&text, "[]Condition", 0, 4),
        &[line_of(&text, "type Condition struct", 0)],
    );
    check(
        &mut s,
        "textDocument/references",
        pos(&text, "type Condition struct", 0, 6),
        &[line_of(&text, "Conditions []Condition", 0)],
    );
    // Across packages: `metav1.TypeMeta` is declared in meta/v1.
    let d = s.at(
        "textDocument/definition",
        &uri,
        pos(&text, "metav1.TypeMeta", 0, 9),
    );
    let target = d["result"][0]["uri"]
        .as_str()
        .unwrap_or_else(|| panic!("{d}"));
    assert!(target.ends_with("/meta/v1/types.go"), "{d}");
    // Hover on a field's name: its effective rules in words — its own, its typedef's, its struct's that name it.
    let hover =
        |s: &mut Server, p: Value| hover_text(&s.at("textDocument/hover", &uri, p)).to_string();
    let host = hover(&mut s, pos(&text, "Host *string", 0, 1));
    assert!(
        host.starts_with("**Endpoint.host** — rules under upstream"),
        "{host}"
    );
    // Each rule links the tag line it comes from.
    assert!(
        host.contains(&format!(
            "\n- optional ([`+k8s:optional`]({uri}#L{}))\n",
            line_of(&text, "Host *string", 0)
        )),
        "{host}"
    );
    assert!(
        host.contains(&format!(
            "With its siblings in [`Endpoint`]({uri}#L{}):\n- exactly one of host, ip must be set",
            line_of(&text, "type Endpoint struct", 0) + 1
        )),
        "{host}"
    );
    let size = hover(&mut s, pos(&text, "Size Size", 0, 1));
    assert!(
        size.contains(&format!(
            "Through its type, typedef [`Size`]({uri}#L{}):\n- one of \"Large\", \"Small\", \"XLarge\"; \"XLarge\" is not allowed while option WidgetXL is disabled",
            line_of(&text, "type Size string", 0) + 1
        )),
        "{size}"
    );
    let ports = hover(&mut s, pos(&text, "Ports []Port", 0, 1));
    assert!(
        ports.contains(&format!(
            "- at most 3 items ([`+k8s:maxItems`]({uri}#L{}))\n",
            line_of(&text, "+k8s:maxItems=3", 0) + 1
        )),
        "{ports}"
    );
    // Two `ifEnabled` lines on one field: each rule links its own (the tags inside the wrapper tell them apart); a
    // mode's rule on a field links the field's `ifMode` line, not the struct's first.
    let gpus = hover(&mut s, pos(&text, "GPUs *int32", 0, 1));
    let tag_line = |needle: &str| line_of(&text, needle, 0) + 1;
    for (rule, tag, needle) in [
        (
            "optional, only while option WidgetGPU is enabled",
            "ifEnabled",
            "+k8s:ifEnabled(WidgetGPU)=+k8s:optional",
        ),
        (
            "at least 1, only while option WidgetGPU is enabled",
            "ifEnabled",
            "+k8s:ifEnabled(WidgetGPU)=+k8s:minimum=1",
        ),
        (
            "must not be set, only while option WidgetGPU is disabled",
            "ifDisabled",
            "+k8s:ifDisabled(WidgetGPU)=+k8s:forbidden",
        ),
    ] {
        let want = format!("- {rule} ([`+k8s:{tag}`]({uri}#L{}))\n", tag_line(needle));
        assert!(gpus.contains(&want), "{want}\n{gpus}");
    }
    let interval = hover(&mut s, pos(&text, "IntervalSeconds *int32", 0, 1));
    let want = format!(
        "when mode is anything else: must not be set ([`+k8s:ifMode`]({uri}#L{}))",
        tag_line("+k8s:ifMode(Pull)=+k8s:optional")
    );
    assert!(interval.contains(&want), "{want}\n{interval}");
    // A type named in a field's type: that type's rules (as on its declaration).
    let named = hover(&mut s, pos(&text, "Condition `json:\"conditions", 0, 1));
    assert!(
        named.starts_with("**Condition** — rules under upstream"),
        "{named}"
    );
    let condition = hover(&mut s, pos(&text, "Condition struct", 0, 1));
    assert!(
        condition.starts_with("**Condition** — rules under upstream"),
        "{condition}"
    );
    // A generator-control tag of the package (doc.go): what it controls.
    let doc_uri = uri.replace("/types.go", "/doc.go");
    let doc_text = std::fs::read_to_string(root.join("widgets/v1/doc.go")).expect("doc.go");
    s.open(&doc_uri, &doc_text);
    let control = s.at(
        "textDocument/hover",
        &doc_uri,
        pos(&doc_text, "+k8s:validation-gen=", 0, 6),
    );
    assert!(
        hover_text(&control).starts_with(
            "**+k8s:validation-gen** — generator control tag, not a validation rule (scopes: Package, Type)\n\n`+k8s:validation-gen=<criterion|*|false>` (package; `true`/`false` on a type): which types get validation functions."
        ),
        "{control}"
    );
    // Nothing under a plain comment.
    let d = s.at(
        "textDocument/definition",
        &uri,
        pos(&text, "Widget is a root type", 0, 2),
    );
    assert_eq!(d["result"], json!([]), "{d}");
    s.shutdown();
}

/// Issue 40: argument completion — `listType=` values, the profile's formats, JSON names of the list's items for
/// `listMapKey=` and `item(`, of the field's struct for `subfield(`.
#[test]
fn argument_completion_in_the_example() {
    let (root, uri, text) = example();
    let mut s = Server::start(&root);
    open_example(&mut s, &root, &uri, &text);
    let edited = text
        .replace(
            "// +k8s:listMapKey=name\n\t// +k8s:maxItems=3",
            "// +k8s:listMapKey=\n\t// +k8s:maxItems=3",
        )
        .replace(
            "// +k8s:subfield(mode)=+k8s:maxLength=8",
            "// +k8s:subfield(",
        )
        .replace(
            "// +k8s:item(type: \"Ready\")=+k8s:immutable",
            "// +k8s:item(",
        )
        .replace("// +k8s:listType=set", "// +k8s:listType=")
        .replace(
            "// +k8s:ifEnabled(WidgetGPU)=+k8s:minimum=1",
            "// +k8s:ifEnabled(",
        );
    s.change(&uri, 2, &edited);
    let labels =
        |s: &mut Server, p: Value| completion_labels(&s.at("textDocument/completion", &uri, p));
    let end = |needle: &str| pos(&edited, needle, 0, needle.len());
    assert_eq!(
        labels(&mut s, end("// +k8s:listMapKey=")),
        ["name", "number"]
    );
    assert_eq!(labels(&mut s, end("// +k8s:subfield(")), ["mode"]);
    assert_eq!(labels(&mut s, end("// +k8s:item(")), ["type", "status"]);
    assert_eq!(
        labels(&mut s, end("// +k8s:listType=")),
        ["atomic", "set", "map"]
    );
    assert_eq!(
        labels(&mut s, end("// +k8s:ifEnabled(")),
        ["WidgetGPU", "WidgetXL"],
        "the options the module names"
    );
    let formats = labels(&mut s, end("// +k8s:format="));
    assert!(
        formats.contains(&"k8s-short-name".to_string()),
        "{formats:?}"
    );
    s.shutdown();
}

/// Issue 40: a did-you-mean is a quick fix, every diagnostic's code can be explained (the action runs the
/// `vgc.explain` command, which answers `vgc explain CODE`'s text), and hovering the diagnostic explains it too.
#[test]
fn quick_fix_and_explain() {
    let (_dir, root, uri) = module(&types_go("+k8s:required"));
    let mut s = Server::start(&root);
    s.initialize(None);
    s.open(&uri, &types_go("+k8s:requred"));
    let d = s.diagnostics_until(&uri, |d| !d.is_empty());
    let actions = s.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": d[0]["range"], "context": {"diagnostics": d}}),
    );
    let list = actions["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{actions}"));
    let fix = &list[0];
    assert_eq!(fix["kind"], "quickfix", "{actions}");
    assert_eq!(
        fix["title"], "Change `k8s:requred` to `k8s:required`",
        "{actions}"
    );
    let edits = &fix["edit"]["changes"][uri.as_str()];
    assert_eq!(
        edits,
        &json!([{"range": d[0]["range"], "newText": "k8s:required"}]),
        "{actions}"
    );
    let explain = &list[1];
    assert_eq!(explain["command"], "vgc.explain", "{actions}");
    assert_eq!(explain["arguments"], json!(["VGC0102"]), "{actions}");
    let out = s.request(
        "workspace/executeCommand",
        json!({"command": "vgc.explain", "arguments": ["VGC0102"]}),
    );
    let text = out["result"].as_str().unwrap_or_else(|| panic!("{out}"));
    let cli = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(["explain", "VGC0102"])
        .output()
        .expect("vgc explain");
    assert_eq!(text, String::from_utf8_lossy(&cli.stdout), "the CLI's text");
    let unknown = s.request(
        "workspace/executeCommand",
        json!({"command": "vgc.explain", "arguments": ["VGC9999"]}),
    );
    assert_eq!(
        unknown["error"]["message"],
        "vgc.explain: VGC9999 is not a vgc diagnostic code (`vgc docs --format diagnostics-markdown` lists them)",
        "{unknown}"
    );
    let hover = s.at("textDocument/hover", &uri, d[0]["range"]["start"].clone());
    let shown = hover_text(&hover);
    assert!(shown.starts_with("VGC0102 ("), "{shown}");
    // Applying the edit as a client does clears the diagnostic.
    s.change(&uri, 2, &types_go("+k8s:required"));
    assert_eq!(s.diagnostics(&uri), Vec::<Value>::new());
    s.shutdown();
}

/// Issue 40, robustness: a panic in a request handler is that request's error response (the server answers the
/// next one), and a change older than the buffer's version is dropped.
#[test]
fn a_panicking_handler_and_a_stale_change() {
    let (_dir, root, uri) = module(&types_go("+k8s:required"));
    let mut s = Server::start_with(&root, &[("VGC_LSP_TEST_PANIC", "textDocument/hover")]);
    s.initialize(None);
    s.open(&uri, &types_go("+k8s:required"));
    let hover = s.at(
        "textDocument/hover",
        &uri,
        json!({"line": 6, "character": 16}),
    );
    assert_eq!(hover["error"]["code"], -32603, "{hover}");
    assert!(
        hover["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("internal error")),
        "{hover}"
    );
    // Version 3 arrives before version 2 (a client reordering): 2 is dropped, 3's misspelling stays reported.
    for (version, tag) in [(3, "+k8s:maxLenght=3"), (2, "+k8s:maxLength=3")] {
        s.change(&uri, version, &types_go(tag));
    }
    let d = s.diagnostics_until(&uri, |d| !d.is_empty());
    assert!(
        d[0]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("unknown tag \"k8s:maxLenght\"")),
        "{d:?}"
    );
    let completion = s.at(
        "textDocument/completion",
        &uri,
        json!({"line": 6, "character": 17}),
    );
    assert!(
        completion["result"].is_array(),
        "still serving: {completion}"
    );
    s.shutdown();
}

/// Issue 40: completion of a union's name offers the names its struct's members use.
#[test]
fn union_name_completion() {
    let text = "package v1\n\ntype TypeMeta struct{}\n\ntype Order struct {\n\tTypeMeta `json:\",inline\"`\n\t// +k8s:unionMember(union: \"net\")\n\t// +k8s:optional\n\tA *string `json:\"a,omitempty\"`\n\t// +k8s:unionMember(union: \"net\")\n\t// +k8s:optional\n\tB *string `json:\"b,omitempty\"`\n\t// +k8s:zeroOrOneOfMember(union: \"extra\")\n\t// +k8s:optional\n\tC *string `json:\"c,omitempty\"`\n\t// +k8s:unionMember(union: \"\n\t// +k8s:optional\n\tD *string `json:\"d,omitempty\"`\n}\n";
    let (_dir, root, uri) = module(text);
    let mut s = Server::start(&root);
    s.initialize(None);
    s.open(&uri, text);
    let needle = "// +k8s:unionMember(union: \"\n";
    let c = s.at(
        "textDocument/completion",
        &uri,
        pos(text, needle, 0, needle.len() - 1),
    );
    assert_eq!(completion_labels(&c), ["net"], "{c}");
    s.shutdown();
}

/// Issue 40, robustness: a bad buffer (not Go, unbalanced tags, a tag with a broken payload, multi-byte characters
/// everywhere) and positions past the end of lines and of the text answer every request without killing the server.
#[test]
fn bad_buffers_and_positions_past_the_end() {
    let (_dir, root, uri) = module(&types_go("+k8s:required"));
    let mut s = Server::start(&root);
    s.initialize(None);
    let texts = [
        "not go at all {{{ \u{0} 𝄞𝄞𝄞".to_string(),
        "package v1\ntype T struct {\n\t// +k8s:item(type: \"x\n\t// +k8s:listMapKey=\n\t// +k8s:subfield(=+k8s:\n\tX []T `json:\"x\"`\n".to_string(),
        format!("{}\n// +k8s:éé(ü: \"𝄞\")=+k8s:\n", types_go("+k8s:unionMember(union: \"𝄞\")")),
        String::new(),
    ];
    for (v, text) in texts.iter().enumerate() {
        s.change(&uri, v + 2, text);
        for (line, character) in [(0, 0), (2, 3), (3, 20), (6, 13), (1000, 5), (4, 100_000)] {
            let p = json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
            for method in [
                "textDocument/hover",
                "textDocument/completion",
                "textDocument/definition",
            ] {
                let r = s.request(method, p.clone());
                assert!(
                    r.get("error").is_none(),
                    "{method} at {p} of buffer {v}: {r}"
                );
            }
            let mut refs = p.clone();
            refs["context"] = json!({"includeDeclaration": true});
            let r = s.request("textDocument/references", refs);
            assert!(
                r.get("error").is_none(),
                "references at {p} of buffer {v}: {r}"
            );
            let r = s.request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": uri}, "range": {"start": p["position"], "end": {"line": 2_000_000, "character": 0}}, "context": {"diagnostics": []}}),
            );
            assert!(
                r.get("error").is_none(),
                "codeAction at {p} of buffer {v}: {r}"
            );
        }
    }
    // Still checking: a misspelt tag is reported, and the file on disk's text again clears it.
    s.change(&uri, 98, &types_go("+k8s:requird"));
    loop {
        let d = s.diagnostics(&uri);
        if d.iter().any(|d| d["code"] == "VGC0102") {
            break;
        }
    }
    s.change(&uri, 99, &types_go("+k8s:required"));
    loop {
        if s.diagnostics(&uri).is_empty() {
            break;
        }
    }
    let shutdown = s.shutdown();
    assert_eq!(shutdown["result"], Value::Null, "{shutdown}");
}

/// A buffer that is not Go (no package clause: left out of its package), becomes Go, stops being Go (empty) and
/// becomes Go again is checked each time.
#[test]
fn a_buffer_that_stops_and_starts_being_go() {
    let (_dir, root, uri) = module(&types_go("+k8s:required"));
    let mut s = Server::start(&root);
    s.initialize(None);
    // Not Go from the start: the first load leaves the file out of its package.
    s.change(&uri, 1, "not go at all {{{ \u{0} 𝄞𝄞𝄞");
    for _ in 0..3 {
        s.at(
            "textDocument/definition",
            &uri,
            json!({"line": 0, "character": 0}),
        );
    }
    s.change(&uri, 2, &types_go("+k8s:requird"));
    assert_eq!(s.diagnostics(&uri)[0]["code"], "VGC0102", "Go now");
    s.change(&uri, 3, "");
    assert_eq!(s.diagnostics(&uri), Vec::<Value>::new(), "not Go: no tags");
    s.change(&uri, 4, &types_go("+k8s:requird"));
    assert_eq!(s.diagnostics(&uri)[0]["code"], "VGC0102", "Go again");
    s.shutdown();
}

/// Issue 40, stale work: a request the client cancels while it is still queued (behind a go to definition that
/// runs the module's first check) is answered `RequestCancelled` (-32800) without running; the others are answered.
#[test]
fn a_cancelled_queued_request_is_not_run() {
    let (root, uri, text) = example();
    let mut s = Server::start(&root);
    s.initialize(None);
    s.open(&uri, &text);
    let definition = json!({"jsonrpc": "2.0", "id": 100, "method": "textDocument/definition", "params": {"textDocument": {"uri": uri}, "position": pos(&text, "listMapKey=type", 0, 12)}});
    let hover = json!({"jsonrpc": "2.0", "id": 101, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": pos(&text, "+k8s:maxItems=3", 0, 3)}});
    let cancel = json!({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 101}});
    let completion = json!({"jsonrpc": "2.0", "id": 102, "method": "textDocument/completion", "params": {"textDocument": {"uri": uri}, "position": pos(&text, "// +k8s:maxItems=3", 0, 8)}});
    for m in [&definition, &hover, &cancel, &completion] {
        s.raw(m.to_string().as_bytes());
    }
    let d = s.wait("the definition", |m| m["id"] == 100);
    assert!(d["result"].is_array(), "{d}");
    let h = s.wait("the cancelled hover", |m| m["id"] == 101);
    assert_eq!(h["error"]["code"], -32800, "{h}");
    let c = s.wait("the completion", |m| m["id"] == 102);
    assert!(
        c["result"]
            .as_array()
            .is_some_and(|items| items.iter().any(|i| i["label"] == "maxItems")),
        "{c}"
    );
    s.shutdown();
}

/// Issue 40: go to definition from a field-path constraint's path (vgc's extension, docs/extensions.md) — each
/// segment names a field, from the struct holding the tagged field, or from the tagged struct for `target:`.
#[test]
fn definition_from_constraint_paths() {
    let text = "package v1\n\ntype TypeMeta struct{}\n\ntype Limits struct {\n\tMaxValue int32 `json:\"maxValue\"`\n}\n\n// +k8s:minimum(target: current, constraint: floor)\ntype Config struct {\n\tTypeMeta `json:\",inline\"`\n\tFloor int32 `json:\"floor\"`\n\t// +k8s:maximum(constraint: limits.maxValue)\n\tCurrent int32 `json:\"current\"`\n\tLimits Limits `json:\"limits\"`\n}\n";
    let (_dir, root, uri) = module(text);
    std::fs::write(root.join("vgc.toml"), "[extensions]\nenabled = true\n").expect("vgc.toml");
    let mut s = Server::start(&root);
    s.initialize(None);
    s.open(&uri, text);
    let definition = |s: &mut Server, p: Value| lines(&s.at("textDocument/definition", &uri, p));
    let limits = line_of(text, "Limits Limits", 0);
    let max_value = line_of(text, "MaxValue int32", 0);
    assert_eq!(
        definition(&mut s, pos(text, "limits.maxValue", 0, 2)),
        [limits]
    );
    assert_eq!(
        definition(&mut s, pos(text, "limits.maxValue", 0, 9)),
        [max_value]
    );
    // The hover of the constrained field links each constraint's tag line (the field's own, the struct's `target:`).
    let current =
        hover_text(&s.at("textDocument/hover", &uri, pos(text, "Current int32", 0, 1))).to_string();
    for (rule, tag, needle) in [
        (
            "current must be less than or equal to the value of limits.maxValue",
            "maximum",
            "+k8s:maximum(",
        ),
        (
            "current must be greater than or equal to the value of floor",
            "minimum",
            "+k8s:minimum(",
        ),
    ] {
        let want = format!(
            "- {rule} (field-path constraint, a vgc extension) ([`+k8s:{tag}`]({uri}#L{}))\n",
            line_of(text, needle, 0) + 1
        );
        assert!(current.contains(&want), "{want}\n{current}");
    }
    assert_eq!(
        definition(&mut s, pos(text, "target: current", 0, 10)),
        [line_of(text, "Current int32", 0)]
    );
    assert_eq!(
        definition(&mut s, pos(text, "constraint: floor", 0, 13)),
        [line_of(text, "Floor int32", 0)]
    );
    // References of Limits.MaxValue and Config.Floor: the constraint segments naming them.
    let refs = |s: &mut Server, p: Value| {
        s.at("textDocument/references", &uri, p)["result"]
            .as_array()
            .unwrap_or_else(|| panic!("references"))
            .iter()
            .map(|l| l["range"]["start"].clone())
            .collect::<Vec<Value>>()
    };
    assert_eq!(
        refs(&mut s, pos(text, "MaxValue int32", 0, 1)),
        [pos(text, "maxValue)", 0, 0)]
    );
    assert_eq!(
        refs(&mut s, pos(text, "Floor int32", 0, 1)),
        [pos(text, "floor)", 0, 0)]
    );
    // Completion of the paths' segments.
    let typing = text.replace("constraint: limits.maxValue)", "constraint: limits.");
    s.change(&uri, 2, &typing);
    let labels =
        |s: &mut Server, p: Value| completion_labels(&s.at("textDocument/completion", &uri, p));
    let needle = "constraint: limits.";
    assert_eq!(
        labels(&mut s, pos(&typing, needle, 0, needle.len())),
        ["maxValue"]
    );
    assert_eq!(
        labels(
            &mut s,
            pos(&typing, "constraint: ", 1, "constraint: ".len())
        ),
        ["floor", "current", "limits"]
    );
    s.shutdown();
}

/// Issue 40, robustness: 300 random edits of the bundled example's `types.go` (characters of tag syntax, Go syntax
/// and multi-byte text inserted, spans deleted, lines duplicated), each followed by a random request at a random
/// position (hover, completion, definition, references, code action). No request fails, and the server still checks
/// afterwards: a misspelling in a last edit is reported.
#[test]
fn random_edits_and_requests() {
    let (root, uri, text) = example();
    let mut s = Server::start(&root);
    s.initialize(None);
    s.open(&uri, &text);
    // A fixed linear congruential generator: the same run every time.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(state >> 33).unwrap_or(0) % n.max(1)
    };
    let pieces = [
        "+k8s:",
        "=",
        "(",
        ")",
        ",",
        ":",
        "\"",
        ".",
        "=+k8s:",
        "item(type: ",
        "listMapKey=",
        "subfield(",
        "unionMember(union: ",
        "maximum(constraint: ",
        "\n",
        "\t// ",
        "é",
        "𝄞",
        "}",
        "{",
        "struct",
        " ",
    ];
    let mut buf = text.clone();
    let methods = [
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/definition",
        "textDocument/references",
        "textDocument/codeAction",
    ];
    for version in 2..302 {
        let mut at = next(buf.len() + 1);
        while !buf.is_char_boundary(at) {
            at -= 1;
        }
        match next(3) {
            0 => buf.insert_str(at, pieces[next(pieces.len())]),
            1 => {
                let mut end = (at + next(12)).min(buf.len());
                while !buf.is_char_boundary(end) {
                    end -= 1;
                }
                buf.replace_range(at..end, "");
            }
            _ => {
                let start = buf[..at].rfind('\n').map_or(0, |i| i + 1);
                let line = buf[start..at].to_string();
                buf.insert_str(start, &format!("{line}\n"));
            }
        }
        s.change(&uri, version, &buf);
        let lines = u64::try_from(buf.lines().count()).unwrap_or(0);
        let p =
            json!({"line": next(usize::try_from(lines + 2).unwrap_or(2)), "character": next(90)});
        let method = methods[next(methods.len())];
        let params = match method {
            "textDocument/references" => {
                json!({"textDocument": {"uri": uri}, "position": p, "context": {"includeDeclaration": true}})
            }
            "textDocument/codeAction" => {
                json!({"textDocument": {"uri": uri}, "range": {"start": p, "end": p}, "context": {"diagnostics": []}})
            }
            _ => json!({"textDocument": {"uri": uri}, "position": p}),
        };
        let r = s.request(method, params);
        assert!(
            r.get("error").is_none(),
            "{method} at {p} after edit {version}: {r}"
        );
    }
    s.change(
        &uri,
        400,
        &text.replace("+k8s:maxItems=3", "+k8s:maxItemz=3"),
    );
    loop {
        let d = s.diagnostics(&uri);
        if d.iter().any(|d| {
            d["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("unknown tag \"k8s:maxItemz\""))
        }) {
            break;
        }
    }
    s.shutdown();
}

/// Trial findings of issue 40: the rules hover of a field lists its typedef's own rules only — validation-gen does
/// not apply the rules of a typedef's typedef (`VGC0313`), so listing the chain promised rules nothing enforces —
/// and field-name completion does not offer the members of a struct embedded inline, which upstream's
/// `GetMemberByJSON` and vgc's checks (`VGC0111`) refuse.
#[test]
fn hover_lists_only_applied_typedef_rules_and_completion_only_direct_members() {
    let types = "package v1\n\ntype TypeMeta struct {\n\tKind string `json:\"kind,omitempty\"`\n}\n\n\
// +k8s:format=k8s-short-name\ntype Name string\n\n\
// +k8s:maxLength=10\ntype ShortName Name\n\n\
// +k8s:minLength=2\ntype TinyName ShortName\n\n\
type Base struct {\n\tName string `json:\"name\"`\n}\n\n\
type Item struct {\n\tBase `json:\",inline\"`\n\tProto string `json:\"proto\"`\n}\n\n\
type Thing struct {\n\tTypeMeta `json:\",inline\"`\n\t// +k8s:optional\n\tAlias TinyName `json:\"alias,omitempty\"`\n\t// +k8s:listType=map\n\t// +k8s:listMapKey=\n\tItems []Item `json:\"items\"`\n}\n";
    let (_dir, root, uri) = module(types);
    let mut s = Server::start(&root);
    s.initialize(Some(&root));
    s.open(&uri, types);
    s.diagnostics_until(&uri, |d| !d.is_empty());
    let hover = s.at(
        "textDocument/hover",
        &uri,
        pos(types, "Alias TinyName", 0, 1),
    );
    let text = hover_text(&hover);
    assert!(
        text.contains("Through its type, typedef [`TinyName`]"),
        "{text}"
    );
    assert!(text.contains("at least 2"), "{text}");
    assert!(!text.contains("ShortName"), "{text}");
    assert!(!text.contains("k8s-short-name"), "{text}");
    let hover = s.at(
        "textDocument/hover",
        &uri,
        pos(types, "type TinyName", 0, 6),
    );
    let text = hover_text(&hover);
    assert!(
        text.contains("Not through typedef [`ShortName`]")
            && text.contains(
                ": validation-gen does not apply its rules to TinyName's values (VGC0313)."
            ),
        "{text}"
    );
    let c = s.at(
        "textDocument/completion",
        &uri,
        pos(types, "listMapKey=", 0, "listMapKey=".len()),
    );
    assert_eq!(completion_labels(&c), ["proto"], "{c}");
    s.shutdown();
}

/// Trial finding of issue 40: a completion item replaces the whole word being typed (`textEdit`), so a client whose
/// word stops at `-` (Neovim's omnifunc, VS Code's default word pattern) does not insert `k8s-k8s-short-name`.
#[test]
fn completion_items_replace_the_word_typed() {
    let types = "package v1\n\ntype TypeMeta struct {\n\tKind string `json:\"kind,omitempty\"`\n}\n\n\
type Thing struct {\n\tTypeMeta `json:\",inline\"`\n\t// +k8s:optional\n\t// +k8s:format=k8s-sh\n\tName string `json:\"name,omitempty\"`\n}\n";
    let (_dir, root, uri) = module(types);
    let mut s = Server::start(&root);
    s.initialize(Some(&root));
    s.open(&uri, types);
    let at = pos(types, "k8s-sh", 0, "k8s-sh".len());
    let c = s.at("textDocument/completion", &uri, at.clone());
    let items = c["result"].as_array().unwrap_or_else(|| panic!("{c}"));
    let short = items
        .iter()
        .find(|i| i["label"] == "k8s-short-name")
        .unwrap_or_else(|| panic!("{c}"));
    let line = at["line"].clone();
    let end = at["character"].as_u64().expect("character");
    assert_eq!(
        short["textEdit"],
        json!({"range": {"start": {"line": line, "character": end - 6}, "end": {"line": line, "character": end}}, "newText": "k8s-short-name"}),
        "{c}"
    );
    s.shutdown();
}

/// Issue 40 (trial): a request before `initialize` is answered `ServerNotInitialized` (-32002), a second
/// `initialize` is refused, and CRLF line endings do not shift published ranges.
#[test]
fn protocol_order_and_crlf() {
    let crlf = types_go("+k8s:maxLenght=3").replace('\n', "\r\n");
    let (_dir, root, uri) = module(&crlf);
    let mut s = Server::start(&root);
    let early = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(early["error"]["code"], json!(-32002), "{early}");
    s.initialize(None);
    let again = s.request("initialize", json!({"processId": null, "capabilities": {}}));
    assert!(again["error"].is_object(), "{again}");
    s.open(&uri, &crlf);
    let d = s.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    // `\t/* é */ // +k8s:maxLenght=3\r\n`, line 6: the tag's name starts at UTF-16 column 13.
    assert_eq!(
        d[0]["range"]["start"],
        json!({"line": 6, "character": 13}),
        "{d:?}"
    );
    assert_eq!(d[0]["range"]["end"]["line"], json!(6), "{d:?}");
    s.shutdown();
}

/// Issue 40 (trial): a file changed outside the editor (`workspace/didChangeWatchedFiles`, registered with the client
/// when it can register watchers) is checked again; a lint warning is not withdrawn and published again on an edit
/// that does not touch it (it moves with the text).
#[test]
fn watched_files_and_lint_warnings_that_stay() {
    let (_dir, root, uri) = module(&types_go("+k8s:maxLength=3"));
    let mut s = Server::start(&root);
    // No root: nothing is checked until a file is reported.
    let init = json!({"processId": null,
        "capabilities": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}}});
    s.request("initialize", init);
    s.notify("initialized", json!({}));
    let reg = s.wait("the watchers' registration", |m| {
        m["method"] == "client/registerCapability"
    });
    let globs: Vec<&str> = reg["params"]["registrations"][0]["registerOptions"]["watchers"]
        .as_array()
        .expect("watchers")
        .iter()
        .filter_map(|w| w["globPattern"].as_str())
        .collect();
    assert_eq!(globs, ["**/*.go", "**/go.mod", "**/vgc.toml"], "{reg}");
    let id = reg["id"].clone();
    s.raw(
        json!({"jsonrpc": "2.0", "id": id, "result": null})
            .to_string()
            .as_bytes(),
    );
    // Another tool rewrites the file (not open: the disk is checked): a misspelt tag.
    std::fs::write(
        root.join("apis/v1/types.go"),
        types_go("+k8s:optional\n\t// +k8s:maxLenght=3"),
    )
    .expect("write");
    s.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": 2}]}),
    );
    let d = s.diagnostics(&uri);
    let codes: Vec<&str> = d.iter().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, ["VGC0102"], "{d:?}");
    // Then VGC0315 (a duplicate tag), a warning of vgc's lint rules (which run after the check); then opened and edited above it: the first
    // publication after the edit has the diagnostic on its new line (before, it was published without it, then with
    // it again).
    let text = types_go("+k8s:optional\n\t// +k8s:optional\n\t// +k8s:maxLength=3");
    std::fs::write(root.join("apis/v1/types.go"), &text).expect("write");
    s.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": 2}]}),
    );
    let d = s.diagnostics_until(&uri, |d| d.iter().any(|d| d["code"] == "VGC0315"));
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["range"]["start"]["line"], json!(7), "{d:?}");
    s.open(&uri, &text);
    s.change(
        &uri,
        2,
        &text.replacen("package v1\n", "package v1\n\n// Orders.\n", 1),
    );
    let d = s.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["code"], json!("VGC0315"), "{d:?}");
    assert_eq!(d[0]["range"]["start"]["line"], json!(9), "{d:?}");
    assert_eq!(d[0]["severity"], json!(2), "{d:?}");
    s.shutdown();
}

/// Issue 40 (trial): what the server cannot use is said in the editor (`window/showMessage`): an unknown
/// `--upstream`-like setting of `vgc.toml`, a `vgc.toml` that does not parse, a Go file in no module.
#[test]
fn configuration_problems_and_files_outside_modules_are_shown() {
    let (_dir, root, uri) = module(&types_go("+k8s:required"));
    std::fs::write(root.join("vgc.toml"), "[build\nupstream = 1\n").expect("vgc.toml");
    let mut s = Server::start(&root);
    s.initialize(None);
    s.open(&uri, &types_go("+k8s:required"));
    let m = s.wait("the message", |m| m["method"] == "window/showMessage");
    let text = m["params"]["message"].as_str().expect("message");
    assert!(
        text.starts_with("vgc: ")
            && text.contains("vgc.toml")
            && text.ends_with("; its settings are not used"),
        "{m}"
    );
    assert_eq!(m["params"]["type"], json!(2), "{m}");
    let outside = tempfile::tempdir().expect("tempdir");
    let lone = std::fs::canonicalize(outside.path())
        .expect("canonical")
        .join("lone.go");
    std::fs::write(&lone, "package lone\n").expect("lone.go");
    s.open(&format!("file://{}", lone.display()), "package lone\n");
    let m = s.wait("the message", |m| m["method"] == "window/showMessage");
    assert_eq!(
        m["params"]["message"],
        json!(format!(
            "vgc: {} is in no Go module (no go.mod in its directory or above): its tags are not checked",
            lone.display()
        )),
        "{m}"
    );
    s.shutdown();
}

/// Issue 40 (trial): go to definition of a type vgc never loads — apimachinery's well-known values
/// (`resource.Quantity`) — finds it through go.mod as the load finds packages (here a `replace` to a directory, so
/// the test needs no module cache).
#[test]
fn definition_of_a_type_outside_the_loaded_program() {
    let text = "package v1\n\nimport \"k8s.io/apimachinery/pkg/api/resource\"\n\ntype TypeMeta struct{}\n\ntype Order struct {\n\tTypeMeta `json:\",inline\"`\n\t// +k8s:optional\n\tSize *resource.Quantity `json:\"size,omitempty\"`\n}\n";
    let (_dir, root, uri) = module(text);
    std::fs::write(
        root.join("go.mod"),
        "module example.com/p\n\ngo 1.25\n\nrequire k8s.io/apimachinery v0.37.2\n\nreplace k8s.io/apimachinery => ./apimachinery\n",
    )
    .expect("go.mod");
    let res = root.join("apimachinery/pkg/api/resource");
    std::fs::create_dir_all(&res).expect("mkdir");
    std::fs::write(
        root.join("apimachinery/go.mod"),
        "module k8s.io/apimachinery\n",
    )
    .expect("go.mod");
    std::fs::write(
        res.join("amount.go"),
        "package resource\n\ntype Scale int32\n",
    )
    .expect("amount.go");
    std::fs::write(res.join("quantity.go"), "package resource\n\n// Quantity is a fixed-point number.\ntype Quantity struct {\n\ti int64\n}\n").expect("quantity.go");
    let mut s = Server::start(&root);
    s.initialize(None);
    s.open(&uri, text);
    let d = s.at(
        "textDocument/definition",
        &uri,
        pos(text, "resource.Quantity", 0, 10),
    );
    assert_eq!(
        d["result"],
        json!([{"uri": format!("file://{}", res.join("quantity.go").display()),
            "range": {"start": {"line": 3, "character": 5}, "end": {"line": 3, "character": 13}}}]),
        "{d}"
    );
    let h = s.at(
        "textDocument/hover",
        &uri,
        pos(text, "resource.Quantity", 0, 10),
    );
    assert_eq!(
        hover_text(&h),
        format!(
            "**Quantity** — [declared here](file://{}#L4)\n\nA type vgc does not load (a well-known value such as a quantity, a time or an int-or-string): it has no declarative rules of its own; the tags of the fields holding it validate it.\n",
            res.join("quantity.go").display()
        )
    );
    s.shutdown();
}

/// Issue 40 (trial): two tags of one name on a field link their own lines; a mode discriminator's hover lists the
/// modes' rules (linked to the members' `ifMode` lines); a hover right after an edit answers from the edited text;
/// a client sending ranged changes (the server asks for full ones) has them applied.
#[test]
fn hover_links_modes_and_ranged_changes() {
    let (root, uri, text) = example();
    let mut s = Server::start(&root);
    open_example(&mut s, &root, &uri, &text);
    let hover = |s: &mut Server, text: &str, needle: &str| {
        hover_text(&s.at("textDocument/hover", &uri, pos(text, needle, 0, 1))).to_string()
    };
    let probe = hover(&mut s, &text, "\tA *string");
    for (i, line) in ["=\"stop here\"", "+k8s:validateFalse=\"never reached\""]
        .iter()
        .enumerate()
    {
        let want = format!(
            "([`+k8s:validateFalse`]({uri}#L{}))",
            line_of(&text, line, 0) + 1
        );
        assert!(probe.contains(&want), "#{i}: {want}\n{probe}");
    }
    let mode = hover(&mut s, &text, "\tMode string");
    let want = format!(
        "**Delivery.mode** — rules under upstream 1.38\n\nWith its siblings in [`Delivery`]({uri}#L{}):\n- field endpoint: when mode is Push: required; must be a k8s-long-name; when mode is anything else: must not be set ([`+k8s:ifMode`]({uri}#L{}))\n- field intervalSeconds: when mode is Pull: optional; at least 10; when mode is anything else: must not be set ([`+k8s:ifMode`]({uri}#L{}))\n",
        line_of(&text, "type Delivery struct", 0) + 1,
        line_of(&text, "+k8s:ifMode(Push)=+k8s:required", 0) + 1,
        line_of(&text, "+k8s:ifMode(Pull)=+k8s:optional", 0) + 1,
    );
    assert_eq!(mode, want);
    // A ranged change (a new first line) applied to the buffer, then a hover at once: the field moved one line down
    // and its hover is there (the check runs for the hover, not after the debounce).
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "// Edited.\n"}]}),
    );
    let edited = format!("// Edited.\n{text}");
    let moved = hover(&mut s, &edited, "\tMode string");
    assert!(moved.starts_with("**Delivery.mode**"), "{moved}");
    // An embedded field: its type's rules come with it (the type cannot be hovered apart from the field).
    let embedded = hover(&mut s, &edited, "\tmetav1.TypeMeta");
    assert!(
        embedded.contains("Its value is validated as [`TypeMeta`](")
            && embedded.contains("):\n\n**TypeMeta** — rules under upstream"),
        "{embedded}"
    );
    s.shutdown();
}

/// Issue 40 (trial): a client giving only `rootPath` (no `rootUri`, no folders) gets its workspace checked; a
/// message quoting a huge value is clipped.
#[test]
fn root_path_and_clipped_messages() {
    let huge = format!("+k8s:maxLength={}", "9".repeat(100_000));
    let (_dir, root, uri) = module(&types_go(&huge));
    let mut s = Server::start(&root);
    s.request(
        "initialize",
        json!({"processId": null, "rootPath": root.display().to_string(), "capabilities": {}}),
    );
    s.notify("initialized", json!({}));
    // Nothing is open: the workspace's check publishes the file on disk.
    let d = s.diagnostics_until(&uri, |d| !d.is_empty());
    let message = d[0]["message"].as_str().expect("message");
    assert!(
        message.chars().count() < 2_200,
        "{} characters",
        message.chars().count()
    );
    assert!(message.contains("… ("), "{}", &message[..200]);
    s.shutdown();
}
