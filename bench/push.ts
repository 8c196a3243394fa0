/**
 * Push notifications (issue 28): what a judged push costs the app's webhook server, and the
 * memory one registered webhook holds.
 *
 *   npm run build && node --import tsx --expose-gc bench/push.ts   (BENCH_DIST: the built package)
 *
 * Per push: a loopback `http` server (the app's webhook, reading its body with `'data'`) gets
 * BENCH_PUSHES (default 5,000) 1.0 `statusUpdate` pushes over a keep-alive `http.Agent` (Node's
 * `http` client, so the undici wire tap is not involved), in rounds alternating:
 *   without  — no instrumentation enabled;
 *   with     — A2AInstrumentation enabled (a span processor that drops spans), the webhook
 *              registered with a token and the task's negotiation remembered, so every push is
 *              followed, decoded, judged and ends a TaskPushNotification span.
 * Printed: the median round trip (µs) of each, their difference, and process CPU per push
 * (µs, both processes are this one: client, server and instrumentation).
 *
 * Memory: BENCH_REGISTRATIONS (default 100,000) webhooks registered (as
 * CreateTaskPushNotificationConfig calls do: bound to distinct task ids, distinct URLs and
 * tokens), heap after GC, bytes per registration. No timed assertions: figures only.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { TracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace';
import path from 'node:path';
import { envNumber, median } from './stats';

// The built package (tsc output), as the app runs it: BENCH_DIST or ./dist (`npm run build`).
const dist = path.join(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'), 'cjs');
/* eslint-disable @typescript-eslint/no-require-imports -- the built package, by path */
const { A2AInstrumentation } = require(
  path.join(dist, 'index.js'),
) as typeof import('../src/index');
const { decodeJsonRpcRequest } = require(
  path.join(dist, 'core/protocol/jsonrpc.js'),
) as typeof import('../src/core/protocol/jsonrpc');
const { urlFacts } = require(path.join(dist, 'core/url.js')) as typeof import('../src/core/url');
const { sharedState } = require(
  path.join(dist, 'telemetry/shared-state.js'),
) as typeof import('../src/telemetry/shared-state');
const { pushRegistry, registerPushWebhook } = require(
  path.join(dist, 'telemetry/push-registrations.js'),
) as typeof import('../src/telemetry/push-registrations');
const { PushReceiver } = require(
  path.join(dist, 'telemetry/push-notifications.js'),
) as typeof import('../src/telemetry/push-notifications');
const { taskScope } = require(
  path.join(dist, 'telemetry/negotiation.js'),
) as typeof import('../src/telemetry/negotiation');
/* eslint-enable @typescript-eslint/no-require-imports */

const PUSHES = envNumber('BENCH_PUSHES', 5000, 1000);
const REGISTRATIONS = envNumber('BENCH_REGISTRATIONS', 100_000, 20_000);
const ROUNDS = 5;
const ENDPOINT = 'http://127.0.0.1:40404/a2a/jsonrpc';

let spansEnded = 0;
const dropping: SpanExporter = {
  export: (spans, done) => {
    spansEnded += spans.length;
    done({ code: 0 });
  },
  shutdown: () => Promise.resolve(),
};

function createConfigRequest(taskId: string, url: string, token: string) {
  const req = decodeJsonRpcRequest({
    jsonrpc: '2.0',
    id: 1,
    method: 'CreateTaskPushNotificationConfig',
    params: { taskId, url, token },
  });
  if (!req) throw new Error('not decoded');
  return req;
}

function negotiate(taskId: string, req: ReturnType<typeof createConfigRequest>): void {
  sharedState().negotiations.put({
    taskId,
    scope: taskScope(urlFacts(ENDPOINT), req),
    context: {
      cardKnown: true,
      skillId: 'summarize-v2',
      skillInCard: true,
      outputModes: ['text/markdown'],
      fingerprint: 'f'.repeat(64),
      cardUrl: 'http://127.0.0.1:40404/.well-known/agent-card.json',
    },
    link: { traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: 1 },
    createdAt: Date.now(),
  });
}

async function pushRound(
  agent: http.Agent,
  port: number,
  body: string,
  n: number,
): Promise<{ times: number[]; cpuUs: number }> {
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          agent,
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/hooks/a2a',
          headers: {
            'content-type': 'application/a2a+json',
            'x-a2a-notification-token': 'tok-bench',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  const cpu = process.cpuUsage(cpu0);
  return { times, cpuUs: (cpu.user + cpu.system) / n };
}

async function perPush(): Promise<void> {
  const server = http.createServer((req, res) => {
    let size = 0;
    req.on('data', (c: Buffer) => (size += c.length));
    req.on('end', () => res.end(String(size)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  const cm = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(cm);
  const provider = new TracerProvider({
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: dropping,
        maxQueueSize: 100_000,
        scheduledDelayMillis: 50,
      }),
    ],
  });
  const inst = new A2AInstrumentation({ enabled: true });
  inst.setTracerProvider(provider);
  inst.disable();

  const taskId = 'bench-task';
  const webhook = `http://127.0.0.1:${port}/hooks/a2a`;
  const body = JSON.stringify({
    statusUpdate: {
      taskId,
      contextId: 'bench-context',
      status: { state: 'TASK_STATE_WORKING', timestamp: new Date().toISOString() },
    },
  });

  const without: number[] = [];
  const unwatched: number[] = [];
  const withIt: number[] = [];
  let cpuWithout = 0;
  let cpuUnwatched = 0;
  let cpuWith = 0;
  await pushRound(agent, port, body, 200); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    const a = await pushRound(agent, port, body, PUSHES / ROUNDS);
    without.push(...a.times);
    cpuWithout += a.cpuUs / ROUNDS;

    inst.enable(); // enabled, but this path is no registered webhook: the channel's cost only
    const u = await pushRound(agent, port, body, PUSHES / ROUNDS);
    unwatched.push(...u.times);
    cpuUnwatched += u.cpuUs / ROUNDS;

    const req = createConfigRequest(taskId, webhook, 'tok-bench');
    registerPushWebhook(req, ENDPOINT);
    negotiate(taskId, req);
    await provider.forceFlush();
    const before = spansEnded;
    const b = await pushRound(agent, port, body, PUSHES / ROUNDS);
    await provider.forceFlush();
    if (spansEnded - before !== PUSHES / ROUNDS)
      throw new Error(`expected a span per push, got ${spansEnded - before}`);
    withIt.push(...b.times);
    cpuWith += b.cpuUs / ROUNDS;
    inst.disable();
    pushRegistry().clear();
    sharedState().negotiations.clear();
  }
  agent.destroy();
  await new Promise<void>((r) => server.close(() => r()));
  await provider.shutdown();

  const mw = median(without);
  const mi = median(withIt);
  console.log(`push round trip, ${PUSHES} pushes each (${body.length} B body), median:`);
  console.log(`  without instrumentation                ${mw.toFixed(1)} µs`);
  const mu = median(unwatched);
  console.log(
    `  enabled, path not a registered webhook ${mu.toFixed(1)} µs (+${(mu - mw).toFixed(1)})`,
  );
  console.log(
    `  with (judged, span ended)              ${mi.toFixed(1)} µs (+${(mi - mw).toFixed(1)})`,
  );
  console.log(
    `process CPU per push (client + server + instrumentation, one process): without ${cpuWithout.toFixed(1)} µs, unwatched ${cpuUnwatched.toFixed(1)} µs (+${(cpuUnwatched - cpuWithout).toFixed(1)}), judged ${cpuWith.toFixed(1)} µs (+${(cpuWith - cpuWithout).toFixed(1)})`,
  );
}

/**
 * The instrumentation's own work per judged push, in a hot loop: the inbound tap's delegate
 * (PushReceiver) given the request's headers, its body and its end, as the tap hands them over
 * (the channel publish and the push() wrapper excluded: a few hundred ns).
 */
async function inProcess(): Promise<void> {
  const provider = new TracerProvider({
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: dropping,
        maxQueueSize: 100_000,
        scheduledDelayMillis: 50,
      }),
    ],
  });
  const inst = new A2AInstrumentation();
  inst.setTracerProvider(provider);
  const taskId = 'bench-task';
  const req = createConfigRequest(taskId, 'http://127.0.0.1:9/hooks/a2a', 'tok-bench');
  registerPushWebhook(req, ENDPOINT);
  negotiate(taskId, req);
  const receiver = new PushReceiver(() => (inst as unknown as { deps(): never }).deps());
  const body = Buffer.from(
    JSON.stringify({
      statusUpdate: { taskId, contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
    }),
  );
  const headers: Record<string, string> = {
    host: '127.0.0.1:9',
    'content-type': 'application/a2a+json',
    'x-a2a-notification-token': 'tok-bench',
  };
  const info = {
    method: 'POST',
    target: '/hooks/a2a',
    header: (n: string) => headers[n],
    localPort: 9,
    localAddress: '127.0.0.1',
    encrypted: false,
  };
  const one = (): void => {
    const o = receiver.onRequest(info);
    if (!o) throw new Error('not followed');
    o.onBody?.(body);
    o.onEnd?.(true);
  };
  const samples: number[] = [];
  for (let i = 0; i < 2000; i++) one();
  for (let r = 0; r < 20; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 500; i++) one();
    samples.push(Number(process.hrtime.bigint() - t0) / 1000 / 500);
    await provider.forceFlush();
  }
  console.log(
    `in-process, hot loop (delegate: secret digest, parse, decode, match, judge, span): ${median(samples).toFixed(1)} µs per judged push (median of 20 × 500)`,
  );
  inst.disable();
  pushRegistry().clear();
  sharedState().negotiations.clear();
  await provider.shutdown();
}

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function memory(): void {
  const registry = pushRegistry();
  registry.clear();
  registry.setLimits(REGISTRATIONS, 3_600_000);
  const before = heapAfterGc();
  for (let i = 0; i < REGISTRATIONS; i++) {
    // the decoded request is the call's and is gone once it ends; what stays is the registration
    const req = createConfigRequest(
      `task-${i}-${'x'.repeat(24)}`,
      `https://client.example:8443/hooks/a2a/${i}?tenant=t${i % 10}`,
      `token-${i}-${'y'.repeat(32)}`,
    );
    registerPushWebhook(req, ENDPOINT);
  }
  const after = heapAfterGc();
  console.log(
    `memory: ${registry.size} registrations, ${((after - before) / 1024 / 1024).toFixed(1)} MiB of heap, ${Math.round((after - before) / registry.size)} B per registration (task id, webhook path/host/port, token digest, origin, indexes)`,
  );
  registry.clear();
}

perPush()
  .then(inProcess)
  .then(memory, (err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
