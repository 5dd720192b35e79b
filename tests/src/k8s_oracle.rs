//! Random differential run on the real input (a phase of `k8s_e2e.rs`): upstream `validation-gen` generates Go
//! validators for every k8s.io/api group/version the way kubernetes/kubernetes activates them (one generated
//! package per group/version with `+k8s:validation-gen-input=k8s.io/api/<gv>` and `TypesWithField=TypeMeta` added
//! to the package's own criteria; `k8s.io/apimachinery/pkg/apis/meta/v1` likewise with `*`, so `ObjectMeta`'s tags
//! are validated on both sides). A generated Go driver registers every
//! `RegisterValidations` into one `runtime.Scheme` and validates each case through `Scheme.Validate`/
//! `ValidateUpdate` (so subresource routing is compared too); a generated Rust binary does the same through the
//! vgc-generated crate's `Validate` impls. Objects come from `plan_random` (driven by vgc's plan).
//!
//! Finally upstream's own lint runs on the same activation and must report exactly what `vgc lint`'s upstream rules
//! report.
//!
//! `VGC_K8S_ORACLE_CASES` sets the number of cases (default 20,000); `VGC_K8S_ORACLE_SEED` the seed (default 1).
//! Then random objects generated on the Go side from the Go types by randfill (`randfill.rs`, independent of vgc's
//! plan): `VGC_K8S_RANDFILL_CASES` (default 2,000), same seed.

use crate::differential::env_or;
use crate::harness::{
    build_go_driver, compare_runs, go, install_validation_gen, oracle_profile, random_cases,
    run_both, run_validation_gen, rust_runner, upstream_rule_findings, validation_gen_lint,
};
use crate::plan_random::Generator;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use vgc_analysis::types::{Builtin, WellKnown};
use vgc_lowering::CratePlan;
use vgc_lowering::plan::{Check, CheckKind, RustTy};

const META: &str = "k8s.io/apimachinery/pkg/apis/meta/v1";
/// The harness module's path.
const MODULE: &str = "vgc.test/k8soracle";
/// Where meta/v1's validators are generated, under `gen/`.
const META_GEN: &str = "apimachinery/meta/v1";
/// Referenced apimachinery/std packages whose types carry no validation tags: upstream needs them named.
const READ_ONLY: &[&str] = &[
    "k8s.io/apimachinery/pkg/runtime",
    "k8s.io/apimachinery/pkg/runtime/schema",
    "k8s.io/apimachinery/pkg/api/resource",
    "k8s.io/apimachinery/pkg/util/intstr",
    "k8s.io/apimachinery/pkg/types",
    "k8s.io/apimachinery/pkg/watch",
    "k8s.io/apimachinery/pkg/fields",
    "k8s.io/apimachinery/pkg/labels",
    "k8s.io/apimachinery/pkg/selection",
    "time",
];

/// Group/version directories of k8s.io/api (those with a `types.go`), relative, sorted.
fn group_versions(api: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![api.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                let n = e.file_name().to_string_lossy().into_owned();
                if !(n.starts_with('.') || n.starts_with('_') || n == "testdata") {
                    stack.push(p);
                }
            } else if e.file_name() == "types.go" {
                let rel = d
                    .strip_prefix(api)
                    .expect("under api")
                    .to_string_lossy()
                    .into_owned();
                out.push(rel);
            }
        }
    }
    out.sort();
    out
}

fn each_check(c: &Check, f: &mut impl FnMut(&Check)) {
    c.walk(&mut |c| f(c));
}

/// Go spelling of a value type as seen from package `here`; records imports as (alias, path).
fn go_type(ty: &RustTy, here: &str, imports: &mut BTreeSet<(String, String)>) -> String {
    let mut qual = |pkg: &str, name: &str| {
        if pkg == here {
            name.to_string()
        } else {
            let alias = format!("p{}", imports.len());
            let alias = imports
                .iter()
                .find(|(_, p)| p == pkg)
                .map_or(alias, |(a, _)| a.clone());
            imports.insert((alias.clone(), pkg.to_string()));
            format!("{alias}.{name}")
        }
    };
    match ty {
        RustTy::Builtin(b) => match b {
            Builtin::Bool => "bool",
            Builtin::String => "string",
            Builtin::Int => "int",
            Builtin::Int8 => "int8",
            Builtin::Int16 => "int16",
            Builtin::Int32 => "int32",
            Builtin::Int64 => "int64",
            Builtin::Uint => "uint",
            Builtin::Uint8 => "uint8",
            Builtin::Uint16 => "uint16",
            Builtin::Uint32 => "uint32",
            Builtin::Uint64 => "uint64",
            Builtin::Float32 => "float32",
            Builtin::Float64 => "float64",
            Builtin::Duration => return qual("time", "Duration"),
        }
        .to_string(),
        RustTy::Named(k) => qual(&k.pkg, &k.name),
        RustTy::WellKnown(w) => match w {
            WellKnown::Quantity => qual("k8s.io/apimachinery/pkg/api/resource", "Quantity"),
            WellKnown::Time => qual(META, "Time"),
            WellKnown::MicroTime => qual(META, "MicroTime"),
            WellKnown::Duration => qual(META, "Duration"),
            WellKnown::IntOrString => qual("k8s.io/apimachinery/pkg/util/intstr", "IntOrString"),
            WellKnown::RawExtension => qual("k8s.io/apimachinery/pkg/runtime", "RawExtension"),
            WellKnown::FieldsV1 => qual(META, "FieldsV1"),
            WellKnown::Bytes => "[]byte".into(),
        },
        RustTy::Option(t, _) => format!("*{}", go_type(t, here, imports)),
        RustTy::Vec(t) => format!("[]{}", go_type(t, here, imports)),
        RustTy::Map(t) => format!("map[string]{}", go_type(t, here, imports)),
        RustTy::Json => "interface{}".into(),
    }
}

/// The hand-written `ValidateCustom_*` functions upstream requires in each generated package: (Go package dir, file
/// text). A function the runtime ports (`vgc_runtime::k8s::PORTS`, which the vgc side calls) calls the real Go
/// function: apimachinery's as imported, k8s.io/kubernetes' from the copy [`copy_kubernetes_validation`] made
/// under `kubernetes/`. Any other accepts everything, like the Rust stubs vgc writes with `--custom-stub`.
fn custom_stubs(
    plan: &CratePlan,
    dir_of: &dyn Fn(&str) -> Option<String>,
) -> Vec<(String, String)> {
    let mut by_pkg: BTreeMap<String, Vec<(String, RustTy)>> = BTreeMap::new();
    for m in &plan.modules {
        for t in &m.types {
            let all = t
                .checks
                .iter()
                .chain(t.fields.iter().flatten().flat_map(|f| f.checks.iter()));
            for c in all {
                each_check(c, &mut |c| {
                    if let CheckKind::Custom { upstream, ty, .. } = &c.kind {
                        by_pkg
                            .entry(m.pkg.clone())
                            .or_default()
                            .push((upstream.clone(), ty.clone()));
                    }
                });
            }
        }
    }
    let mut out = Vec::new();
    for (pkg, fns) in by_pkg {
        let Some(dir) = dir_of(&pkg) else { continue };
        // Validators live in the generated package, which imports the types package.
        let here = format!("{MODULE}/gen/{dir}");
        let mut imports = BTreeSet::new();
        let mut body = String::new();
        let mut seen = BTreeSet::new();
        for (name, ty) in fns {
            if !seen.insert(name.clone()) {
                continue;
            }
            let nilable = matches!(ty, RustTy::Vec(_) | RustTy::Map(_) | RustTy::Json);
            let mut t = go_type(&ty, &here, &mut imports);
            if !nilable {
                t = format!("*{t}");
            }
            let call = match vgc_runtime::k8s::PORTS.iter().find(|p| p.go_fn == name) {
                Some(port) => {
                    let go_pkg = match port.go_pkg.strip_prefix("k8s.io/kubernetes/") {
                        Some(rest) => format!("{MODULE}/kubernetes/{rest}"),
                        None => port.go_pkg.to_string(),
                    };
                    let alias = imports
                        .iter()
                        .find(|(_, p)| *p == go_pkg)
                        .map_or_else(|| format!("port{}", imports.len()), |(a, _)| a.clone());
                    imports.insert((alias.clone(), go_pkg));
                    format!("{alias}.{name}(ctx, op, fldPath, obj, oldObj)")
                }
                None => "nil".to_string(),
            };
            let _ = write!(
                body,
                "\nfunc {name}(ctx context.Context, op operation.Operation, fldPath *field.Path, obj, oldObj {t}) field.ErrorList {{\n\treturn {call}\n}}\n"
            );
        }
        let mut text = format!(
            "package {}\n\nimport (\n\t\"context\"\n\n\t\"k8s.io/apimachinery/pkg/api/operation\"\n\t\"k8s.io/apimachinery/pkg/util/validation/field\"\n",
            pkg.rsplit('/').next().unwrap_or("v1")
        );
        for (a, p) in &imports {
            let _ = writeln!(text, "\t{a} {p:?}");
        }
        text.push_str(")\n");
        text.push_str(&body);
        out.push((format!("gen/{dir}/zz_custom_stubs.go"), text));
    }
    out
}

/// Copies the `validation.go` of every k8s.io/kubernetes package that holds a ported function
/// (`vgc_runtime::k8s::PORTS`) into `work/kubernetes/<package>`, unchanged but for imports of k8s.io/kubernetes
/// packages, which point at the copies. The files come from k8s.io/kubernetes of the release of `api_version`
/// (`v0.37.2` → `v1.37.2`, `v0.38.0-beta.0` → `v1.38.0-beta.0`, with the Go toolchain it requires) through the Go
/// module proxy; when the proxy does not serve that release, from v1.37.2, whose functions were compared with the
/// ports (`k8s_custom_differential.rs`) — enough for a k8s.io/api that names only the four functions 1.35–1.37 name.
fn copy_kubernetes_validation(work: &Path, api_version: &str) {
    let wanted = format!(
        "v1{}",
        api_version.strip_prefix("v0").unwrap_or(api_version)
    );
    let tmp = tempfile::tempdir().expect("tempdir");
    let download = |v: &str| {
        let out = Command::new("go")
            .args([
                "mod",
                "download",
                "-json",
                &format!("k8s.io/kubernetes@{v}"),
            ])
            .current_dir(tmp.path())
            .env("GOFLAGS", "-mod=mod")
            // k8s.io/kubernetes v1.38 pre-releases require Go 1.27.
            .env("GOTOOLCHAIN", "auto")
            .output()
            .expect("the `go` command runs");
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        j["Dir"].as_str().map(str::to_string)
    };
    let dir = download(&wanted).unwrap_or_else(|| {
        eprintln!(
            "k8s.io/kubernetes@{wanted} is not served; the ported functions come from v1.37.2"
        );
        download("v1.37.2").expect("k8s.io/kubernetes@v1.37.2")
    });
    copy_kubernetes_ports(Path::new(&dir), work, MODULE);
}

/// Copies the `validation.go` of every package of the k8s.io/kubernetes module at `kubernetes` (its module-cache
/// directory) that holds a ported function (`vgc_runtime::k8s::PORTS`) into `work/kubernetes/<package>`, unchanged
/// but for imports of k8s.io/kubernetes packages, which point at the copies under the Go module `module` (whose
/// root is `work`).
pub fn copy_kubernetes_ports(kubernetes: &Path, work: &Path, module: &str) {
    let pkgs: BTreeSet<&str> = vgc_runtime::k8s::PORTS
        .iter()
        .filter_map(|p| p.go_pkg.strip_prefix("k8s.io/kubernetes/"))
        .collect();
    for pkg in pkgs {
        let text = std::fs::read_to_string(kubernetes.join(pkg).join("validation.go"))
            .unwrap_or_else(|e| panic!("k8s.io/kubernetes {pkg}/validation.go: {e}"));
        let text = text.replace("\"k8s.io/kubernetes/", &format!("\"{module}/kubernetes/"));
        let to = work.join("kubernetes").join(pkg);
        std::fs::create_dir_all(&to).expect("mkdir kubernetes copy");
        std::fs::write(to.join("validation.go"), text).expect("kubernetes copy");
    }
}

/// The Go side of the k8s.io/api differential, built: upstream-generated validators of every group/version behind
/// the Go driver `work/oracle` (which also generates randfill objects).
pub struct GoOracle {
    /// The harness module's directory (`oracle` binary, `gen/` validators).
    pub work: std::path::PathBuf,
    /// The `gen/...` package directories generated by upstream validation-gen.
    pub gen_dirs: Vec<String>,
    /// `./gen/...` package patterns.
    pub pkgs: Vec<String>,
    /// Root type keys (as the driver names kinds).
    pub roots: BTreeSet<String>,
    /// Kinds the driver calls directly (no scheme registration).
    pub direct: BTreeSet<String>,
    /// Seconds upstream validation-gen took.
    pub upstream_gen: f64,
    /// Seconds `go build` took.
    pub go_build: f64,
}

/// Builds the Go oracle for k8s.io/api at `version` (module-cache directory `api_dir`) in `work` (emptied first),
/// activating every group/version as kubernetes/kubernetes does, with the hand-written functions `plan` names.
pub fn build_go_oracle(api_dir: &Path, version: &str, plan: &CratePlan, work: &Path) -> GoOracle {
    let root = crate::example::workspace_root();
    let e2e = root.join("target/e2e");
    let gobin = e2e.join("gobin").join(crate::harness::upstream_version());
    let _ = std::fs::remove_dir_all(work);
    std::fs::create_dir_all(work).expect("mkdir k8s-oracle");
    install_validation_gen(work, &gobin);
    std::fs::write(work.join("go.mod"), format!("module {MODULE}\n\ngo 1.25\n")).expect("go.mod");

    // meta/v1 carries validation tags (ObjectMeta, Condition, …); upstream expects its validators in a package it
    // generates, like any input (generating in place would import-cycle through api/equality).
    let meta_gen = work.join("gen").join(META_GEN);
    std::fs::create_dir_all(&meta_gen).expect("mkdir meta gen");
    // `validation-gen-scheme-registry=nil` (no registration) exists from 1.37; before, meta/v1 registers into a
    // scheme like any package (1.35/1.36's meta/v1 has no root with validations, so nothing is registered).
    let nil_registry = crate::harness::oracle_upstream() >= vgc_ir::Upstream::V1_37;
    let registry = if nil_registry {
        "// +k8s:validation-gen-scheme-registry=nil\n"
    } else {
        std::fs::write(
            meta_gen.join("zz_scheme.go"),
            "package v1\n\nimport \"k8s.io/apimachinery/pkg/runtime\"\n\nvar localSchemeBuilder runtime.SchemeBuilder\n",
        )
        .expect("zz_scheme.go");
        ""
    };
    std::fs::write(
        meta_gen.join("doc.go"),
        format!("// +k8s:validation-gen=*\n// +k8s:validation-gen-input={META}\n{registry}// +k8s:validation-gen-nolint\npackage v1\n"),
    )
    .expect("meta doc.go");

    // Per group/version: `gen/<gv>` registers the TypeMeta roots in a scheme (kubernetes' activation); when the
    // package names roots of its own (`resource/v1`: `TypesWithSuffix=DeviceAttribute`), `gen/<gv>/own` generates
    // those too, without a scheme registry (they are not `runtime.Object`s); upstream allows one input in several
    // generated packages, the registering one canonical.
    // 1.35 and 1.36 spell the criterion as a bare field name.
    let criterion = if crate::harness::oracle_upstream().validation_gen_field_names() {
        "TypeMeta"
    } else {
        "TypesWithField=TypeMeta"
    };
    let mut inputs = Vec::new();
    let mut own_pkgs = Vec::new();
    for gv in group_versions(api_dir) {
        let own: Vec<String> = std::fs::read_to_string(api_dir.join(&gv).join("doc.go"))
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("// +k8s:validation-gen="))
            .map(str::to_string)
            .collect();
        if own.iter().any(|l| l.ends_with("=false")) {
            continue;
        }
        // k8s.io/api's own activation that equals kubernetes' adds no roots (1.35/1.36 spell it `=TypeMeta`).
        let own: Vec<String> = own
            .into_iter()
            .filter(|l| *l != format!("// +k8s:validation-gen={criterion}"))
            .collect();
        let dir = work.join("gen").join(&gv);
        std::fs::create_dir_all(&dir).expect("mkdir gen");
        let name = gv.rsplit('/').next().unwrap_or(&gv);
        std::fs::write(
            dir.join("doc.go"),
            format!("// +k8s:validation-gen={criterion}\n// +k8s:validation-gen-input=k8s.io/api/{gv}\n// +k8s:validation-gen-nolint\npackage {name}\n"),
        )
        .expect("doc.go");
        // Generated registration hooks `localSchemeBuilder` (kubernetes declares it in register.go).
        std::fs::write(
            dir.join("zz_scheme.go"),
            format!("package {name}\n\nimport \"k8s.io/apimachinery/pkg/runtime\"\n\nvar localSchemeBuilder runtime.SchemeBuilder\n"),
        )
        .expect("zz_scheme.go");
        if !own.is_empty() {
            let dir = dir.join("own");
            std::fs::create_dir_all(&dir).expect("mkdir own");
            std::fs::write(
                dir.join("doc.go"),
                format!("{}\n// +k8s:validation-gen-input=k8s.io/api/{gv}\n// +k8s:validation-gen-scheme-registry=nil\n// +k8s:validation-gen-nolint\npackage own\n", own.join("\n")),
            )
            .expect("own doc.go");
            own_pkgs.push(format!("{gv}/own"));
        }
        inputs.push(gv);
    }
    let gvs: BTreeSet<String> = inputs.iter().cloned().collect();
    let dir_of = |pkg: &str| -> Option<String> {
        if pkg == META {
            return Some(META_GEN.to_string());
        }
        pkg.strip_prefix("k8s.io/api/")
            .filter(|gv| gvs.contains(*gv))
            .map(str::to_string)
    };
    copy_kubernetes_validation(work, version);
    for (file, text) in custom_stubs(plan, &dir_of) {
        std::fs::write(work.join(file), text).expect("custom stubs");
    }
    go(
        work,
        &[
            "get",
            &format!("k8s.io/api@{version}"),
            &format!("k8s.io/apimachinery@{version}"),
        ],
    );
    for r in crate::harness::substitute_refused_modules(work) {
        eprintln!("k8s-oracle: {r} (the Go module proxy refuses the required version)");
    }
    let gen_dirs: Vec<String> = inputs
        .iter()
        .chain(&own_pkgs)
        .map(|gv| format!("gen/{gv}"))
        .chain([format!("gen/{META_GEN}")])
        .collect();
    let pkgs: Vec<String> = gen_dirs.iter().map(|d| format!("./{d}")).collect();
    let upstream_gen = run_validation_gen(work, &gobin, READ_ONLY, &pkgs);
    let roots: BTreeSet<String> = Generator::new(plan)
        .roots
        .iter()
        .map(|(k, _, _)| k.to_string())
        .collect();
    let (direct, go_build) = build_go_driver(work, MODULE, &gen_dirs, &roots, &|kind| {
        let pkg = kind.rsplit_once('.').map_or("", |(p, _)| p);
        pkg.strip_prefix("k8s.io/api/")
            .map(|gv| vec![format!("gen/{gv}/own")])
            .unwrap_or_default()
    });
    GoOracle {
        work: work.to_path_buf(),
        gen_dirs,
        pkgs,
        roots,
        direct,
        upstream_gen,
        go_build,
    }
}

/// Runs the phase. `api_dir`: the module-cache directory of k8s.io/api at `version`; `harness`: the Cargo package depending on the generated crate (it gets a `run_cases` binary).
pub fn random_k8s_objects_agree(api_dir: &Path, version: &str, plan: &CratePlan, harness: &Path) {
    let root = crate::example::workspace_root();
    let e2e = root.join("target/e2e");
    let GoOracle {
        work,
        gen_dirs,
        pkgs,
        roots,
        direct,
        upstream_gen,
        go_build,
    } = build_go_oracle(api_dir, version, plan, &e2e.join("k8s-oracle"));
    let gobin = e2e.join("gobin").join(crate::harness::upstream_version());
    let mut generator = Generator::new(plan);

    std::fs::create_dir_all(harness.join("src/bin")).expect("mkdir bin");
    std::fs::write(
        harness.join("src/bin/run_cases.rs"),
        rust_runner("k8s_generated", &generator.roots, false),
    )
    .expect("run_cases.rs");
    let status = crate::harness::nested_cargo(
        &e2e,
        &["build", "--quiet", "--bin", "run_cases"],
        &harness.join("Cargo.toml"),
        true,
    )
    .status()
    .expect("nested cargo runs");
    assert!(status.success(), "the Rust case runner failed to build");

    let n: usize = env_or("VGC_K8S_ORACLE_CASES", 20_000);
    let seed: u64 = env_or("VGC_K8S_ORACLE_SEED", 1);
    let cases = random_cases(&mut generator, n, seed, "k8s", &direct);
    let (upstream, ours, go_run, rust_run) = run_both(
        &work.join("oracle"),
        &e2e.join("target/debug/run_cases"),
        &cases,
    );
    let agreement =
        crate::interpreter::agree(plan, &cases, &ours, false, crate::interpreter::stubbed);
    eprintln!("k8s-oracle interpreter: seed {seed}: {}", agreement.line());
    agreement.assert_clean(&work.join("interpreter-mismatches.txt"));
    let ours = crate::harness::release_view(&ours);
    let summary = compare_runs(&upstream, &ours, &cases);
    eprintln!(
        "k8s-oracle: k8s.io/api {version}, seed {seed}: {}; upstream validation-gen {upstream_gen:.1}s, go build \
         {go_build:.1}s, Go run {go_run:.1}s, Rust run {rust_run:.1}s",
        summary.line(roots.len())
    );
    summary.assert_clean(&work.join("mismatches.txt"));

    // Random objects generated on the Go side from the Go types by randfill (independent of vgc's plan).
    let n: usize = env_or("VGC_K8S_RANDFILL_CASES", 2_000);
    let summary = crate::randfill::phase(
        &format!("k8s-randfill: k8s.io/api {version}"),
        &work.join("oracle"),
        &e2e.join("target/debug/run_cases"),
        &[api_dir, work.join("gen").as_path()],
        crate::randfill::Limits {
            max_depth: 9,
            nil_chance: 0.4,
            max_elements: 2,
        },
        n,
        seed,
        &work,
        crate::randfill::Interpreted {
            plan,
            route_typedefs: false,
            custom: crate::interpreter::stubbed,
        },
    );
    crate::randfill::assert_within_gaps("k8s", &summary, &work.join("randfill-mismatches.txt"));
    if std::env::var_os("VGC_SPEED").is_some() {
        speed(&work, harness, &e2e, &cases, &upstream);
    }

    // Upstream's lint on the same activation (nolint removed) against vgc lint's upstream rules: k8s.io/api with
    // TypesWithField=TypeMeta, plus meta/v1 with `*` as the harness activates it.
    for dir in &gen_dirs {
        let doc = work.join(dir).join("doc.go");
        let text = std::fs::read_to_string(&doc).expect("doc.go");
        std::fs::write(&doc, text.replace("// +k8s:validation-gen-nolint\n", "")).expect("doc.go");
    }
    let theirs = validation_gen_lint(&work, &gobin, READ_ONLY, &pkgs);
    let mut ours_diags = vgc::lint(
        &vgc::BuildRequest {
            path: api_dir.to_string_lossy().into_owned(),
            crate_name: "k8s".into(),
            runtime: vgc_codegen::RuntimeDep::Version("0.1".into()),
            extra_roots: vec!["TypesWithField=TypeMeta".into()],
            check_only: true,
            upstream: Some(oracle_profile()),
            ..Default::default()
        },
        &vgc::LintSettings::default(),
    )
    .diagnostics;
    if let Some(meta_dir) = meta_dir() {
        ours_diags.extend(
            vgc::lint(
                &vgc::BuildRequest {
                    path: meta_dir,
                    crate_name: "meta".into(),
                    runtime: vgc_codegen::RuntimeDep::Version("0.1".into()),
                    extra_roots: vec!["*".into()],
                    check_only: true,
                    upstream: Some(oracle_profile()),
                    ..Default::default()
                },
                &vgc::LintSettings::default(),
            )
            .diagnostics,
        );
    }
    let ours = upstream_rule_findings(&ours_diags);
    eprintln!(
        "k8s-lint: upstream lint on k8s.io/api {version}: {} findings; vgc: {}",
        theirs.len(),
        ours.len()
    );
    assert_eq!(
        ours, theirs,
        "vgc lint (left) vs upstream lint (right) on k8s.io/api"
    );
}

/// The module-cache directory of k8s.io/apimachinery's meta/v1 package (the pinned version the harness uses).
fn meta_dir() -> Option<String> {
    let tmp = tempfile::tempdir().ok()?;
    let out = Command::new("go")
        .args([
            "mod",
            "download",
            "-json",
            &crate::harness::apimachinery_module(),
        ])
        .current_dir(tmp.path())
        .env("GOFLAGS", "-mod=mod")
        .env("GOTOOLCHAIN", "auto")
        .output()
        .ok()?;
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    v["Dir"].as_str().map(|d| format!("{d}/pkg/apis/meta/v1"))
}

/// `VGC_SPEED=1`: validation speed of upstream-generated Go and vgc-generated Rust (release build) on the same random
/// corpus, all cases and the valid ones alone (no upstream error), each decoded once and validated `VGC_REPEAT`
/// (default 20) times; prints ns per object and the ratio.
fn speed(
    work: &Path,
    harness: &Path,
    e2e: &Path,
    cases: &[serde_json::Value],
    upstream: &[serde_json::Value],
) {
    let status = crate::harness::nested_cargo(
        e2e,
        &["build", "--quiet", "--release", "--bin", "run_cases"],
        &harness.join("Cargo.toml"),
        false,
    )
    .status()
    .expect("nested cargo runs");
    assert!(status.success(), "release runner");
    let repeat = std::env::var("VGC_REPEAT").unwrap_or_else(|_| "20".into());
    let valid: Vec<serde_json::Value> = cases
        .iter()
        .zip(upstream)
        .filter(|(_, u)| u["got"].as_array().is_some_and(Vec::is_empty))
        .map(|(c, _)| c.clone())
        .collect();
    let time = |bin: &Path, set: &[serde_json::Value]| -> serde_json::Value {
        let input = serde_json::to_string(set).expect("cases");
        let mut child = Command::new(bin)
            .env("VGC_REPEAT", &repeat)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("runner");
        let mut stdin = child.stdin.take().expect("stdin");
        let writer =
            std::thread::spawn(move || std::io::Write::write_all(&mut stdin, input.as_bytes()));
        let out = child.wait_with_output().expect("runner output");
        writer.join().expect("writer").expect("write");
        serde_json::from_slice(&out.stdout).expect("speed JSON")
    };
    for (label, set) in [("all", cases), ("valid", valid.as_slice())] {
        let go = time(&work.join("oracle"), set);
        let rust = time(&e2e.join("target/release/run_cases"), set);
        let (g, r) = (
            go["nsPerObject"].as_f64().unwrap_or(0.0),
            rust["nsPerObject"].as_f64().unwrap_or(1.0),
        );
        eprintln!(
            "speed ({label}, {} objects, x{repeat}): Go {g:.0} ns/object, Rust {r:.0} ns/object, Rust is {:.1}x faster",
            rust["cases"],
            g / r
        );
    }
}
