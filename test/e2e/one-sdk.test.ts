/**
 * End to end: one OpenTelemetry SDK per process. A child process runs a small A2A client app
 * under the register entry together with what users load alongside it:
 *  - `--require @opentelemetry/auto-instrumentations-node/register` first: the register entry
 *    starts no second SDK; it joins the one registered (its spans go to that SDK's exporter, once
 *    each, and undici's HTTP spans, from auto-instrumentations, are children of the A2A spans);
 *  - `--import tsx` (a loader whose hooks run in a worker thread on Node 20+, where `--require`d
 *    modules run too): the SDK starts once, in the main thread.
 * What the register decided is read from its debug lines (OTEL_LOG_LEVEL=debug).
 *
 *   npm run build && node --import tsx --test test/e2e/one-sdk.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../peers/otlp-receiver';
import { cleanEnv } from '../helpers/clean-env';
import { describeRun, runNode } from '../helpers/run-node';

const REPO = path.resolve(__dirname, '..', '..');
const REGISTER_CJS = path.join(REPO, 'dist', 'cjs', 'register.js');
const APP = path.join(__dirname, 'fixtures', 'a2a-client-app.js');
const SCOPE = 'opentelemetry-instrumentation-a2a';
const STARTED = 'started the OpenTelemetry SDK';
const JOINED = 'joined the OpenTelemetry SDK already registered';
const IN_WORKER = 'not started in a worker thread';

let rx: OtlpReceiver;
let serial = 0;

before(async () => {
  assert.ok(
    fs.existsSync(REGISTER_CJS),
    'dist/cjs/register.js is missing (run npm run build first)',
  );
  rx = await startOtlpReceiver();
});

after(async () => {
  await rx?.close();
});

const count = (text: string, needle: string): number => text.split(needle).length - 1;

async function run(
  label: string,
  preload: string[],
): Promise<{ output: string; spans: ReceivedSpan[]; name: string }> {
  const name = `a2a-one-sdk-${label}-${process.pid}-${++serial}`;
  const env = cleanEnv({
    OTEL_SERVICE_NAME: name,
    OTEL_EXPORTER_OTLP_ENDPOINT: rx.url,
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
    OTEL_LOG_LEVEL: 'debug',
    OTEL_NODE_RESOURCE_DETECTORS: 'env', // auto-instrumentations: no cloud metadata probes
  });
  const result = await runNode([...preload, APP], env, { timeoutMs: 40_000 });
  assert.equal(result.timedOut, false, describeRun(result));
  assert.equal(result.code, 0, describeRun(result));
  assert.match(result.stdout, /sent 2/, describeRun(result));
  await rx.waitForSpans(
    (s) => s.resource['service.name'] === name && s.scopeName === SCOPE,
    5000,
    2,
  );
  // DiagConsoleLogger writes debug lines with console.debug: stdout.
  return {
    output: result.stdout + result.stderr,
    spans: rx.spans.filter((s) => s.resource['service.name'] === name),
    name,
  };
}

describe('one SDK per process', { timeout: 120_000 }, () => {
  test('auto-instrumentations register first: the register joins its SDK, spans exported once, HTTP spans under A2A spans', async () => {
    const autoRegister = require.resolve('@opentelemetry/auto-instrumentations-node/register');
    const { output, spans } = await run('auto', [
      '--require',
      autoRegister,
      '--require',
      REGISTER_CJS,
    ]);
    assert.equal(count(output, JOINED), 1, output.slice(0, 4000));
    assert.equal(count(output, STARTED), 0, output.slice(0, 4000));
    // the app's own server's SERVER spans (the agent's side) are not counted here
    const a2a = spans.filter((s) => s.scopeName === SCOPE && s.kindName === 'CLIENT');
    assert.equal(a2a.length, 2, 'one A2A span per message/send, exported once');
    assert.equal(new Set(spans.map((s) => s.spanId)).size, spans.length, 'no span exported twice');
    for (const parent of a2a) {
      const children = spans.filter(
        (s) => s.parentSpanId === parent.spanId && s.kindName === 'CLIENT',
      );
      assert.equal(
        children.length,
        1,
        `the undici HTTP span under ${parent.name} ${parent.spanId}`,
      );
      assert.match(children[0]?.scopeName ?? '', /instrumentation-undici/);
      assert.equal(children[0]?.traceId, parent.traceId);
    }
  });

  test('--import tsx: the SDK starts once, in the main thread, not in the loader thread', async () => {
    const { output, spans } = await run('tsx', ['--import', 'tsx', '--require', REGISTER_CJS]);
    assert.equal(count(output, STARTED), 1, output.slice(0, 4000));
    assert.equal(count(output, JOINED), 0, output.slice(0, 4000));
    // Node 20+ runs `--require`d modules in the loader's hooks thread as well: it says so there.
    assert.ok(count(output, IN_WORKER) <= 1, output.slice(0, 4000));
    assert.equal(spans.filter((s) => s.scopeName === SCOPE && s.kindName === 'CLIENT').length, 2);
  });

  test('the register alone: one SDK started, no worker line', async () => {
    const { output, spans } = await run('alone', ['--require', REGISTER_CJS]);
    assert.equal(count(output, STARTED), 1, output.slice(0, 4000));
    assert.equal(count(output, IN_WORKER), 0, output.slice(0, 4000));
    assert.equal(count(output, JOINED), 0, output.slice(0, 4000));
    assert.equal(spans.filter((s) => s.scopeName === SCOPE && s.kindName === 'CLIENT').length, 2);
  });
});
