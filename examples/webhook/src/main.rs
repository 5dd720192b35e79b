//! `vgc-webhook [--option NAME=true|false]…`: reads an `AdmissionReview` (JSON) on stdin and writes the answer on
//! stdout — the webhook's logic without its HTTP server, for any TLS front (or a test) to call.

use std::io::{Read as _, Write as _};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut options = vgc_webhook_example::Options::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let setting = match arg.as_str() {
            "--option" => args.next(),
            other => other.strip_prefix("--option=").map(str::to_string),
        };
        let parsed = setting.as_deref().and_then(|s| {
            let (name, on) = s.split_once('=')?;
            Some((name.to_string(), on.parse::<bool>().ok()?))
        });
        let Some((name, on)) = parsed else {
            eprintln!("usage: vgc-webhook [--option NAME=true|false]… < review.json");
            return ExitCode::from(2);
        };
        options.insert(name, on);
    }
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("vgc-webhook: reading stdin: {e}");
        return ExitCode::from(2);
    }
    let answer = match serde_json::from_slice(&input) {
        Ok(review) => vgc_webhook_example::review(review, &options),
        Err(e) => kube_core::admission::AdmissionResponse::invalid(e).into_review(),
    };
    let mut out = std::io::stdout().lock();
    match serde_json::to_writer(&mut out, &answer) {
        Ok(()) => {
            let _ = writeln!(out);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("vgc-webhook: {e}");
            ExitCode::from(2)
        }
    }
}
