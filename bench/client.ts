/**
 * One bench client process: sets up ONE configuration (instrumentations patch globals,
 * so every configuration gets a fresh process), then runs the requested phases against
 * the peer process and sends its figures to the parent over IPC (or prints them).
 *
 * Started by bench/run.ts with `BENCH_CLIENT` = JSON {@link ClientJob}. Configurations:
 *   bare            no OpenTelemetry at all
 *   sdk             NodeTracerProvider + BatchSpanProcessor(exporter that drops) registered, no instrumentation
 *   undici          sdk + @opentelemetry/instrumentation-undici            (the "SDK floor")
 *   a2a             sdk + A2AInstrumentation (this package)
 *   both            sdk + instrumentation-undici + A2AInstrumentation
 *   a2a-inspect16   a2a with maxInspectBytes = 16 MiB (row 3 only: the 10 MiB body is parsed and judged)
 *   nodesdk-undici  NodeSDK + instrumentation-undici + OTLP/HTTP trace exporter (to the local sink)
 *   register        `--require dist/cjs/register.js` (this package's entry, OTLP export to the local sink)
 */
import type { Client } from '@a2a-js/sdk/client';

export type ConfigName = 'bare' | 'sdk' | 'undici' | 'a2a' | 'both' | 'a2a-inspect16' | 'nodesdk-undici' | 'register';
export type Phase = 'send' | 'stream' | 'plain' | 'big';

export interface ClientJob {
  config: ConfigName;
  phases: Phase[];
  baseUrl: string;
  plainUrl: string;
  /** Directory holding the built package (`cjs/index.js`, `cjs/register.js`). */
  distDir: string;
  round: number;
  counts: {
    sendWarmup: number;
    send: number;
    streamWarmup: number;
    stream: number;
    plainWarmup: number;
    plain: number;
    bigCalls: number;
  };
}

export interface LatencyFigures {
  calls: number;
  wallMs: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  /** user + system CPU of this process over the timed loop, per call. */
  cpuUsPerCall: number;
}

export interface StreamFigures {
  streams: number;
  eventsPerStream: number;
  firstEventP50Ms: number;
  firstEventP99Ms: number;
  lastEventP50Ms: number;
  lastEventP99Ms: number;
  cpuUsPerStream: number;
}

export interface BigFigures {
  calls: number;
  artifactBytes: number;
  msPerCallMedian: number;
  cpuMsPerCall: number;
  /** process high-water RSS during the big calls minus RSS just before them (after GC). */
  peakRssDeltaBytes: number;
  /** highest heapUsed + arrayBuffers seen by a 2 ms sampler and after each call, minus the same before. */
  peakHeapDeltaBytes: number;
}

export interface ClientResult {
  config: ConfigName;
  round: number;
  skipped?: string;
  note?: string;
  send?: LatencyFigures;
  stream?: StreamFigures;
  plainGet?: LatencyFigures;
  plainPost?: LatencyFigures;
  big?: BigFigures;
  /** Heap after the run (for information). */
  heapUsedBytes?: number;
}

const WRAPPED_FETCH = Symbol.for('opentelemetry-instrumentation-a2a.fetch-original');

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

function ms(t0: bigint, t1: bigint): number {
  return Number(t1 - t0) / 1e6;
}

function q(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

async function setup(job: ClientJob): Promise<string | undefined> {
  const { config } = job;
  if (config === 'bare') return undefined;
  if (config === 'register') {
    // Loaded by --require before this file. Is it the real entry yet?
    const { trace } = await import('@opentelemetry/api');
    const provider = trace.getTracerProvider() as { getDelegate?: () => object };
    const delegate = provider.getDelegate?.() ?? provider;
    const wrapped = typeof globalThis.fetch === 'function' && (globalThis.fetch as unknown as Record<symbol, unknown>)[WRAPPED_FETCH] !== undefined;
    const noop = delegate.constructor?.name === 'NoopTracerProvider';
    if (!wrapped || noop) {
      return `dist/cjs/register.js does not start the SDK with A2AInstrumentation yet (fetch wrapped: ${wrapped}, tracer provider: ${delegate.constructor?.name})`;
    }
    return undefined;
  }
  if (config === 'nodesdk-undici') {
    const { NodeSDK } = await import('@opentelemetry/sdk-node');
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    const { UndiciInstrumentation } = await import('@opentelemetry/instrumentation-undici');
    const sdk = new NodeSDK({ traceExporter: new OTLPTraceExporter(), instrumentations: [new UndiciInstrumentation()] });
    sdk.start();
    return undefined;
  }
  const { NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { ExportResultCode } = await import('@opentelemetry/core');
  const { registerInstrumentations } = await import('@opentelemetry/instrumentation');
  // Spans exported nowhere: the processor batches as usual, the exporter drops them.
  const dropExporter = {
    export(_spans: unknown[], done: (r: { code: number }) => void): void {
      done({ code: ExportResultCode.SUCCESS });
    },
    shutdown: (): Promise<void> => Promise.resolve(),
    forceFlush: (): Promise<void> => Promise.resolve(),
  };
  const provider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropExporter)] });
  provider.register(); // AsyncLocalStorage context manager + W3C propagator, as any Node set-up
  const instrumentations: object[] = [];
  if (config === 'undici' || config === 'both') {
    const { UndiciInstrumentation } = await import('@opentelemetry/instrumentation-undici');
    instrumentations.push(new UndiciInstrumentation());
  }
  if (config === 'a2a' || config === 'both' || config === 'a2a-inspect16') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pkg = require(`${job.distDir}/cjs/index.js`) as typeof import('../src/index');
    instrumentations.push(new pkg.A2AInstrumentation(config === 'a2a-inspect16' ? { maxInspectBytes: 16 * 1024 * 1024 } : {}));
  }
  if (instrumentations.length > 0) registerInstrumentations({ tracerProvider: provider, instrumentations: instrumentations as never });
  return undefined;
}

async function runSend(client: Client, sendRequest: (skill: string) => never, warmup: number, n: number): Promise<LatencyFigures> {
  for (let i = 0; i < warmup; i++) await client.sendMessage(sendRequest('summarize-v2'));
  const lat = new Array<number>(n);
  const c0 = cpuUs();
  const w0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const req = sendRequest('summarize-v2');
    const t0 = process.hrtime.bigint();
    const r = (await client.sendMessage(req)) as { artifacts?: unknown[] };
    lat[i] = ms(t0, process.hrtime.bigint());
    if (i === 0 && (!r.artifacts || r.artifacts.length !== 1)) throw new Error(`SendMessage: expected a task with one artifact, got ${JSON.stringify(r).slice(0, 300)}`);
  }
  const wallMs = ms(w0, process.hrtime.bigint());
  const cpu = cpuUs() - c0;
  return figures(lat, wallMs, cpu);
}

function figures(lat: number[], wallMs: number, cpu: number): LatencyFigures {
  const sorted = [...lat].sort((a, b) => a - b);
  return {
    calls: lat.length,
    wallMs,
    perSecond: (lat.length / wallMs) * 1000,
    p50Ms: q(sorted, 0.5),
    p99Ms: q(sorted, 0.99),
    meanMs: lat.reduce((a, b) => a + b, 0) / lat.length,
    cpuUsPerCall: cpu / lat.length,
  };
}

async function runStream(client: Client, sendRequest: (skill: string) => never, warmup: number, n: number): Promise<StreamFigures> {
  const one = async (): Promise<{ first: number; last: number; events: number }> => {
    const t0 = process.hrtime.bigint();
    let first = NaN;
    let events = 0;
    for await (const _ev of client.sendMessageStream(sendRequest('long-stream'))) {
      if (events === 0) first = ms(t0, process.hrtime.bigint());
      events++;
    }
    return { first, last: ms(t0, process.hrtime.bigint()), events };
  };
  for (let i = 0; i < warmup; i++) await one();
  const firsts: number[] = [];
  const lasts: number[] = [];
  let events = 0;
  const c0 = cpuUs();
  for (let i = 0; i < n; i++) {
    const r = await one();
    firsts.push(r.first);
    lasts.push(r.last);
    events = r.events;
  }
  const cpu = cpuUs() - c0;
  if (events !== 100) throw new Error(`stream: expected 100 events, got ${events}`);
  firsts.sort((a, b) => a - b);
  lasts.sort((a, b) => a - b);
  return {
    streams: n,
    eventsPerStream: events,
    firstEventP50Ms: q(firsts, 0.5),
    firstEventP99Ms: q(firsts, 0.99),
    lastEventP50Ms: q(lasts, 0.5),
    lastEventP99Ms: q(lasts, 0.99),
    cpuUsPerStream: cpu / n,
  };
}

async function runPlain(plainUrl: string, method: 'GET' | 'POST', warmup: number, n: number): Promise<LatencyFigures> {
  const body = JSON.stringify({
    query: 'wireless headphones',
    limit: 10,
    filters: { priceMax: 200, brands: ['acme', 'globex'], inStock: true },
    session: { user: 'u-1234', locale: 'en-GB' },
  });
  const call = async (i: number): Promise<void> => {
    const res =
      method === 'GET'
        ? await fetch(`${plainUrl}/api/items/${i}`)
        : await fetch(`${plainUrl}/api/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if (res.status !== 200) throw new Error(`plain ${method}: ${res.status}`);
    await res.json();
  };
  for (let i = 0; i < warmup; i++) await call(i);
  const lat = new Array<number>(n);
  const c0 = cpuUs();
  const w0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await call(i);
    lat[i] = ms(t0, process.hrtime.bigint());
  }
  const wallMs = ms(w0, process.hrtime.bigint());
  return figures(lat, wallMs, cpuUs() - c0);
}

async function runBig(client: Client, sendRequest: (skill: string) => never, n: number): Promise<BigFigures> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const heap = (): number => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  gc?.();
  gc?.();
  const rss0 = process.memoryUsage().rss;
  const heap0 = heap();
  let peakHeap = heap0;
  const sampler = setInterval(() => {
    const h = heap();
    if (h > peakHeap) peakHeap = h;
  }, 2);
  const times: number[] = [];
  let bytes = 0;
  const c0 = cpuUs();
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    const r = (await client.sendMessage(sendRequest('big-artifact'))) as { artifacts?: Array<{ parts?: Array<{ content?: { value?: string } }> }> };
    times.push(ms(t0, process.hrtime.bigint()));
    const h = heap();
    if (h > peakHeap) peakHeap = h;
    bytes = r.artifacts?.[0]?.parts?.[0]?.content?.value?.length ?? 0;
  }
  const cpu = cpuUs() - c0;
  clearInterval(sampler);
  const maxRss = process.resourceUsage().maxRSS * 1024;
  times.sort((a, b) => a - b);
  return {
    calls: n,
    artifactBytes: bytes,
    msPerCallMedian: q(times, 0.5),
    cpuMsPerCall: cpu / n / 1000,
    peakRssDeltaBytes: maxRss - rss0,
    peakHeapDeltaBytes: peakHeap - heap0,
  };
}

async function main(): Promise<void> {
  const job = JSON.parse(process.env.BENCH_CLIENT ?? '') as ClientJob;
  const result: ClientResult = { config: job.config, round: job.round };
  const skipped = await setup(job);
  if (skipped) {
    result.skipped = skipped;
  } else {
    // Imported after the set-up, as an application would after `--require`.
    const peerClient = await import('../test/peers/sdk-client');
    const client = await peerClient.createSdkClient({ baseUrl: job.baseUrl } as never, 'jsonrpc');
    const sendRequest = peerClient.sendRequest as unknown as (skill: string) => never;
    const c = job.counts;
    for (const phase of job.phases) {
      if (phase === 'send') result.send = await runSend(client, sendRequest, c.sendWarmup, c.send);
      else if (phase === 'stream') result.stream = await runStream(client, sendRequest, c.streamWarmup, c.stream);
      else if (phase === 'plain') {
        result.plainGet = await runPlain(job.plainUrl, 'GET', c.plainWarmup, c.plain);
        result.plainPost = await runPlain(job.plainUrl, 'POST', c.plainWarmup, c.plain);
      } else if (phase === 'big') result.big = await runBig(client, sendRequest, c.bigCalls);
    }
  }
  result.heapUsedBytes = process.memoryUsage().heapUsed;
  if (process.send) process.send({ type: 'result', result }, () => process.exit(0));
  else {
    console.log(JSON.stringify(result, null, 1));
    process.exit(0);
  }
}

main().catch((err: unknown) => {
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  if (process.send) process.send({ type: 'error', message }, () => process.exit(1));
  else {
    console.error(message);
    process.exit(1);
  }
});
