//! The `check` phase: every diagnostic that is not lowering's own — the target packages' per-file tag checks and
//! upstream's lint rules (both need no plan, so they run beside [`lower`](super::lower::lower)), then the checks
//! that read the plan — and the diagnostics' final form (byte spans, the tag prefix, order).

use crate::database::Database;
use std::time::{Duration, Instant};
use vgc_analysis::Program;
use vgc_ir::Diagnostic;
use vgc_lowering::CratePlan;

/// What [`check`] found, with the time each half took (for `--timings`).
pub(crate) struct Checked {
    /// The target packages' tag diagnostics (`vgc_ir::db::check_package`).
    pub(crate) tags: Vec<Diagnostic>,
    /// How long the tag checks took.
    pub(crate) tags_time: Duration,
    /// Upstream's lint rules, VGC0301–0303 (`vgc_analysis::lint::upstream`): its generation stops with `lint
    /// failed` on these, so every command reports them as errors (`docs/lint.md`).
    pub(crate) lint: Vec<Diagnostic>,
    /// How long the lint rules took.
    pub(crate) lint_time: Duration,
}

/// Checks the tags of `prog`'s target packages and runs upstream's lint rules with the extra root criteria
/// `extra_roots`. Reads no lowering query, so a second database handle can run it beside lowering.
pub(crate) fn check(db: &Database, prog: &Program, extra_roots: &[String]) -> Checked {
    let clock = Instant::now();
    let mut tags = Vec::new();
    for p in prog.packages.values().filter(|p| p.target) {
        tags.extend(vgc_ir::db::check_package(db, p.input).iter().cloned());
    }
    let tags_time = clock.elapsed();
    let clock = Instant::now();
    let lint = vgc_analysis::lint::upstream(db, prog, extra_roots);
    Checked {
        tags,
        tags_time,
        lint,
        lint_time: clock.elapsed(),
    }
}

/// The checks that read the lowered `plan`, in this order:
/// - R42: packages outside the build whose types the plan includes (a `replace`d or nested module, a read-only
///   dependency) contribute their tags, so their tag *errors* are errors here too — else a malformed tag there
///   would be lowered as best it can (`maxLength=abc` as 0) without a word. Warnings (Go syntax recovery) stay
///   with the package's own build.
/// - R33: Go names that would clash as Rust names (the identifier policy is codegen's) — not for the Go target
///   (`go`), which writes no Rust: `URL` and `Url` are two Go fields upstream validation-gen generates for.
/// - R40: two packages declaring one group/version/kind (the Rust crate's dispatch reaches only the first) — not for
///   the Go target either: each Go package registers its own scheme's types.
/// - R45, for the k8s-openapi `target` only: every type and field the validators need must exist in the chosen
///   version.
pub(crate) fn check_plan(
    db: &Database,
    prog: &Program,
    plan: &CratePlan,
    target: Option<vgc_codegen::Target>,
    go: bool,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let planned: std::collections::HashSet<&str> =
        plan.modules.iter().map(|m| m.pkg.as_str()).collect();
    for p in prog
        .packages
        .values()
        .filter(|p| !p.target && planned.contains(p.path.as_str()))
    {
        diags.extend(
            vgc_ir::db::check_package(db, p.input)
                .iter()
                .filter(|d| d.severity == vgc_ir::Severity::Error)
                .cloned(),
        );
    }
    if !go {
        diags.extend(vgc_codegen::ident::name_collisions(db, plan));
        diags.extend(vgc_codegen::ident::kind_collisions(db, plan));
    }
    if let Some(vgc_codegen::Target::K8sOpenapi(v)) = target {
        diags.extend(vgc_codegen::ident::k8s_openapi_coverage(db, plan, v));
    }
    diags
}

/// Gives `diags` their final form: byte ranges for the span ids queries report by (looked up here, once), tags
/// named under `prefix` ([`requalify`]), sorted and without duplicates ([`sort_diagnostics`]).
pub(crate) fn finish(db: &Database, prefix: &vgc_ir::TagPrefix, diags: &mut Vec<Diagnostic>) {
    vgc_ir::db::resolve_spans(db, diags);
    requalify(prefix, diags);
    sort_diagnostics(diags);
}

/// Names tags in `diags`' texts (message, hint, fix) as written under `prefix` ([`vgc_ir::TagPrefix::requalify`]:
/// `k8s:required` → `acme:required`), as upstream builds its messages from the prefix. Applied exactly once to each
/// diagnostic; the identity for the default prefix.
pub(crate) fn requalify(prefix: &vgc_ir::TagPrefix, diags: &mut [Diagnostic]) {
    if prefix.is_default() {
        return;
    }
    for d in diags {
        d.message = prefix.requalify(&d.message);
        if let Some(h) = &mut d.hint {
            *h = prefix.requalify(h);
        }
        if let Some(f) = &mut d.fix {
            f.replacement = prefix.requalify(&f.replacement);
        }
    }
}

/// Sorts `diags` by (file, start offset, code), keeping the order of equal keys, and drops exact duplicates.
pub(crate) fn sort_diagnostics(diags: &mut Vec<Diagnostic>) {
    diags.sort_by(|a, b| (&a.file, a.span.start, a.code).cmp(&(&b.file, b.span.start, b.code)));
    diags.dedup();
}
