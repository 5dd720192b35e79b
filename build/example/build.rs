//! Compiles the bundled example API (`examples/api`, a Go module) into `$OUT_DIR/vgc.rs`. Cargo re-runs this only
//! when a file or directory the build read changes (vgc-build prints their `cargo:rerun-if-changed` lines).

fn main() {
    let api = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/api");
    if let Err(e) = vgc_build::Config::new().compile(api) {
        // The diagnostics, as `vgc check` prints them, fail the build.
        eprintln!("{e}");
        std::process::exit(1);
    }
}
