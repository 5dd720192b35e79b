//! Unit-test support for the tag-family modules: lowers one Go file held in memory and prints the plan in words
//! (`words::in_words`) with the diagnostics, for `expect_test` expectations next to the code that makes them.

use crate::words::in_words;
use vgc_analysis::MemorySystem;

#[salsa::db]
#[derive(Clone, Default)]
struct TestDb {
    storage: salsa::Storage<Self>,
}

#[salsa::db]
impl salsa::Database for TestDb {}

#[salsa::db]
impl vgc_ir::Db for TestDb {
    fn as_dyn(&self) -> &dyn vgc_ir::Db {
        self
    }
}

/// Lowers `body` (Go declarations, without the package clause) as package `example.com/t/api/v1` with every type a
/// root (`+k8s:validation-gen=*`), and returns one line per declaration that has checks — `Type: …` for type-level
/// checks, `Type.field: …` for field checks, each check in `words::in_words`'s words, `; `-separated — then one line
/// per diagnostic (the catalog checks', then lowering's), `CODE message`.
pub(crate) fn lower_go(body: &str) -> String {
    let mut sys = MemorySystem::default();
    sys.files.insert(
        "/m/go.mod".into(),
        "module example.com/t\n\ngo 1.24\n".into(),
    );
    sys.files.insert(
        "/m/api/v1/doc.go".into(),
        "// +k8s:validation-gen=*\npackage v1\n".into(),
    );
    sys.files
        .insert("/m/api/v1/types.go".into(), format!("package v1\n\n{body}"));
    let mut db = TestDb::default();
    let mut stamps = vgc_analysis::program::Stamps::default();
    let mut out = Vec::new();
    match vgc_analysis::load(&mut db, &sys, "/m", &mut stamps) {
        Err(diags) => out.extend(
            diags
                .iter()
                .map(|d| format!("{} {}", d.code.as_str(), d.message)),
        ),
        Ok((prog, mut diags)) => {
            // The catalog checks (syntax, names, scopes, arguments, payloads), as the driver runs them.
            for p in prog.packages.values().filter(|p| p.target) {
                diags.extend(vgc_ir::db::check_package(&db, p.input).iter().cloned());
            }
            let plan = crate::crate_plan(&db);
            for m in &plan.modules {
                for t in &m.types {
                    let line = |checks: &[crate::plan::Check]| {
                        checks.iter().map(in_words).collect::<Vec<_>>().join("; ")
                    };
                    if !t.checks.is_empty() {
                        out.push(format!("{}: {}", t.key.name, line(&t.checks)));
                    }
                    for f in t.fields.iter().flatten() {
                        if !f.checks.is_empty() {
                            out.push(format!(
                                "{}.{}: {}",
                                t.key.name,
                                f.json_name,
                                line(&f.checks)
                            ));
                        }
                    }
                }
            }
            out.extend(
                diags
                    .iter()
                    .chain(&plan.diagnostics)
                    .map(|d| format!("{} {}", d.code.as_str(), d.message)),
            );
        }
    }
    out.join("\n") + "\n"
}
