/**
 * Row 5: memory with 100,000 tasks negotiated and never polled.
 *
 *   node --import tsx --expose-gc bench/registry-memory.ts
 *
 * One A2AInstrumentation (the built package, BENCH_DIST or ./dist) enabled on a
 * NodeTracerProvider + BatchSpanProcessor whose exporter drops spans. The exchanges go
 * through the instrumentation's real wire path, minus the network: this script publishes
 * on undici's own diagnostics channels (`undici:request:create` / `:headers` /
 * `:trailers`) with request objects shaped like Node 20's bundled undici 6 (a flat
 * header array, a whole string body, an `onData` method the tap wraps), so every exchange
 * runs WireTap → classify → A2ACall (span) → BodyReader → decodeResponse → judge →
 * NegotiationRegistry.put, exactly as for a real `fetch`. 100,000 real round trips would
 * take minutes; this takes seconds.
 *
 * First one Agent Card fetch (1.0 card, 20 skills, the JSON-RPC endpoint listed), then
 * BENCH_TASKS (default 100,000) SendMessage exchanges with `returnImmediately`, each
 * answered by a distinct SUBMITTED task that is never polled; then BENCH_CARDS (default
 * 2,000) distinct Agent Card URLs, fetched once each. At checkpoints: GC, heap, registry
 * sizes.
 */
import { FakeUndiciRequest, publishExchange } from './fake-undici';
import { context } from '@opentelemetry/api';
import { envNumber } from './stats';
import { sdkCard10 } from './fixtures';

export interface MemoryCheckpoint {
  tasks: number;
  heapUsedBytes: number;
  rssBytes: number;
  negotiations: number;
  cards: number;
  activeCalls: number | undefined;
  /** Set on the last checkpoint: distinct Agent Card URLs fetched by then. */
  cardsFetched?: number;
}

export interface RegistryMemoryResult {
  tasks: number;
  maxTrackedTasks: number;
  maxCards: number;
  checkpoints: MemoryCheckpoint[];
  spansEnded: number;
  usPerExchange: number;
  /** Whether each SendMessage span saw its card (attribute a2a.agent_card.fingerprint present). */
  cardKnownOnLastSpan: boolean;
}

const ORIGIN = 'http://127.0.0.1:40404';

function exchange(
  method: string,
  path: string,
  body: string | undefined,
  reqHeaders: string[],
  status: number,
  responseBody: string,
): void {
  const request = new FakeUndiciRequest(method, ORIGIN, path, body, [...reqHeaders]);
  const payload = Buffer.from(responseBody);
  publishExchange(
    request,
    status,
    [
      Buffer.from('content-type'),
      Buffer.from('application/json'),
      Buffer.from('content-length'),
      Buffer.from(String(payload.length)),
    ],
    [payload],
  );
}

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const distDir = process.env.BENCH_DIST ?? `${__dirname}/../dist`;
  const tasks = envNumber('BENCH_TASKS', 100_000, 20_000);
  const maxTrackedTasks = envNumber('BENCH_MAX_TRACKED_TASKS', 10_000);

  const { NodeTracerProvider } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');

  const { BatchSpanProcessor } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  let spansEnded = 0;
  let cardKnownOnLastSpan = false;
  const exporter = {
    export(
      spans: Array<{ name: string; attributes: Record<string, unknown> }>,
      done: (r: { code: number }) => void,
    ): void {
      spansEnded += spans.length;
      for (const s of spans)
        if (s.name === 'SendMessage')
          cardKnownOnLastSpan = s.attributes['a2a.agent_card.fingerprint'] !== undefined;
      done({ code: 0 });
    },
    shutdown: (): Promise<void> => Promise.resolve(),
    forceFlush: (): Promise<void> => Promise.resolve(),
  };
  const provider = new NodeTracerProvider({
    spanProcessors: [new BatchSpanProcessor(exporter as never)],
  });
  provider.register();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require(`${distDir}/cjs/index.js`) as typeof import('../src/index');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { sharedState } = require(
    `${distDir}/cjs/telemetry/shared-state.js`,
  ) as typeof import('../src/telemetry/shared-state');
  const instrumentation = new pkg.A2AInstrumentation(
    process.env.BENCH_MAX_TRACKED_TASKS ? { maxTrackedTasks } : {},
  );
  instrumentation.setTracerProvider(provider);
  instrumentation.enable();
  const state = sharedState();
  const activeCalls = (): number | undefined =>
    (instrumentation as unknown as { activeCalls?: Set<unknown> }).activeCalls?.size;

  // The Agent Card, fetched once.
  const card = sdkCard10(20) as {
    skills: Array<Record<string, unknown>>;
    supportedInterfaces: Array<Record<string, unknown>>;
  };
  card.supportedInterfaces = [
    {
      url: `${ORIGIN}/a2a/jsonrpc`,
      protocolBinding: 'JSONRPC',
      tenant: '',
      protocolVersion: '1.0',
    },
  ];
  card.skills[0].id = 'summarize-v2';
  card.skills[0].outputModes = ['text/markdown'];
  exchange(
    'GET',
    '/.well-known/agent-card.json',
    undefined,
    ['a2a-version', '1.0'],
    200,
    JSON.stringify(card),
  );

  const reqHeaders = [
    'a2a-version',
    '1.0',
    'content-type',
    'application/json',
    'accept',
    'application/json',
  ];
  const requestBody = (i: number): string =>
    `{"jsonrpc":"2.0","method":"SendMessage","params":{"message":{"messageId":"msg-bench-${i}","role":"ROLE_USER",` +
    `"parts":[{"text":"Please summarize this text.","mediaType":"text/plain"}],"metadata":{"skillId":"summarize-v2"}},` +
    `"configuration":{"returnImmediately":true},"metadata":{"skillId":"summarize-v2"}},"id":${i}}`;
  const responseBody = (i: number): string => {
    const id = `${i.toString(16).padStart(8, '0')}-07e6-4d18-9cba-7d2fc56ee790`;
    return (
      `{"jsonrpc":"2.0","id":${i},"result":{"task":{"id":"${id}","contextId":"ctx-${id}",` +
      `"status":{"state":"TASK_STATE_SUBMITTED","timestamp":"2026-12-02T11:19:58.378Z"},"artifacts":[],` +
      `"history":[{"messageId":"msg-bench-${i}","contextId":"ctx-${id}","taskId":"${id}","role":"ROLE_USER",` +
      `"parts":[{"text":"Please summarize this text.","mediaType":"text/plain"}],"metadata":{"skillId":"summarize-v2"}}],` +
      `"metadata":{"skillId":"summarize-v2"}}}}`
    );
  };

  const marks = new Set([0, 1_000, 10_000, 20_000, 50_000, tasks]);
  const checkpoints: MemoryCheckpoint[] = [];
  const checkpoint = (n: number): void => {
    gc();
    gc();
    const m = process.memoryUsage();
    checkpoints.push({
      tasks: n,
      heapUsedBytes: m.heapUsed,
      rssBytes: m.rss,
      negotiations: state.negotiations.size,
      cards: state.cards.size,
      activeCalls: activeCalls(),
    });
  };

  let timedNs = 0n;
  let timedCalls = 0;
  const root = context.active();
  const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
  for (let i = 0; i <= tasks; i++) {
    if (marks.has(i)) {
      await provider.forceFlush(); // spans queued in the BatchSpanProcessor are not the registries' memory
      checkpoint(i);
    }
    if (i === tasks) break;
    // Let the BatchSpanProcessor export (as it would between real round trips): every 256 exchanges.
    if ((i & 255) === 255) await tick();
    const t0 = process.hrtime.bigint();
    context.with(root, () =>
      exchange('POST', '/a2a/jsonrpc', requestBody(i), reqHeaders, 200, responseBody(i)),
    );
    if (i >= 10_000) {
      timedNs += process.hrtime.bigint() - t0;
      timedCalls++;
    }
  }

  // Then BENCH_CARDS (default 2,000) distinct Agent Card URLs, each fetched once: the card
  // registry must stay within maxCards (default 1,000).
  const cardsToFetch = envNumber('BENCH_CARDS', 2_000, 2_000);
  for (let i = 0; i < cardsToFetch; i++) {
    if ((i & 255) === 255) await tick();
    const c = sdkCard10(20) as typeof card;
    c.supportedInterfaces = [
      {
        url: `${ORIGIN}/agents/${i}/a2a/jsonrpc`,
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: '1.0',
      },
    ];
    context.with(root, () =>
      exchange(
        'GET',
        `/agents/${i}/.well-known/agent-card.json`,
        undefined,
        ['a2a-version', '1.0'],
        200,
        JSON.stringify(c),
      ),
    );
  }
  await provider.forceFlush();
  checkpoint(tasks);
  checkpoints[checkpoints.length - 1].cardsFetched = cardsToFetch + 1;

  await provider.forceFlush().then(() => {
    const result: RegistryMemoryResult = {
      tasks,
      maxTrackedTasks,
      maxCards: 1000,
      checkpoints,
      spansEnded,
      usPerExchange: timedCalls > 0 ? Number(timedNs) / 1000 / timedCalls : NaN,
      cardKnownOnLastSpan,
    };
    for (const c of checkpoints) {
      console.log(
        `${String(c.tasks).padStart(7)} tasks: heapUsed ${(c.heapUsedBytes / 1048576).toFixed(1)} MiB, rss ${(c.rssBytes / 1048576).toFixed(1)} MiB, ` +
          `negotiations ${c.negotiations}, cards ${c.cards}${c.cardsFetched ? ` (of ${c.cardsFetched} distinct card URLs fetched)` : ''}, active calls ${c.activeCalls}`,
      );
    }
    console.log(
      `spans ended ${spansEnded}; ${result.usPerExchange.toFixed(1)} µs per exchange (instrumentation path, no network)`,
    );
    if (process.send) process.send({ type: 'result', result }, () => process.exit(0));
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
