//! `vgc lsp` driven by real LSP clients (issue 40), end to end:
//!
//! - **pytest-lsp** (PyPI, pygls' client with VS Code's capabilities, checking the server's messages against the
//!   specification): `lsp_clients/test_vgc_lsp.py` opens the bundled example and k8s.io/api v0.37.2's
//!   `core/v1` and `certificates/v1` `types.go`, edits them and reads back diagnostics, hover, completion,
//!   definition, references, code actions and `vgc explain`, then shuts down. pytest-lsp is installed into a virtual
//!   environment under cargo's `CARGO_TARGET_TMPDIR` (once; reused after); the test is skipped, saying so, only when
//!   PyPI cannot be reached.
//! - **Neovim** (Debian's `neovim`, which `.ci/run` installs and this test installs with apt-get when it is
//!   missing): `lsp_clients/nvim_session.lua` starts the built-in client on k8s.io/api's `core/v1/types.go`, types
//!   a misspelt tag and writes the diagnostic Neovim holds back as JSON.
//!
//! k8s.io/api and k8s.io/apimachinery v0.37.2 come from the Go module cache (`go mod download`, through the module
//! proxy when missing). Slow tier: needs `go`, Python 3 with `venv`, PyPI and `nvim`.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The pytest-lsp release the tests are written against.
const PYTEST_LSP: &str = "pytest-lsp==1.0.1";

/// The module's directory in the Go module cache (`go mod download -json`, through the module proxy when missing).
fn download(module: &str, work: &Path) -> PathBuf {
    let o = Command::new("go")
        .args(["mod", "download", "-json", module])
        .current_dir(work)
        .env("GOFLAGS", "-mod=mod")
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

/// k8s.io/api v0.37.2's directory, with k8s.io/apimachinery v0.37.2 (which it imports) in the module cache too.
fn k8s_api() -> PathBuf {
    let tmp = tempfile::tempdir().expect("tempdir");
    download("k8s.io/apimachinery@v0.37.2", tmp.path());
    download("k8s.io/api@v0.37.2", tmp.path())
}

/// The bundled example's module.
fn example() -> PathBuf {
    std::fs::canonicalize(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/api"))
        .expect("examples/api")
}

/// Whether PyPI answers at all (a TCP connection to pypi.org:443 within 10 s).
fn pypi_reachable() -> bool {
    use std::net::ToSocketAddrs as _;
    ("pypi.org", 443).to_socket_addrs().is_ok_and(|mut a| {
        a.any(|a| {
            std::net::TcpStream::connect_timeout(&a, std::time::Duration::from_secs(10)).is_ok()
        })
    })
}

/// The Python of a virtual environment with pytest-lsp, created under `CARGO_TARGET_TMPDIR` when it lacks it;
/// `None` when PyPI cannot be reached.
fn pytest_lsp_python() -> Option<PathBuf> {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lsp-clients-venv");
    let python = venv.join("bin/python");
    let has = |python: &Path| {
        Command::new(python)
            .args(["-c", "import pytest_lsp, importlib.metadata as m; assert m.version('pytest-lsp') == '1.0.1'"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if has(&python) {
        return Some(python);
    }
    if !pypi_reachable() {
        return None;
    }
    let made = Command::new("python3")
        .args(["-m", "venv", "--clear"])
        .arg(&venv)
        .output()
        .expect("python3 runs");
    assert!(
        made.status.success(),
        "python3 -m venv (Debian: python3-venv, which .ci/run installs): {}",
        String::from_utf8_lossy(&made.stderr)
    );
    let pip = Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            PYTEST_LSP,
        ])
        .output()
        .expect("pip runs");
    assert!(
        pip.status.success(),
        "pip install {PYTEST_LSP}: {}{}",
        String::from_utf8_lossy(&pip.stdout),
        String::from_utf8_lossy(&pip.stderr)
    );
    assert!(has(&python), "{PYTEST_LSP} installed but not importable");
    Some(python)
}

#[test]
fn pytest_lsp_drives_vgc_lsp_on_the_example_and_k8s_api() {
    let Some(python) = pytest_lsp_python() else {
        eprintln!(
            "pytest_lsp_drives_vgc_lsp_on_the_example_and_k8s_api: skipped: PyPI (pypi.org:443) cannot be reached to install {PYTEST_LSP}"
        );
        return;
    };
    let api = k8s_api();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/lsp_clients");
    let out = Command::new(&python)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-W",
            "error::pytest_lsp.LspSpecificationWarning",
            "test_vgc_lsp.py",
        ])
        .current_dir(dir)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("VGC_BIN", env!("CARGO_BIN_EXE_vgc"))
        .env("VGC_EXAMPLE", example())
        .env("VGC_K8S_API", &api)
        .output()
        .expect("pytest runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "pytest-lsp:\n{text}");
    assert!(text.contains("2 passed"), "{text}");
}

/// Installs Debian's `neovim` when `nvim` is missing (as `.ci/run` does), with `sudo` unless root.
fn ensure_nvim() {
    if Command::new("nvim")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return;
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0"));
    let mut apt = if root {
        Command::new("apt-get")
    } else {
        Command::new("sudo")
    };
    if !root {
        apt.arg("apt-get");
    }
    let out = apt
        .args(["install", "-y", "-qq", "neovim"])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .output()
        .expect("apt-get runs");
    assert!(
        out.status.success(),
        "apt-get install neovim: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn neovim_reads_back_the_diagnostic_of_a_misspelt_tag_in_k8s_api() {
    ensure_nvim();
    let api = k8s_api();
    let file = api.join("core/v1/types.go");
    let text = std::fs::read_to_string(&file).expect("core/v1/types.go");
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("nvim.json");
    let status = Command::new("nvim")
        .args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/lsp_clients/nvim_session.lua"
        ))
        .arg(&file)
        .current_dir(tmp.path())
        .env("VGC_BIN", env!("CARGO_BIN_EXE_vgc"))
        .env("VGC_NVIM_OUT", &out)
        .env("XDG_CONFIG_HOME", tmp.path())
        .env("XDG_DATA_HOME", tmp.path())
        .env("XDG_STATE_HOME", tmp.path())
        .status()
        .expect("nvim runs");
    assert!(status.success(), "nvim: {status}");
    let got: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("nvim wrote its result"))
            .expect("JSON");
    assert_eq!(got["ok"], true, "{got}");
    // The typed line took the number of the first `+k8s:maxItems=16` line (1-based); Neovim's diagnostic is
    // 0-based, its column in bytes: after the indentation `O` copied (a tab) and `// +`.
    let typed = text
        .lines()
        .position(|l| l.contains("+k8s:maxItems=16"))
        .expect("a +k8s:maxItems=16 line");
    assert_eq!(got["typed_line"], typed + 1, "{got}");
    assert_eq!(got["lnum"], typed, "{got}");
    assert_eq!(got["col"], 5, "{got}");
    assert_eq!(got["source"], "vgc", "{got}");
    assert_eq!(got["severity"], 1, "{got}");
    let message = got["message"].as_str().expect("message");
    assert!(
        message.starts_with("unknown tag \"k8s:maxItem\""),
        "{message}"
    );
    assert!(
        message.contains("did you mean `k8s:maxItems`?"),
        "{message}"
    );
}
