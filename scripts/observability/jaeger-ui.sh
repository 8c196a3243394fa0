#!/usr/bin/env bash
# Builds the Jaeger UI that matches the Jaeger binary of the live stack test, for its screenshot
# step: the Go module github.com/jaegertracing/jaeger does not embed the UI (a `go build` serves a
# placeholder page), and no package registry carries a built UI. Needs a checkout of the
# jaeger-ui sources at tag v1.75.0 (the UI of Jaeger v2.12.0 / module v1.75.0):
#
#   JAEGER_UI_SRC=/path/to/jaeger-ui bash scripts/observability/jaeger-ui.sh
#
# npm ci from its package-lock.json (Node 20 works; its engines field asks for 24), then
# plexus and the UI with vite (about 2 minutes on 2 cores). Prints the assets directory for
#   A2A_JAEGER_UI_ASSETS=<dir> node --import tsx --test test/observability/stack.test.ts
# (set A2A_SCREENSHOT_OUT=docs/jaeger-drift.png to refresh the README's picture).
set -euo pipefail
SRC=${JAEGER_UI_SRC:?set JAEGER_UI_SRC to a jaeger-ui v1.75.0 source checkout}
cd "$SRC"
grep -q '"version": "1.75.0"' packages/jaeger-ui/package.json ||
  echo "jaeger-ui.sh: warning: $SRC is not jaeger-ui 1.75.0" >&2
npm ci --no-audit --no-fund --ignore-scripts --engine-strict=false >&2
npm run --workspace @jaegertracing/plexus prepublishOnly >&2
(cd packages/jaeger-ui && NODE_ENV=production REACT_APP_VSN_STATE='{}' npx vite build >&2)
test -f packages/jaeger-ui/build/index.html
echo "$SRC/packages/jaeger-ui/build"
