/**
 * End to end: the register entry picks its exporters the standard way, from the environment
 * (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL), as an
 * env-configured NodeSDK does. A child process (`node --require dist/cjs/register.js`) runs a
 * small A2A client app; real receivers on 127.0.0.1 say what arrived, in which encoding:
 * OTLP/HTTP (JSON or protobuf, by content type), OTLP/gRPC (node:http2), Zipkin JSON.
 *
 *   npm run build && node --import tsx --test test/e2e/exporters.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { startOtlpReceiver, type OtlpReceiver } from '../peers/otlp-receiver';
import { cleanEnv } from '../helpers/clean-env';
import { describeRun, runNode } from '../helpers/run-node';

const REPO = path.resolve(__dirname, '..', '..');
const REGISTER_CJS = path.join(REPO, 'dist', 'cjs', 'register.js');
const APP = path.join(__dirname, 'fixtures', 'a2a-client-app.js');
const SCOPE = 'opentelemetry-instrumentation-a2a';
/** The app sends two message/send calls: two A2A CLIENT spans. */
const A2A_SPANS = 2;
const KIND_CLIENT = 3;

let http1: OtlpReceiver;
let grpc: OtlpReceiver;
let serial = 0;

before(async () => {
  assert.ok(
    fs.existsSync(REGISTER_CJS),
    'dist/cjs/register.js is missing (run npm run build first)',
  );
  http1 = await startOtlpReceiver();
  grpc = await startOtlpReceiver({ grpc: true });
});

after(async () => {
  await http1?.close();
  await grpc?.close();
});

const service = (label: string): string => `a2a-exporters-${label}-${process.pid}-${++serial}`;

/** Runs the app under the register entry with these variables; it must end on its own, exit 0. */
async function runApp(env: Record<string, string>): Promise<string> {
  const run = await runNode(
    ['--require', REGISTER_CJS, APP],
    cleanEnv({ OTEL_METRICS_EXPORTER: 'none', ...env }),
  );
  assert.equal(run.timedOut, false, describeRun(run));
  assert.equal(run.code, 0, describeRun(run));
  assert.match(run.stdout, /sent 2/, describeRun(run));
  return run.stderr;
}

/** The content types of the trace exports that carried this service's spans, and the A2A spans. */
async function received(
  rx: OtlpReceiver,
  name: string,
): Promise<{ contentTypes: string[]; spans: number }> {
  // (the app's own server answers them too: its SERVER spans, the agent's side, are not counted)
  const mine = (s: {
    resource: Record<string, unknown>;
    scopeName: string;
    kind: number;
  }): boolean =>
    s.resource['service.name'] === name && s.scopeName === SCOPE && s.kind === KIND_CLIENT;
  const spans = await rx.waitForSpans(mine, 5000, A2A_SPANS);
  // Which exports held them: the receiver records one line per export; ours are the ones
  // received for this run (each test has its own service name, exports are per process).
  const contentTypes = [
    ...new Set(rx.exports.filter((e) => e.path === '/v1/traces').map((e) => e.contentType)),
  ];
  return { contentTypes, spans: spans.length };
}

describe('exporters chosen by the environment', { timeout: 120_000 }, () => {
  test('default: OTLP/HTTP protobuf (application/x-protobuf), as NodeSDK', async () => {
    http1.clear();
    const name = service('default');
    await runApp({ OTEL_SERVICE_NAME: name, OTEL_EXPORTER_OTLP_ENDPOINT: http1.url });
    assert.deepEqual(await received(http1, name), {
      contentTypes: ['application/x-protobuf'],
      spans: A2A_SPANS,
    });
  });

  test('OTEL_EXPORTER_OTLP_PROTOCOL=http/json: OTLP/HTTP JSON (application/json)', async () => {
    http1.clear();
    const name = service('json');
    await runApp({
      OTEL_SERVICE_NAME: name,
      OTEL_EXPORTER_OTLP_ENDPOINT: http1.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    assert.deepEqual(await received(http1, name), {
      contentTypes: ['application/json'],
      spans: A2A_SPANS,
    });
  });

  test('OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf: application/x-protobuf', async () => {
    http1.clear();
    const name = service('protobuf');
    await runApp({
      OTEL_SERVICE_NAME: name,
      OTEL_EXPORTER_OTLP_ENDPOINT: http1.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    });
    assert.deepEqual(await received(http1, name), {
      contentTypes: ['application/x-protobuf'],
      spans: A2A_SPANS,
    });
  });

  test('OTEL_EXPORTER_OTLP_PROTOCOL=grpc: OTLP/gRPC to a gRPC receiver, and the process still ends on its own', async () => {
    grpc.clear();
    const name = service('grpc');
    await runApp({
      OTEL_SERVICE_NAME: name,
      OTEL_EXPORTER_OTLP_ENDPOINT: grpc.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
    assert.deepEqual(await received(grpc, name), {
      contentTypes: ['application/grpc'],
      spans: A2A_SPANS,
    });
  });

  test('the signal-specific protocol wins over the general one', async () => {
    http1.clear();
    const name = service('traces-protocol');
    await runApp({
      OTEL_SERVICE_NAME: name,
      OTEL_EXPORTER_OTLP_ENDPOINT: http1.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    });
    assert.deepEqual(await received(http1, name), {
      contentTypes: ['application/json'],
      spans: A2A_SPANS,
    });
  });

  test('a protocol that cannot be served: one warning, and the default protocol', async () => {
    http1.clear();
    const name = service('bad-protocol');
    const stderr = await runApp({
      OTEL_SERVICE_NAME: name,
      OTEL_EXPORTER_OTLP_ENDPOINT: http1.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift',
    });
    const warnings = stderr.split('\n').filter((l) => l.includes('OTEL_EXPORTER_OTLP_PROTOCOL'));
    assert.equal(warnings.length, 1, stderr);
    assert.match(warnings[0] ?? '', /"thrift" cannot be served .*using http\/protobuf/);
    assert.deepEqual(await received(http1, name), {
      contentTypes: ['application/x-protobuf'],
      spans: A2A_SPANS,
    });
  });

  test('OTEL_TRACES_EXPORTER=zipkin: Zipkin JSON v2 to OTEL_EXPORTER_ZIPKIN_ENDPOINT', async () => {
    const bodies: Array<{
      contentType: string;
      spans: Array<{
        kind?: string;
        localEndpoint?: { serviceName?: string };
        tags?: Record<string, string>;
      }>;
    }> = [];
    const zipkin = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/api/v2/spans') {
          bodies.push({
            contentType: String(req.headers['content-type']),
            spans: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          });
        }
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => zipkin.listen(0, '127.0.0.1', () => resolve()));
    try {
      const name = service('zipkin');
      const endpoint = `http://127.0.0.1:${(zipkin.address() as AddressInfo).port}/api/v2/spans`;
      await runApp({
        OTEL_SERVICE_NAME: name,
        OTEL_TRACES_EXPORTER: 'zipkin',
        OTEL_EXPORTER_ZIPKIN_ENDPOINT: endpoint,
      });
      const spans = bodies
        .flatMap((b) => b.spans)
        .filter(
          (s) =>
            s.localEndpoint?.serviceName === name &&
            s.tags?.['a2a.method.name'] === 'SendMessage' &&
            s.kind === 'CLIENT',
        );
      assert.equal(spans.length, A2A_SPANS, JSON.stringify(bodies));
      assert.match(bodies[0]?.contentType ?? '', /application\/json/);
    } finally {
      await new Promise<void>((resolve) => zipkin.close(() => resolve()));
    }
  });

  test('an exporter that cannot be served (jaeger): one warning naming it, the others still used', async () => {
    http1.clear();
    const name = service('jaeger');
    const stderr = await runApp({
      OTEL_SERVICE_NAME: name,
      OTEL_EXPORTER_OTLP_ENDPOINT: http1.url,
      OTEL_TRACES_EXPORTER: 'jaeger,otlp',
    });
    const warnings = stderr.split('\n').filter((l) => l.includes('OTEL_TRACES_EXPORTER'));
    assert.equal(warnings.length, 1, stderr);
    assert.match(warnings[0] ?? '', /jaeger cannot be served .*using otlp/);
    assert.deepEqual(await received(http1, name), {
      contentTypes: ['application/x-protobuf'],
      spans: A2A_SPANS,
    });
  });

  test('an endpoint that refuses the exports (HTTP 404, as Prometheus 3 with its OTLP receiver off): the app unchanged, one warning however many exports', async () => {
    const paths: string[] = [];
    const refusing = http.createServer((req, res) => {
      paths.push(req.url ?? '');
      req.resume();
      req.on('end', () =>
        res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found\n'),
      );
    });
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
      const stderr = await runApp({
        OTEL_SERVICE_NAME: service('refused'),
        OTEL_EXPORTER_OTLP_ENDPOINT: url,
        // One span per export: the endpoint refuses several of them.
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      });
      assert.ok(
        paths.filter((p) => p === '/v1/traces').length >= 2,
        `several exports refused: ${paths.join(', ')}`,
      );
      const lines = stderr.split('\n').filter((l) => l.trim() !== '');
      assert.equal(lines.length, 1, stderr);
      assert.match(
        lines[0]!,
        new RegExp(
          `OTLP spans export refused by ${url}/v1/traces: HTTP 404 .*the application is not affected`,
        ),
      );
    } finally {
      await new Promise<void>((r) => refusing.close(() => r()));
    }
  });

  test('OTEL_TRACES_EXPORTER=none: nothing sent, nothing printed', async () => {
    http1.clear();
    const name = service('none');
    const stderr = await runApp({
      OTEL_SERVICE_NAME: name,
      OTEL_EXPORTER_OTLP_ENDPOINT: http1.url,
      OTEL_TRACES_EXPORTER: 'none',
    });
    assert.equal(stderr, '');
    assert.equal(http1.exports.length, 0);
  });
});
