//! Shared test support of vgc's suites (`tests/tests/*.rs`): the differential harness, the random-object
//! generators, the upstream oracles and the CEL oracle, the docs-site checks, fixture directories and the test
//! tiers. Each module says what it serves.

pub mod cel_oracle;
pub mod differential;
pub mod example;
pub mod fixtures;
pub mod harness;
pub mod interpreter;
pub mod k8s_oracle;
pub mod kubernetes_defaulters;
pub mod plan_random;
pub mod randfill;
pub mod random_cases;
pub mod server_defaults;
pub mod site_check;
pub mod tier;

/// The official SARIF 2.1.0 JSON schema shipped in the `serde-sarif` crate (found through `cargo metadata`), for
/// validating vgc's SARIF logs (`vgc lint`, `vgc validate`).
///
/// # Panics
/// When cargo or the crate's `src/schema.json` cannot be found, or it is not that schema.
#[must_use]
pub fn sarif_schema() -> serde_json::Value {
    let schema_path =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["metadata", "--format-version", "1"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .and_then(|o| serde_json::from_slice::<serde_json::Value>(&o.stdout).ok())
            .and_then(|m| {
                m["packages"].as_array()?.iter().find_map(|p| {
                    (p["name"] == "serde-sarif").then(|| {
                        std::path::Path::new(p["manifest_path"].as_str().unwrap_or_default())
                            .with_file_name("src/schema.json")
                    })
                })
            })
            .expect("serde-sarif (dev-dependency) ships the SARIF 2.1.0 schema");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&schema_path).expect("schema file"))
            .expect("schema JSON");
    assert_eq!(
        schema["title"],
        "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    );
    schema
}
