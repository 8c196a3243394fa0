#!/usr/bin/env node
// Rewrites ./package.json in a throw-away copy of the repo so that every OpenTelemetry
// package comes from the OpenTelemetry JS 3.x line (stable 3.x, experimental 0.30x,
// @opentelemetry/api 1.10, contrib instrumentations of the 3.x era). Used by run.sh for
// the "<major>-otel3" rows; never run it in the real checkout.
//
// Ranges can be overridden: OTEL3_API, OTEL3_STABLE, OTEL3_EXPERIMENTAL, OTEL3_UNDICI.
'use strict';
const fs = require('node:fs');

const API = process.env.OTEL3_API || '~1.10.0';
const STABLE = process.env.OTEL3_STABLE || '^3.1.0'; // core, sdk-trace, sdk-metrics, context-async-hooks, resources, ...
const EXPERIMENTAL = process.env.OTEL3_EXPERIMENTAL || '^0.301.0'; // instrumentation, sdk-node, exporters, ...
const CONTRIB = {
  '@opentelemetry/instrumentation-undici': process.env.OTEL3_UNDICI || '^0.34.0',
  '@opentelemetry/auto-instrumentations-node': process.env.OTEL3_AUTO || '^0.82.0',
};
// Gone in 3.x: both are folded into @opentelemetry/sdk-trace (TracerProvider).
const REMOVED = ['@opentelemetry/sdk-trace-base', '@opentelemetry/sdk-trace-node'];

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const changes = [];
const unknown = [];
let hadRemoved = false;

for (const field of [
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'optionalDependencies',
]) {
  const deps = pkg[field];
  if (!deps) continue;
  for (const [name, range] of Object.entries(deps)) {
    if (!name.startsWith('@opentelemetry/')) continue;
    let next;
    if (REMOVED.includes(name)) {
      delete deps[name];
      hadRemoved = true;
      changes.push(`${field}: ${name} ${range} -> (removed)`);
      continue;
    } else if (name === '@opentelemetry/api') {
      next = API;
    } else if (name === '@opentelemetry/semantic-conventions') {
      next = range; // versioned on its own 1.x line
    } else if (name in CONTRIB) {
      next = CONTRIB[name];
    } else if (/^[~^]?2\./.test(range) || /^[~^]?3\./.test(range)) {
      next = STABLE;
    } else if (/^[~^]?0\.(2|3)\d\d\./.test(range)) {
      next = EXPERIMENTAL;
    } else {
      unknown.push(`${field}: ${name} ${range}`);
      continue;
    }
    if (next !== range) changes.push(`${field}: ${name} ${range} -> ${next}`);
    deps[name] = next;
  }
}

// Whoever imported sdk-trace-base/-node now needs sdk-trace.
const has = (n) => ['dependencies', 'devDependencies'].some((f) => pkg[f] && pkg[f][n]);
if (hadRemoved && !has('@opentelemetry/sdk-trace')) {
  pkg.devDependencies = pkg.devDependencies || {};
  pkg.devDependencies['@opentelemetry/sdk-trace'] = STABLE;
  changes.push(`devDependencies: @opentelemetry/sdk-trace (added) ${STABLE}`);
}

if (unknown.length > 0) {
  console.error(
    `otel3-deps: no 3.x mapping for:\n  ${unknown.join('\n  ')}\n(add one to scripts/matrix/otel3-deps.cjs)`,
  );
  process.exit(2);
}
fs.writeFileSync('package.json', JSON.stringify(pkg, null, 2) + '\n');
console.log(changes.map((c) => `otel3-deps: ${c}`).join('\n'));
