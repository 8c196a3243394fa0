/**
 * End to end, the gRPC binding under the register entry: an app whose agent prefers gRPC
 * (test/e2e/fixtures/grpc-app.mjs, ES module; grpc-app.js, CommonJS; the scenario in
 * grpc-scenario.js: @a2a-js/sdk 1.3's ClientFactory + GrpcTransportFactory against the SDK's own
 * gRPC server, in one process) run bare and under
 * `node --import opentelemetry-instrumentation-a2a/register` (`--require` for CommonJS), exporting
 * OTLP/HTTP to a real receiver. What must hold: the A2A spans arrive with `a2a.binding` grpc and
 * the RPC attributes, variant A and B are judged, healthy calls are not; the app prints the same
 * results loaded and bare; the process ends on its own (exit code 0, no signal, no kill: the app
 * has no process.exit).
 *
 *   npm run build && node --import tsx --test test/e2e/register-grpc.test.ts
 *
 * Needs the built package (dist/); it is not rebuilt here.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../peers/otlp-receiver';
import { cleanEnv } from '../helpers/clean-env';
import { describeRun, runNode, type RunResult } from '../helpers/run-node';

const REPO = path.resolve(__dirname, '..', '..');
const APP_ESM = path.join(__dirname, 'fixtures', 'grpc-app.mjs');
const APP_CJS = path.join(__dirname, 'fixtures', 'grpc-app.js');
/** The package's own name: Node resolves it from the repository (its "exports" map). */
const REGISTER = 'opentelemetry-instrumentation-a2a/register';
const SCOPE = 'opentelemetry-instrumentation-a2a';
const STATUS_ERROR = 2;
const KIND_CLIENT = 3;

let rx: OtlpReceiver;
let serial = 0;

before(async () => {
  for (const f of ['dist/esm/register.mjs', 'dist/cjs/register.js'])
    assert.ok(fs.existsSync(path.join(REPO, f)), `${f} is missing (run npm run build first)`);
  rx = await startOtlpReceiver();
});

after(async () => {
  await rx?.close();
});

/** The app's one JSON line of results. */
function results(run: RunResult): unknown {
  assert.equal(run.timedOut, false, `the app ended on its own\n${describeRun(run)}`);
  assert.equal(run.signal, null, describeRun(run));
  assert.equal(run.code, 0, describeRun(run));
  const lines = run.stdout.split('\n').filter((l) => l.startsWith('{'));
  assert.equal(lines.length, 1, `one JSON line of results\n${describeRun(run)}`);
  return JSON.parse(lines[0]);
}

/** What the scenario's SDK client must get, bare or loaded. */
const EXPECTED = {
  healthy: { state: 3, statusText: '', artifacts: [['text/markdown:## summary']] },
  getTask: { state: 3, statusText: '', artifacts: [['text/markdown:## summary']] },
  stream: ['task:1', 'artifact:text/markdown', 'status:3'],
  variantA: { state: 4, statusText: 'unknown skill: summarize-v2', artifacts: [] },
  variantAStream: ['task:1', 'status:4'],
  variantB: { state: 3, statusText: '', artifacts: [['text/plain:summary']] },
  notFound: { error: 'GrpcTaskNotFoundError', message: 'Task not found: no-such-task' },
};

async function checkSpans(service: string): Promise<void> {
  const mine = (s: ReceivedSpan) => s.resource['service.name'] === service;
  // the register entry flushed before the child exited; the wait absorbs the receiver's own I/O
  await rx.waitForSpans((s) => mine(s) && s.attributes['a2a.binding'] === 'grpc', 5000, 7);
  const spans = rx.spans.filter(mine);
  for (const s of spans) {
    assert.equal(s.scopeName, SCOPE);
    assert.equal(s.kind, KIND_CLIENT, `${s.name} is a CLIENT span`);
  }
  const card = spans.find((s) => s.name === 'GetAgentCard');
  assert.ok(card, 'the card fetch (global fetch) has its span');
  const grpcSpans = spans
    .filter((s) => s.attributes['a2a.binding'] === 'grpc')
    .sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
  assert.deepEqual(
    grpcSpans.map((s) => `${s.name}:${s.attributes['a2a.drift.kind'] ?? '-'}`),
    [
      'SendMessage:-',
      'GetTask:-',
      'SendStreamingMessage:-',
      'SendMessage:unknown_skill',
      'SendStreamingMessage:unknown_skill',
      'SendMessage:output_mode_mismatch',
      'GetTask:-',
    ],
    'one span per call of the app, variant A and B judged, healthy calls and the error not',
  );
  for (const s of grpcSpans) {
    const a = s.attributes;
    assert.equal(a['rpc.system'], 'grpc');
    assert.equal(a['rpc.service'], 'lf.a2a.v1.A2AService');
    assert.equal(a['rpc.method'], s.name);
    assert.equal(a['a2a.protocol.version'], '1.0');
    assert.equal(a['server.address'], '127.0.0.1');
    assert.equal(typeof a['server.port'], 'number');
    assert.equal(a['gen_ai.agent.name'], 'grpc-app-peer');
    assert.equal(
      a['a2a.agent_card.fingerprint'],
      card.attributes['a2a.agent_card.fingerprint'],
      'the negotiated card (its GRPC interface is this target)',
    );
  }
  const [ok, get, stream, a, aStream, b, notFound] = grpcSpans;
  for (const s of [ok, get, stream]) {
    assert.equal(s.attributes['rpc.grpc.status_code'], 0);
    assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.notEqual(s.status.code, STATUS_ERROR);
  }
  assert.equal(ok.attributes['a2a.skill.id'], 'summarize-v2');
  assert.equal(get.attributes['a2a.task.id'], ok.attributes['a2a.task.id']);
  assert.equal(stream.attributes['a2a.stream.event_count'], 3);
  for (const s of [a, aStream]) {
    assert.equal(s.attributes['error.type'], 'StaleAgentCardError');
    assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
    assert.equal(s.status.code, STATUS_ERROR);
  }
  assert.equal(b.attributes['error.type'], 'ArtifactSchemaDriftError');
  assert.deepEqual(b.attributes['a2a.drift.expected_output_modes'], ['text/markdown']);
  assert.equal(b.attributes['a2a.drift.actual_media_type'], 'text/plain');
  assert.equal(notFound.attributes['rpc.grpc.status_code'], 5);
  assert.equal(notFound.status.code, STATUS_ERROR);
  assert.equal(notFound.attributes['a2a.drift.kind'], undefined);
}

for (const kind of ['esm', 'cjs'] as const) {
  describe(`register entry, gRPC app (${kind})`, { timeout: 90_000 }, () => {
    const app = kind === 'esm' ? APP_ESM : APP_CJS;
    const flag = kind === 'esm' ? '--import' : '--require';
    let bare: unknown;

    test('bare: the app gets what the agent sends, and ends on its own', async () => {
      bare = results(await runNode([app], cleanEnv()));
      assert.deepEqual(bare, EXPECTED);
    });

    test(`${flag} ${REGISTER}: spans exported, results identical to bare, ends on its own`, async () => {
      const service = `a2a-e2e-grpc-${kind}-${process.pid}-${++serial}`;
      const run = await runNode(
        [flag, REGISTER, app],
        cleanEnv({
          OTEL_EXPORTER_OTLP_ENDPOINT: rx.url,
          OTEL_SERVICE_NAME: service,
          OTEL_METRICS_EXPORTER: 'none',
        }),
      );
      const loaded = results(run);
      assert.deepEqual(loaded, bare ?? EXPECTED, 'the app printed the same results loaded as bare');
      await checkSpans(service);
    });
  });
}
