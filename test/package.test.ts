/**
 * The package as users load it: the contract's exports from both the CommonJS and the
 * ESM entry (one shared state between them), and the version the tracer reports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../src/version';

const CONTRACT = [
  'A2AInstrumentation',
  'skillFingerprint',
  'onAgentCardDrift',
  'onStaleCaller',
  'withSkill',
  'setServedAgentCard',
  'StaleAgentCardError',
  'ArtifactSchemaDriftError',
  'createAlertWebhookHandler',
];

test('name and version match package.json', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  assert.equal(PACKAGE_NAME, pkg.name);
  assert.equal(PACKAGE_VERSION, pkg.version);
});

test('the CommonJS and ESM entries export the contract, and share one process-wide state', () => {
  const script = `
    const cjs = require('opentelemetry-instrumentation-a2a');
    import('opentelemetry-instrumentation-a2a').then((esm) => {
      const names = ${JSON.stringify(CONTRACT)};
      const out = { cjs: names.filter((n) => typeof cjs[n] === 'function'), esm: names.filter((n) => typeof esm[n] === 'function') };
      const seen = [];
      const off = esm.onAgentCardDrift((e) => seen.push(e));
      const state = globalThis[Symbol.for('opentelemetry-instrumentation-a2a.shared-state')];
      out.shared = state.callbacks.size === 1;
      off();
      out.removed = state.callbacks.size === 0;
      out.fp = cjs.skillFingerprint({}) === esm.skillFingerprint({});
      console.log(JSON.stringify(out));
    });`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
  assert.deepEqual(out.cjs, CONTRACT);
  assert.deepEqual(out.esm, CONTRACT);
  assert.equal(out.shared, true);
  assert.equal(out.removed, true);
  assert.equal(out.fp, true);
});
