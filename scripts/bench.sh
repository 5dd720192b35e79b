#!/usr/bin/env bash
# Performance figures on the real input, side by side with upstream validation-gen (pinned v0.37.2), printed as a
# table: vgc build (cold, no-op, one-tag edit), check, lint, peak memory; upstream generation time on the same
# packages; generated-code speed (ns per object, Go vs Rust, on 20,000 random k8s.io/api objects).
#
#   scripts/bench.sh            (needs go and the Go module proxy; about 3 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
work=target/bench
rm -rf "$work" && mkdir -p "$work"
api=$(cd "$work" && GOFLAGS=-mod=mod go mod download -json k8s.io/api@latest | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
version=$(basename "$api" | sed 's/.*@//')
cp -r "$api" "$work/api" && chmod -R u+w "$work/api"
cargo build -q --release -p vgc
vgc=target/release/vgc
run() { # label, command...: wall seconds and peak KB
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" >/dev/null 2>&1 || true
  read -r secs kb < "$work/time.txt"
  printf '| %s | %s s | %s MB |\n' "$label" "$secs" "$((kb / 1024))"
  echo "$secs" > "$work/last.txt"
}
roots=(--roots TypesWithField=TypeMeta)
echo "k8s.io/api $version, $(nproc) cores"
echo
echo "| vgc | wall | peak memory |"
echo "|---|---|---|"
run "check" "$vgc" check "$work/api" --short
run "lint" "$vgc" lint "$work/api" "${roots[@]}" --short
run "build, cold (no output dir)" "$vgc" build "$work/api" "${roots[@]}" --custom-stub --out "$work/out"
cold=$(cat "$work/last.txt")
run "build, no-op rebuild" "$vgc" build "$work/api" "${roots[@]}" --custom-stub --out "$work/out"
sed -i '0,/+k8s:maxItems=16/s//+k8s:maxItems=17/' "$work/api/resource/v1/types.go"
run "build, one tag edited (resource/v1)" "$vgc" build "$work/api" "${roots[@]}" --custom-stub --out "$work/out"
echo
echo "Upstream (from the real-input differential test, same packages, same activation):"
VGC_SPEED=1 VGC_K8S_ORACLE_CASES=20000 cargo test -q -p vgc-tests --test k8s_e2e -- --nocapture 2>&1 \
  | grep -E '^(k8s-oracle|speed)' | tee "$work/upstream.txt"
up=$(grep -o 'upstream validation-gen [0-9.]*s' "$work/upstream.txt" | grep -o '[0-9.]*' | head -1)
python3 - "$cold" "$up" <<'PY'
import sys
cold, up = float(sys.argv[1]), float(sys.argv[2])
print(f"\nvgc cold build {cold:.2f} s vs validation-gen {up:.2f} s: {up / cold:.1f}x faster (vgc includes rustfmt)")
PY
