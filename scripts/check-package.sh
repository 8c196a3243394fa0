#!/usr/bin/env bash
# The package as npm would publish it: `npm pack` from the working tree (the
# `prepack` script builds dist/, so a fresh clone without dist/ packs a complete package),
# then checks
#   1. the tarball's file list: the CommonJS and ESM entries, their declaration files, the
#      distro and fleet modules the register entry loads,
#      LICENSE, README.md, CHANGELOG.md, BENCHMARKS.md and docs/ (the README links to them), and no sources, tests or benchmarks;
#   2. @arethetypeswrong/cli on the tarball: node10, node16 (from CJS), node16 (from ESM) and
#      bundler resolution of `opentelemetry-instrumentation-a2a` and `.../register`;
#   3. a real TypeScript compile of small importers against the extracted tarball:
#      --moduleResolution node10 --module commonjs (.ts), and --module nodenext (.cts and .mts).
# Prints a summary; exits non-zero when any check fails. About 20-40 s.
set -uo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
NAME=opentelemetry-instrumentation-a2a
TMP="$(mktemp -d "${TMPDIR:-/tmp}/a2a-check-package.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
FAILED=0
declare -a SUMMARY=()
pass() { SUMMARY+=("PASS  $1"); }
fail() { SUMMARY+=("FAIL  $1"); FAILED=1; }

# --- pack -----------------------------------------------------------------------------------
mkdir -p "$TMP/pack"
if ! npm pack --pack-destination "$TMP/pack" >"$TMP/pack.log" 2>&1; then
  cat "$TMP/pack.log" >&2
  echo "check-package: npm pack failed" >&2
  exit 1
fi
TARBALL="$(ls "$TMP"/pack/*.tgz)"
echo "packed $(basename "$TARBALL") ($(du -k "$TARBALL" | cut -f1) kB)"

# --- 1. file list ---------------------------------------------------------------------------
tar -tzf "$TARBALL" | sed 's#^package/##' | sort >"$TMP/files.txt"
echo "$(wc -l <"$TMP/files.txt") files in the tarball"
for f in package.json LICENSE README.md CHANGELOG.md BENCHMARKS.md docs/telemetry.md docs/jaeger-drift.png \
  dist/cjs/index.js dist/cjs/index.d.ts dist/cjs/register.js dist/cjs/register.d.ts dist/cjs/package.json \
  dist/cjs/distro/start-sdk.js dist/cjs/fleet/receivers.js \
  dist/esm/index.mjs dist/esm/index.d.mts dist/esm/register.mjs dist/esm/register.d.mts; do
  if grep -qxF "$f" "$TMP/files.txt"; then pass "file $f"; else fail "file $f missing from the tarball"; fi
done
UNWANTED="$(grep -E '^(src|test|bench|examples|scripts|\.ci)/|\.test\.|tsconfig' "$TMP/files.txt" || true)"
if [ -z "$UNWANTED" ]; then
  pass "no src/, test/, bench/, examples/, scripts/ or tsconfig files"
else
  fail "unwanted files in the tarball: $(echo "$UNWANTED" | head -5 | tr '\n' ' ')"
fi
# Source maps carry their TypeScript (inlineSources): src/ is not shipped, a map pointing to it
# would point nowhere in a debugger or with --enable-source-maps.
mkdir -p "$TMP/maps" && tar -xzf "$TARBALL" -C "$TMP/maps" --wildcards 'package/dist/*.map'
NO_SOURCES="$(find "$TMP/maps" -name '*.map' -print0 | xargs -0 node -e '
  const bad = process.argv.slice(1).filter((f) => {
    const m = JSON.parse(require("fs").readFileSync(f, "utf8"));
    return !Array.isArray(m.sourcesContent) || m.sourcesContent.length !== m.sources.length || m.sourcesContent.some((c) => typeof c !== "string");
  });
  console.log(bad.map((f) => f.replace(/.*package\//, "")).join(" "));')"
if [ -z "$NO_SOURCES" ]; then
  pass "source maps carry their sources ($(find "$TMP/maps" -name '*.map' | wc -l) maps)"
else
  fail "source maps without sourcesContent: $(echo "$NO_SOURCES" | cut -c1-200)"
fi

# URLs in the published package.json: only addresses the project controls. Until it has a
# public home there are none (a `repository` under an organisation that does not exist sends a
# user nowhere). Add a prefix here when the project owns one.
CONTROLLED_URL_PREFIXES=()
mkdir -p "$TMP/meta" && tar -xzf "$TARBALL" -C "$TMP/meta" package/package.json
FOREIGN_URLS="$(node -e '
  const pkg = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const allowed = process.argv.slice(2);
  const urls = [];
  const walk = (v, at) => {
    if (typeof v === "string") {
      for (const m of v.matchAll(/(?:git\+)?(?:https?|git|ssh):\/\/[^\s"]+|git@[^\s"]+/g)) urls.push(`${at}: ${m[0]}`);
    } else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, at ? `${at}.${k}` : k);
  };
  // dependencies name registry packages, not addresses
  for (const [k, v] of Object.entries(pkg)) if (!/ependencies$/.test(k)) walk(v, k);
  console.log(urls.filter((u) => !allowed.some((a) => u.split(": ")[1].replace(/^git\+/, "").startsWith(a))).join("\n"));
' "$TMP/meta/package/package.json" "${CONTROLLED_URL_PREFIXES[@]}")"
if [ -z "$FOREIGN_URLS" ]; then
  pass "package.json names no URL the project does not control"
else
  fail "package.json names URLs the project does not control: $(echo "$FOREIGN_URLS" | tr '\n' ' ')"
fi

# --- 2. attw --------------------------------------------------------------------------------
if "$REPO/node_modules/.bin/attw" "$TARBALL" --format table-flipped --no-emoji >"$TMP/attw.txt" 2>&1; then
  pass "attw: node10, node16 (CJS), node16 (ESM), bundler for . and ./register"
else
  cat "$TMP/attw.txt"
  fail "attw reported problems (above)"
fi

# --- 3. tsc against the extracted package ---------------------------------------------------
CON="$TMP/consumer"
mkdir -p "$CON/node_modules/$NAME" "$CON/node_modules/@types"
tar -xzf "$TARBALL" -C "$CON/node_modules/$NAME" --strip-components=1
ln -s "$REPO/node_modules/@opentelemetry" "$CON/node_modules/@opentelemetry"
ln -s "$REPO/node_modules/@types/node" "$CON/node_modules/@types/node"
TSC=("$REPO/node_modules/.bin/tsc" --noEmit --strict --skipLibCheck false --types node)

cat >"$CON/node10.ts" <<'TS'
import { A2AInstrumentation, skillFingerprint, onAgentCardDrift } from 'opentelemetry-instrumentation-a2a';
import type { DriftEvent } from 'opentelemetry-instrumentation-a2a';
import 'opentelemetry-instrumentation-a2a/register';
const inst: A2AInstrumentation = new A2AInstrumentation();
const fp: string = skillFingerprint({ skills: [] });
const off: () => void = onAgentCardDrift((e: DriftEvent) => void e);
export { inst, fp, off };
TS
cat >"$CON/importer.cts" <<'TS'
import a2a = require('opentelemetry-instrumentation-a2a');
import { A2AInstrumentation } from 'opentelemetry-instrumentation-a2a';
import 'opentelemetry-instrumentation-a2a/register';
const inst: A2AInstrumentation = new a2a.A2AInstrumentation();
const fp: string = a2a.skillFingerprint({});
export { inst, fp };
TS
cat >"$CON/importer.mts" <<'TS'
import a2a, { A2AInstrumentation, skillFingerprint, type DriftEvent } from 'opentelemetry-instrumentation-a2a';
import 'opentelemetry-instrumentation-a2a/register';
const inst: A2AInstrumentation = new a2a.A2AInstrumentation();
const fp: string = skillFingerprint({});
const seen: DriftEvent[] = [];
export { inst, fp, seen };
TS
# A wrong use must fail, so the compiles above are shown to check something.
cat >"$CON/negative.mts" <<'TS'
import { skillFingerprint } from 'opentelemetry-instrumentation-a2a';
const n: number = skillFingerprint({});
export { n };
TS

run_tsc() { # label, expect (ok|error), args...
  local label="$1" expect="$2"; shift 2
  if (cd "$CON" && "${TSC[@]}" "$@") >"$TMP/tsc.txt" 2>&1; then
    if [ "$expect" = ok ]; then pass "tsc $label"; else fail "tsc $label: compiled, but should not have"; fi
  else
    if [ "$expect" = error ] && grep -q "TS2322" "$TMP/tsc.txt"; then pass "tsc $label (rejected as expected)"
    else cat "$TMP/tsc.txt"; fail "tsc $label"; fi
  fi
}
run_tsc "node10 + commonjs (.ts)" ok --moduleResolution node10 --module commonjs --esModuleInterop node10.ts
run_tsc "nodenext (.cts)" ok --module nodenext --moduleResolution nodenext importer.cts
run_tsc "nodenext (.mts)" ok --module nodenext --moduleResolution nodenext importer.mts
run_tsc "bundler + esnext (.mts)" ok --module esnext --moduleResolution bundler importer.mts
run_tsc "nodenext, a wrong type" error --module nodenext --moduleResolution nodenext negative.mts

echo
printf '%s\n' "${SUMMARY[@]}"
if [ "$FAILED" -ne 0 ]; then
  echo "check-package: FAILED"
  exit 1
fi
echo "check-package: all ${#SUMMARY[@]} checks passed"
