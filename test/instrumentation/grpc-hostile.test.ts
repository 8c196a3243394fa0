/**
 * The gRPC binding against bad input: a non-A2A gRPC service, a hostile A2A server (endless
 * stream, huge messages, closing mid-stream, never answering), the app cancelling a call and a
 * deadline. No exception reaches the app, memory stays bounded, nothing is flagged as drift,
 * every span ends, and the app's calls behave as without the instrumentation.
 *
 * The hostile server implements `lf.a2a.v1.A2AService` with the SDK's own service definition
 * (so its messages are real protobuf on the wire) and handlers of its own.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { SpanStatusCode } from '@opentelemetry/api';
import { activeCallCount, drifted, setupOtel, type Harness } from '../helpers/otel';
import type { StreamResponse, Task } from '@a2a-js/sdk';

type Grpc = typeof import('@grpc/grpc-js');
type SdkGrpc = typeof import('@a2a-js/sdk/client/grpc');
type ServerGrpc = typeof import('@a2a-js/sdk/server/grpc');

let h: Harness;
let grpc: Grpc;
let sdkGrpc: SdkGrpc;
let serverGrpc: ServerGrpc;
let server: InstanceType<Grpc['Server']>;
let target: string;
let cardServer: http.Server;
let cardUrl: string;
let card: Record<string, unknown>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the hostile stream sends, by the text of the request's first part. */
type Mode = 'endless' | 'huge' | 'close-mid' | 'hang';

function requestMode(req: unknown): Mode {
  const parts = (req as { message?: { parts?: Array<{ content?: { value?: unknown } }> } }).message
    ?.parts;
  return String(parts?.[0]?.content?.value ?? 'endless') as Mode;
}

function artifactUpdate(i: number, text: string): StreamResponse {
  return {
    payload: {
      $case: 'artifactUpdate',
      value: {
        taskId: 't-1',
        contextId: 'c-1',
        artifact: {
          artifactId: 'a-1',
          name: 'out',
          description: '',
          parts: [
            {
              content: { $case: 'text', value: text },
              metadata: undefined,
              filename: '',
              mediaType: 'text/markdown',
            },
          ],
          metadata: undefined,
          extensions: [],
        },
        append: i > 0,
        lastChunk: false,
        metadata: undefined,
      },
    },
  };
}

function userRequest(mode: Mode) {
  return {
    tenant: '',
    message: {
      messageId: `m-${Math.random()}`,
      contextId: '',
      taskId: '',
      role: 1,
      parts: [
        {
          content: { $case: 'text' as const, value: mode },
          metadata: undefined,
          filename: '',
          mediaType: 'text/plain',
        },
      ],
      metadata: { skillId: 'summarize-v2' },
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: { skillId: 'summarize-v2' },
  };
}

before(async () => {
  h = setupOtel();
  grpc = await import('@grpc/grpc-js');
  sdkGrpc = await import('@a2a-js/sdk/client/grpc');
  serverGrpc = await import('@a2a-js/sdk/server/grpc');
  server = new grpc.Server();
  const unimplemented = (_call: unknown, cb: (e: unknown) => void) =>
    cb({ code: grpc.status.UNIMPLEMENTED, details: 'no' });
  const impl: Record<string, unknown> = {};
  for (const name of Object.keys(serverGrpc.A2AService)) impl[name] = unimplemented;
  impl['sendMessage'] = () => {
    /* hang: never answers (deadline and cancel tests) */
  };
  impl['sendStreamingMessage'] = async (call: {
    request: unknown;
    write(m: unknown): boolean;
    end(): void;
    destroy(e?: Error): void;
    cancelled: boolean;
    once(ev: string, f: () => void): void;
  }) => {
    const mode = requestMode(call.request);
    let cancelled = false;
    call.once('cancelled', () => {
      cancelled = true;
    });
    const drain = () => new Promise<void>((r) => call.once('drain', () => r()));
    if (mode === 'endless') {
      const chunk = 'x'.repeat(10_000);
      for (let i = 0; !cancelled && !call.cancelled; i++) {
        if (!call.write(artifactUpdate(i, chunk))) await Promise.race([drain(), sleep(50)]);
        else if (i % 64 === 63) await new Promise((r) => setImmediate(r)); // let a cancel in
      }
      return;
    }
    if (mode === 'huge') {
      const big = '# big\n' + 'y'.repeat(3 * 1024 * 1024);
      for (let i = 0; i < 3; i++) call.write(artifactUpdate(i, big));
      call.end();
      return;
    }
    if (mode === 'close-mid') {
      // the whole server goes away mid-stream (its connections dropped)
      call.write(artifactUpdate(0, '# part one'));
      call.write(artifactUpdate(1, ' and two'));
      await sleep(30);
      server.forceShutdown();
      return;
    }
  };
  server.addService(serverGrpc.A2AService, impl as never);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  target = `127.0.0.1:${port}`;
  card = {
    name: 'hostile',
    description: 'a hostile gRPC agent',
    version: '1.0',
    supportedInterfaces: [{ url: target, protocolBinding: 'GRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/markdown'],
    skills: [{ id: 'summarize-v2', name: 'Summarize', description: '', tags: [] }],
  };
  cardServer = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(card));
  });
  await new Promise<void>((r) => cardServer.listen(0, '127.0.0.1', () => r()));
  cardUrl = `http://127.0.0.1:${(cardServer.address() as AddressInfo).port}/.well-known/agent-card.json`;
});

after(async () => {
  server?.forceShutdown();
  await new Promise<void>((r) => cardServer.close(() => r()));
  await h.shutdown();
});

beforeEach(async () => {
  await h.reset();
  await (await fetch(cardUrl)).json(); // the card in use, as an app would have fetched it
});

async function transport(callOptions: Record<string, unknown> = {}) {
  const f = new sdkGrpc.GrpcTransportFactory({ grpcCallOptions: callOptions });
  return f.create(target, card as never);
}

const V1 = { serviceParameters: { 'A2A-Version': '1.0' } };

function grpcSpan(name: string) {
  const list = h.spans(name).filter((s) => s.attributes['a2a.binding'] === 'grpc');
  assert.equal(list.length, 1, `one ${name} span`);
  return list[0];
}

function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

test('a non-A2A gRPC service: its client class is untouched and no span is made', async () => {
  const ping = {
    ping: {
      path: '/test.Echo/Ping',
      requestStream: false,
      responseStream: false,
      requestSerialize: (v: unknown) => Buffer.from(JSON.stringify(v)),
      requestDeserialize: (b: Buffer) => JSON.parse(b.toString()) as unknown,
      responseSerialize: (v: unknown) => Buffer.from(JSON.stringify(v)),
      responseDeserialize: (b: Buffer) => JSON.parse(b.toString()) as unknown,
    },
  };
  const Echo = grpc.makeGenericClientConstructor(ping, 'test.Echo');
  assert.equal(
    Symbol.for('opentelemetry-instrumentation-a2a.grpc.class') in Echo,
    false,
    'not our subclass',
  );
  assert.equal(Object.getPrototypeOf(Echo), grpc.Client, 'the class grpc-js made');
  const echoServer = new grpc.Server();
  echoServer.addService(ping, {
    ping: (call: { request: unknown }, cb: (e: null, v: unknown) => void) => cb(null, call.request),
  });
  const port = await new Promise<number>((resolve, reject) =>
    echoServer.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  const client = new Echo(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as {
    ping(v: unknown, cb: (e: unknown, r: unknown) => void): void;
    close(): void;
  };
  const answer = await new Promise((resolve, reject) =>
    client.ping({ hello: 'world', message: { parts: [] } }, (e, r) => (e ? reject(e) : resolve(r))),
  );
  assert.deepEqual(answer, { hello: 'world', message: { parts: [] } });
  client.close();
  echoServer.forceShutdown();
  await sleep(20);
  assert.equal(
    h.spans().filter((s) => s.attributes['rpc.system'] === 'grpc').length,
    0,
    'no A2A span for another service',
  );
});

test('an endless stream the app stops reading: the app gets every message, memory stays bounded, the span ends cancelled, no drift', async () => {
  const t = await transport();
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  let n = 0;
  let bytes = 0;
  for await (const ev of t.sendMessageStream(userRequest('endless') as never, V1)) {
    n++;
    const part =
      ev.payload?.$case === 'artifactUpdate' ? ev.payload.value.artifact?.parts[0] : undefined;
    bytes += part?.content?.$case === 'text' ? part.content.value.length : 0;
    if (n === 20_000) break; // 200 MB passed through
  }
  assert.equal(n, 20_000);
  assert.equal(bytes, 20_000 * 10_000);
  collectGarbage();
  const grown = process.memoryUsage().heapUsed - heapBefore;
  assert.ok(grown < 64 * 1024 * 1024, `heap grew by ${(grown / 1048576).toFixed(1)} MiB`);
  await h.waitForSpans((s) => s.some((x) => x.name === 'SendStreamingMessage'));
  const span = grpcSpan('SendStreamingMessage');
  assert.equal(span.attributes['rpc.grpc.status_code'], 1);
  assert.equal(
    span.attributes['a2a.drift.unjudged_reason'],
    'the response was cancelled before its end',
  );
  assert.notEqual(span.status.code, SpanStatusCode.ERROR, 'the app stopping is not a failure');
  assert.ok((span.attributes['a2a.stream.event_count'] as number) >= 20_000);
  assert.equal(drifted(h.spans()).length, 0);
  assert.equal(activeCallCount(h), 0);
});

test('huge stream messages (3 × 3 MiB, under the 4 MiB default limit of grpc-js): passed whole to the app, no drift, the span ends OK', async () => {
  const t = await transport();
  const sizes: number[] = [];
  for await (const ev of t.sendMessageStream(userRequest('huge') as never, V1)) {
    const part =
      ev.payload?.$case === 'artifactUpdate' ? ev.payload.value.artifact?.parts[0] : undefined;
    sizes.push(part?.content?.$case === 'text' ? part.content.value.length : -1);
  }
  assert.deepEqual(
    sizes,
    [1, 2, 3].map(() => 6 + 3 * 1024 * 1024),
  );
  await h.waitForSpans((s) => s.some((x) => x.name === 'SendStreamingMessage'));
  const span = grpcSpan('SendStreamingMessage');
  assert.equal(span.attributes['rpc.grpc.status_code'], 0);
  assert.equal(span.attributes['a2a.stream.event_count'], 3);
  assert.equal(drifted(h.spans()).length, 0);
});

test('a deadline: DEADLINE_EXCEEDED reaches the app unchanged; the span says 4', async () => {
  const t = await transport({ deadline: Date.now() + 150 });
  const err = await t.sendMessage(userRequest('hang') as never, V1).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.equal((err as { status?: unknown }).status, grpc.status.DEADLINE_EXCEEDED);
  await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
  const span = grpcSpan('SendMessage');
  assert.equal(span.attributes['rpc.grpc.status_code'], 4);
  assert.equal(span.attributes['error.type'], '4');
  assert.equal(span.status.code, SpanStatusCode.ERROR);
  assert.equal(drifted(h.spans()).length, 0);
});

test('a call the app cancels (AbortSignal): CANCELLED reaches the app; the span ends, not an error', async () => {
  const t = await transport();
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 50);
  const err = await t.sendMessage(userRequest('hang') as never, { ...V1, signal: ac.signal }).then(
    (r: unknown) => r as Task,
    (e: unknown) => e,
  );
  assert.equal((err as { status?: unknown }).status, grpc.status.CANCELLED);
  await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
  const span = grpcSpan('SendMessage');
  assert.equal(span.attributes['rpc.grpc.status_code'], 1);
  assert.equal(
    span.attributes['a2a.drift.unjudged_reason'],
    'the response was cancelled before its end',
  );
  assert.notEqual(span.status.code, SpanStatusCode.ERROR);
  assert.equal(activeCallCount(h), 0);
});

test('a server that closes mid-stream: the app gets the error it would get anyway, the span is an error, no drift', async () => {
  const t = await transport();
  const seen: StreamResponse[] = [];
  const err = await (async () => {
    for await (const ev of t.sendMessageStream(userRequest('close-mid') as never, V1))
      seen.push(ev);
  })().then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof Error, 'the stream fails');
  assert.equal(seen.length, 2);
  await h.waitForSpans((s) => s.some((x) => x.name === 'SendStreamingMessage'));
  const span = grpcSpan('SendStreamingMessage');
  assert.notEqual(span.attributes['rpc.grpc.status_code'], 0);
  assert.equal(span.status.code, SpanStatusCode.ERROR);
  assert.equal(drifted(h.spans()).length, 0);
  assert.equal(activeCallCount(h), 0);
});
