#!/usr/bin/env bash
# The fast test tier (docs/testing.md, "Tiers"): the unit tests of every workspace crate and the integration test
# binaries that need no Go, no network, no browser and no nested cargo build — diagnostics, lint, snapshots,
# incremental and watch tests, the command-line tests, the generated example's tests — with VGC_FAST=1, under which
# the few tests of those binaries that do need one of them print `<test>: skipped (VGC_FAST=1): <why>` and return
# (vgc_tests::tier::skip_slow). The slow tier — every binary in `slow` below and those skipped tests — runs in CI
# (`.ci/run`: `cargo test --workspace`, where VGC_FAST is not set).
#
#   scripts/test-fast.sh                  # everything of the fast tier
#   scripts/test-fast.sh -- some_name     # arguments after the script's name go to `cargo test`
set -euo pipefail
cd "$(dirname "$0")/.."

# Integration test binaries of the fast tier (file names without `.rs`; `cargo test --test NAME` finds each in
# its package).
fast=(
  # vgc-tests, tests/tests
  codegen_text custom_validation diagnostics docs example_fresh extensions fuzz_corpus graph incremental
  interpreter_decode k8s_openapi_target lint reliability snapshots tag_accounting upstream watch boundaries
  openapi_mapping go_rebuild
  # vgc, cli/tests
  cache_dir check_target deep_inputs docs_output first_hour go_target graph_cli lint_cli portable_output two_targets
  lsp tag_prefix validate_cli openapi_cli openapi_crd_cli
  # vgc-build, build/tests; vgc-build-example, build/example/tests
  config dependencies validate
  # vgc-parser, parser/tests (reads k8s.io/api from the module cache when it is there; skips otherwise)
  reuse_corpus
  # vgc-example-generated, tests/example-generated/tests
  alloc cases registry
)
# The slow tier's whole binaries: each runs `go` (validation-gen, Go drivers, `go mod download` through the module
# proxy) in every test, most also nested cargo builds of generated crates.
slow=(
  conformance defaults_oracle extensions_cel_oracle k8s_custom_differential k8s_e2e k8s_openapi_e2e
  k8s_openapi_webhook oracle output_tests release_defaults_oracle runtime_differential server_defaults_oracle
  server_verdict_oracle
  go_backend go_kubernetes
  # cli/tests: `vgc lsp` through pytest-lsp (PyPI) and headless Neovim, on k8s.io/api from the module proxy
  lsp_clients
  validate_k8s_manifests
  openapi_merge openapi_apiserver openapi_crd openapi_cost
  # cli/tests: kubeconform and kubectl-validate built from the module proxy, on k8s.io/kubernetes' test manifests
  openapi_clients
  yaml_kubectl_oracle
)

# Every test binary of the workspace is in exactly one of the two lists: a new one must be classified here.
listed=" ${fast[*]} ${slow[*]} "
for f in tests/tests/*.rs cli/tests/*.rs build/tests/*.rs build/example/tests/*.rs tests/example-generated/tests/*.rs parser/tests/*.rs; do
  name=$(basename "$f" .rs)
  case "$listed" in
    *" $name "*) ;;
    *) echo "scripts/test-fast.sh: $f is in neither tier: add it to \`fast\` or \`slow\`" >&2; exit 2 ;;
  esac
done

args=()
for t in "${fast[@]}"; do args+=(--test "$t"); done

# Nothing here may reach the Go module proxy: a `go` that would download fails at once instead.
export VGC_FAST=1 GOPROXY=off
exec cargo test --workspace --no-fail-fast --lib --bins "${args[@]}" "$@"
