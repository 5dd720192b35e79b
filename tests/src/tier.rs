//! The two test tiers (`docs/testing.md`, "Tiers"). The fast tier (`scripts/test-fast.sh`) runs the test binaries
//! that need no Go, no network, no browser and no nested cargo build, with `VGC_FAST=1`; a test in one of those
//! binaries that does need one of them calls [`skip_slow`] first and returns when it says so. Without `VGC_FAST=1`
//! (CI, `cargo test --workspace`) nothing is skipped.

use std::io::Write as _;

/// The environment variable that selects the fast tier: `VGC_FAST=1`.
pub const FAST_ENV: &str = "VGC_FAST";

/// Why a test is in the slow tier: it runs `go` (validation-gen, `go mod download`, a Go driver), which fetches
/// through the Go module proxy.
pub const NEEDS_GO: &str = "needs Go/the module proxy";
/// Why a test is in the slow tier: it builds a generated crate with a nested `cargo build` (a fresh manifest,
/// resolved against the crates.io index).
pub const NEEDS_CARGO: &str = "needs a nested cargo build (crates.io index)";
/// Why a test is in the slow tier: it loads pages in headless Chromium.
pub const NEEDS_CHROMIUM: &str = "needs Chromium";
/// Why a test is in the slow tier: it renders with Graphviz's `dot`.
pub const NEEDS_GRAPHVIZ: &str = "needs Graphviz";

/// Whether the fast tier is selected (`VGC_FAST=1`).
#[must_use]
pub fn fast() -> bool {
    std::env::var_os(FAST_ENV).is_some_and(|v| v == "1")
}

/// In the fast tier, prints `<test>: skipped (VGC_FAST=1): <why>` and returns `true`: the calling test returns at
/// once. Otherwise returns `false` and the test runs in full. The line goes to the process's stderr directly, past
/// libtest's output capture, so it shows in a normal run.
#[must_use]
pub fn skip_slow(why: &str) -> bool {
    if !fast() {
        return false;
    }
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let _ = writeln!(std::io::stderr(), "{test}: skipped ({FAST_ENV}=1): {why}");
    true
}
