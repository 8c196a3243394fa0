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

