//! The Go target in a live session (`vgc watch --target go`, issue 38): a rebuild prints again only the packages
//! whose file depends on something that changed, and takes the others from the session's last generation
//! (`driver/src/phases/go.rs`, `LastGo`; counted in `BuildOutcome::go_reused`). On a module of three tagged
//! packages, after each edit: the files the session writes are byte for byte those of a fresh session's build, and
//! exactly the expected packages were printed again — including a package whose own plan did not change but whose
//! file reads another package's type (its comparability, whether it has validations).

use std::path::{Path, PathBuf};
use vgc::driver::{BuildRequest, GoTarget, Session};

const OUT: &str = "zz_generated.validations.go";

const DOC: &str = "// +k8s:validation-gen=TypesWithField=TypeMeta\n// +k8s:validation-gen-scheme-registry=nil\n\npackage v1\n";

/// Package a: the kind Apple and `Inner`, a struct without validations that package b's kind holds.
fn a_types(max: u32, inner_fields: &str) -> String {
    format!(
        "package v1\n\n// TypeMeta stands in for metav1's.\ntype TypeMeta struct {{\n\tKind string `json:\"kind,omitempty\"`\n}}\n\n\
         // Apple is a kind.\ntype Apple struct {{\n\tTypeMeta `json:\",inline\"`\n\n\t// +k8s:optional\n\t// +k8s:maxLength={max}\n\t\
         Name *string `json:\"name,omitempty\"`\n}}\n\n// Inner is held by b's Banana.\ntype Inner struct {{\n{inner_fields}}}\n"
    )
}

/// Package b: the kind Banana, with an immutable field of a's `Inner` (its ratchet compares with `==` while
/// `Inner` is comparable, else with a deep equality).
const B_TYPES: &str = r#"package v1

import av1 "example.com/w/a/v1"

// TypeMeta stands in for metav1's.
type TypeMeta struct {
	Kind string `json:"kind,omitempty"`
}

// Banana is a kind.
type Banana struct {
	TypeMeta `json:",inline"`

	// +k8s:optional
	// +k8s:immutable
	Inner *av1.Inner `json:"inner,omitempty"`
}
"#;

/// Package c: the kind Cherry, independent of the others.
fn c_types(max: u32) -> String {
    format!(
        "package v1\n\n// TypeMeta stands in for metav1's.\ntype TypeMeta struct {{\n\tKind string `json:\"kind,omitempty\"`\n}}\n\n\
         // Cherry is a kind.\ntype Cherry struct {{\n\tTypeMeta `json:\",inline\"`\n\n\t// +k8s:optional\n\t// +k8s:maxLength={max}\n\t\
         Name *string `json:\"name,omitempty\"`\n}}\n"
    )
}

const INNER_COMPARABLE: &str = "\tX string `json:\"x,omitempty\"`\n";
const INNER_POINTER: &str =
    "\tX string `json:\"x,omitempty\"`\n\tP *string `json:\"p,omitempty\"`\n";
const INNER_VALIDATED: &str = "\t// +k8s:optional\n\t// +k8s:maxLength=3\n\tX string `json:\"x,omitempty\"`\n\tP *string `json:\"p,omitempty\"`\n";

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, text).expect("write");
}

/// The generated file of package `pkg` (`a`, `b`, `c`) as on disk.
fn generated(root: &Path, pkg: &str) -> String {
    std::fs::read_to_string(root.join(pkg).join("v1").join(OUT)).expect("generated file")
}

/// Rebuilds `session` after `edited` changed, then checks: the build is clean; `reused` packages were taken from
/// the last generation (so 3 - `reused` printed again); the files written and returned are byte for byte those a
/// fresh session builds.
fn rebuild(session: &mut Session, req: &BuildRequest, edited: &[PathBuf], reused: usize) {
    let paths: Vec<String> = edited
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let live = session.build_after(req, &paths);
    assert_eq!(vgc::exit_code(&live), 0, "{:#?}", live.diagnostics);
    let fresh = Session::default().build(req);
    assert_eq!(vgc::exit_code(&fresh), 0, "{:#?}", fresh.diagnostics);
    assert_eq!(fresh.go_reused, 0);
    let files = |o: &vgc::BuildOutcome| -> Vec<(String, String)> {
        o.files
            .iter()
            .map(|f| (f.path.clone(), f.contents.clone()))
            .collect()
    };
    assert_eq!(files(&live), files(&fresh));
    assert_eq!(files(&live).len(), 3);
    assert_eq!(
        fresh.written, 0,
        "the live build left the fresh build's bytes on disk"
    );
    let root = Path::new(&req.path);
    for (path, contents) in files(&fresh) {
        assert_eq!(
            std::fs::read_to_string(root.join(&path)).expect("written"),
            contents,
            "{path}"
        );
    }
    assert_eq!(live.go_reused, reused, "packages reused after {edited:?}");
}

#[test]
fn a_live_go_rebuild_prints_only_the_packages_whose_inputs_changed() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(tmp.path()).expect("canonical");
    write(&root, "go.mod", "module example.com/w\n\ngo 1.24\n");
    for p in ["a", "b", "c"] {
        write(&root, &format!("{p}/v1/doc.go"), DOC);
    }
    let a = root.join("a/v1/types.go");
    let c = root.join("c/v1/types.go");
    write(&root, "a/v1/types.go", &a_types(16, INNER_COMPARABLE));
    write(&root, "b/v1/types.go", B_TYPES);
    write(&root, "c/v1/types.go", &c_types(16));
    let req = BuildRequest {
        path: root.to_string_lossy().into_owned(),
        out: Some(root.clone()),
        go: Some(GoTarget::default()),
        ..Default::default()
    };
    let mut session = Session::default();
    let first = session.build(&req);
    assert_eq!(vgc::exit_code(&first), 0, "{:#?}", first.diagnostics);
    assert_eq!(first.go_reused, 0, "the first build prints every package");
    assert_eq!(first.written, 3);
    let b_first = generated(&root, "b");
    assert!(
        b_first.contains("if obj == oldObj || (obj != nil && oldObj != nil && *obj == *oldObj) {"),
        "{b_first}"
    );
    assert!(!b_first.contains("Validate_Inner"), "{b_first}");

    // Nothing changed: every file is reused.
    rebuild(&mut session, &req, &[], 3);

    // A tag edit in c: only c is printed again.
    std::fs::write(&c, c_types(17)).expect("edit c");
    rebuild(&mut session, &req, std::slice::from_ref(&c), 2);
    assert!(
        generated(&root, "c").contains("validate.MaxLength(ctx, op, fldPath, obj, oldObj, 17)")
    );

    // A tag edit in a: only a (b reads a's `Inner`, which did not change).
    std::fs::write(&a, a_types(17, INNER_COMPARABLE)).expect("edit a");
    rebuild(&mut session, &req, std::slice::from_ref(&a), 2);
    assert_eq!(generated(&root, "b"), b_first);

    // `Inner` gains a pointer member: no longer comparable with `==`. b's own plan is unchanged, but its file
    // compares the field with a deep equality now: a and b are printed again, c is reused.
    std::fs::write(&a, a_types(17, INNER_POINTER)).expect("edit a");
    rebuild(&mut session, &req, std::slice::from_ref(&a), 1);
    let b_second = generated(&root, "b");
    assert_ne!(b_second, b_first);
    assert!(!b_second.contains("*obj == *oldObj"), "{b_second}");
    assert!(
        b_second.contains("SemanticDeepEqual(obj, oldObj)"),
        "{b_second}"
    );

    // `Inner` gains its first validation: b's file now calls a's `Validate_Inner`.
    std::fs::write(&a, a_types(17, INNER_VALIDATED)).expect("edit a");
    rebuild(&mut session, &req, std::slice::from_ref(&a), 1);
    let b_third = generated(&root, "b");
    assert!(
        b_third.contains("av1.Validate_Inner(ctx, op, fldPath, obj, oldObj)"),
        "{b_third}"
    );
    assert!(generated(&root, "a").contains("func Validate_Inner("));

    // And back: both lose it again, and the files are the earlier bytes.
    std::fs::write(&a, a_types(17, INNER_COMPARABLE)).expect("edit a");
    rebuild(&mut session, &req, std::slice::from_ref(&a), 1);
    assert_eq!(generated(&root, "b"), b_first);
}
