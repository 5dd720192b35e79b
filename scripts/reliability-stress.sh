#!/usr/bin/env bash
# Output safety under concurrency and interruption (issue 13 acceptance, docs/reliability.md):
#   1. ROUNDS rounds of two concurrent `vgc build`s into one output directory, with a tag toggled between
#      rounds so the builds really write: counts failed builds (want 0) and compares the final output with a
#      clean build.
#   2. ROUNDS builds killed with SIGKILL at a random moment (0–KILL_MAX_MS ms after start), each followed by a
#      normal build: counts litter left after that build (staging directories, temporary files; want 0) and
#      outputs that differ from a clean build of the same input (want 0).
# Usage: scripts/reliability-stress.sh            (VGC=path/to/vgc ROUNDS=40 KILL_MAX_MS=<auto>)
# Exit status: 0 when every count is 0.
set -u
cd "$(dirname "$0")/.."
VGC=${VGC:-target/release/vgc}
ROUNDS=${ROUNDS:-40}
if [ ! -x "$VGC" ]; then
  echo "building $VGC" >&2
  cargo build --release -p vgc >&2 || exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r examples/api "$work/api"
types="$work/api/widgets/v1/types.go"
out="$work/out"
clean="$work/clean"

toggle() { # $1: round number — alternate maxLength=20 / 21 on the first maxLength tag
  if [ $(($1 % 2)) -eq 0 ]; then
    sed -i '0,/+k8s:maxLength=2[01]/s//+k8s:maxLength=20/' "$types"
  else
    sed -i '0,/+k8s:maxLength=2[01]/s//+k8s:maxLength=21/' "$types"
  fi
}

same_as_clean() { # compares $out with a clean build of the current input (vgc's state directory excluded)
  rm -rf "$clean"
  "$VGC" build "$work/api" --out "$clean" >/dev/null 2>&1 || return 1
  diff -r -q -x .vgc "$out" "$clean" >/dev/null
}

litter() { # staging directories, temporary files, old-style temp names anywhere in the output
  find "$out" \( -name 'staging-*' -o -name '.tmp*' -o -name '.vgc-fmt-*' -o -name '*.vgc-tmp' \) -print | wc -l
}

# 1. Concurrent builds.
failed=0
t0=$(date +%s.%N)
for i in $(seq "$ROUNDS"); do
  toggle "$i"
  "$VGC" build "$work/api" --out "$out" >"$work/a.log" 2>&1 &
  a=$!
  "$VGC" build "$work/api" --out "$out" >"$work/b.log" 2>&1 &
  b=$!
  wait $a || { failed=$((failed + 1)); sed 's/^/  a: /' "$work/a.log" >&2; }
  wait $b || { failed=$((failed + 1)); sed 's/^/  b: /' "$work/b.log" >&2; }
done
t1=$(date +%s.%N)
final_ok=0
same_as_clean && final_ok=1
echo "concurrent: $failed failed of $((2 * ROUNDS)) builds ($ROUNDS rounds of 2), final output identical to a clean build: $final_ok, $(echo "$t1 - $t0" | bc) s"

# Calibrate the kill window on one timed build (from scratch: the slowest case).
rm -rf "$out"
s=$(date +%s%N)
"$VGC" build "$work/api" --out "$out" >/dev/null 2>&1
e=$(date +%s%N)
build_ms=$(((e - s) / 1000000))
KILL_MAX_MS=${KILL_MAX_MS:-$((build_ms + 50))}

# 2. kill -9 at random moments.
killed=0 mismatches=0 littered=0 after_failed=0 fresh=0
for i in $(seq "$ROUNDS"); do
  toggle "$i"
  # every fourth round starts from an empty output directory (a first build killed half way)
  if [ $((i % 4)) -eq 0 ]; then rm -rf "$out"; fresh=$((fresh + 1)); fi
  "$VGC" build "$work/api" --out "$out" >/dev/null 2>&1 &
  pid=$!
  delay=$((RANDOM % KILL_MAX_MS))
  sleep "$(printf '0.%03d' "$delay")"
  if kill -9 $pid 2>/dev/null; then killed=$((killed + 1)); fi
  wait $pid 2>/dev/null
  "$VGC" build "$work/api" --out "$out" >"$work/after.log" 2>&1 || {
    after_failed=$((after_failed + 1))
    sed 's/^/  after kill: /' "$work/after.log" >&2
  }
  n=$(litter)
  if [ "$n" -ne 0 ]; then littered=$((littered + 1)); find "$out" \( -name 'staging-*' -o -name '.tmp*' \) >&2; fi
  same_as_clean || { mismatches=$((mismatches + 1)); diff -r -q -x .vgc "$out" "$clean" >&2; }
done
echo "kill -9: $ROUNDS rounds ($killed killed while running, $fresh from an empty output, window 0-${KILL_MAX_MS} ms, one build ${build_ms} ms): $after_failed failed next builds, $littered with litter, $mismatches outputs different from a clean build"

[ "$failed" -eq 0 ] && [ "$final_ok" -eq 1 ] && [ "$after_failed" -eq 0 ] && [ "$littered" -eq 0 ] && [ "$mismatches" -eq 0 ]
