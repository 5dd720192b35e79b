//! Random differential run on the real input (a phase of `k8s_e2e.rs`): upstream `validation-gen` generates Go
//! validators for every k8s.io/api group/version the way kubernetes/kubernetes activates them (one generated
//! package per group/version with `+k8s:validation-gen-input=k8s.io/api/<gv>` and `TypesWithField=TypeMeta` added
//! to the package's own criteria; `k8s.io/apimachinery/pkg/apis/meta/v1` likewise with `*`, so `ObjectMeta`'s tags
//! are validated on both sides). A generated Go driver registers every
//! `RegisterValidations` into one `runtime.Scheme` and validates each case through `Scheme.Validate`/
//! `ValidateUpdate` (so subresource routing is compared too); a generated Rust binary does the same through the
//! vgc-generated crate's `Validate` impls. Objects come from `plan_random` (driven by vgc's plan).
//!
//! `VGC_K8S_ORACLE_CASES` sets the number of cases (default 20,000); `VGC_K8S_ORACLE_SEED` the seed (default 1).

use crate::differential::{Outcome, compare, run};
use crate::plan_random::{Generator, Rng};
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use vgc_analysis::types::{Builtin, WellKnown};
use vgc_lowering::CratePlan;
use vgc_lowering::plan::{Check, CheckKind, RustTy};

const VALIDATION_GEN: &str = "k8s.io/code-generator/cmd/validation-gen@v0.37.2";
const META: &str = "k8s.io/apimachinery/pkg/apis/meta/v1";
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

fn go(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("go")
        .args(args)
        .current_dir(dir)
        .env("GOFLAGS", "-mod=mod")
        .output()
        .expect("the `go` command runs");
    assert!(
        out.status.success(),
        "go {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

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
    f(c);
    match &c.kind {
        CheckKind::IfOption(p) => each_check(&p.inner, f),
        CheckKind::EachVal(inner, _, _) | CheckKind::EachKey(inner) => {
            for i in inner {
                each_check(i, f);
            }
        }
        CheckKind::Subfield(s) => each_check(&s.inner, f),
        CheckKind::Item(i) => each_check(&i.inner, f),
        CheckKind::Discriminated(m) => {
            for (_, cs) in &m.rules {
                for c in cs {
                    each_check(c, f);
                }
            }
        }
        _ => {}
    }
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

/// Stubs for the hand-written `ValidateCustom_*` functions upstream requires in each generated package (they
/// accept everything, like the Rust stubs vgc writes with `--custom-stub`): (Go package dir, file text).
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
        let here = format!("vgc.test/k8soracle/gen/{dir}");
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
            let _ = write!(
                body,
                "\nfunc {name}(ctx context.Context, op operation.Operation, fldPath *field.Path, obj, oldObj {t}) field.ErrorList {{\n\treturn nil\n}}\n"
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

/// Registered root kinds of one generated file: (`<types import path>.<Type>`, types import path).
fn registered(text: &str) -> Vec<(String, String)> {
    let mut aliases = BTreeMap::new();
    let mut in_imports = false;
    for l in text.lines() {
        let l = l.trim();
        if l == "import (" {
            in_imports = true;
        } else if in_imports && l == ")" {
            in_imports = false;
        } else if in_imports && let Some((a, p)) = l.split_once(' ') {
            aliases.insert(a.to_string(), p.trim_matches('"').to_string());
        }
    }
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if l.trim() == "scheme.AddValidationFunc(" {
            let next = lines.next().unwrap_or("").trim();
            // `(*appsv1.Deployment)(nil),`
            if let Some(x) = next
                .strip_prefix("(*")
                .and_then(|x| x.strip_suffix(")(nil),"))
                && let Some((alias, ty)) = x.split_once('.')
                && let Some(pkg) = aliases.get(alias)
            {
                out.push((format!("{pkg}.{ty}"), pkg.clone()));
            }
        }
    }
    out
}

const GO_DRIVER_MAIN: &str = r#"
type testCase struct {
	Name         string          `json:"name"`
	Kind         string          `json:"kind"`
	Object       json.RawMessage `json:"object"`
	Old          json.RawMessage `json:"old"`
	Options      map[string]bool `json:"options"`
	Subresources []string        `json:"subresources"`
}

type result struct {
	Name  string   `json:"name"`
	Got   []string `json:"got"`
	Error string   `json:"error,omitempty"`
}

type runner func(c testCase, opts map[string]bool) (field.ErrorList, error)

var scheme = runtime.NewScheme()

// viaScheme validates through the scheme, as the API server does: subresource routing included.
func viaScheme(mk func() runtime.Object) runner {
	return func(c testCase, opts map[string]bool) (field.ErrorList, error) {
		obj := mk()
		if err := json.Unmarshal(c.Object, obj); err != nil {
			return nil, err
		}
		if len(c.Old) > 0 {
			old := mk()
			if err := json.Unmarshal(c.Old, old); err != nil {
				return nil, err
			}
			return scheme.ValidateUpdate(context.Background(), opts, obj, old, c.Subresources...), nil
		}
		return scheme.Validate(context.Background(), opts, obj, c.Subresources...), nil
	}
}

// direct calls a root's generated function (roots that are not runtime.Objects cannot be registered).
func direct[T any](fn func(context.Context, operation.Operation, *field.Path, *T, *T) field.ErrorList) runner {
	return func(c testCase, opts map[string]bool) (field.ErrorList, error) {
		obj := new(T)
		if err := json.Unmarshal(c.Object, obj); err != nil {
			return nil, err
		}
		op := operation.Operation{Type: operation.Create, Options: opts, Request: operation.Request{Subresources: c.Subresources}}
		var old *T
		if len(c.Old) > 0 {
			old = new(T)
			if err := json.Unmarshal(c.Old, old); err != nil {
				return nil, err
			}
			op.Type = operation.Update
		}
		return fn(context.Background(), op, nil, obj, old), nil
	}
}

func line(e *field.Error) string {
	st := "-"
	if e.IsAlpha() {
		st = "alpha"
	} else if e.IsBeta() {
		st = "beta"
	}
	return fmt.Sprintf("%s | %s | origin=%s | sc=%t | %s", e.Field, e.ErrorBody(), e.Origin, e.ShortCircuit, st)
}

func main() {
	register(scheme)
	var cases []testCase
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		panic(err)
	}
	out := make([]result, 0, len(cases))
	for _, c := range cases {
		run, ok := kinds[c.Kind]
		if !ok {
			out = append(out, result{Name: c.Name, Error: "unknown kind " + c.Kind})
			continue
		}
		opts := c.Options
		if opts == nil {
			opts = map[string]bool{}
		}
		errs, err := run(c, opts)
		if err != nil {
			out = append(out, result{Name: c.Name, Error: err.Error()})
			continue
		}
		got := []string{}
		for _, e := range errs {
			got = append(got, line(e))
		}
		out = append(out, result{Name: c.Name, Got: got})
	}
	enc := json.NewEncoder(os.Stdout)
	_ = enc.Encode(out)
}
"#;

const RUST_RUNNER_HEAD: &str = r#"//! Generated by vgc's k8s_e2e test: runs random cases (JSON on stdin) through the vgc-generated crate.
use std::io::Read as _;
use vgc_runtime::{Error, Operation, Validate};

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    kind: String,
    object: serde_json::Value,
    #[serde(default)]
    old: Option<serde_json::Value>,
    #[serde(default)]
    options: std::collections::BTreeMap<String, bool>,
    #[serde(default)]
    subresources: Vec<String>,
}

fn line(e: &Error) -> String {
    let st = match e.stability {
        Some(vgc_runtime::StabilityLevel::Alpha) => "alpha",
        Some(vgc_runtime::StabilityLevel::Beta) => "beta",
        None => "-",
    };
    format!("{} | {} | origin={} | sc={} | {st}", e.field, e.body(), e.origin, e.short_circuit)
}

fn run<T: Validate + serde::de::DeserializeOwned>(c: &Case) -> Result<Vec<String>, String> {
    let obj: T = serde_json::from_value(c.object.clone()).map_err(|e| e.to_string())?;
    let old: Option<T> = match &c.old {
        Some(o) => Some(serde_json::from_value(o.clone()).map_err(|e| e.to_string())?),
        None => None,
    };
    let mut op = if old.is_some() { Operation::update() } else { Operation::create() };
    op.options = c.options.clone();
    op.subresources = c.subresources.clone();
    Ok(obj.validate(old.as_ref(), &op).iter().map(line).collect())
}

type RootFn<T> = fn(&Operation, &vgc_runtime::Path<'_>, Option<&T>, Option<&T>, &mut vgc_runtime::ErrorList);

/// A typedef root: its generated function, called at the root path.
fn run_fn<T: serde::de::DeserializeOwned>(c: &Case, f: RootFn<T>) -> Result<Vec<String>, String> {
    let obj: T = serde_json::from_value(c.object.clone()).map_err(|e| e.to_string())?;
    let old: Option<T> = match &c.old {
        Some(o) => Some(serde_json::from_value(o.clone()).map_err(|e| e.to_string())?),
        None => None,
    };
    let mut op = if old.is_some() { Operation::update() } else { Operation::create() };
    op.options = c.options.clone();
    op.subresources = c.subresources.clone();
    let mut errs = vgc_runtime::ErrorList::new();
    f(&op, &vgc_runtime::Path::Root, Some(&obj), old.as_ref(), &mut errs);
    Ok(errs.iter().map(line).collect())
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin");
    let cases: Vec<Case> = serde_json::from_str(&input).expect("cases");
    let out: Vec<serde_json::Value> = cases
        .iter()
        .map(|c| match dispatch(c) {
            Ok(lines) => serde_json::json!({"name": c.name, "got": lines}),
            Err(e) => serde_json::json!({"name": c.name, "error": e}),
        })
        .collect();
    println!("{}", serde_json::to_string(&out).expect("json"));
}
"#;

/// Runs the phase. `api_dir`: the module-cache directory of k8s.io/api at `version`; `harness`: the Cargo package depending on the generated crate (it gets a `run_cases` binary).
pub(crate) fn random_k8s_objects_agree(
    root: &Path,
    api_dir: &Path,
    version: &str,
    plan: &CratePlan,
    harness: &Path,
) {
    let e2e = root.join("target/e2e");
    let work = e2e.join("k8s-oracle");
    let gobin = e2e.join("gobin");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("mkdir k8s-oracle");
    std::fs::create_dir_all(&gobin).expect("gobin");
    let install = Command::new("go")
        .args(["install", VALIDATION_GEN])
        .current_dir(&work)
        .env("GOBIN", &gobin)
        .env("GOFLAGS", "-mod=mod")
        .output()
        .expect("go install runs");
    assert!(
        install.status.success(),
        "{}",
        String::from_utf8_lossy(&install.stderr)
    );

    std::fs::write(
        work.join("go.mod"),
        "module vgc.test/k8soracle\n\ngo 1.25\n",
    )
    .expect("go.mod");
    std::fs::write(work.join("header.txt"), "").expect("header");
    // meta/v1 carries validation tags (ObjectMeta, Condition, …); upstream expects its validators in a package it
    // generates, like any input (generating in place would import-cycle through api/equality).
    let meta_gen = work.join("gen").join(META_GEN);
    std::fs::create_dir_all(&meta_gen).expect("mkdir meta gen");
    std::fs::write(
        meta_gen.join("doc.go"),
        format!("// +k8s:validation-gen=*\n// +k8s:validation-gen-input={META}\n// +k8s:validation-gen-scheme-registry=nil\n// +k8s:validation-gen-nolint\npackage v1\n"),
    )
    .expect("meta doc.go");
    // Per group/version: `gen/<gv>` registers the TypeMeta roots in a scheme (kubernetes' activation); when the
    // package names roots of its own (`resource/v1`: `TypesWithSuffix=DeviceAttribute`), `gen/<gv>/own` generates
    // those too, without a scheme registry (they are not `runtime.Object`s); upstream allows one input in several
    // generated packages, the registering one canonical.
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
        let dir = work.join("gen").join(&gv);
        std::fs::create_dir_all(&dir).expect("mkdir gen");
        let name = gv.rsplit('/').next().unwrap_or(&gv);
        std::fs::write(
            dir.join("doc.go"),
            format!("// +k8s:validation-gen=TypesWithField=TypeMeta\n// +k8s:validation-gen-input=k8s.io/api/{gv}\n// +k8s:validation-gen-nolint\npackage {name}\n"),
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
    for (file, text) in custom_stubs(plan, &dir_of) {
        std::fs::write(work.join(file), text).expect("custom stubs");
    }
    go(
        &work,
        &[
            "get",
            &format!("k8s.io/api@{version}"),
            &format!("k8s.io/apimachinery@{version}"),
        ],
    );

    let mut args: Vec<String> = vec![
        "--go-header-file".into(),
        "header.txt".into(),
        "--output-file".into(),
        "zz_generated.validations.go".into(),
    ];
    for p in READ_ONLY {
        args.push("--readonly-pkg".into());
        args.push((*p).into());
    }
    args.extend(
        inputs
            .iter()
            .chain(&own_pkgs)
            .map(|gv| format!("./gen/{gv}")),
    );
    args.push(format!("./gen/{META_GEN}"));
    let start = std::time::Instant::now();
    let out = Command::new(gobin.join("validation-gen"))
        .args(&args)
        .current_dir(&work)
        .env("GOFLAGS", "-mod=mod")
        .output()
        .expect("validation-gen runs");
    assert!(
        out.status.success(),
        "upstream validation-gen failed on k8s.io/api: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let upstream_gen = start.elapsed();

    // The Go driver: every RegisterValidations into one scheme, a runner per registered kind; roots upstream cannot
    // register (not `runtime.Object`s; generated by `own` packages) are called directly, without subresource routing.
    let mut kinds: BTreeMap<String, String> = BTreeMap::new();
    let mut registering = Vec::new();
    for gv in &inputs {
        let Ok(text) = std::fs::read_to_string(
            work.join("gen")
                .join(gv)
                .join("zz_generated.validations.go"),
        ) else {
            continue;
        };
        if text.contains("func RegisterValidations(") {
            registering.push(gv.clone());
        }
        for (kind, pkg) in registered(&text) {
            kinds.insert(kind, pkg);
        }
    }
    let mut generator = Generator::new(plan);
    let ours: BTreeSet<String> = generator
        .roots
        .iter()
        .map(|(k, _, _)| k.to_string())
        .collect();
    // kind -> (own package dir, types package)
    let mut direct: BTreeMap<String, (String, String)> = BTreeMap::new();
    for k in ours.iter().filter(|k| !kinds.contains_key(*k)) {
        let (pkg, ty) = k.rsplit_once('.').unwrap_or_default();
        let Some(gv) = pkg.strip_prefix("k8s.io/api/") else {
            continue;
        };
        let own = format!("{gv}/own");
        let text = std::fs::read_to_string(
            work.join("gen")
                .join(&own)
                .join("zz_generated.validations.go"),
        )
        .unwrap_or_default();
        if text.contains(&format!("func Validate_{ty}(")) {
            direct.insert(k.clone(), (own, pkg.to_string()));
        }
    }
    // Same root set on both sides: upstream registers (or, for `own` roots, generates) exactly the roots that have
    // validations.
    let theirs: BTreeSet<String> = kinds.keys().chain(direct.keys()).cloned().collect();
    assert_eq!(
        ours.symmetric_difference(&theirs).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "root types with validations: vgc vs upstream"
    );

    let mut imports = String::new();
    let mut register = String::from("func register(scheme *runtime.Scheme) {\n");
    for (i, gv) in registering.iter().enumerate() {
        let _ = writeln!(imports, "\tg{i} \"vgc.test/k8soracle/gen/{gv}\"");
        let _ = writeln!(
            register,
            "\tif err := g{i}.RegisterValidations(scheme); err != nil {{ panic(err) }}"
        );
    }
    register.push_str("}\n");
    let mut aliases: BTreeMap<String, String> = BTreeMap::new();
    for pkg in kinds.values().cloned().chain(
        direct
            .values()
            .map(|(own, _)| format!("vgc.test/k8soracle/gen/{own}")),
    ) {
        let n = aliases.len();
        aliases.entry(pkg).or_insert_with(|| format!("t{n}"));
    }
    for (pkg, alias) in &aliases {
        let _ = writeln!(imports, "\t{alias} {pkg:?}");
    }
    let mut table = String::from("var kinds = map[string]runner{\n");
    for (kind, pkg) in &kinds {
        let ty = kind.rsplit('.').next().unwrap_or_default();
        let _ = writeln!(
            table,
            "\t{kind:?}: viaScheme(func() runtime.Object {{ return &{}.{ty}{{}} }}),",
            aliases[pkg]
        );
    }
    for (kind, (own, _)) in &direct {
        let ty = kind.rsplit('.').next().unwrap_or_default();
        let alias = &aliases[&format!("vgc.test/k8soracle/gen/{own}")];
        let _ = writeln!(table, "\t{kind:?}: direct({alias}.Validate_{ty}),");
    }
    table.push_str("}\n");
    let driver = format!(
        "// Generated by vgc's k8s_e2e test.\npackage main\n\nimport (\n\t\"context\"\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"os\"\n\n\t\"k8s.io/apimachinery/pkg/api/operation\"\n\t\"k8s.io/apimachinery/pkg/runtime\"\n\t\"k8s.io/apimachinery/pkg/util/validation/field\"\n{imports})\n\n{register}\n{table}{GO_DRIVER_MAIN}"
    );
    std::fs::create_dir_all(work.join("cmd/oracle")).expect("cmd dir");
    std::fs::write(work.join("cmd/oracle/main.go"), driver).expect("driver");
    go(&work, &["mod", "tidy"]);
    let start = std::time::Instant::now();
    go(&work, &["build", "-o", "oracle", "./cmd/oracle"]);
    let go_build = start.elapsed();

    // The Rust runner.
    let mut dispatch = String::from(
        "fn dispatch(c: &Case) -> Result<Vec<String>, String> {\n    match c.kind.as_str() {\n",
    );
    for (k, path, _) in &generator.roots {
        if path.contains("::validate_") {
            let _ = writeln!(
                dispatch,
                "        {:?} => run_fn(c, k8s_generated::{path}),",
                k.to_string()
            );
        } else {
            let _ = writeln!(
                dispatch,
                "        {:?} => run::<k8s_generated::{path}>(c),",
                k.to_string()
            );
        }
    }
    dispatch.push_str("        other => Err(format!(\"unknown kind {other}\")),\n    }\n}\n");
    std::fs::create_dir_all(harness.join("src/bin")).expect("mkdir bin");
    std::fs::write(
        harness.join("src/bin/run_cases.rs"),
        format!("{RUST_RUNNER_HEAD}\n{dispatch}"),
    )
    .expect("run_cases.rs");

    let n: usize = std::env::var("VGC_K8S_ORACLE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let seed: u64 = std::env::var("VGC_K8S_ORACLE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut r = Rng::new(seed);
    let roots = generator.roots.clone();
    let mut cases = Vec::with_capacity(n);
    for i in 0..n {
        let (key, _, subs) = &roots[r.below(roots.len())];
        let object = generator.object(&mut r, key);
        let mut case =
            json!({"name": format!("k8s-{seed}-{i}"), "kind": key.to_string(), "object": object});
        if r.chance(45) {
            case["old"] = generator.mutate(&mut r, key, &case["object"]);
        }
        let opts = generator.option_set(&mut r);
        if !opts.is_empty() {
            case["options"] = json!(opts);
        }
        let roll = if direct.contains_key(&key.to_string()) {
            100
        } else {
            r.below(100)
        };
        if roll < 20 {
            let choices: Vec<&String> = subs.iter().filter(|s| s.as_str() != "/").collect();
            if !choices.is_empty() {
                let s = choices[r.below(choices.len())];
                case["subresources"] =
                    json!(s.trim_start_matches('/').split('/').collect::<Vec<_>>());
            }
        } else if roll < 24 {
            case["subresources"] = json!(["bogus"]);
        }
        cases.push(case);
    }
    let input = serde_json::to_string(&cases).expect("cases");

    let start = std::time::Instant::now();
    let upstream = run(&mut Command::new(work.join("oracle")), &input);
    let go_run = start.elapsed();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(&cargo)
        .args(["build", "--quiet", "--bin", "run_cases", "--manifest-path"])
        .arg(harness.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", e2e.join("target"))
        .env("RUSTFLAGS", "-D warnings")
        .status()
        .expect("nested cargo runs");
    assert!(status.success(), "the Rust case runner failed to build");
    let start = std::time::Instant::now();
    let ours = run(
        &mut Command::new(e2e.join("target/debug/run_cases")),
        &input,
    );
    let rust_run = start.elapsed();
    assert_eq!(upstream.len(), n);
    assert_eq!(ours.len(), n);

    let mut mismatches = Vec::new();
    let (mut order_only, mut nil_vs_empty, mut with_errors, mut decode_errors) = (0, 0, 0, 0);
    let mut kinds_hit = BTreeSet::new();
    for ((u, o), c) in upstream.iter().zip(&ours).zip(&cases) {
        if u.get("error").is_some() && o.get("error").is_some() {
            decode_errors += 1;
            continue;
        }
        match compare(u, o) {
            Outcome::Same => {}
            Outcome::OrderOnly => order_only += 1,
            Outcome::NilVsEmpty => nil_vs_empty += 1,
            Outcome::Mismatch => {
                mismatches.push(format!(
                    "{} ({}):\n  case     {}\n  upstream {}\n  vgc      {}",
                    u["name"],
                    c["kind"],
                    c,
                    u.get("error").unwrap_or(&u["got"]),
                    o.get("error").unwrap_or(&o["got"])
                ));
                continue;
            }
        }
        if u["got"].as_array().is_some_and(|a| !a.is_empty()) {
            with_errors += 1;
            kinds_hit.insert(c["kind"].to_string());
        }
    }
    eprintln!(
        "k8s-oracle: k8s.io/api {version}: {n} random cases (seed {seed}) over {} root types: {} mismatches; {with_errors} \
         cases with errors ({} root types), {order_only} equal up to map-iteration order, {nil_vs_empty} differing \
         only as deviation D11 (nil vs empty list in a Duplicate detail), {decode_errors} undecodable on both sides; upstream validation-gen {:.1}s, go build {:.1}s, Go run {:.1}s, Rust run {:.1}s",
        roots.len(),
        mismatches.len(),
        kinds_hit.len(),
        upstream_gen.as_secs_f64(),
        go_build.as_secs_f64(),
        go_run.as_secs_f64(),
        rust_run.as_secs_f64(),
    );
    let report = work.join("mismatches.txt");
    std::fs::write(&report, mismatches.join("\n")).expect("mismatch report");
    assert!(
        mismatches.is_empty(),
        "{} mismatches (all in {}), first ones:\n{}",
        mismatches.len(),
        report.display(),
        mismatches
            .iter()
            .take(4)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(
        decode_errors, 0,
        "every random object decodes on both sides"
    );
}
