/**
 * Trace propagation end to end: the client app's A2A calls and the server spans of a
 * real instrumented peer (@a2a-js/sdk under auto-instrumentations-node's register, its own
 * process) land in one trace, and the peer receives exactly one `traceparent` per request.
 *
 * - register alone: the A2A CLIENT span injects the trace context (no HTTP client
 *   instrumentation in the process); the peer's SERVER span is its child.
 * - auto-instrumentations' register loaded first, then ours: instrumentation-undici injects from
 *   its HTTP span (the child of the A2A span for global fetch); ours adds nothing.
 *
 *   npm run build && node --import tsx --test test/e2e/propagation.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../peers/otlp-receiver';
import { cleanEnv } from '../helpers/clean-env';

const REPO = path.resolve(__dirname, '..', '..');
const REGISTER = path.join(REPO, 'dist', 'cjs', 'register.js');
const AUTO_REGISTER = require.resolve('@opentelemetry/auto-instrumentations-node/register');
const PEER = path.join(__dirname, 'fixtures', 'instrumented-peer.ts');
const APP = path.join(__dirname, 'fixtures', 'propagation-app.js');
const SCOPE = 'opentelemetry-instrumentation-a2a';
const KIND_SERVER = 2;
const KIND_CLIENT = 3;
const WAIT_MS = 8000;

interface HeaderLine {
  method: string;
  url: string;
  headers: [string, string][];
}

function otlpEnv(
  service: string,
  rx: OtlpReceiver,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return cleanEnv({
    OTEL_SERVICE_NAME: service,
    OTEL_EXPORTER_OTLP_ENDPOINT: rx.url,
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http,undici',
    OTEL_NODE_RESOURCE_DETECTORS: 'env',
    ...extra,
  });
}

function runApp(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args, APP], {
      cwd: REPO,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('trace propagation to a real instrumented peer', () => {
  let rx: OtlpReceiver;
  let peer: ChildProcess;
  let peerUrl = '';
  const headerLines: HeaderLine[] = [];

  before(async () => {
    rx = await startOtlpReceiver();
    peer = spawn(process.execPath, ['--require', AUTO_REGISTER, '--import', 'tsx', PEER], {
      cwd: REPO,
      env: otlpEnv('a2a-peer', rx, { OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http' }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffered = '';
    peerUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the peer did not start')), 20_000);
      peer.once('exit', (code) => reject(new Error(`the peer exited (${code})`)));
      peer.stdout!.on('data', (d: Buffer) => {
        buffered += d.toString();
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          const [tag, ...rest] = line.split(' ');
          if (tag === 'PEER') {
            clearTimeout(timer);
            resolve(rest[0]!);
          } else if (tag === 'HEADERS') {
            headerLines.push({
              method: rest[0]!,
              url: rest[1]!,
              headers: JSON.parse(rest.slice(2).join(' ')) as [string, string][],
            });
          }
        }
      });
    });
  });

  after(async () => {
    peer?.kill('SIGTERM');
    await rx?.close();
  });

  /** Runs the app, then checks each of its three A2A calls against the peer's server span and the headers it got. */
  async function check(
    service: string,
    args: string[],
  ): Promise<{ a2a: ReceivedSpan[]; server: ReceivedSpan[]; mine: ReceivedSpan[] }> {
    const firstLine = headerLines.length;
    const run = await runApp(args, otlpEnv(service, rx, { PEER_URL: peerUrl }));
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /DONE/);
    const mine = (s: ReceivedSpan): boolean => s.resource['service.name'] === service;
    const a2a = await rx.waitForSpans(
      (s) => mine(s) && s.scopeName === SCOPE && s.kind === KIND_CLIENT,
      WAIT_MS,
      3,
    );
    assert.equal(a2a.length, 3, a2a.map((s) => s.name).join(', '));
    const traces = new Set(a2a.map((s) => s.traceId));
    const server = await rx.waitForSpans(
      (s) =>
        s.resource['service.name'] === 'a2a-peer' &&
        s.kind === KIND_SERVER &&
        traces.has(s.traceId),
      WAIT_MS,
      3,
    );
    const lines = headerLines.slice(firstLine);
    assert.equal(lines.length, 3, JSON.stringify(lines));
    for (const line of lines) {
      const traceparents = line.headers.filter(([n]) => n === 'traceparent');
      assert.equal(
        traceparents.length,
        1,
        `${line.method} ${line.url}: ${JSON.stringify(line.headers)}`,
      );
      const traceId = traceparents[0]![1].split('-')[1];
      assert.ok(
        traces.has(traceId!),
        `${line.method} ${line.url}: trace ${traceId} is not an A2A call's`,
      );
    }
    // Each A2A call has its own trace here (the app has no span of its own) with one server span in it.
    for (const span of a2a) {
      const inTrace = server.filter((s) => s.traceId === span.traceId);
      assert.equal(
        inTrace.length,
        1,
        `${span.name}: ${inTrace.length} peer server spans in its trace`,
      );
    }
    return { a2a, server, mine: rx.spans.filter(mine) };
  }

  test('register alone: the peer server span is the child of the A2A CLIENT span, one traceparent', async () => {
    const { a2a, server } = await check('a2a-propagation-register', ['--require', REGISTER]);
    for (const span of a2a) {
      const child = server.find((s) => s.traceId === span.traceId)!;
      assert.equal(
        child.parentSpanId,
        span.spanId,
        `${span.name}: the peer span's parent is the A2A span`,
      );
    }
  });

  test("with auto-instrumentations' register first: one traceparent, the HTTP span of global fetch under the A2A span", async () => {
    const { a2a, server, mine } = await check('a2a-propagation-auto', [
      '--require',
      AUTO_REGISTER,
      '--require',
      REGISTER,
    ]);
    const http = mine.filter((s) => s.scopeName.includes('undici') && s.kind === KIND_CLIENT);
    const inOrder = [...a2a].sort((x, y) =>
      BigInt(x.startTimeUnixNano) < BigInt(y.startTimeUnixNano) ? -1 : 1,
    );
    for (const [i, span] of inOrder.entries()) {
      const peerSpan = server.find((s) => s.traceId === span.traceId)!;
      const httpSpan = http.find((s) => s.spanId === peerSpan.parentSpanId);
      assert.ok(httpSpan, `${span.name}: the peer span's parent is the app's undici HTTP span`);
      if (i < 2) {
        // Global fetch (card, then message/send): the A2A span is active around the request.
        assert.equal(
          httpSpan.parentSpanId,
          span.spanId,
          `${span.name}: the HTTP span is the A2A span's child`,
        );
      } else {
        // The undici package's request(): seen at creation, after instrumentation-undici made its
        // span; the A2A span joins that trace as its child rather than start one the peer never sees.
        assert.equal(
          span.parentSpanId,
          httpSpan.spanId,
          `${span.name}: undici.request's A2A span is in the HTTP span's trace`,
        );
      }
    }
  });
});
