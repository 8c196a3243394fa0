#!/usr/bin/env bash
# Install size (issue 13): what `npm install` puts in node_modules for
#   (a) ours:            this package (packed from the working tree) + @opentelemetry/api
#   (b) anchor (latest): @opentelemetry/sdk-node + @opentelemetry/instrumentation-undici + @opentelemetry/api
#   (c) anchor (2.x):    the same pinned to the OpenTelemetry JS 2.x line this package uses
# each in a fresh temporary directory (npm install --no-audit --no-fund --ignore-scripts, from
# the npm registry). Prints, per install: packages (npm ls --all --parseable), MB (du -sm
# node_modules), the distinct @opentelemetry/core versions and copies, the sdk-node version;
# then ours / anchor. Goal: ours <= anchor (1.10x at most) and one @opentelemetry/core.
# Keeps nothing (INSTALL_SIZE_KEEP=1 keeps the temporary directories and prints where).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/a2a-install-size.XXXXXX")"
if [ "${INSTALL_SIZE_KEEP:-}" = 1 ]; then echo "keeping $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi

mkdir -p "$TMP/pack"
npm pack --pack-destination "$TMP/pack" >"$TMP/pack.log" 2>&1 || { cat "$TMP/pack.log" >&2; exit 1; }
TARBALL="$(ls "$TMP"/pack/*.tgz)"

declare -A PKGS MB CORE SDK
measure() { # label, packages to install...
  local label="$1"; shift
  local dir="$TMP/$label"
  mkdir -p "$dir"
  (cd "$dir" && echo '{ "name": "install-size-probe", "version": "0.0.0", "private": true }' >package.json \
    && npm install --no-audit --no-fund --ignore-scripts --loglevel=error "$@" >"$dir/install.log" 2>&1) \
    || { cat "$dir/install.log" >&2; echo "install-size: npm install failed for $label" >&2; exit 1; }
  PKGS[$label]="$(cd "$dir" && npm ls --all --parseable 2>/dev/null | tail -n +2 | sort -u | wc -l)"
  MB[$label]="$(du -sm "$dir/node_modules" | cut -f1)"
  # Every installed copy of @opentelemetry/core, wherever it is nested: version x copies.
  CORE[$label]="$(find "$dir/node_modules" -path '*/node_modules/@opentelemetry/core/package.json' \
    -not -path '*/dist/*' -print0 | xargs -0 -r node -e '
      const c = {};
      for (const f of process.argv.slice(1)) { const v = require(f).version; c[v] = (c[v] || 0) + 1; }
      console.log(Object.entries(c).map(([v, n]) => v + " x" + n).join(", ") || "none");')"
  SDK[$label]="$(node -p "try { require('$dir/node_modules/@opentelemetry/sdk-node/package.json').version } \
    catch { 'none' }")"
  printf '%-16s %5s packages %5s MB   @opentelemetry/core: %-22s sdk-node: %s\n' \
    "$label" "${PKGS[$label]}" "${MB[$label]}" "${CORE[$label]}" "${SDK[$label]}"
}

echo "node $(node --version), npm $(npm --version), $(date -u +%Y-%m-%dT%H:%MZ)"
COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo '+changes')"
echo "ours = $(basename "$TARBALL") from $COMMIT"
echo
measure ours "$TARBALL" @opentelemetry/api
measure anchor-latest @opentelemetry/sdk-node @opentelemetry/instrumentation-undici @opentelemetry/api
measure anchor-2.x @opentelemetry/sdk-node@0.223.0 @opentelemetry/instrumentation-undici@0.33.0 \
  @opentelemetry/api@~1.9.0
echo
ratio() { node -p "($1 / $2).toFixed(3)"; }
for a in anchor-latest anchor-2.x; do
  echo "ours / $a: packages $(ratio "${PKGS[ours]}" "${PKGS[$a]}"), MB $(ratio "${MB[ours]}" "${MB[$a]}")"
done
copies="$(echo "${CORE[ours]}" | tr ',' '\n' | grep -c 'x')"
echo "ours: ${copies} @opentelemetry/core version(s) (${CORE[ours]}); goal: one"
