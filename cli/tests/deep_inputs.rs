//! Inputs deep in the type graph rather than in the syntax (R2, `docs/reliability.md`): a chain of 20,000 struct
//! types each pointing at the next. Every whole-program walk over types (upstream's lint recursion, the strongly
//! connected components behind boxing) must be iterative: before, `vgc check` and `vgc lint` aborted with a stack
//! overflow on such a chain (found by a new-user trial; 20,000 types is a 1.4 MB Go file).

use std::process::Command;

const TYPES: usize = 20_000;

/// A module whose one package declares `T0 → T1 → … → T<TYPES>` (pointer fields) and a `maxLength` at the end.
fn chain_module() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let pkg = dir.path().join("chain");
    std::fs::create_dir_all(&pkg).expect("mkdir");
    std::fs::write(
        dir.path().join("go.mod"),
        "module example.com/h\n\ngo 1.24\n",
    )
    .expect("go.mod");
    std::fs::write(
        pkg.join("doc.go"),
        "// +k8s:validation-gen=TypesWithSuffix=T0\npackage chain\n",
    )
    .expect("doc.go");
    let mut src = String::from("package chain\n");
    for i in 0..TYPES {
        src.push_str(&format!(
            "type T{i} struct {{\n\t// +k8s:optional\n\tN *T{} `json:\"n,omitempty\"`\n}}\n",
            i + 1
        ));
    }
    src.push_str(&format!(
        "type T{TYPES} struct {{\n\t// +k8s:optional\n\t// +k8s:maxLength=3\n\tX string `json:\"x,omitempty\"`\n}}\n"
    ));
    std::fs::write(pkg.join("t.go"), src).expect("t.go");
    dir
}

#[test]
fn r02_a_chain_of_20000_referencing_types_checks_and_lints() {
    let dir = chain_module();
    for cmd in ["check", "lint"] {
        let out = Command::new(env!("CARGO_BIN_EXE_vgc"))
            .args([cmd, "./chain"])
            .current_dir(dir.path())
            .output()
            .expect("vgc runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "vgc {cmd}: {stderr}");
        let summary = if cmd == "check" {
            format!("vgc: 1 package, {} types, ", TYPES + 1)
        } else {
            "vgc lint: 1 package, 0 warnings, 0 errors".to_string()
        };
        assert!(stderr.contains(&summary), "vgc {cmd}: {stderr}");
    }
}
