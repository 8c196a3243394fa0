#!/usr/bin/env bash
# Builds a Go peer of the real-world suite: test/real-world/go/<impl>/ (main.go,
# go.mod, go.sum pinned and committed) into one binary, once per content: the build lands in
# ${A2A_TEST_CACHE:-$HOME/.cache/a2a-instrumentation-tests}/go-<impl>-<hash>/peer, <hash> being
# the sha256 of go.mod, go.sum, the *.go files and `go version`, and
# test/real-world/go/<impl>/.bin links to it. A second run (or a second checkout on the same
# machine) with the same hash builds nothing. Modules come from GOPROXY (the Go module proxy),
# verified against go.sum; -mod=readonly: a go.mod or go.sum out of date fails the build.
#
#   bash scripts/real-world-go.sh a2a-go      # called by scripts/real-world.sh and by the
#                                             # test's harness (test/real-world/go/a2a-go/peer-process.mjs)
set -euo pipefail
cd "$(dirname "$0")/.."
impl="$1"
dir="test/real-world/go/$impl"
[ -f "$dir/go.sum" ] || { echo "no $dir/go.sum" >&2; exit 1; }
CACHE="${A2A_TEST_CACHE:-$HOME/.cache/a2a-instrumentation-tests}"
hash=$( (cat "$dir/go.mod" "$dir/go.sum" "$dir"/*.go; go version) | sha256sum | cut -c1-16)
target="$CACHE/go-$impl-$hash"
if [ ! -f "$target/.installed" ]; then
  start=$(date +%s)
  mkdir -p "$CACHE"
  tmp="$(mktemp -d "$CACHE/.go-$impl-XXXXXX")"
  (cd "$dir" && go build -mod=readonly -trimpath -o "$tmp/peer" .)
  touch "$tmp/.installed"
  rm -rf "$target"
  mv "$tmp" "$target" 2>/dev/null || rm -rf "$tmp" # a concurrent build won the race: same bytes
  echo "[real-world] built go/$impl in $(( $(date +%s) - start )) s ($(du -h "$target/peer" | cut -f1), $target)" >&2
fi
ln -sfn "$target" "$dir/.bin"
