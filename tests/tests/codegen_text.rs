//! The direct printer of regular generated items (`codegen/src/emit/text.rs`: struct definitions, `pub type`
//! aliases, plain `Validate` impls) prints exactly what prettyplease prints for the same items' tokens. It exists
//! only to make builds faster (issue 12), so every difference is a bug. Population: every type of every plan built
//! here — the conformance package (recursive types, inline-embedded pointers, conflicting embedded JSON names,
//! typedef roots, subresource routing), the vgc example API, the k8s-openapi fixture (target k8s-openapi, which the
//! printer leaves to prettyplease) and the custom-validation fixture; and random Go packages written here from Go
//! syntax (long type and field names near prettyplease's 89-column margin, JSON names with characters Rust string
//! literals escape, nested generics, pointers, embedded structs, validation tags that give types a `Validate` impl),
//! so the population does not come from vgc's plan. k8s.io/api's 1,254 types are compared by `k8s_e2e.rs`
//! (`real_k8s_api_end_to_end`), which builds it anyway.

use std::path::{Path, PathBuf};
use vgc::driver::BuildRequest;
use vgc_codegen::{RuntimeDep, Target};

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Builds `dir` and compares both printers on its plan: returns (items with a direct form, items printed
/// directly).
fn compare(dir: &Path, target: Option<Target>) -> (usize, usize) {
    let out = vgc::build(&BuildRequest {
        path: dir.to_string_lossy().into_owned(),
        runtime: RuntimeDep::Path("../../runtime".into()),
        target,
        ..Default::default()
    });
    let types: usize = out.plan.modules.iter().map(|m| m.types.len()).sum();
    assert!(types > 0, "{}: no types planned", dir.display());
    let cmp = vgc_codegen::compare_direct_printer(&out.plan, target.unwrap_or_default()).unwrap();
    if let Some(d) = cmp.differences.first() {
        panic!(
            "{}: {} type(s) printed differently, first {}:\n--- direct\n{}\n--- prettyplease\n{}",
            dir.display(),
            cmp.differences.len(),
            d.ty,
            d.direct,
            d.prettyplease
        );
    }
    eprintln!(
        "{}: {types} types, {} of {} items printed directly",
        dir.display(),
        cmp.direct,
        cmp.items
    );
    (cmp.items, cmp.direct)
}

#[test]
fn direct_printer_equals_prettyplease_on_the_conformance_package() {
    let (items, direct) = compare(&tests_dir().join("conformance"), None);
    // Most items are plain; the odd shapes the package exists for (recursive structs, routed roots, conflicting
    // embedded JSON names) stay with prettyplease.
    assert!(direct * 3 > items, "{direct} of {items} covered");
    assert!(
        direct < items,
        "every item covered: the fallback is not exercised"
    );
}

#[test]
fn direct_printer_equals_prettyplease_on_the_example_and_fixtures() {
    let root = tests_dir();
    let (items, direct) = compare(&root.join("../examples/api"), None);
    assert!(direct > 0 && direct <= items);
    // The k8s-openapi target defines no types and implements its own trait: nothing is printed directly.
    let (_, direct) = compare(
        &root.join("fixtures/k8s-openapi/api"),
        Some(Target::K8sOpenapi(
            vgc_codegen::k8s_openapi::K8sOpenapiVersion::V1_37,
        )),
    );
    assert_eq!(direct, 0);
    compare(&root.join("fixtures/custom"), None);
}

/// One random field: Go name, Go type (from the package's own struct types too), JSON name, tag lines.
#[derive(Debug, Clone)]
struct RandField {
    name: String,
    ty: String,
    json: String,
    tags: Vec<&'static str>,
}

fn go_ident() -> impl proptest::strategy::Strategy<Value = String> {
    // Exported Go identifiers from 1 to 60 characters: long ones push struct, field and impl lines past 89 columns.
    proptest::string::string_regex("[A-Z][A-Za-z0-9]{0,59}").unwrap()
}

fn field(n_structs: usize) -> impl proptest::strategy::Strategy<Value = RandField> {
    use proptest::prelude::*;
    let scalar = prop::sample::select(vec!["string", "int32", "int64", "bool", "float64", "uint8"])
        .prop_map(str::to_string);
    let named = (0..n_structs).prop_map(|i| format!("S{i}"));
    let base = prop_oneof![scalar, named];
    let ty = (base, 0..5usize).prop_map(|(b, shape)| match shape {
        0 => b,
        1 => format!("*{b}"),
        2 => format!("[]{b}"),
        3 => format!("map[string]{b}"),
        _ => format!("map[string][]{b}"),
    });
    // JSON names: letters plus every punctuation encoding/json allows in a tag name (some need escaping in Rust).
    let json =
        proptest::string::string_regex("[a-zA-Z][a-zA-Z0-9!#$%&()*+./:;<=>?@^_{|}~ -]{0,40}")
            .unwrap();
    let tags = prop::sample::select(vec![vec![], vec!["+k8s:optional"], vec!["+k8s:required"]]);
    (go_ident(), ty, json, tags).prop_map(|(name, ty, json, tags)| RandField {
        name,
        ty,
        json,
        tags,
    })
}

fn package() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    (1..4usize)
        .prop_flat_map(|n| {
            let structs = prop::collection::vec(
                (go_ident(), prop::collection::vec(field(n), 0..6), any::<bool>()),
                n,
            );
            (Just(n), structs)
        })
        .prop_map(|(_, structs)| {
            let mut go = String::from(
                "package p\n\ntype TypeMeta struct {\n\tKind string `json:\"kind,omitempty\"`\n}\n",
            );
            for (i, (root, fields, embeds)) in structs.iter().enumerate() {
                // Each struct `S<i>` is also a root `<root>` (a long name) that carries TypeMeta.
                go.push_str(&format!("\ntype {root}{i}R struct {{\n\tTypeMeta `json:\",inline\"`\n\tSpec S{i} `json:\"spec\"`\n}}\n"));
                go.push_str(&format!("\ntype S{i} struct {{\n"));
                let mut seen = std::collections::BTreeSet::new();
                if *embeds && i > 0 {
                    go.push_str(&format!("\tS{} `json:\",inline\"`\n", i - 1));
                    // The embedded field's name is taken (a field `S0` beside an embedded `S0` is a Go error: the
                    // generator made one now and then, and the random test failed on it).
                    seen.insert(format!("S{}", i - 1));
                }
                for f in fields {
                    // Go needs distinct field names and JSON names.
                    if !seen.insert(f.name.clone()) || !seen.insert(format!("json:{}", f.json)) {
                        continue;
                    }
                    // A struct held by value must not contain itself (Go refuses the cycle): later or own types by pointer.
                    let ty = match f.ty.strip_prefix('S').and_then(|n| n.parse::<usize>().ok()) {
                        Some(j) if j >= i => format!("*S{j}"),
                        _ => f.ty.clone(),
                    };
                    // vgc validates no map of slices (its tags would be errors, not what this test is about).
                    let tags = if ty.starts_with("map[string][]") { &[][..] } else { &f.tags[..] };
                    for t in tags {
                        go.push_str(&format!("\t// {t}\n"));
                    }
                    go.push_str(&format!("\t{} {ty} `json:\"{},omitempty\"`\n", f.name, f.json));
                }
                go.push_str("}\n");
            }
            go
        })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, failure_persistence: None, ..Default::default() })]

    /// Random Go packages (written from Go syntax, not from vgc's plan): the direct printer equals prettyplease on
    /// every type vgc plans for them.
    #[test]
    fn direct_printer_equals_prettyplease_on_random_go_packages(go in package()) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("go.mod"), "module example.com/rand\n\ngo 1.25\n").unwrap();
        std::fs::write(
            dir.path().join("doc.go"),
            "// +k8s:validation-gen=TypesWithField=TypeMeta\n// +k8s:validation-gen-nolint\npackage p\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("types.go"), &go).unwrap();
        let out = vgc::build(&BuildRequest {
            path: dir.path().to_string_lossy().into_owned(),
            runtime: RuntimeDep::Path("../../runtime".into()),
            ..Default::default()
        });
        let types: usize = out.plan.modules.iter().map(|m| m.types.len()).sum();
        let errors: Vec<&str> = out
            .diagnostics
            .iter()
            .filter(|d| d.severity == vgc_ir::Severity::Error)
            .map(|d| d.message.as_str())
            .collect();
        proptest::prop_assert!(errors.is_empty() && types > 0, "{errors:?} ({types} types)\n{go}");
        let cmp = vgc_codegen::compare_direct_printer(&out.plan, Target::Own).unwrap();
        proptest::prop_assert!(cmp.items > 0);
        if let Some(d) = cmp.differences.first() {
            panic!("{}\n--- direct\n{}\n--- prettyplease\n{}\n--- Go\n{go}", d.ty, d.direct, d.prettyplease);
        }
    }
}
