//! stdio with the LSP base protocol's `Content-Length` framing, for an [`lsp_server::Connection`]. lsp-server's
//! own stdio transport ends its reader thread — and so the server — at the first message that is not JSON-RPC;
//! this one skips such a message (saying so on stderr) and reads on, so a client's bad message cannot kill the
//! server.

use crossbeam_channel::{Receiver, Sender, unbounded};
use lsp_server::Message;
use std::io::{BufRead, Write as _};

/// The threads behind a [`stdio`] connection.
pub(crate) struct Threads {
    reader: std::thread::JoinHandle<()>,
    writer: std::thread::JoinHandle<()>,
}

impl Threads {
    /// Waits for the writer to have written every message sent before the connection's sender was dropped. The
    /// reader is not waited for: it may be blocked reading a stdin the client keeps open.
    pub(crate) fn join_writer(self) {
        let _ = self.writer.join();
        drop(self.reader);
    }
}

/// A connection over stdin/stdout: the reader thread frames and decodes messages (an `exit` notification or the end
/// of stdin ends it), the writer thread encodes and flushes them.
pub(crate) fn stdio() -> (lsp_server::Connection, Threads) {
    let (to_writer, from_main): (Sender<Message>, Receiver<Message>) = unbounded();
    let writer = std::thread::Builder::new()
        .name("vgc-lsp-writer".into())
        .spawn(move || {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            for m in from_main {
                if m.write(&mut out).is_err() {
                    break;
                }
            }
            let _ = out.flush();
        })
        .unwrap_or_else(|e| panic!("cannot start the LSP writer thread: {e}"));
    // Unbounded: everything the client sent is queued, so the server can coalesce a burst of changes before a check.
    let (to_main, from_reader) = unbounded::<Message>();
    let answer = to_writer.clone();
    let reader = std::thread::Builder::new()
        .name("vgc-lsp-reader".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            while let Some(body) = read_frame(&mut input) {
                let msg = match serde_json::from_slice::<Message>(&body) {
                    Ok(m) => m,
                    Err(e) => {
                        let mut err = std::io::stderr().lock();
                        let _ =
                            writeln!(err, "vgc lsp: skipped a message that is not JSON-RPC: {e}");
                        // JSON with an id the client waits on: answered `InvalidRequest` (-32600).
                        if let Some(id) = invalid_request_id(&body) {
                            let _ = answer.send(Message::Response(lsp_server::Response::new_err(
                                id,
                                lsp_server::ErrorCode::InvalidRequest as i32,
                                format!("not a JSON-RPC request: {e}"),
                            )));
                        }
                        continue;
                    }
                };
                let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                if to_main.send(msg).is_err() || exit {
                    break;
                }
            }
        })
        .unwrap_or_else(|e| panic!("cannot start the LSP reader thread: {e}"));
    (
        lsp_server::Connection {
            sender: to_writer,
            receiver: from_reader,
        },
        Threads { reader, writer },
    )
}

/// The id of a JSON object that is not a valid JSON-RPC message but carries a number or string `id` (a request
/// whose `method` is not a string, say), for an error response; `None` otherwise.
fn invalid_request_id(body: &[u8]) -> Option<lsp_server::RequestId> {
    let v: serde_json::Value = serde_json::from_slice(body).ok()?;
    match v.get("id")? {
        serde_json::Value::Number(n) => Some(lsp_server::RequestId::from(
            i32::try_from(n.as_i64()?).ok()?,
        )),
        serde_json::Value::String(s) => Some(lsp_server::RequestId::from(s.clone())),
        _ => None,
    }
}

/// The body of the next frame; `None` at the end of the input. Header lines other than `Content-Length` are
/// ignored; a header block without a usable `Content-Length` is skipped (the body, unknown in length, is then read
/// as headers until the next blank line). A wrong `Content-Length` costs the messages it garbles, not the session:
/// the next `Content-Length` header is found even behind the bytes left over.
fn read_frame(input: &mut impl BufRead) -> Option<Vec<u8>> {
    loop {
        let mut length = None;
        let mut line = String::new();
        loop {
            line.clear();
            match input.read_line(&mut line) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            let l = line.trim_end_matches(['\r', '\n']);
            if l.is_empty() {
                break;
            }
            // The header is looked for anywhere in the line: after a message whose `Content-Length` was wrong, the
            // rest of its body (or the start of the next message's) comes before the next header on its line, and
            // reading resynchronises there instead of skipping every message after it.
            const NAME: &str = "content-length:";
            if let Some(at) = l.to_ascii_lowercase().rfind(NAME) {
                length = l[at + NAME.len()..].trim().parse::<usize>().ok();
            }
        }
        let Some(n) = length else {
            let _ = writeln!(
                std::io::stderr().lock(),
                "vgc lsp: skipped a header block without a Content-Length"
            );
            continue;
        };
        let mut body = vec![0; n];
        input.read_exact(&mut body).ok()?;
        return Some(body);
    }
}

#[cfg(test)]
mod tests {
    use super::read_frame;

    #[test]
    fn frames_and_bad_headers() {
        let mut input: &[u8] =
            b"Content-Length: 2\r\n\r\n{}X-Junk: 1\r\n\r\nContent-Type: x\r\ncontent-length: 3\r\n\r\n[1]";
        assert_eq!(read_frame(&mut input).as_deref(), Some(&b"{}"[..]));
        assert_eq!(read_frame(&mut input).as_deref(), Some(&b"[1]"[..]));
        assert_eq!(read_frame(&mut input), None);
    }

    #[test]
    fn ids_of_invalid_requests() {
        use super::invalid_request_id;
        assert_eq!(
            invalid_request_id(br#"{"jsonrpc":"2.0","id":100,"method":5}"#),
            Some(lsp_server::RequestId::from(100))
        );
        assert_eq!(
            invalid_request_id(br#"{"id":"a","method":[]}"#),
            Some(lsp_server::RequestId::from("a".to_string()))
        );
        assert_eq!(
            invalid_request_id(br#"{"id":{"a":1},"method":"initialize"}"#),
            None
        );
        assert_eq!(invalid_request_id(b"not json"), None);
    }

    #[test]
    fn a_wrong_content_length_loses_that_message_only() {
        // The first says 3 bytes fewer than its body: its last 3 bytes run into the next header.
        let mut input: &[u8] = b"Content-Length: 5\r\n\r\n[1,2,3]Content-Length: 2\r\n\r\n{}Content-Length: 3\r\n\r\n[4]";
        assert_eq!(read_frame(&mut input).as_deref(), Some(&b"[1,2,"[..]));
        assert_eq!(read_frame(&mut input).as_deref(), Some(&b"{}"[..]));
        assert_eq!(read_frame(&mut input).as_deref(), Some(&b"[4]"[..]));
        // One saying more than its body swallows the start of the next; the one after is read.
        let mut input: &[u8] =
            b"Content-Length: 9\r\n\r\n{}Content-Length: 2\r\n\r\n{}Content-Length: 3\r\n\r\n[4]";
        assert_eq!(read_frame(&mut input).as_deref(), Some(&b"{}Content"[..]));
        assert_eq!(read_frame(&mut input).as_deref(), Some(&b"[4]"[..]));
    }
}
