/**
 * The register entry's batch span processor honours the standard OTEL_BSP_* variables, which
 * BatchSpanProcessor of @opentelemetry/sdk-trace 2.x no longer reads itself (found by
 * test/observability/stack.test.ts: a drifted span reached Jaeger only after the 5 s default
 * delay although OTEL_BSP_SCHEDULE_DELAY was set).
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { batchOptions, spanProcessorsFromEnv } from '../../src/distro/exporters-from-env';

const NAMES = [
  'OTEL_BSP_SCHEDULE_DELAY',
  'OTEL_BSP_EXPORT_TIMEOUT',
  'OTEL_BSP_MAX_QUEUE_SIZE',
  'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
  'OTEL_TRACES_EXPORTER',
];
const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
afterEach(() => {
  for (const n of NAMES) {
    if (saved[n] === undefined) delete process.env[n];
    else process.env[n] = saved[n];
  }
});

test('unset: the SDK defaults (no option passed)', () => {
  for (const n of NAMES) delete process.env[n];
  assert.deepEqual(batchOptions(), {});
});

test('set: passed to the batch span processor the register entry builds', async () => {
  process.env.OTEL_BSP_SCHEDULE_DELAY = '200';
  process.env.OTEL_BSP_EXPORT_TIMEOUT = '3000';
  process.env.OTEL_BSP_MAX_QUEUE_SIZE = '100';
  process.env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE = '10';
  process.env.OTEL_TRACES_EXPORTER = 'otlp';
  assert.deepEqual(batchOptions(), {
    scheduledDelayMillis: 200,
    exportTimeoutMillis: 3000,
    maxQueueSize: 100,
    maxExportBatchSize: 10,
  });
  const { items } = spanProcessorsFromEnv();
  assert.equal(items.length, 1);
  // The SDK keeps them in these fields (BatchSpanProcessorBase).
  const p = items[0] as unknown as Record<string, unknown>;
  assert.equal(p._scheduledDelayMillis, 200);
  assert.equal(p._exportTimeoutMillis, 3000);
  assert.equal(p._maxQueueSize, 100);
  assert.equal(p._maxExportBatchSize, 10);
  await items[0]!.shutdown();
});

test('bad values: ignored one by one (the default applies), never thrown', () => {
  process.env.OTEL_BSP_SCHEDULE_DELAY = 'soon';
  process.env.OTEL_BSP_EXPORT_TIMEOUT = '-5';
  process.env.OTEL_BSP_MAX_QUEUE_SIZE = '1.5';
  process.env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE = '0';
  assert.deepEqual(batchOptions(), {});
  process.env.OTEL_BSP_SCHEDULE_DELAY = '0';
  assert.deepEqual(batchOptions(), { scheduledDelayMillis: 0 });
});
