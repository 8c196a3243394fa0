/**
 * Hardening, part 2: faults. Against real local servers (node:http on
 * 127.0.0.1:0) and the instrumentation enabled through the real SDK (setupOtel):
 *
 * - every fault (reset / close mid-stream and mid-JSON, stall then AbortSignal.timeout,
 *   404/500 HTML, non-JSON 200, bad JSON, gzip, truncated gzip, a hostile card with 5,000
 *   skills and 1 MB strings, a card over the inspection cap, card fetch refused) and every
 *   app behaviour (reads twice, never reads, reads late, aborts) is run through global
 *   fetch AND undici.request, with the instrumentation enabled and disabled: the app sees
 *   the same status, headers, body bytes and error (name, message, code, cause);
 * - each enabled run makes exactly one A2A span, which ends (no span left open) and says
 *   why it could not judge (or the error) rather than claiming drift;
 * - a drift callback that throws, rejects or never settles changes nothing for the request
 *   and the next ones, and surfaces no unhandled rejection;
 * - the register entry with the OTLP collector down (refused, or accepting and never
 *   answering): the app exits with the same code and output as without it;
 * - 2,000 A2A calls: no call left in flight, active handles back to baseline, heap growth
 *   bounded.
 *
 *   npm run build   # for the register test
 *   node --import tsx --test test/hardening/faults.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { setupOtel, type Harness, activeCallCount } from '../helpers/otel';
import { onAgentCardDrift } from '../../src/index';
import { sharedState } from '../../src/telemetry/shared-state';
import { startRawV01Peer, V01_TRANSLATE_SKILL, type RawV01Peer } from '../peers/raw-v01-peer';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------
// The faulty peer
// ---------------------------------------------------------------------------------------

const TASK = {
  jsonrpc: '2.0',
  id: 1,
  result: { id: 'task-1', sessionId: 's', status: { state: 'completed' } },
};
const TASK_BYTES = Buffer.from(JSON.stringify(TASK));
const GZ = zlib.gzipSync(TASK_BYTES);
const MB = 'M'.repeat(1024 * 1024);

/** ~3.3 MB: under the 4 MiB inspection cap, so it is decoded, fingerprinted and recorded. */
function hostileCard(port: number): Buffer {
  const skills = Array.from({ length: 5000 }, (_, i) => ({
    id: i === 0 ? `s-${'i'.repeat(100_000)}` : `s-${i}`,
    name: `skill ${i}`,
    description: i === 1 ? MB : 'd',
    tags: [],
    outputModes: ['text/plain'],
  }));
  const card = Buffer.from(
    JSON.stringify({
      name: `hostile-${MB}`,
      version: `v-${'9'.repeat(10_000)}`,
      description: MB,
      url: `http://127.0.0.1:${port}/rpc`,
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills,
    }),
  );
  assert.ok(
    card.length > 3_000_000 && card.length < 4 * 1024 * 1024,
    `hostile card is ${card.length} bytes`,
  );
  return card;
}

interface FaultServer {
  base: string;
  port: number;
  hits: Map<string, number>;
  close(): Promise<void>;
}

async function startFaultServer(): Promise<FaultServer> {
  const hits = new Map<string, number>();
  const sockets = new Set<net.Socket>();
  let hostile: Buffer | undefined;
  let huge: Buffer | undefined;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    req.resume();
    req.on('end', () => {
      const sock = req.socket;
      const json = (status: number, body: Buffer, extra: Record<string, string> = {}): void => {
        res.writeHead(status, {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'x-test': 'yes',
          ...extra,
        });
        res.end(body);
      };
      switch (url.pathname) {
        case '/rpc/ok':
          return json(200, TASK_BYTES);
        case '/rpc/html404':
          res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'x-test': 'yes' });
          return void res.end('<!doctype html><html><body><h1>404 Not Found</h1></body></html>');
        case '/rpc/html500':
          res.writeHead(500, { 'content-type': 'text/html', 'x-test': 'yes' });
          return void res.end('<html><body>Internal Server Error</body></html>');
        case '/rpc/text200':
          res.writeHead(200, { 'content-type': 'text/plain', 'x-test': 'yes' });
          return void res.end('hello, this is not JSON');
        case '/rpc/badjson':
          return json(200, Buffer.from('{"jsonrpc":"2.0","result": {oops'));
        case '/rpc/nocontenttype':
          res.writeHead(200, { 'x-test': 'yes' });
          return void res.end('{"jsonrpc":"2.0","id":1,"result":');
        case '/rpc/gzip':
          return json(200, GZ, { 'content-encoding': 'gzip' });
        case '/rpc/gzip-trunc':
          return json(200, GZ.subarray(0, GZ.length - 12), { 'content-encoding': 'gzip' });
        case '/rpc/gzip-garbage':
          return json(200, Buffer.from('this is not gzip at all'), { 'content-encoding': 'gzip' });
        case '/rpc/reset-json':
          res.writeHead(200, { 'content-type': 'application/json', 'x-test': 'yes' });
          res.write(TASK_BYTES.subarray(0, 20));
          setTimeout(() => sock.resetAndDestroy(), 60);
          return;
        case '/rpc/close-json':
          res.writeHead(200, {
            'content-type': 'application/json',
            'content-length': String(TASK_BYTES.length),
            'x-test': 'yes',
          });
          res.write(TASK_BYTES.subarray(0, 20));
          setTimeout(() => sock.destroy(), 60);
          return;
        case '/rpc/sse-reset':
          res.writeHead(200, { 'content-type': 'text/event-stream', 'x-test': 'yes' });
          res.write(
            `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { id: 'task-s', status: { state: 'working' }, final: false } })}\n\n`,
          );
          setTimeout(() => res.write('data: {"jsonrpc":"2.0","id":1,"res'), 40);
          setTimeout(() => sock.resetAndDestroy(), 100);
          return;
        case '/rpc/sse-close':
          res.writeHead(200, { 'content-type': 'text/event-stream', 'x-test': 'yes' });
          res.write(
            `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { id: 'task-s', status: { state: 'working' }, final: false } })}\r\n\r\ndata: {"jsonrpc":`,
          );
          setTimeout(() => sock.destroy(), 60);
          return;
        case '/rpc/sse-gzip-garbage':
          res.writeHead(200, {
            'content-type': 'text/event-stream',
            'content-encoding': 'gzip',
            'x-test': 'yes',
          });
          return void res.end('data: not gzip at all\n\n'); // bytes and end together: zlib reports the error after end()
        case '/rpc/sse-gzip-trunc': {
          const gz = zlib.gzipSync(
            `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { id: 'task-g', status: { state: 'working' }, final: false } })}\n\ndata: {"jsonrpc":"2.0"}\n\n`,
          );
          res.writeHead(200, {
            'content-type': 'text/event-stream',
            'content-encoding': 'gzip',
            'x-test': 'yes',
          });
          return void res.end(gz.subarray(0, gz.length - 30));
        }
        case '/rpc/sse-forever':
          res.writeHead(200, { 'content-type': 'text/event-stream', 'x-test': 'yes' });
          res.write(
            `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { id: 'task-f', status: { state: 'working' }, final: false } })}\n\n`,
          );
          return; // never ends
        case '/rpc/stall-headers':
          return; // never answers
        case '/rpc/stall-body':
          res.writeHead(200, { 'content-type': 'application/json', 'x-test': 'yes' });
          res.write(TASK_BYTES.subarray(0, 10));
          return; // never ends
        case '/hostile/.well-known/agent-card.json':
          hostile ??= hostileCard((server.address() as AddressInfo).port);
          return json(200, hostile);
        case '/huge/.well-known/agent-card.json':
          huge ??= Buffer.from(
            JSON.stringify({
              name: 'huge',
              skills: [{ id: 's', description: 'x'.repeat(5 * 1024 * 1024) }],
            }),
          );
          return json(200, huge);
        default:
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('nope');
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

// ---------------------------------------------------------------------------------------
// What the application sees
// ---------------------------------------------------------------------------------------

interface ErrorSeen {
  phase: string;
  name?: string;
  message?: string;
  code?: unknown;
  cause?: { name?: string; message?: string; code?: unknown };
}
interface Seen {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  error?: ErrorSeen;
  second?: ErrorSeen | string;
}

function errorSeen(phase: string, e: unknown): ErrorSeen {
  const err = e as {
    name?: string;
    message?: string;
    code?: unknown;
    cause?: { name?: string; message?: string; code?: unknown };
  };
  const out: ErrorSeen = { phase, name: err?.name, message: err?.message, code: err?.code };
  if (err?.cause && typeof err.cause === 'object')
    out.cause = { name: err.cause.name, message: err.cause.message, code: err.cause.code };
  return out;
}

const HEADER_SUBSET = ['content-type', 'content-encoding', 'content-length', 'x-test'];

type ReadMode = 'read' | 'twice' | 'none' | 'late' | 'abort-after-first-chunk';

interface CallSpec {
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  timeoutMs?: number;
  read: ReadMode;
}

/**
 * One client's response as the app reads it: its status, a header, and its body read whole,
 * read a second time, or chunk by chunk.
 */
interface ClientResponse {
  status: number;
  header(name: string): string | undefined;
  readWhole(): Promise<ArrayBuffer>;
  readAgain(): Promise<unknown>;
  eachChunk(onChunk: (chunk: Uint8Array) => void): Promise<void>;
}

/**
 * Makes one call the way `spec` says and records what the app saw: the error of `openPhase`
 * if the call itself failed, else the status, the header subset and the body as read.
 */
async function observe(
  spec: CallSpec,
  openPhase: string,
  open: (signal: AbortSignal) => Promise<ClientResponse>,
): Promise<Seen> {
  const seen: Seen = {};
  const ac = new AbortController();
  const signals = [ac.signal];
  if (spec.timeoutMs !== undefined) signals.push(AbortSignal.timeout(spec.timeoutMs));
  let res: ClientResponse;
  try {
    res = await open(AbortSignal.any(signals));
  } catch (e) {
    seen.error = errorSeen(openPhase, e);
    return seen;
  }
  seen.status = res.status;
  seen.headers = {};
  for (const h of HEADER_SUBSET) {
    const v = res.header(h);
    if (v !== undefined) seen.headers[h] = v;
  }
  if (spec.read === 'none') return seen;
  if (spec.read === 'late') await sleep(300);
  if (spec.read === 'twice') {
    try {
      seen.body = Buffer.from(await res.readWhole()).toString('base64');
    } catch (e) {
      seen.error = errorSeen('body', e);
    }
    try {
      await res.readAgain();
      seen.second = 'read again';
    } catch (e) {
      seen.second = errorSeen('second read', e);
    }
    return seen;
  }
  const chunks: Buffer[] = [];
  try {
    await res.eachChunk((chunk) => {
      chunks.push(Buffer.from(chunk));
      if (spec.read === 'abort-after-first-chunk') ac.abort(new Error('app gave up'));
    });
  } catch (e) {
    seen.error = errorSeen('body', e);
  }
  seen.body = Buffer.concat(chunks).toString('base64');
  return seen;
}

/** The method, body and headers of `spec`'s call, as both clients take them. */
const callOptions = (spec: CallSpec, signal: AbortSignal) => ({
  method: spec.method,
  body: spec.body,
  headers: spec.body ? { 'content-type': 'application/json' } : undefined,
  signal,
});

function viaFetch(spec: CallSpec): Promise<Seen> {
  return observe(spec, 'fetch', async (signal) => {
    const res = await fetch(spec.url, callOptions(spec, signal));
    return {
      status: res.status,
      header: (name) => res.headers.get(name) ?? undefined,
      readWhole: () => res.arrayBuffer(),
      readAgain: () => res.text(),
      async eachChunk(onChunk) {
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          onChunk(value);
        }
      },
    };
  });
}

function viaUndici(spec: CallSpec): Promise<Seen> {
  return observe(spec, 'request', async (signal) => {
    const res = await undici.request(spec.url, callOptions(spec, signal));
    return {
      status: res.statusCode,
      header(name) {
        const v = res.headers[name];
        return v === undefined ? undefined : String(v);
      },
      readWhole: () => res.body.arrayBuffer(),
      readAgain: () => res.body.text(),
      async eachChunk(onChunk) {
        for await (const chunk of res.body) onChunk(chunk as Buffer);
      },
    };
  });
}

const CLIENTS: Record<string, (spec: CallSpec) => Promise<Seen>> = {
  'global fetch': viaFetch,
  'undici.request': viaUndici,
};

// ---------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------

let h: Harness;
let srv: FaultServer;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};

before(async () => {
  h = setupOtel();
  srv = await startFaultServer();
  process.on('unhandledRejection', onUnhandled);
});
after(async () => {
  process.off('unhandledRejection', onUnhandled);
  await srv?.close();
  await h?.shutdown();
});

function rpcBody(method = 'tasks/send'): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      id: 'task-1',
      sessionId: 's',
      skillId: 'summarize-v2',
      message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
    },
  });
}

/** No span claims drift; it ended; it says why it could not judge, or carries the error. */
function unjudgedOrError(span: ReadableSpan): void {
  assert.equal(span.attributes['a2a.drift.kind'], undefined, 'no drift claimed');
  assert.ok(
    span.attributes['a2a.drift.unjudged_reason'] !== undefined ||
      span.attributes['error.type'] !== undefined,
    `neither unjudged nor error: ${JSON.stringify(span.attributes)}`,
  );
}

/** Every string attribute and event attribute is bounded. */
function bounded(span: ReadableSpan): void {
  for (const [k, v] of Object.entries(span.attributes)) {
    if (typeof v === 'string') assert.ok(v.length <= 256, `${k} has ${v.length} chars`);
    if (Array.isArray(v)) assert.ok(v.length <= 1000, `${k} has ${v.length} items`);
  }
  assert.ok(span.events.length <= 1, 'at most one exception event');
  assert.ok((span.status.message ?? '').length <= 256);
}

/**
 * Runs `spec` with the instrumentation enabled (one span must be made and end) and
 * disabled (no span), and asserts the app saw the same thing both times.
 */
async function sameWithAndWithout(
  client: string,
  spec: CallSpec,
  checkSpan: (s: ReadableSpan) => void,
  spanWaitMs = 5000,
): Promise<{ on: Seen; span: ReadableSpan }> {
  const call = CLIENTS[client];
  const before = h.spans().length;
  const on = await call(spec);
  await h.waitForSpans((s) => s.length >= before + 1, spanWaitMs);
  await sleep(60);
  const spans = h.spans().slice(before);
  assert.equal(spans.length, 1, `exactly one A2A span: ${spans.map((s) => s.name).join(', ')}`);
  const span = spans[0];
  bounded(span);
  checkSpan(span);
  assert.equal(activeCallCount(h), 0, 'no A2A call left in flight');
  h.instrumentation.disable();
  let off: Seen;
  try {
    off = await call(spec);
  } finally {
    h.instrumentation.enable();
  }
  assert.equal(h.spans().length, before + 1, 'no span while disabled');
  assert.deepEqual(
    on,
    off,
    `${client} ${spec.url}: the app saw something else with the instrumentation`,
  );
  return { on, span };
}

interface Fault {
  name: string;
  spec: () => CallSpec;
  check: (span: ReadableSpan, seen: Seen) => void;
}

const post =
  (p: string, extra: Partial<CallSpec> = {}, method = 'tasks/send'): (() => CallSpec) =>
  () => ({ method: 'POST', url: srv.base + p, body: rpcBody(method), read: 'read', ...extra });

const FAULTS: Fault[] = [
  {
    name: 'healthy JSON (control)',
    spec: post('/rpc/ok'),
    check: (s) => {
      assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.equal(s.attributes['a2a.drift.kind'], undefined);
    },
  },
  {
    name: 'gzip JSON',
    spec: post('/rpc/gzip'),
    check: (s) => {
      assert.equal(
        s.attributes['a2a.task.state'],
        'TASK_STATE_COMPLETED',
        'decoded for inspection',
      );
      assert.equal(s.attributes['a2a.drift.kind'], undefined);
    },
  },
  { name: 'truncated gzip', spec: post('/rpc/gzip-trunc'), check: unjudgedOrError },
  { name: 'gzip header over garbage', spec: post('/rpc/gzip-garbage'), check: unjudgedOrError },
  {
    name: '404 with HTML',
    spec: post('/rpc/html404'),
    check: (s) => {
      unjudgedOrError(s);
      assert.equal(s.attributes['error.type'], '404');
      assert.match(String(s.attributes['a2a.drift.unjudged_reason']), /text\/html/);
    },
  },
  {
    name: '500 with HTML',
    spec: post('/rpc/html500'),
    check: (s) => {
      unjudgedOrError(s);
      assert.equal(s.attributes['error.type'], '500');
    },
  },
  {
    name: 'non-JSON 200',
    spec: post('/rpc/text200'),
    check: (s) => {
      unjudgedOrError(s);
      assert.match(String(s.attributes['a2a.drift.unjudged_reason']), /text\/plain/);
    },
  },
  {
    name: 'malformed JSON 200',
    spec: post('/rpc/badjson'),
    check: (s) => {
      unjudgedOrError(s);
      assert.match(String(s.attributes['a2a.drift.unjudged_reason']), /not JSON/);
    },
  },
  { name: 'no content-type, cut JSON', spec: post('/rpc/nocontenttype'), check: unjudgedOrError },
  { name: 'reset mid-JSON (RST)', spec: post('/rpc/reset-json'), check: unjudgedOrError },
  {
    name: 'close mid-JSON (content-length not reached)',
    spec: post('/rpc/close-json'),
    check: unjudgedOrError,
  },
  {
    name: 'reset mid-stream (SSE, RST)',
    spec: post('/rpc/sse-reset', {}, 'tasks/sendSubscribe'),
    check: (s) => {
      unjudgedOrError(s);
      assert.equal(
        s.attributes['a2a.task.state'],
        'TASK_STATE_WORKING',
        'the event before the reset was judged',
      );
    },
  },
  {
    name: 'close mid-stream (SSE, CRLF)',
    spec: post('/rpc/sse-close', {}, 'tasks/sendSubscribe'),
    check: unjudgedOrError,
  },
  {
    name: 'SSE with a gzip header over garbage',
    spec: post('/rpc/sse-gzip-garbage', {}, 'tasks/sendSubscribe'),
    check: (s) => {
      unjudgedOrError(s);
      assert.match(String(s.attributes['a2a.drift.unjudged_reason']), /could not decode gzip/);
    },
  },
  {
    name: 'SSE, truncated gzip',
    spec: post('/rpc/sse-gzip-trunc', {}, 'tasks/sendSubscribe'),
    check: (s) => assert.equal(s.attributes['a2a.drift.kind'], undefined),
  },
  {
    name: 'stall before headers, AbortSignal.timeout',
    spec: post('/rpc/stall-headers', { timeoutMs: 300 }),
    check: (s) => {
      unjudgedOrError(s);
      assert.ok(s.attributes['error.type']);
    },
  },
  {
    name: 'stall mid-body, AbortSignal.timeout',
    spec: post('/rpc/stall-body', { timeoutMs: 300 }),
    check: unjudgedOrError,
  },
  {
    name: 'app aborts an SSE stream after the first chunk',
    spec: post('/rpc/sse-forever', { read: 'abort-after-first-chunk' }, 'tasks/sendSubscribe'),
    check: unjudgedOrError,
  },
  {
    name: 'app reads the body twice',
    spec: post('/rpc/ok', { read: 'twice' }),
    check: (s) => assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED'),
  },
  {
    name: 'app reads the body late',
    spec: post('/rpc/ok', { read: 'late' }),
    check: (s) => assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED'),
  },
  {
    name: 'app never reads a small body',
    spec: post('/rpc/ok', { read: 'none' }),
    check: (s) => assert.equal(s.attributes['a2a.drift.kind'], undefined),
  },
  {
    name: 'hostile card: 5,000 skills, 1 MB strings',
    spec: () => ({
      method: 'GET',
      url: `${srv.base}/hostile/.well-known/agent-card.json`,
      read: 'read',
    }),
    check: (s) => {
      assert.equal(s.name, 'GetAgentCard');
      assert.equal(s.attributes['a2a.agent_card.skill_count'], 5000);
      assert.equal(String(s.attributes['gen_ai.agent.name']).length, 256, 'agent name capped');
      assert.ok(String(s.attributes['gen_ai.agent.version']).length <= 256, 'agent version capped');
      assert.equal(s.attributes['a2a.drift.kind'], undefined);
    },
  },
  {
    name: 'card over the inspection cap',
    spec: () => ({
      method: 'GET',
      url: `${srv.base}/huge/.well-known/agent-card.json`,
      read: 'read',
    }),
    check: (s) => {
      unjudgedOrError(s);
      assert.match(
        String(s.attributes['a2a.drift.unjudged_reason']),
        /over \d+ bytes not inspected/,
      );
    },
  },
];

for (const fault of FAULTS) {
  for (const client of Object.keys(CLIENTS)) {
    test(`${client}: ${fault.name} — the app sees the same with and without; the span ends and claims no drift`, async () => {
      await sameWithAndWithout(client, fault.spec(), (s) => fault.check(s, {}));
    });
  }
}

test('card fetch connection refused (fetch and undici.request): same error with and without; the span ends with the error', async () => {
  const port = await closedPort();
  for (const client of Object.keys(CLIENTS)) {
    const { on } = await sameWithAndWithout(
      client,
      { method: 'GET', url: `http://127.0.0.1:${port}/.well-known/agent-card.json`, read: 'read' },
      (s) => {
        assert.equal(s.name, 'GetAgentCard');
        assert.ok(s.attributes['error.type'], 'error recorded');
        assert.equal(s.attributes['a2a.drift.kind'], undefined);
      },
    );
    assert.ok(on.error, 'the app saw an error');
  }
});

test('a span whose end() throws (a hostile hook) never reaches the app: fetch rejects as without, no unhandled rejection, nothing left in flight', async () => {
  const port = await closedPort();
  const before = unhandled.length;
  h.instrumentation.setConfig({
    driftCallbackDebounceMs: 0,
    requestHook: (span) => {
      (span as unknown as { end: () => void }).end = () => {
        throw new Error('span end exploded');
      };
    },
  });
  try {
    for (const url of [
      `http://127.0.0.1:${port}/rpc`,
      `http://127.0.0.1:${port}/.well-known/agent-card.json`,
    ]) {
      const init = url.endsWith('/rpc')
        ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: rpcBody() }
        : undefined;
      await assert.rejects(
        fetch(url, init),
        (e: Error) => e.name === 'TypeError' && e.message === 'fetch failed',
      );
    }
    await sleep(50);
    assert.equal(
      unhandled.length,
      before,
      `unhandled rejections: ${unhandled.slice(before).map(String).join('; ')}`,
    );
    assert.equal(activeCallCount(h), 0, 'no A2A call left in flight');
  } finally {
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  }
});

test('the app never reads a body that never ends: the span is ended by maxSpanDurationMs (sweeper), the app is untouched', async () => {
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0, maxSpanDurationMs: 1500 });
  // the sweeper interval is fixed at enable: re-enable so it runs every max(1000, 1500/2) ms
  h.instrumentation.disable();
  h.instrumentation.enable();
  try {
    for (const client of Object.keys(CLIENTS)) {
      const { span } = await sameWithAndWithout(
        client,
        {
          method: 'POST',
          url: `${srv.base}/rpc/sse-forever`,
          body: rpcBody('tasks/sendSubscribe'),
          read: 'none',
        },
        () => {},
        6000,
      );
      assert.match(String(span.attributes['a2a.drift.unjudged_reason']), /1500 ms \(abandoned\)/);
      const ms =
        (span.endTime[0] - span.startTime[0]) * 1000 + (span.endTime[1] - span.startTime[1]) / 1e6;
      assert.ok(ms >= 1500 && ms < 4500, `ended after ${ms} ms`);
    }
  } finally {
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
    h.instrumentation.disable();
    h.instrumentation.enable();
  }
});

// ---------------------------------------------------------------------------------------
// Drift callbacks that throw, reject, never settle
// ---------------------------------------------------------------------------------------

test('a drift callback that throws, rejects or never settles changes nothing for the request or the next ones', async () => {
  const peer: RawV01Peer = await startRawV01Peer({ name: 'cb-peer' });
  try {
    await h.reset();
    const calls: string[] = [];
    const offs = [
      onAgentCardDrift(() => {
        calls.push('throws');
        throw new Error('callback threw');
      }),
      onAgentCardDrift(async () => {
        calls.push('rejects');
        throw new Error('callback rejected');
      }),
      onAgentCardDrift(() => {
        calls.push('hangs');
        return new Promise<void>(() => {});
      }),
    ];
    try {
      const send = (id: string): Promise<{ status: number; text: string }> =>
        fetch(peer.rpcUrl, {
          method: 'POST',
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 7,
            method: 'tasks/send',
            params: {
              id,
              sessionId: 's',
              skillId: 'summarize-v2',
              message: { role: 'user', parts: [{ type: 'text', text: 'x' }] },
            },
          }),
        }).then(async (r) => ({ status: r.status, text: await r.text() }));
      await (await fetch(peer.cardUrl)).arrayBuffer();
      peer.redeploy([V01_TRANSLATE_SKILL]);
      peer.setBehaviour({ errorOnUnknownSkill: -32602 });
      const withCallbacks = await send('t-1');
      await h.waitForSpans((s) =>
        s.some((x) => x.attributes['a2a.drift.kind'] === 'invalid_params'),
      );
      await sleep(50);
      assert.deepEqual(calls.sort(), ['hangs', 'rejects', 'throws'], 'every callback was called');
      h.instrumentation.disable();
      let without: { status: number; text: string };
      try {
        without = await send('t-1');
      } finally {
        h.instrumentation.enable();
      }
      assert.deepEqual(withCallbacks, without, 'the request result is unchanged');
      // later requests are fine (the drift repeats; debounce is 0 in this harness)
      for (let i = 0; i < 5; i++) assert.deepEqual(await send('t-1'), without);
      peer.setBehaviour({ errorOnUnknownSkill: null });
      peer.redeploy([{ ...V01_TRANSLATE_SKILL, id: 'summarize-v2' }]);
      const ok = await send('t-2');
      assert.equal(ok.status, 200);
      assert.equal(JSON.parse(ok.text).result.status.state, 'submitted');
      await sleep(50);
      assert.equal(calls.length, 3 * 6, 'called for each drift');
      assert.deepEqual(unhandled, [], 'no unhandled rejection');
      assert.equal(activeCallCount(h), 0);
    } finally {
      for (const off of offs) off();
    }
  } finally {
    await peer.close();
  }
});

// ---------------------------------------------------------------------------------------
// OTLP collector down: the register entry in a child process
// ---------------------------------------------------------------------------------------

const REGISTER = path.resolve(__dirname, '../../dist/cjs/register.js');

const APP = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    if (req.url.endsWith('/.well-known/agent.json')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ name: 'p', url: 'http://127.0.0.1:' + server.address().port + '/', version: '1', capabilities: {}, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [{ id: 'a', name: 'a' }] }));
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { id: 't', sessionId: 's', status: { state: 'failed', message: { role: 'agent', parts: [{ type: 'text', text: 'unknown skill' }] } } } }));
  });
});
server.listen(0, '127.0.0.1', async () => {
  const base = 'http://127.0.0.1:' + server.address().port;
  const card = await (await fetch(base + '/.well-known/agent.json')).json();
  const r = await fetch(base + '/', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/send', params: { id: 't', skillId: 'a', message: { role: 'user', parts: [{ type: 'text', text: 'hi' }] } } }) });
  console.log(card.name, r.status, await r.text());
  console.error('app stderr line');
  server.close();
  process.exitCode = 7;
});
`;

function runNode(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
}> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code, signal) => {
      clearTimeout(kill);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

test('OTLP collector down (refused, or accepting and never answering): the app exits with the same code and output as without the register', async () => {
  assert.ok(fs.existsSync(REGISTER), `${REGISTER} missing: run npm run build first`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a2a-hardening-'));
  const app = path.join(dir, 'app.js');
  fs.writeFileSync(app, APP);
  // a "collector" that accepts connections and never answers
  const blackhole = net.createServer(() => {});
  await new Promise<void>((r) => blackhole.listen(0, '127.0.0.1', r));
  try {
    const refused = await closedPort();
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
    for (const k of Object.keys(env))
      if (k.startsWith('OTEL_') || k.startsWith('NODE_TEST')) delete env[k];
    const plain = await runNode([app], env);
    assert.equal(plain.code, 7, plain.stderr);
    assert.match(plain.stdout, /^p 200 /);
    for (const endpoint of [
      `http://127.0.0.1:${refused}`,
      `http://127.0.0.1:${(blackhole.address() as AddressInfo).port}`,
    ]) {
      const withRegister = await runNode(['--require', REGISTER, app], {
        ...env,
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_SERVICE_NAME: 'hardening',
        OTEL_METRIC_EXPORT_INTERVAL: '200',
      });
      assert.equal(
        withRegister.code,
        plain.code,
        `exit code with ${endpoint}: ${withRegister.stderr}`,
      );
      assert.equal(withRegister.signal, plain.signal);
      assert.equal(withRegister.stdout, plain.stdout, 'same stdout');
      assert.equal(withRegister.stderr, plain.stderr, 'same stderr');
      assert.ok(
        withRegister.ms < plain.ms + 6000,
        `exit delayed by ${withRegister.ms - plain.ms} ms (flush is bounded to 3 s)`,
      );
    }
  } finally {
    blackhole.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------------------------------
// Leaks: 2,000 A2A calls
// ---------------------------------------------------------------------------------------

function gcFn(): () => void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

function resourceCounts(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) out[r] = (out[r] ?? 0) + 1;
  return out;
}

test('2,000 A2A calls of every kind (ok, faults, streams, aborts, cards): nothing left in flight, handles back to baseline, bounded heap', async () => {
  const gc = gcFn();
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0, maxTrackedTasks: 200 });
  await h.reset();
  const kinds: Array<() => Promise<unknown>> = [
    () => viaFetch({ method: 'POST', url: `${srv.base}/rpc/ok`, body: rpcBody(), read: 'read' }),
    () => viaUndici({ method: 'POST', url: `${srv.base}/rpc/ok`, body: rpcBody(), read: 'read' }),
    () => viaFetch({ method: 'POST', url: `${srv.base}/rpc/gzip`, body: rpcBody(), read: 'read' }),
    () =>
      viaFetch({ method: 'POST', url: `${srv.base}/rpc/html500`, body: rpcBody(), read: 'read' }),
    () =>
      viaUndici({ method: 'POST', url: `${srv.base}/rpc/badjson`, body: rpcBody(), read: 'read' }),
    () =>
      viaFetch({
        method: 'POST',
        url: `${srv.base}/rpc/gzip-trunc`,
        body: rpcBody(),
        read: 'read',
      }),
    () =>
      viaFetch({
        method: 'POST',
        url: `${srv.base}/rpc/sse-forever`,
        body: rpcBody('tasks/sendSubscribe'),
        read: 'abort-after-first-chunk',
      }),
    () =>
      viaUndici({
        method: 'POST',
        url: `${srv.base}/rpc/close-json`,
        body: rpcBody(),
        read: 'read',
      }),
    () => viaFetch({ method: 'POST', url: `${srv.base}/rpc/ok`, body: rpcBody(), read: 'twice' }),
  ];
  const batch = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, n - i) }, (_, j) => kinds[(i + j) % kinds.length]()),
      );
    }
  };
  const drain = async (): Promise<void> => {
    for (let i = 0; i < 100 && activeCallCount(h) > 0; i++) await sleep(50);
  };
  const settle = async (): Promise<void> => {
    await drain();
    await srv.close(); // closes keep-alive sockets the pools hold, as a restart of the peer would
    srv = await startFaultServer();
    await sleep(300);
    h.exporter.reset();
    gc();
    gc();
  };
  await batch(300); // warm-up: JIT, pools, lazily created state
  await settle();
  const baseHandles = resourceCounts();
  const baseHeap = process.memoryUsage().heapUsed;
  await batch(2000);
  await drain();
  assert.equal(activeCallCount(h), 0, 'no A2A call left in flight');
  assert.equal(h.spans().length, 2000, 'one ended span per call');
  await settle();
  assert.ok(
    sharedState().negotiations.size <= 200,
    `negotiations ${sharedState().negotiations.size}`,
  );
  const after = resourceCounts();
  for (const [type, n] of Object.entries(after))
    assert.ok(
      n <= (baseHandles[type] ?? 0),
      `${type}: ${n} active, baseline ${baseHandles[type] ?? 0} (${JSON.stringify(after)} vs ${JSON.stringify(baseHandles)})`,
    );
  const grown = process.memoryUsage().heapUsed - baseHeap;

  console.log(
    `leak check: heap ${(baseHeap / 1048576).toFixed(1)} MiB → ${((baseHeap + grown) / 1048576).toFixed(1)} MiB after 2,000 calls; handles ${JSON.stringify(after)} (baseline ${JSON.stringify(baseHandles)})`,
  );
  assert.ok(
    grown < 16 * 1024 * 1024,
    `heap grew by ${(grown / 1048576).toFixed(1)} MiB over 2,000 calls`,
  );
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
});
