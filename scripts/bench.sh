#!/usr/bin/env bash
# Performance figures on the real input and a 10x synthetic tree, side by side with upstream validation-gen
# (pinned v0.37.2 through the real-input differential test), printed as Markdown tables with ratios. See
# scripts/bench.py for what is measured and how.
#
#   scripts/bench.sh            (needs go and the Go module proxy; about 4 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/bench.py "$@"
