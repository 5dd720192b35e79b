#!/usr/bin/env bash
# `vgc validate` against kubeconform on k8s.io/kubernetes@v1.37.2's test manifests, replicated to ~12,500, ~25,000
# and ~50,000 objects (docs/performance.md, "vgc validate against kubeconform"). Needs go, python3 and the Go
# module proxy and PyPI; nothing is fetched at run time of the tools themselves. Prints one line per run:
# `tool corpus wall-seconds peak-KB`.
#
#   scripts/bench-validate.sh [WORK_DIR]     # default target/bench-validate; reuses what it finds there
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$root/target/bench-validate}
mkdir -p "$work"
cd "$work"

# vgc (release) and the two inputs: k8s.io/kubernetes (manifests, OpenAPI spec) and k8s.io/api.
cargo build --release -p vgc --manifest-path "$root/Cargo.toml" >/dev/null
vgc=${CARGO_TARGET_DIR:-$root/target}/release/vgc
tmp=$(mktemp -d)
kube=$(cd "$tmp" && GOFLAGS=-mod=mod go mod download -json k8s.io/kubernetes@v1.37.2 | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
rmdir "$tmp"

# kubeconform through the Go module proxy.
if [ ! -x bin/kubeconform ]; then
  GOBIN="$work/bin" GOFLAGS=-mod=mod go install github.com/yannh/kubeconform/cmd/kubeconform@v0.8.0
fi

# Its JSON Schemas, made locally from the OpenAPI spec shipped in k8s.io/kubernetes with openapi2jsonschema (PyPI).
# openapi2jsonschema 0.9.1 pins PyYAML 5, whose build needs Cython < 3.
schemas=schemas/v1.37.2-standalone-strict
if [ ! -f "$schemas/deployment.json" ]; then
  python3 -m venv venv
  venv/bin/pip install -q "cython<3" wheel setuptools
  venv/bin/pip install -q --no-build-isolation "pyyaml==5.4.1"
  venv/bin/pip install -q openapi2jsonschema==0.9.1
  venv/bin/openapi2jsonschema -o "$schemas" --kubernetes --stand-alone --strict \
    "file://$kube/api/openapi-spec/swagger.json" >/dev/null
fi

# The corpus: every YAML file under test/ whose documents are all objects of k8s.io/api kinds (269 files, 368
# objects), concatenated, then copied 34, 68 and 136 times.
opts=(--option CompositePodGroup=false --option DRAPartitionableDevicesType=false --option HPAScaleToZero=true
  --option InPlacePodVerticalScalingSchedulerPreemption=false --option PodGroupPreemptionPolicy=false
  --option TopologyAwareWorkloadScheduling=false --option WorkloadWithJob=false)
"$vgc" validate --cache-dir cache --api k8s.io/api@v0.37.2 --output json "$kube/test" >k8s.json 2>/dev/null || true
python3 - <<'EOF'
import collections, json
r = json.load(open("k8s.json"))
by_file = collections.defaultdict(list)
for d in r["documents"]:
    by_file[d["file"]].append(d["status"])
good = sorted(f for f, st in by_file.items()
              if all(s in ("valid", "invalid") for s in st) and f.endswith((".yaml", ".yml")))
parts = []
for f in good:
    t = open(f).read()
    parts.append(t if t.endswith("\n") else t + "\n")
open("base.yaml", "w").write("---\n".join(parts))
EOF
for n in 34 68 136; do
  rm -rf "corpus$n" && mkdir "corpus$n"
  for i in $(seq 1 "$n"); do cp base.yaml "corpus$n/m$(printf %03d "$i").yaml"; done
done

# Warm the plan cache once (a repeat run reads it), then time both tools on each corpus.
"$vgc" validate --cache-dir cache --api k8s.io/api@v0.37.2 "${opts[@]}" base.yaml >/dev/null 2>&1 || true
for n in 34 68 136; do
  /usr/bin/time -f "vgc corpus$n %e %M" "$vgc" validate --cache-dir cache --api k8s.io/api@v0.37.2 "${opts[@]}" \
    "corpus$n" >/dev/null || true
  /usr/bin/time -f "kubeconform corpus$n %e %M" bin/kubeconform -summary \
    -schema-location "$schemas/{{ .ResourceKind }}.json" "corpus$n" >/dev/null || true
done
/usr/bin/time -f "vgc--strict corpus136 %e %M" "$vgc" validate --strict --cache-dir cache --api k8s.io/api@v0.37.2 \
  "${opts[@]}" corpus136 >/dev/null || true
/usr/bin/time -f "vgc-j1 corpus136 %e %M" "$vgc" validate -j 1 --cache-dir cache --api k8s.io/api@v0.37.2 \
  "${opts[@]}" corpus136 >/dev/null || true
/usr/bin/time -f "vgc-no-cache base %e %M" "$vgc" validate --no-cache --api k8s.io/api@v0.37.2 "${opts[@]}" \
  base.yaml >/dev/null || true
