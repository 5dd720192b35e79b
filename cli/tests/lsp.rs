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
        let mut child = Command::new(env!("CARGO_BIN_EXE_vgc"))
            .args(["lsp", "--debounce-ms", "20"])
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

    /// The next message `pred` accepts, within 30 s.
    fn wait(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from.recv_timeout(left) {
                Ok(m) if pred(&m) => return m,
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => panic!("timed out waiting for {what}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the server ended before {what}"),
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
    let dir = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    std::fs::write(root.join("go.mod"), "module example.com/p\n\ngo 1.25\n").expect("go.mod");
    std::fs::create_dir_all(root.join("apis/v1")).expect("mkdir");
    std::fs::write(root.join("apis/v1/doc.go"), DOC_GO).expect("doc.go");
    // On disk the tag is right: the misspelling exists only in the editor's buffer.
    std::fs::write(root.join("apis/v1/types.go"), types_go("+k8s:required")).expect("types.go");
    let file = root.join("apis/v1/types.go");
    let uri = format!("file://{}", file.display());

    let mut s = Server::start(&root);
    let init = s.request(
        "initialize",
        json!({"processId": null, "rootUri": format!("file://{}", root.display()), "capabilities": {}}),
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "vgc", "{init}");
    assert!(
        init["result"]["capabilities"]["hoverProvider"] == true,
        "{init}"
    );
    s.notify("initialized", json!({}));

    // A message that is not JSON-RPC does not kill the server: it answers the next request.
    s.raw(b"{ this is not json");
    s.raw(br#"{"jsonrpc": "2.0", "no": "method"}"#);

    let misspelt = types_go("+k8s:requred");
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "go", "version": 1, "text": misspelt}}),
    );
    let d = loop {
        let d = s.diagnostics(&uri);
        if !d.is_empty() {
            break d;
        }
    };
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

    // No hover on a tag the catalog does not know.
    let hover = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 6, "character": 16}}),
    );
    assert_eq!(hover["result"], Value::Null, "{hover}");
    let fixed = types_go("+k8s:required");
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    assert_eq!(
        s.diagnostics(&uri),
        Vec::<Value>::new(),
        "the fix clears them"
    );

    let hover = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 6, "character": 16}}),
    );
    let text = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("{hover}"));
    assert!(text.starts_with("**+k8s:required**"), "{text}");
    assert!(text.contains("Example:"), "{text}");
    assert_eq!(
        hover["result"]["range"],
        json!({"start": {"line": 6, "character": 12}, "end": {"line": 6, "character": 25}})
    );

    let typing = types_go("+k8s:");
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": typing}]}),
    );
    let completion = s.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 6, "character": 17}}),
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
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": formats}]}),
    );
    let completion = s.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 6, "character": 24}}),
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

    let shutdown = s.request("shutdown", Value::Null);
    assert_eq!(shutdown["result"], Value::Null, "{shutdown}");
    s.notify("exit", Value::Null);
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
    let dir = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    std::fs::write(root.join("go.mod"), "module example.com/p\n\ngo 1.25\n").expect("go.mod");
    std::fs::create_dir_all(root.join("apis/v1")).expect("mkdir");
    std::fs::write(root.join("apis/v1/doc.go"), DOC_GO).expect("doc.go");
    std::fs::write(root.join("apis/v1/types.go"), types_go("+k8s:required")).expect("types.go");
    let uri = format!("file://{}", root.join("apis/v1/types.go").display());
    let mut s = Server::start(&root);
    s.request("initialize", json!({"processId": null, "capabilities": {}}));
    s.notify("initialized", json!({}));
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "go", "version": 1, "text": types_go("+k8s:maxLenght=3")}}),
    );
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
    s.request("shutdown", Value::Null);
    s.notify("exit", Value::Null);
}
