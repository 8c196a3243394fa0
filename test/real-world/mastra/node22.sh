#!/usr/bin/env bash
# Prints the path of a Node 22 `node` binary (the newest 22.x of the npm package
# node-linux-<arch>), fetched and cached exactly as the runtime matrix does
# (scripts/matrix/fetch-node.sh, cache $MATRIX_CACHE or /tmp/a2a-matrix/node/<version>).
# Mastra (@mastra/core 1.x) needs Node >= 22.13; the test's client side stays on Node 20.
#   bash test/real-world/mastra/node22.sh   ->  /tmp/a2a-matrix/node/22.x.y/bin/node
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
CACHE="${MATRIX_CACHE:-/tmp/a2a-matrix}"
SYS_NODE="$(command -v node)"
ARCH="$("$SYS_NODE" -p process.arch)"
NODE_PKG="node-linux-$ARCH"
log() { printf '[node22 %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
mkdir -p "$CACHE/node"
# shellcheck source=../../../scripts/matrix/fetch-node.sh
. "$REPO/scripts/matrix/fetch-node.sh"
bin="$(fetch_node 22)"
echo "$bin/node"
