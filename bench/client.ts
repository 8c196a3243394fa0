/**
 * One bench client process: sets up ONE configuration (instrumentations patch globals,
 * so every configuration gets a fresh process per round), then does what bench/run.ts
 * tells it over IPC, so that the configurations of a round can be interleaved in small
 * batches (a load burst from elsewhere on the machine then hits all of them alike):
 *
 *   {cmd: 'warmup', phases}        warm up every phase it will run (not measured)
 *   {cmd: 'begin', phase}          start a measured phase (CPU counter read)
 *   {cmd: 'batch', phase, n}       n sequential calls, latencies kept
 *   {cmd: 'end', phase}            → figures of the phase
 *   {cmd: 'big', n}                → row 3 figures (n calls with a 10 MiB artifact)
 *   {cmd: 'exit'}
 *
 * Client CPU of a phase = `process.cpuUsage()` (user + system, all threads) from
 * 'begin' to 'end', divided by the calls of the phase. It includes what the process does
 * between its own batches (the BatchSpanProcessor's exports, GC, timers): the full cost
 * of the configuration, not only what runs on the call's stack. The process is otherwise
 * idle between its batches.
 *
 * Started with `BENCH_CLIENT` = JSON {@link ClientSpec}. Configurations:
 *   bare            no OpenTelemetry at all
 *   sdk             NodeTracerProvider + BatchSpanProcessor(exporter that drops) registered, no instrumentation
 *   undici          sdk + @opentelemetry/instrumentation-undici            (the "SDK floor")
 *   undici-b        the same again, a second process in the same rounds: the control (its ratio
 *                   to `undici` is the noise of a ratio between two processes)
 *   a2a             sdk + A2AInstrumentation (this package)
 *   a2a-base        a2a from another build (BENCH_BASE_DIST; only when it is set)
 *   both            sdk + instrumentation-undici + A2AInstrumentation
 *   a2a-inspect16   a2a with maxInspectBytes = 16 MiB (row 3 only: the 10 MiB body is parsed and judged)
 *   nodesdk-undici  NodeSDK + instrumentation-undici + OTLP/HTTP trace exporter (to the local sink)
 *   register        `--require dist/cjs/register.js` (this package's entry, OTLP export to the local sink)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as inspector from 'node:inspector';
import type { Client } from '@a2a-js/sdk/client';

export type ConfigName =
  | 'bare'
  | 'sdk'
  | 'undici'
  | 'undici-b'
  | 'a2a'
  | 'a2a-base'
  | 'both'
  | 'a2a-inspect16'
  | 'nodesdk-undici'
  | 'register';
/** Measured phases; `big` is row 3; `paced` row 2b (1,000 words ~1 ms apart). */
export type Phase = 'send' | 'stream' | 'paced' | 'plainGet' | 'plainPost' | 'big';

export interface ClientSpec {
  config: ConfigName;
  baseUrl: string;
  plainUrl: string;
  /** Directory holding the built package (`cjs/index.js`, `cjs/register.js`). */
  distDir: string;
  /** `a2a-base`: another build of the package (BENCH_BASE_DIST), for before/after in one run. */
  baseDistDir?: string;
  round: number;
}

export interface Warmup {
  send: number;
  stream: number;
  paced: number;
  plain: number;
}

export interface LatencyFigures {
  calls: number;
  /** Sum of the batches' wall time. */
  wallMs: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  /** user + system CPU of this process from begin to end of the phase, per call. */
  cpuUsPerCall: number;
  /** The same, in total (µs), and the phase's duration (begin to end, ms). */
  cpuUsTotal: number;
  phaseMs: number;
  /** CPU over the whole phase window, idle time between own batches included (µs; informative). */
  cpuUsWindow?: number;
  /** CPU of the final flush (µs), included in cpuUsTotal. */
  flushCpuUs?: number;
  /** Main-thread CPU over the phase window (µs, 10 ms resolution; informative). */
  mainThreadCpuUsWindow?: number;
}

export interface StreamFigures {
  streams: number;
  eventsPerStream: number;
  firstEventP50Ms: number;
  firstEventP99Ms: number;
  lastEventP50Ms: number;
  lastEventP99Ms: number;
  cpuUsPerStream: number;
  /** Main-thread CPU over the phase window (µs, 10 ms resolution; informative). */
  mainThreadCpuUsWindow?: number;
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
  send?: LatencyFigures;
  stream?: StreamFigures;
  paced?: StreamFigures;
  plainGet?: LatencyFigures;
  plainPost?: LatencyFigures;
  big?: BigFigures;
}

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/**
 * CPU time of the main (JavaScript) thread alone, µs (Linux: /proc/self/task/<pid>/stat,
 * 10 ms ticks, so only meaningful over seconds); NaN elsewhere. process.cpuUsage() also
 * counts V8's and libuv's helper threads (concurrent GC, compilers, ...).
 */
function mainThreadCpuUs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000; // utime + stime, 100 ticks/s
  } catch {
    return NaN;
  }
}

function ms(t0: bigint, t1: bigint): number {
  return Number(t1 - t0) / 1e6;
}

function q(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

type Flush = () => Promise<void>;
const noFlush: Flush = () => Promise.resolve();

/** The global tracer provider's forceFlush (the SDK behind the API's proxy), if any. */
async function globalFlush(): Promise<Flush> {
  const { trace } = await import('@opentelemetry/api');
  const proxy = trace.getTracerProvider() as {
    getDelegate?: () => { forceFlush?: () => Promise<void> };
  };
  const delegate = proxy.getDelegate?.() ?? (proxy as { forceFlush?: () => Promise<void> });
  return typeof delegate.forceFlush === 'function'
    ? () => delegate.forceFlush!.call(delegate)
    : noFlush;
}

/** Sets up the configuration; returns why it cannot run, or its flush function. */
async function setup(job: ClientSpec): Promise<{ skipped: string } | { flush: Flush }> {
  const { config } = job;
  if (config === 'bare') return { flush: noFlush };
  if (config === 'register') {
    // Loaded by --require before this file. Is it the real entry yet?
    const { trace } = await import('@opentelemetry/api');
    const provider = trace.getTracerProvider() as { getDelegate?: () => object };
    const delegate = provider.getDelegate?.() ?? provider;
    // The fetch wrapper is indistinguishable from the native (issue 13); the enabled wire tap
    // subscribes to undici's request creation at start-up (nothing else does in this row).
    const { hasSubscribers } = await import('node:diagnostics_channel');
    const wrapped = hasSubscribers('undici:request:create');
    const noop = delegate.constructor?.name === 'NoopTracerProvider';
    if (!wrapped || noop) {
      return {
        skipped: `dist/cjs/register.js does not start the SDK with A2AInstrumentation yet (fetch wrapped: ${wrapped}, tracer provider: ${delegate.constructor?.name})`,
      };
    }
    return { flush: await globalFlush() };
  }
  if (config === 'nodesdk-undici') {
    const { NodeSDK } = await import('@opentelemetry/sdk-node');
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    const { UndiciInstrumentation } = await import('@opentelemetry/instrumentation-undici');
    const sdk = new NodeSDK({
      traceExporter: new OTLPTraceExporter(),
      instrumentations: [new UndiciInstrumentation()],
    });
    sdk.start();
    return { flush: await globalFlush() };
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
  const provider = new NodeTracerProvider({
    spanProcessors: [new BatchSpanProcessor(dropExporter)],
  });
  provider.register(); // AsyncLocalStorage context manager + W3C propagator, as any Node set-up
  const instrumentations: object[] = [];
  if (config === 'undici' || config === 'undici-b' || config === 'both') {
    const { UndiciInstrumentation } = await import('@opentelemetry/instrumentation-undici');
    instrumentations.push(new UndiciInstrumentation());
  }
  if (
    config === 'a2a' ||
    config === 'both' ||
    config === 'a2a-inspect16' ||
    config === 'a2a-base'
  ) {
    const dir = config === 'a2a-base' ? (job.baseDistDir ?? job.distDir) : job.distDir;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pkg = require(`${dir}/cjs/index.js`) as typeof import('../src/index');
    instrumentations.push(
      new pkg.A2AInstrumentation(
        config === 'a2a-inspect16' ? { maxInspectBytes: 16 * 1024 * 1024 } : {},
      ),
    );
  }
  if (instrumentations.length > 0)
    registerInstrumentations({
      tracerProvider: provider,
      instrumentations: instrumentations as never,
    });
  return { flush: () => provider.forceFlush() };
}

type SendRequest = (skill: string) => never;

/**
 * With BENCH_PROFILE_FILE set (bench/profile.ts), the V8 CPU profiler (the one behind
 * `node --cpu-prof`) records exactly the measured phase, begin to end, and writes the
 * .cpuprofile there: no start-up, no warm-up in it.
 */
const profiler = (() => {
  const file = process.env.BENCH_PROFILE_FILE;
  let session: inspector.Session | undefined;
  const post = (method: string, params: object = {}): Promise<unknown> =>
    new Promise((resolve, reject) =>
      (session as inspector.Session).post(method, params, (err, res) =>
        err ? reject(err) : resolve(res),
      ),
    );
  return {
    async start(): Promise<void> {
      if (!file || session) return;
      session = new inspector.Session();
      session.connect();
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', {
        interval: Number(process.env.BENCH_PROFILE_INTERVAL_US ?? 250),
      });
      await post('Profiler.start');
    },
    async stop(): Promise<void> {
      if (!file || !session) return;
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      session = undefined;
    },
  };
})();

function summarise(lat: number[], wallMs: number, cpu: number, phaseMs: number): LatencyFigures {
  const sorted = [...lat].sort((a, b) => a - b);
  return {
    calls: lat.length,
    wallMs,
    perSecond: (lat.length / wallMs) * 1000,
    p50Ms: q(sorted, 0.5),
    p99Ms: q(sorted, 0.99),
    meanMs: lat.reduce((a, b) => a + b, 0) / lat.length,
    cpuUsPerCall: cpu / lat.length,
    cpuUsTotal: cpu,
    phaseMs,
  };
}

const PLAIN_BODY = JSON.stringify({
  query: 'wireless headphones',
  limit: 10,
  filters: { priceMax: 200, brands: ['acme', 'globex'], inStock: true },
  session: { user: 'u-1234', locale: 'en-GB' },
});

class Runner {
  private lat: number[] = [];
  private firsts: number[] = [];
  private wallMs = 0;
  private cpu0 = 0;
  private main0 = 0;
  private cpuBatches = 0;
  private t0 = 0n;
  private events = 0;
  private plainI = 0;

  constructor(
    private readonly client: Client,
    private readonly sendRequest: SendRequest,
    private readonly plainUrl: string,
    private readonly flush: Flush,
  ) {}

  async sendOnce(): Promise<number> {
    const req = this.sendRequest('summarize-v2');
    const t0 = process.hrtime.bigint();
    const r = (await this.client.sendMessage(req)) as { artifacts?: unknown[] };
    const t = ms(t0, process.hrtime.bigint());
    if (!r.artifacts || r.artifacts.length !== 1)
      throw new Error(
        `SendMessage: expected a task with one artifact, got ${JSON.stringify(r).slice(0, 300)}`,
      );
    return t;
  }

  async streamOnce(paced = false): Promise<{ first: number; last: number }> {
    const req = this.sendRequest(paced ? 'paced-stream' : 'long-stream');
    const expected = paced ? 1003 : 100;
    const t0 = process.hrtime.bigint();
    let first = NaN;
    let events = 0;
    for await (const _ev of this.client.sendMessageStream(req)) {
      if (events === 0) first = ms(t0, process.hrtime.bigint());
      events++;
    }
    this.events = events;
    if (events !== expected) throw new Error(`stream: expected ${expected} events, got ${events}`);
    return { first, last: ms(t0, process.hrtime.bigint()) };
  }

  async plainOnce(method: 'GET' | 'POST'): Promise<number> {
    const i = this.plainI++;
    const t0 = process.hrtime.bigint();
    const res =
      method === 'GET'
        ? await fetch(`${this.plainUrl}/api/items/${i}`)
        : await fetch(`${this.plainUrl}/api/search`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: PLAIN_BODY,
          });
    await res.json();
    const t = ms(t0, process.hrtime.bigint());
    if (res.status !== 200) throw new Error(`plain ${method}: ${res.status}`);
    return t;
  }

  async warmup(phases: Phase[], w: Warmup): Promise<void> {
    if (phases.includes('send') || phases.includes('big'))
      for (let i = 0; i < w.send; i++) await this.sendOnce();
    if (phases.includes('stream')) for (let i = 0; i < w.stream; i++) await this.streamOnce();
    if (phases.includes('paced')) for (let i = 0; i < w.paced; i++) await this.streamOnce(true);
    if (phases.includes('plainGet')) for (let i = 0; i < w.plain; i++) await this.plainOnce('GET');
    if (phases.includes('plainPost'))
      for (let i = 0; i < w.plain; i++) await this.plainOnce('POST');
  }

  /** Starts a phase with an empty span queue (what is flushed here belongs to earlier work). */
  async begin(): Promise<void> {
    await this.flush();
    await profiler.start();
    this.lat = [];
    this.firsts = [];
    this.wallMs = 0;
    this.cpuBatches = 0;
    this.cpu0 = cpuUs();
    this.main0 = mainThreadCpuUs();
    this.t0 = process.hrtime.bigint();
  }

  async batch(phase: Phase, n: number): Promise<void> {
    const c0 = cpuUs();
    const w0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) {
      if (phase === 'send') this.lat.push(await this.sendOnce());
      else if (phase === 'stream' || phase === 'paced') {
        const r = await this.streamOnce(phase === 'paced');
        this.firsts.push(r.first);
        this.lat.push(r.last);
      } else if (phase === 'plainGet') this.lat.push(await this.plainOnce('GET'));
      else if (phase === 'plainPost') this.lat.push(await this.plainOnce('POST'));
    }
    this.wallMs += ms(w0, process.hrtime.bigint());
    this.cpuBatches += cpuUs() - c0;
  }

  /**
   * CPU of the phase = CPU during this process's own batches + exporting the spans still
   * queued at the end (so every span made in the phase is exported on the phase's account).
   * Not counted: what the process does while the other configurations run their batches
   * (measured at 0.5–1.7 % of a core for an idle, warmed-up client: GC and JIT tails).
   */
  async end(phase: Phase): Promise<LatencyFigures | StreamFigures> {
    const windowCpu = cpuUs() - this.cpu0;
    const mainCpu = mainThreadCpuUs() - this.main0;
    const phaseMs = ms(this.t0, process.hrtime.bigint());
    await profiler.stop();
    const f0 = cpuUs();
    await this.flush();
    const flushCpu = cpuUs() - f0;
    const cpu = this.cpuBatches + flushCpu;
    if (phase !== 'stream' && phase !== 'paced')
      return {
        ...summarise(this.lat, this.wallMs, cpu, phaseMs),
        cpuUsWindow: windowCpu + flushCpu,
        flushCpuUs: flushCpu,
        mainThreadCpuUsWindow: mainCpu,
      };
    const firsts = [...this.firsts].sort((a, b) => a - b);
    const lasts = [...this.lat].sort((a, b) => a - b);
    return {
      streams: lasts.length,
      eventsPerStream: this.events,
      firstEventP50Ms: q(firsts, 0.5),
      firstEventP99Ms: q(firsts, 0.99),
      lastEventP50Ms: q(lasts, 0.5),
      lastEventP99Ms: q(lasts, 0.99),
      cpuUsPerStream: cpu / lasts.length,
      mainThreadCpuUsWindow: mainCpu,
    };
  }

  async big(n: number): Promise<BigFigures> {
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
      const r = (await this.client.sendMessage(this.sendRequest('big-artifact'))) as {
        artifacts?: Array<{ parts?: Array<{ content?: { value?: string } }> }>;
      };
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
}

export type Command =
  | { cmd: 'warmup'; phases: Phase[]; warmup: Warmup }
  | { cmd: 'begin'; phase: Phase }
  | { cmd: 'batch'; phase: Phase; n: number }
  | { cmd: 'end'; phase: Phase }
  | { cmd: 'big'; n: number }
  | { cmd: 'exit' };

export type Reply =
  | { type: 'ready'; skipped?: string }
  | { type: 'done'; value?: LatencyFigures | StreamFigures | BigFigures }
  | { type: 'error'; message: string };

function reply(r: Reply): void {
  process.send?.(r);
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.env.BENCH_CLIENT ?? '') as ClientSpec;
  if (!process.send) throw new Error('bench/client.ts is started by bench/run.ts (IPC)');
  const set = await setup(spec);
  if ('skipped' in set) {
    reply({ type: 'ready', skipped: set.skipped });
    process.on('message', () => process.exit(0));
    return;
  }
  // Imported after the set-up, as an application would be after `--require`.

  const peerClient =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('../test/peers/sdk-client') as typeof import('../test/peers/sdk-client');
  const client = await peerClient.createSdkClient({ baseUrl: spec.baseUrl } as never, 'jsonrpc');
  const runner = new Runner(
    client,
    peerClient.sendRequest as unknown as SendRequest,
    spec.plainUrl,
    set.flush,
  );
  let queue = Promise.resolve();
  process.on('message', (c: Command) => {
    queue = queue.then(async () => {
      try {
        if (c.cmd === 'exit') process.exit(0);
        else if (c.cmd === 'warmup') await runner.warmup(c.phases, c.warmup);
        else if (c.cmd === 'begin') await runner.begin();
        else if (c.cmd === 'batch') await runner.batch(c.phase, c.n);
        else if (c.cmd === 'end') return reply({ type: 'done', value: await runner.end(c.phase) });
        else if (c.cmd === 'big') return reply({ type: 'done', value: await runner.big(c.n) });
        reply({ type: 'done' });
      } catch (err) {
        reply({
          type: 'error',
          message: err instanceof Error ? (err.stack ?? err.message) : String(err),
        });
      }
    });
  });
  process.on('disconnect', () => process.exit(0));
  reply({ type: 'ready' });
}

main().catch((err: unknown) => {
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  if (process.send) process.send({ type: 'error', message }, () => process.exit(1));
  else {
    console.error(message);
    process.exit(1);
  }
});
