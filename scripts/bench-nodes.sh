#!/usr/bin/env bash
# Rows 1, 2 and 7 of the benchmark (SendMessage round trips and the 100-event stream: bare,
# SDK only, SDK floor with instrumentation-undici, this instrumentation, NodeSDK +
# instrumentation-undici and the register entry with OTLP export; own work without the
# network) with the CLIENT processes on other Node.js majors; the peer stays on the machine's node. Node binaries come from the npm registry as in
# the runtime matrix (scripts/matrix/fetch-node.sh), cached in $MATRIX_CACHE (/tmp/a2a-matrix).
#
#   npm run bench:nodes                 # Node 22 and 24, ~2.5 min each on 2 cores
#   BENCH_NODES="24" npm run bench:nodes
#
# Writes .bench-out/results-node<major>.{md,json}; the other BENCH_* knobs of bench/run.ts apply.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
CACHE="${MATRIX_CACHE:-/tmp/a2a-matrix}"
SYS_NODE="$(command -v node)"
NODE_PKG="node-linux-$("$SYS_NODE" -p process.arch)"
log() { printf '[bench-nodes %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
mkdir -p "$CACHE/node"
# shellcheck source=matrix/fetch-node.sh
. "$HERE/matrix/fetch-node.sh"

cd "$REPO"
for major in ${BENCH_NODES:-22 24}; do
  bin="$(fetch_node "$major")"
  log "row 1 with clients on $("$bin/node" --version)"
  BENCH_NODE="$bin/node" BENCH_OUT_NAME="results-node$major" \
    BENCH_CONFIGS="${BENCH_CONFIGS:-bare,sdk,undici,a2a,nodesdk-undici,register}" BENCH_PHASES="${BENCH_PHASES:-send,stream}" BENCH_SKIP=5,6,prof \
    "$SYS_NODE" --import tsx bench/run.ts
done
