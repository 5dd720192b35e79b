//! vgc's documents in the real clients (issue 39's "Real clients" proof, `docs/openapi.md` "Using the documents"):
//! **kubeconform v0.8.0** with `vgc openapi --format jsonschema` output as its `-schema-location`, and
//! **kubectl-validate v0.0.4** (sigs.k8s.io/kubectl-validate's newest release) with `vgc openapi --merge` output
//! (k8s.io/kubernetes v1.37.2's `api/openapi-spec/v3` with k8s.io/api v0.37.2's rules, `--cel-env 1.30`: the release
//! is built on Kubernetes 1.30, whose CEL has no `format` library) as its `--local-schemas`, both built from the Go
//! module proxy (`go install`, cached under cargo's `CARGO_TARGET_TMPDIR`, so a rerun does not rebuild).
//!
//! Inputs: every `*.yaml`/`*.yml` file under k8s.io/kubernetes v1.37.2's `test/`. The stock schemas are
//! k8s.io/kubernetes' own spec — for kubectl-validate the same `api/openapi-spec/v3` files without vgc's rules, for
//! kubeconform the JSON Schema vgc's converter writes from that spec (`vgc_openapi::jsonschema` over its components
//! and `x-kubernetes-group-version-kind`s: the same layout, only the rules differ). The test asserts:
//! - every manifest document that a client passes with the stock schemas it passes with vgc's too (kubeconform plain
//!   and `-strict`), except the ones listed in [`KUBECONFORM_EXCEPTIONS`] (each with why);
//! - each broken copy the test writes of a real manifest ([`broken`]) passes with the stock schemas and fails with
//!   vgc's with exactly the errors listed (file, path, message), or — a rule the client cannot check — passes with
//!   vgc's too, and the rule is listed under `x-vgc-unexpressed` in the schema.
//!
//! It prints the counts (manifest files, documents, errors found) for `docs/openapi.md`.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// kubeconform, pinned.
const KUBECONFORM: (&str, &str) = ("github.com/yannh/kubeconform/cmd/kubeconform", "v0.8.0");
/// kubectl-validate's newest release.
const KUBECTL_VALIDATE: (&str, &str) = ("sigs.k8s.io/kubectl-validate", "v0.0.4");
/// The API tree and the spec the rules go into.
const API: &str = "k8s.io/api@v0.37.2";
const KUBERNETES: &str = "k8s.io/kubernetes@v1.37.2";

/// The module's directory in the Go module cache (`go mod download -json`, through the module proxy when missing).
fn download(module: &str, work: &Path) -> PathBuf {
    let o = Command::new("go")
        .args(["mod", "download", "-json", module])
        .current_dir(work)
        .env("GOFLAGS", "-mod=mod")
        .env("GOTOOLCHAIN", "auto")
        .output()
        .expect("the `go` command runs");
    assert!(
        o.status.success(),
        "go mod download {module}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: Value = serde_json::from_slice(&o.stdout).expect("go mod download -json");
    PathBuf::from(v["Dir"].as_str().expect("Dir"))
}

/// The client `pkg@version` built with `go install` into `CARGO_TARGET_TMPDIR/go-tools/<name>-<version>/`, once.
fn tool((pkg, version): (&str, &str), work: &Path) -> PathBuf {
    let name = pkg.rsplit('/').next().expect("name");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("go-tools")
        .join(format!("{name}-{version}"));
    let exe = dir.join(name);
    if exe.exists() {
        return exe;
    }
    // Built into a scratch directory and renamed, so an interrupted build leaves no half binary behind.
    let scratch = dir.with_extension("building");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("mkdir");
    let o = Command::new("go")
        .args(["install", &format!("{pkg}@{version}")])
        .current_dir(work)
        .env("GOBIN", &scratch)
        .env("GOFLAGS", "-mod=mod")
        .env("GOTOOLCHAIN", "auto")
        .output()
        .expect("go install runs");
    assert!(
        o.status.success(),
        "go install {pkg}@{version}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&scratch, &dir).expect("rename");
    exe
}

fn vgc(args: &[&str]) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_vgc"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("vgc runs");
    assert!(
        o.status.success(),
        "vgc {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// The last line of `vgc`'s stderr (its summary).
fn summary(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr)
        .lines()
        .last()
        .unwrap_or("")
        .to_string()
}

/// Every `*.yaml`/`*.yml` file below `dir`, sorted.
fn manifests(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("ls").flatten().collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for e in entries {
        let p = e.path();
        if e.file_type().expect("type").is_dir() {
            manifests(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            out.push(p);
        }
    }
}

/// The spec files of `spec` (`api__v1_openapi.json`, `apis__apps__v1_openapi.json`) copied into the layout
/// kubectl-validate's `--local-schemas` reads: `api/v1.json`, `apis/apps/v1.json`.
fn local_schemas(spec: &Path, to: &Path) {
    for e in std::fs::read_dir(spec).expect("ls").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix("_openapi.json") else {
            continue;
        };
        let parts: Vec<&str> = stem.split("__").collect();
        let rel = match parts.as_slice() {
            ["api", v] => format!("api/{v}.json"),
            ["apis", g, v] => format!("apis/{g}/{v}.json"),
            _ => continue,
        };
        let dst = to.join(rel);
        std::fs::create_dir_all(dst.parent().expect("parent")).expect("mkdir");
        std::fs::copy(e.path(), dst).expect("copy");
    }
}

/// kubeconform's JSON Schema from k8s.io/kubernetes' own spec: vgc's converter over its components, no rules added.
fn stock_json_schema(spec: &Path, to: &Path) {
    let mut components = serde_json::Map::new();
    for e in std::fs::read_dir(spec).expect("ls").flatten() {
        let doc: Value =
            serde_json::from_slice(&std::fs::read(e.path()).expect("read")).expect("JSON");
        if let Some(Value::Object(s)) = doc.get("components").and_then(|c| c.get("schemas")) {
            for (k, v) in s {
                components.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    }
    let kinds = vgc_openapi::jsonschema::kinds_of_spec(&components);
    let out = vgc_openapi::jsonschema::json_schemas(&components.into_iter().collect(), &kinds);
    for f in out.files {
        let p = to.join(&f.path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, serde_json::to_vec_pretty(&f.json).expect("json")).expect("write");
    }
}

/// One document's result: `(file, kind, name)` → the errors (`path: message`), empty when valid.
type Results = BTreeMap<(String, String, String), Vec<String>>;

/// Runs kubeconform with `schemas` on `files` (`-output json -verbose`, and `-strict` with `strict`): each
/// resource's errors; resources it cannot read (templates, unknown kinds) are left out.
fn kubeconform(
    exe: &Path,
    schemas: &Path,
    files: &[PathBuf],
    root: &Path,
    strict: bool,
) -> Results {
    let o = Command::new(exe)
        .arg("-schema-location")
        .arg(schemas)
        .args(["-output", "json", "-verbose"])
        .args(strict.then_some("-strict"))
        .args(files)
        .output()
        .expect("kubeconform runs");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "kubeconform output: {e}: {}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    let mut out = Results::new();
    for r in v["resources"].as_array().into_iter().flatten() {
        let status = r["status"].as_str().unwrap_or("");
        if status != "statusValid" && status != "statusInvalid" {
            continue;
        }
        let file = relative(r["filename"].as_str().unwrap_or(""), root);
        let key = (
            file,
            r["kind"].as_str().unwrap_or("").to_string(),
            r["name"].as_str().unwrap_or("").to_string(),
        );
        let errors = r["validationErrors"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| {
                format!(
                    "{}: {}",
                    e["path"].as_str().unwrap_or(""),
                    e["msg"].as_str().unwrap_or("")
                )
            })
            .collect();
        out.insert(key, errors);
    }
    out
}

/// Runs kubectl-validate with `--local-schemas schemas` on `files` (`-o json`, no cluster, `--version 1.30` for
/// what the local schemas lack): each file's errors (`field: message` of each cause, or the message), empty when
/// every document passed; the number of documents.
fn kubectl_validate(
    exe: &Path,
    schemas: &Path,
    files: &[PathBuf],
    root: &Path,
    home: &Path,
) -> BTreeMap<String, (usize, Vec<String>)> {
    let o = Command::new(exe)
        .args(files)
        .arg("--local-schemas")
        .arg(schemas)
        .args(["--version", "1.30", "-o", "json"])
        // No cluster: no kubeconfig to find.
        .env("HOME", home)
        .env("KUBECONFIG", home.join("no-kubeconfig"))
        .output()
        .expect("kubectl-validate runs");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "kubectl-validate output: {e}: {}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    let mut out = BTreeMap::new();
    for (file, statuses) in v.as_object().expect("a map by file") {
        let statuses = statuses.as_array().expect("statuses");
        let mut errors = Vec::new();
        for s in statuses {
            if s["status"] == "Success" {
                continue;
            }
            let causes = s["details"]["causes"].as_array().filter(|c| !c.is_empty());
            match causes {
                Some(cs) => errors.extend(cs.iter().map(|c| {
                    format!(
                        "{}: {}",
                        c["field"].as_str().unwrap_or(""),
                        c["message"].as_str().unwrap_or("")
                    )
                })),
                None => errors.push(s["message"].as_str().unwrap_or("").to_string()),
            }
        }
        out.insert(relative(file, root), (statuses.len(), errors));
    }
    out
}

fn relative(file: &str, root: &Path) -> String {
    Path::new(file)
        .strip_prefix(root)
        .map_or_else(|_| file.to_string(), |p| p.to_string_lossy().into_owned())
}

/// A broken copy of a real manifest: the file it copies (below `test/`; a scheduler_perf template rendered with
/// `{{.Index}}` = 0 when `render`), the text replaced and its replacement.
struct Broken {
    name: &'static str,
    from: &'static str,
    render: bool,
    replace: &'static str,
    with: String,
}

/// The broken copies, each breaking one declarative rule of k8s.io/api v0.37.2 that k8s.io/kubernetes' own spec
/// does not carry.
fn broken() -> Vec<Broken> {
    let selector = "  - cel:\n      expression: device.driver == \"test-driver.cdi.k8s.io\"\n";
    vec![
        // `+k8s:maxItems=32` on DeviceClassSpec.selectors.
        Broken {
            name: "deviceclass-33-selectors.yaml",
            render: false,
            from: "e2e/dra/test-driver/deploy/example/deviceclass.yaml",
            replace: selector,
            with: selector.repeat(33),
        },
        // `+k8s:format=k8s-long-name` on DeviceSubRequest.deviceClassName.
        Broken {
            name: "resourceclaimtemplate-bad-class-name.yaml",
            render: false,
            from: "integration/scheduler_perf/dra/templates/resourceclaimtemplate-first-available.yaml",
            replace: "deviceClassName: test-class",
            with: "deviceClassName: Test_Class".into(),
        },
        // `+k8s:enum` of ExactDeviceRequest.allocationMode.
        Broken {
            name: "resourceclaim-bad-allocation-mode.yaml",
            render: false,
            from: "e2e/dra/test-driver/deploy/example/resourceclaim.yaml",
            replace: "deviceClassName: example",
            with: "deviceClassName: example\n        allocationMode: Sometimes".into(),
        },
        // `+k8s:listType=map` `+k8s:listMapKey=name` of DeviceClaim.requests: a duplicate key.
        Broken {
            name: "resourceclaim-duplicate-request.yaml",
            render: false,
            from: "e2e/dra/test-driver/deploy/example/resourceclaim.yaml",
            replace: "    - name: req-0\n      exactly:\n        deviceClassName: example\n",
            with: "    - name: req-0\n      exactly:\n        deviceClassName: example\n".repeat(2),
        },
        // `+k8s:unionMember` of PodGroupSchedulingPolicy's `basic` and `gang`: both set.
        Broken {
            name: "podgroup-two-policies.yaml",
            render: true,
            from: "integration/scheduler_perf/podgroup/basicscheduling/templates/podgroup.yaml",
            replace: "    basic: {}",
            with: "    basic: {}\n    gang:\n      minCount: 2".into(),
        },
        // `+k8s:format=k8s-label-key` on Toleration.key, in a DaemonSet's pod template.
        Broken {
            name: "daemonset-bad-toleration-key.yaml",
            render: false,
            from: "e2e/testing-manifests/sample-device-plugin/sample-device-plugin.yaml",
            replace: "      - operator: \"Exists\"\n        effect: \"NoExecute\"",
            with: "      - key: \"not a key!\"\n        operator: \"Exists\"\n        effect: \"NoExecute\""
                .into(),
        },
    ]
}

#[test]
fn kubeconform_and_kubectl_validate_catch_declarative_errors_with_vgcs_documents() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let work = tmp.path();
    let kubeconform_exe = tool(KUBECONFORM, work);
    let kubectl_validate_exe = tool(KUBECTL_VALIDATE, work);
    let api = download(API, work);
    let k8s = download(KUBERNETES, work);
    let spec = k8s.join("api/openapi-spec/v3");
    let test_dir = k8s.join("test");

    // vgc's documents: JSON Schema for kubeconform, the merged spec for kubectl-validate.
    let js = work.join("jsonschema");
    let o = vgc(&[
        "openapi",
        &api.to_string_lossy(),
        "--format",
        "jsonschema",
        "--out",
        &js.to_string_lossy(),
    ]);
    eprintln!("vgc openapi --format jsonschema: {}", summary(&o));
    // The same with the cost-estimate bounds at their defaults (`--bound-lists` 128, `--bound-strings` 4096): what
    // they refuse of the real manifests.
    let js_bounded = work.join("jsonschema-bounded");
    let o = vgc(&[
        "openapi",
        &api.to_string_lossy(),
        "--format",
        "jsonschema",
        "--bound-lists",
        "--bound-strings",
        "--out",
        &js_bounded.to_string_lossy(),
    ]);
    eprintln!(
        "vgc openapi --format jsonschema --bound-lists --bound-strings: {}",
        summary(&o)
    );
    let merged = work.join("merged");
    let o = vgc(&[
        "openapi",
        &api.to_string_lossy(),
        "--merge",
        &spec.to_string_lossy(),
        "--cel-env",
        "1.30",
        "--out",
        &merged.to_string_lossy(),
    ]);
    eprintln!("vgc openapi --merge --cel-env 1.30: {}", summary(&o));
    let kv_vgc = work.join("kv-vgc");
    local_schemas(&merged, &kv_vgc);
    let kv_stock = work.join("kv-stock");
    local_schemas(&spec, &kv_stock);
    let js_stock = work.join("jsonschema-stock");
    stock_json_schema(&spec, &js_stock);

    // The real manifests.
    let mut files = Vec::new();
    manifests(&test_dir, &mut files);
    let home = work.join("home");
    std::fs::create_dir_all(&home).expect("home");

    let kc_stock = kubeconform(&kubeconform_exe, &js_stock, &files, &test_dir, false);
    let kc_vgc = kubeconform(&kubeconform_exe, &js, &files, &test_dir, false);
    let kc_population: Vec<_> = kc_stock.iter().filter(|(_, e)| e.is_empty()).collect();
    let mut kc_differ = BTreeMap::new();
    for (k, _) in &kc_population {
        let errors = kc_vgc
            .get(*k)
            .cloned()
            .unwrap_or_else(|| vec!["not read".into()]);
        if !errors.is_empty() {
            kc_differ.insert((*k).clone(), errors);
        }
    }
    // The bounds refuse none of the documents vgc's schemas pass.
    let kc_bounded = kubeconform(&kubeconform_exe, &js_bounded, &files, &test_dir, false);
    let passing: Vec<_> = kc_vgc.iter().filter(|(_, e)| e.is_empty()).collect();
    let refused: BTreeMap<_, _> = passing
        .iter()
        .filter_map(|(k, _)| {
            let e = kc_bounded
                .get(*k)
                .cloned()
                .unwrap_or_else(|| vec!["not read".into()]);
            (!e.is_empty()).then(|| ((*k).clone(), e))
        })
        .collect();
    eprintln!(
        "kubeconform with the bounds: {} of the {} documents valid with vgc's schemas refused: {refused:#?}",
        refused.len(),
        passing.len()
    );
    assert!(refused.is_empty(), "{refused:#?}");
    let kv_stock_r = kubectl_validate(&kubectl_validate_exe, &kv_stock, &files, &test_dir, &home);
    let kv_vgc_r = kubectl_validate(&kubectl_validate_exe, &kv_vgc, &files, &test_dir, &home);
    let kv_population: Vec<_> = kv_stock_r
        .iter()
        .filter(|(_, (_, e))| e.is_empty())
        .collect();
    let mut kv_differ = BTreeMap::new();
    for (f, _) in &kv_population {
        let errors = &kv_vgc_r[*f].1;
        if !errors.is_empty() {
            kv_differ.insert((*f).clone(), errors.clone());
        }
    }
    eprintln!(
        "{} manifest files under test/; kubeconform: {} documents read, {} valid with the stock schemas, {} of them invalid with vgc's: {kc_differ:#?}",
        files.len(),
        kc_stock.len(),
        kc_population.len(),
        kc_differ.len()
    );
    eprintln!(
        "kubectl-validate: {} files pass with the stock schemas ({} documents), {} of them fail with vgc's: {kv_differ:#?}",
        kv_population.len(),
        kv_population.iter().map(|(_, (n, _))| n).sum::<usize>(),
        kv_differ.len()
    );

    // The broken copies.
    let broken_dir = work.join("broken");
    std::fs::create_dir_all(&broken_dir).expect("mkdir");
    let mut broken_files = Vec::new();
    for b in broken() {
        let mut text = std::fs::read_to_string(test_dir.join(b.from)).expect("read");
        if b.render {
            text = text.replace("{{.Index}}", "0");
        }
        assert!(
            text.contains(b.replace),
            "{}: {:?} not found",
            b.from,
            b.replace
        );
        let p = broken_dir.join(b.name);
        std::fs::write(&p, text.replacen(b.replace, &b.with, 1)).expect("write");
        broken_files.push(p);
    }
    let bkc_stock = kubeconform(
        &kubeconform_exe,
        &js_stock,
        &broken_files,
        &broken_dir,
        false,
    );
    let bkc_vgc = kubeconform(&kubeconform_exe, &js, &broken_files, &broken_dir, false);
    let bkv_stock = kubectl_validate(
        &kubectl_validate_exe,
        &kv_stock,
        &broken_files,
        &broken_dir,
        &home,
    );
    let bkv_vgc = kubectl_validate(
        &kubectl_validate_exe,
        &kv_vgc,
        &broken_files,
        &broken_dir,
        &home,
    );
    assert_eq!(bkc_stock.len(), broken_files.len(), "{bkc_stock:#?}");
    assert!(
        bkc_stock.values().all(Vec::is_empty),
        "the stock JSON Schema passes every broken copy: {bkc_stock:#?}"
    );
    assert!(
        bkv_stock.values().all(|(_, e)| e.is_empty()),
        "the stock spec passes every broken copy: {bkv_stock:#?}"
    );
    let not_checked = "<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";
    let kc = |file: &str| -> Vec<String> {
        bkc_vgc
            .iter()
            .find(|(k, _)| k.0 == file)
            .map(|(_, e)| e.clone())
            .unwrap_or_else(|| panic!("{file}: not read: {bkc_vgc:#?}"))
    };
    let kv = |file: &str| -> Vec<String> { bkv_vgc[file].1.clone() };
    assert_eq!(
        kc("deviceclass-33-selectors.yaml"),
        ["/spec/selectors: maxItems: got 33, want 32"]
    );
    assert_eq!(
        kv("deviceclass-33-selectors.yaml"),
        [
            "spec.selectors: Too many: 33: must have at most 32 items",
            not_checked
        ]
    );
    assert_eq!(
        kc("resourceclaimtemplate-bad-class-name.yaml"),
        ["/spec/spec/devices/requests/0/firstAvailable/1/deviceClassName: 'allOf' failed"]
    );
    assert_eq!(
        kv("resourceclaimtemplate-bad-class-name.yaml"),
        [
            "spec.spec.devices.requests[0].firstAvailable[1].deviceClassName: Invalid value: \"string\": must be a lowercase RFC 1123 subdomain"
        ]
    );
    // The optional enum admits `null` too, as every optional field of the JSON Schema does.
    assert_eq!(
        kc("resourceclaim-bad-allocation-mode.yaml"),
        [
            "/spec/devices/requests/0/exactly/allocationMode: value must be one of '', 'All', 'ExactCount', <nil>"
        ]
    );
    assert_eq!(
        kv("resourceclaim-bad-allocation-mode.yaml"),
        [
            "spec.devices.requests[0].exactly.allocationMode: Unsupported value: \"Sometimes\": supported values: \"\", \"All\", \"ExactCount\"",
            not_checked
        ]
    );
    assert_eq!(
        kc("daemonset-bad-toleration-key.yaml"),
        ["/spec/template/spec/tolerations/0/key: 'allOf' failed"]
    );
    assert_eq!(
        kv("daemonset-bad-toleration-key.yaml"),
        [
            "spec.template.spec.tolerations[0].key: Invalid value: \"string\": must be a valid label key"
        ]
    );
    // A duplicate list-map key: kubectl-validate reports it (the merged spec's list is atomic, so the rule is a CEL
    // duplicate test); JSON Schema cannot state uniqueness by key, so kubeconform passes it, and the schema lists
    // the rule it does not state.
    assert_eq!(
        kv("resourceclaim-duplicate-request.yaml"),
        ["spec.devices.requests: Invalid value: \"array\": Duplicate value"]
    );
    assert_eq!(
        kc("resourceclaim-duplicate-request.yaml"),
        Vec::<String>::new()
    );
    // A union with two members: a CEL rule (ratcheted on the members' set-ness, as upstream's), which kubectl-validate
    // runs; kubeconform cannot, and the schema lists it.
    assert_eq!(
        kv("podgroup-two-policies.yaml"),
        [
            "spec.schedulingPolicy: Invalid value: \"object\": must specify exactly one of: `basic`, `gang`"
        ]
    );
    assert_eq!(kc("podgroup-two-policies.yaml"), Vec::<String>::new());
    let group: Value = serde_json::from_slice(
        &std::fs::read(js.join("master-standalone/podgroup-scheduling-v1beta1.json"))
            .expect("read"),
    )
    .expect("JSON");
    let listed = group["properties"]["spec"]["properties"]["schedulingPolicy"]["x-vgc-unexpressed"]
        .as_array()
        .expect("listed rules");
    assert!(
        listed.contains(&serde_json::json!({
            // A ratcheted rule by its plain form: a manifest has no old object.
            "cel": "[has(self.basic), has(self.gang)].filter(x, x).size() <= 1",
            "path": "",
            "reason": "a CEL rule (x-kubernetes-validations): JSON Schema cannot state it",
            "rule": "k8s:unionMember"
        })),
        "{listed:#?}"
    );
    let claim: Value = serde_json::from_slice(
        &std::fs::read(js.join("master-standalone/resourceclaim-resource-v1.json")).expect("read"),
    )
    .expect("JSON");
    assert_eq!(
        claim["properties"]["spec"]["properties"]["devices"]["properties"]["requests"]["x-vgc-unexpressed"],
        serde_json::json!([{
            "path": ".requests",
            "reason": "JSON Schema cannot state uniqueness by key (`uniqueItems` compares whole items)",
            "rule": "x-kubernetes-list-type: map (name)"
        }])
    );

    // The real manifests: what passes with the stock schemas passes with vgc's, except these.
    let differ: BTreeMap<String, Vec<String>> = kc_differ
        .iter()
        .map(|(k, e)| (format!("{} {} {}", k.0, k.1, k.2), e.clone()))
        .collect();
    let expected: BTreeMap<String, Vec<String>> = KUBECONFORM_EXCEPTIONS
        .iter()
        .map(|(k, e, _why)| {
            (
                (*k).to_string(),
                e.iter().map(|x| (*x).to_string()).collect(),
            )
        })
        .collect();
    assert_eq!(differ, expected);
    // The `-strict` variant (`master-standalone-strict`, unknown fields refused): the same differences.
    let strict_stock = kubeconform(&kubeconform_exe, &js_stock, &files, &test_dir, true);
    let strict_vgc = kubeconform(&kubeconform_exe, &js, &files, &test_dir, true);
    let mut strict_differ = BTreeMap::new();
    let mut strict_valid = 0;
    for (k, e) in &strict_stock {
        if !e.is_empty() {
            continue;
        }
        strict_valid += 1;
        let errors = strict_vgc
            .get(k)
            .cloned()
            .unwrap_or_else(|| vec!["not read".into()]);
        if !errors.is_empty() {
            strict_differ.insert(format!("{} {} {}", k.0, k.1, k.2), errors);
        }
    }
    assert_eq!(strict_differ, expected, "with -strict");
    eprintln!(
        "kubeconform -strict: {strict_valid} documents valid with the stock schemas, {} of them invalid with vgc's (the same)",
        strict_differ.len()
    );
    assert!(
        kv_differ.is_empty(),
        "kubectl-validate: files that pass with the stock spec and fail with vgc's: {kv_differ:#?}"
    );
    let kc_errors: usize = bkc_vgc.values().map(Vec::len).sum();
    let kv_errors: usize = bkv_vgc
        .values()
        .map(|(_, e)| e.iter().filter(|x| x.as_str() != not_checked).count())
        .sum();
    eprintln!(
        "broken copies: {}; errors found with vgc's documents: kubeconform {kc_errors}, kubectl-validate {kv_errors}; with the stock schemas: 0",
        broken_files.len()
    );
}

/// The real manifests kubeconform passes with the stock JSON Schema and not with vgc's: `file kind name`, the
/// errors, and why.
const KUBECONFORM_EXCEPTIONS: &[(&str, &[&str], &str)] = &[
    (
        "integration/scheduler_perf/dra/templates/podgroup-with-claim-ref.yaml PodGroup test-dra-{{.Index}}",
        &[
            "/spec/resourceClaims/0/resourceClaimName: 'test-claim-{{.Index}}' does not match pattern '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'",
        ],
        "an unrendered template: the claim name `test-claim-{{.Index}}` is not a subdomain (`k8s-long-name`), as the API server would say",
    ),
    (
        "integration/scheduler_perf/event_handling/templates/nodeupdate-pod-tainttoleration.yaml Pod pod-unsched-{{ generateName }}",
        &["/spec/tolerations/0/key: 'allOf' failed"],
        "an unrendered template: the toleration key `toleration-{{ DivideInt .Index 10 }}` is not a label key (`k8s-label-key`)",
    ),
];
