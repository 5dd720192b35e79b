#!/usr/bin/env bash
# Full differential runs against upstream validation-gen (the newest release with a published generator, pinned in
# ir/src/profile.rs `Upstream::code_generator`, installed through the Go module proxy): upstream's own output_tests
# suite of that release and of the pinned pre-release (every doc_test call replayed, then randfill objects), the conformance packages, the bundled example and
# k8s.io/api, each validated by upstream-generated Go and vgc-generated Rust, compared case by case (docs/testing.md).
# Then the runtime differential (tests/tests/runtime_differential.rs: vgc-runtime against k8s.io/apimachinery v0.37.2
# and v0.38.0-beta.0 on Go-generated inputs, VGC_RUNTIME_CALLS calls per release, default 200000). Then the other
# releases (VGC_RELEASES, default "1.35 1.36 1.38"; 1.38 is the pinned pre-release v0.38.0-beta.0): each release's
# k8s.io/api through that release's
# validation-gen and vgc under the matching profile (tests/tests/k8s_e2e.rs `older_release_agrees_with_its_generator`).
#
#   scripts/differential.sh [SEED]
#
# Sizes (override with the environment): output_tests randfill (VGC_OUTPUT_TESTS_CASES, default 100000), the
# conformance packages (VGC_CONFORMANCE_CASES plan-driven and VGC_CONFORMANCE_RANDFILL_CASES randfill, default 100000
# each), the bundled example (VGC_ORACLE_CASES, default 100000) and k8s.io/api, newest release (VGC_K8S_ORACLE_CASES
# plan-driven and VGC_K8S_RANDFILL_CASES randfill, default 50000 each). Prints one summary line per run and the wall
# time; exits non-zero on any mismatch not listed in tests/output_tests_gaps.toml. Mismatches, if any, are written to
# target/e2e/{output-tests,conformance,k8s-oracle}/*mismatches.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
seed="${1:-1}"
export VGC_OUTPUT_TESTS_CASES="${VGC_OUTPUT_TESTS_CASES:-100000}" VGC_OUTPUT_TESTS_SEED="$seed"
export VGC_CONFORMANCE_CASES="${VGC_CONFORMANCE_CASES:-100000}" VGC_CONFORMANCE_SEED="$seed"
export VGC_CONFORMANCE_RANDFILL_CASES="${VGC_CONFORMANCE_RANDFILL_CASES:-100000}"
export VGC_ORACLE_CASES="${VGC_ORACLE_CASES:-100000}" VGC_ORACLE_SEED="$seed"
export VGC_K8S_ORACLE_CASES="${VGC_K8S_ORACLE_CASES:-50000}" VGC_K8S_ORACLE_SEED="$seed"
export VGC_K8S_RANDFILL_CASES="${VGC_K8S_RANDFILL_CASES:-50000}"
export VGC_RUNTIME_CALLS="${VGC_RUNTIME_CALLS:-200000}" VGC_RUNTIME_SEED="$seed"
status=0
for t in output_tests conformance oracle k8s_e2e runtime_differential; do
  start=$(date +%s)
  log="target/e2e/differential-$t.log"
  mkdir -p target/e2e
  if cargo test -q -p vgc-tests --test "$t" -- --nocapture >"$log" 2>&1; then result=ok; else result=FAILED; status=1; fi
  end=$(date +%s)
  echo "== $t: $result in $((end - start))s (log: $log)"
  grep -E '^(output-tests|output-tests-randfill|conformance|conformance-random|conformance-randfill|oracle|oracle-random|k8s-oracle|k8s-randfill|k8s.io/api v|runtime-differential)' "$log" || true
done
for release in ${VGC_RELEASES-1.35 1.36 1.38}; do
  start=$(date +%s)
  log="target/e2e/differential-k8s-$release.log"
  if VGC_ORACLE_UPSTREAM="$release" cargo test -q -p vgc-tests --test k8s_e2e older_release_agrees_with_its_generator \
      -- --nocapture >"$log" 2>&1; then result=ok; else result=FAILED; status=1; fi
  end=$(date +%s)
  echo "== k8s.io/api $release: $result in $((end - start))s (log: $log)"
  grep -E '^(k8s-oracle|k8s.io/api v)' "$log" || true
done
exit "$status"
