//! Benchmarks on the real input: `vgc lint`, `vgc check`, `vgc docs` (the site, in memory) and `vgc graph` (DOT) over all of k8s.io/api (newest release, located — and
//! downloaded if needed — through `go mod download -json`), with kubernetes' activation (`--roots
//! TypesWithField=TypeMeta`). Run: `cargo bench -p vgc --bench k8s_api`. Needs `go` and the module proxy; without
//! them the benchmark says so and measures nothing.

use criterion::{Criterion, criterion_group, criterion_main};
use std::process::Command;
use vgc::BuildRequest;

fn k8s_api_dir() -> Option<String> {
    let tmp = tempfile::tempdir().ok()?;
    let out = Command::new("go")
        .args(["mod", "download", "-json", "k8s.io/api@latest"])
        .current_dir(tmp.path())
        .env("GOFLAGS", "-mod=mod")
        .output()
        .ok()?;
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    v["Dir"].as_str().map(str::to_string)
}

fn benches(c: &mut Criterion) {
    let Some(dir) = k8s_api_dir() else {
        eprintln!("k8s_api bench: `go mod download k8s.io/api@latest` failed; nothing measured");
        return;
    };
    let req = BuildRequest::check(dir, vec!["TypesWithField=TypeMeta".into()]);
    let settings = vgc::LintSettings::default();
    let mut g = c.benchmark_group("k8s.io/api");
    g.sample_size(10);
    g.bench_function("lint", |b| {
        b.iter(|| vgc::lint(&req, &settings).diagnostics.len())
    });
    g.bench_function("check", |b| b.iter(|| vgc::build(&req).diagnostics.len()));
    g.bench_function("docs", |b| {
        b.iter(|| {
            let out = vgc::build(&req);
            let docs = vgc_docs_gen::GoDocs::read(&out.package_files);
            vgc_docs_gen::site(&vgc_docs_gen::SiteInput {
                plan: &out.plan,
                docs: &docs,
                layout: None,
                module_version: None,
            })
            .map_or(0, |f| f.len())
        });
    });
    g.bench_function("graph", |b| {
        b.iter(|| {
            let out = vgc::build(&req);
            vgc::graph::to_dot(&vgc_lowering::graph::build(&out.plan)).len()
        });
    });
    g.finish();
}

criterion_group!(k8s, benches);
criterion_main!(k8s);
