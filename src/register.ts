/**
 * The `--require` / `--import` entry:
 *
 *   node --require opentelemetry-instrumentation-a2a/register app.js
 *   node --import  opentelemetry-instrumentation-a2a/register app.mjs
 *
 * Starts the OpenTelemetry Node SDK with A2AInstrumentation, configured the way
 * OpenTelemetry users expect: OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_(TRACES_|METRICS_)ENDPOINT,
 * OTEL_TRACES_EXPORTER (otlp | console | none), OTEL_METRICS_EXPORTER (otlp | console |
 * prometheus | none), OTEL_SDK_DISABLED, OTEL_LOG_LEVEL, and OTEL_INSTRUMENTATION_A2A_*
 * for this package's options; OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT (_HOST, _TOKEN) and
 * OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL (_POLL_MS) receive fleet alerts
 * (telemetry/fleet-alerts.ts). OTLP goes out as OTLP/HTTP JSON. Telemetry is flushed on
 * normal exit, SIGTERM and SIGINT without changing the application's exit code, its output
 * or its own signal handling, and never keeps the process alive beyond that flush (3 s at
 * most), whatever state the collector is in. Nothing here ever throws into the application.
 */
import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';
import { diag, DiagConsoleLogger, DiagLogLevel } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ConsoleMetricExporter, PeriodicExportingMetricReader, type IMetricReader, type PushMetricExporter, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { configFromEnv } from './config';
import { A2AInstrumentation } from './instrumentation';
import { fleetConfigFromEnv, startFleetReceivers, type FleetEnvConfig, type FleetReceivers } from './telemetry/fleet-alerts';

const STARTED = Symbol.for('opentelemetry-instrumentation-a2a.register');
/** The most the register adds to a process's life: the flush at exit or on a signal. */
const SHUTDOWN_TIMEOUT_MS = 3000;
/** OTLP exports under way at once, per exporter; as many may wait, beyond a batch is dropped. */
const MAX_EXPORTS_IN_FLIGHT = 4;
const WATCHDOG_INTERVAL_MS = 200;
/** A connect pending this long while nothing else keeps the process alive is given up (the exporter retries it). */
const CONNECT_GRACE_MS = 1000;

// ---------------------------------------------------------------------------------------
// Telemetry must never keep the process alive: the app's event loop decides when it ends.
//
// The OTLP exporters hold the loop while they send: their retry back-off timers, the request
// sockets, the batch processor's and the metric reader's export timeouts are all ref'd, so an
// app that is done stays alive until the exporter's retries run out (10 s per batch, batches
// one after another) and `beforeExit` never comes. So:
//  - the exporters are wrapped (`DetachedExporter`): the batch processor and the metric reader
//    are answered at once (their ref'd timeouts end at once) and the export goes on in the
//    `pipeline` async context, MAX_EXPORTS_IN_FLIGHT at a time; forceFlush waits for them;
//  - while an export is under way, timers created in that context are unref'd (an async_hooks
//    init hook, enabled only then) and so are its request sockets (the http client's
//    diagnostics channel, which also keeps them for `abortExports`);
//  - a pending TCP connect cannot be unref'd (a firewalled collector): a watchdog, unref'd and
//    running only while exports are under way, closes the exporter's sockets still connecting
//    after CONNECT_GRACE_MS once nothing but them (and stdio) is left keeping the process alive;
//    a wrong guess costs one export attempt, which the exporter retries, never the app anything;
//  - at exit the flush is held open by one ref'd timer, SHUTDOWN_TIMEOUT_MS at most, after which
//    the exporters' sockets are closed and any later request of theirs is closed at once.
// No process.exit(): the process ends when the app's own work does, with its exit code.
// ---------------------------------------------------------------------------------------

const pipeline = new AsyncLocalStorage<true>();
/** The exporters' sockets, with when they were first seen. */
const exportSockets = new Map<Socket, number>();
const REQUEST_CHANNEL = 'http.client.request.start';
let exportsInFlight = 0;
let aborting = false;
let watchdog: NodeJS.Timeout | undefined;

const unrefPipelineTimers = createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (type !== 'Timeout' || pipeline.getStore() !== true) return;
    try {
      (resource as { unref?: () => unknown }).unref?.();
    } catch {
      // never into the app
    }
  },
});

function onRequestStart(message: unknown): void {
  if (pipeline.getStore() !== true) return;
  const request = (message as { request?: ClientRequest } | null)?.request;
  if (!request || typeof request.once !== 'function') return;
  // The channel speaks once the request has its socket (Node 20–24); before that, wait for it.
  if (request.socket) releaseSocket(request.socket);
  else request.once('socket', releaseSocket);
}

function releaseSocket(socket: Socket): void {
  try {
    if (aborting) {
      socket.destroy();
      return;
    }
    socket.unref();
    if (exportSockets.has(socket)) return; // a kept-alive socket, reused
    exportSockets.set(socket, Date.now());
    socket.once('close', () => exportSockets.delete(socket));
  } catch (err) {
    diag.debug('opentelemetry-instrumentation-a2a: could not release an export socket', err);
  }
}

/**
 * Resources that keep the process alive for the exporter's connects only: pending connects, DNS
 * lookups, and stdio pipes/terminals (listed while ref'd, though idle ones hold nothing). Our
 * sockets and timers are unref'd and not listed; the app's timers, servers, sockets, child
 * processes and file operations are, and stop the watchdog.
 */
const IDLE_RESOURCES = new Set(['ConnectWrap', 'GetAddrInfoReqWrap', 'PipeWrap', 'TTYWrap']);

function onlyConnectsLeft(): boolean {
  if (typeof process.getActiveResourcesInfo !== 'function') return false;
  return process.getActiveResourcesInfo().every((t) => IDLE_RESOURCES.has(t));
}

function checkConnects(): void {
  try {
    const since = Date.now() - CONNECT_GRACE_MS;
    const stuck = [...exportSockets].filter(([s, seen]) => s.connecting && seen <= since).map(([s]) => s);
    if (stuck.length > 0 && onlyConnectsLeft()) for (const s of stuck) s.destroy();
  } catch (err) {
    diag.debug('opentelemetry-instrumentation-a2a: export watchdog failed', err);
  }
}

function exportStarted(): void {
  if (exportsInFlight++ > 0) return;
  unrefPipelineTimers.enable();
  diagnosticsChannel.subscribe(REQUEST_CHANNEL, onRequestStart);
  watchdog = setInterval(checkConnects, WATCHDOG_INTERVAL_MS);
  watchdog.unref();
}

function exportEnded(): void {
  if (--exportsInFlight > 0) return;
  unrefPipelineTimers.disable();
  diagnosticsChannel.unsubscribe(REQUEST_CHANNEL, onRequestStart);
  clearInterval(watchdog);
  watchdog = undefined;
}

/** After the flush: the exporters' sockets are closed and so will be any they open later. */
function abortExports(): void {
  aborting = true;
  for (const s of exportSockets.keys()) s.destroy();
}

interface Exporter<T> {
  export(items: T, resultCallback: (result: ExportResult) => void): void;
  forceFlush?(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Answers the batch processor / metric reader at once and exports in the `pipeline` context,
 * MAX_EXPORTS_IN_FLIGHT at a time and as many waiting; beyond, a batch is dropped (as the batch
 * processor drops spans beyond its queue). A failed export is the exporter's to report (diag).
 */
class DetachedExporter<T> implements Exporter<T> {
  private readonly unfinished = new Set<Promise<void>>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;

  constructor(protected readonly inner: Exporter<T>) {}

  export(items: T, resultCallback: (result: ExportResult) => void): void {
    if (this.unfinished.size >= 2 * MAX_EXPORTS_IN_FLIGHT) {
      resultCallback({ code: ExportResultCode.FAILED, error: new Error(`opentelemetry-instrumentation-a2a: ${this.unfinished.size} exports under way or waiting; batch dropped`) });
      return;
    }
    let settle: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.unfinished.add(done);
    exportStarted();
    const finish = (result: ExportResult): void => {
      if (!this.unfinished.delete(done)) return;
      this.running--;
      exportEnded();
      settle();
      if (result.code !== ExportResultCode.SUCCESS) diag.debug('opentelemetry-instrumentation-a2a: export failed', result.error);
      this.waiting.shift()?.();
    };
    const run = (): void => {
      this.running++;
      try {
        pipeline.run(true, () => this.inner.export(items, finish));
      } catch (err) {
        finish({ code: ExportResultCode.FAILED, error: err instanceof Error ? err : new Error(String(err)) });
      }
    };
    if (this.running < MAX_EXPORTS_IN_FLIGHT) run();
    else this.waiting.push(run);
    resultCallback({ code: ExportResultCode.SUCCESS });
  }

  /** Waits for the exports under way and waiting (each bounded by the exporter's timeout; the register bounds the wait). */
  async forceFlush(): Promise<void> {
    while (this.unfinished.size > 0) await Promise.all([...this.unfinished]);
    await pipeline.run(true, () => this.inner.forceFlush?.());
  }

  async shutdown(): Promise<void> {
    await this.forceFlush().catch(() => undefined);
    await pipeline.run(true, () => this.inner.shutdown());
  }
}

class DetachedMetricExporter extends DetachedExporter<ResourceMetrics> implements PushMetricExporter {
  selectAggregationTemporality?: PushMetricExporter['selectAggregationTemporality'];
  selectAggregation?: PushMetricExporter['selectAggregation'];

  constructor(inner: PushMetricExporter) {
    super(inner);
    // The reader reads the exporter's temporality and aggregation preferences (OTEL_EXPORTER_OTLP_METRICS_*).
    if (inner.selectAggregationTemporality) this.selectAggregationTemporality = inner.selectAggregationTemporality.bind(inner);
    if (inner.selectAggregation) this.selectAggregation = inner.selectAggregation.bind(inner);
  }
}

/** A batch span processor whose forceFlush also waits for the exports under way. */
class DetachedBatchSpanProcessor extends BatchSpanProcessor {
  constructor(private readonly detached: DetachedExporter<ReadableSpan[]>) {
    super({ exporter: detached as SpanExporter });
  }

  override async forceFlush(): Promise<void> {
    await super.forceFlush();
    await this.detached.forceFlush();
  }
}

function exporterList(name: string, allowed: readonly string[]): string[] {
  const raw = process.env[name];
  const list = (raw ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length > 0);
  if (list.length === 0) return ['otlp'];
  const good = list.filter((s) => allowed.includes(s));
  if (good.length !== list.length) {
    diag.warn(`opentelemetry-instrumentation-a2a: ${name}=${JSON.stringify(raw)} has values other than ${allowed.join(', ')}; ${good.length > 0 ? `using ${good.join(',')}` : 'using otlp'}`);
  }
  if (good.length === 0) return ['otlp'];
  return good.includes('none') ? [] : good;
}

function spanProcessorsFromEnv(): SpanProcessor[] {
  return exporterList('OTEL_TRACES_EXPORTER', ['otlp', 'console', 'none']).map((name) =>
    name === 'console' ? new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter() }) : new DetachedBatchSpanProcessor(new DetachedExporter<ReadableSpan[]>(new OTLPTraceExporter())),
  );
}

/** undefined: let NodeSDK read OTEL_METRICS_EXPORTER itself (prometheus). */
function metricReadersFromEnv(): IMetricReader[] | undefined {
  const names = exporterList('OTEL_METRICS_EXPORTER', ['otlp', 'console', 'prometheus', 'none']);
  if (names.includes('prometheus')) return undefined;
  const interval = exportInterval();
  return names.map(
    (name) =>
      new PeriodicExportingMetricReader({
        // The exporter's own timeout must not outlast the reader's, or exports to a down collector pile up.
        exporter: name === 'console' ? new ConsoleMetricExporter() : new DetachedMetricExporter(new OTLPMetricExporter({ timeoutMillis: interval.exportTimeoutMillis ?? 10_000 })),
        ...interval,
      }),
  );
}

function exportInterval(): { exportIntervalMillis?: number; exportTimeoutMillis?: number } {
  const raw = process.env.OTEL_METRIC_EXPORT_INTERVAL;
  if (raw === undefined || raw.trim() === '') return {};
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) {
    diag.warn(`opentelemetry-instrumentation-a2a: invalid OTEL_METRIC_EXPORT_INTERVAL ${JSON.stringify(raw)}; using the default`);
    return {};
  }
  return { exportIntervalMillis: n, exportTimeoutMillis: Math.min(n, 10_000) };
}

function logLevelFromEnv(): DiagLogLevel {
  const raw = (process.env.OTEL_LOG_LEVEL ?? '').trim().toUpperCase();
  const level = (DiagLogLevel as unknown as Record<string, DiagLogLevel | undefined>)[raw];
  return typeof level === 'number' ? level : DiagLogLevel.WARN;
}

function isTrue(v: string | undefined): boolean {
  return (v ?? '').trim().toLowerCase() === 'true';
}

/**
 * A warning printed whatever diag logger is installed (or none: NodeSDK installs one only
 * with OTEL_LOG_LEVEL), unless OTEL_LOG_LEVEL asks for less than warnings: for what goes
 * wrong after start-up that the user must hear about (a fleet webhook port already taken).
 */
function lateWarning(message: string): void {
  try {
    if (logLevelFromEnv() >= DiagLogLevel.WARN) new DiagConsoleLogger().warn(message);
  } catch {
    // never into the app
  }
}

function installShutdown(sdk: NodeSDK, flushables: { forceFlush(): Promise<void> }[], fleet: FleetReceivers | undefined): void {
  let done: Promise<void> | undefined;
  /** Shuts the SDK down, holding the process SHUTDOWN_TIMEOUT_MS at most. */
  const shutdown = (): Promise<void> => {
    done ??= new Promise<void>((resolve) => {
      let finished = false;
      const finish = (): void => {
        if (finished) return;
        finished = true;
        clearTimeout(cap);
        abortExports();
        resolve();
      };
      // Ref'd on purpose: the one thing of ours that keeps the process alive, for the flush.
      const cap = setTimeout(finish, SHUTDOWN_TIMEOUT_MS);
      Promise.resolve()
        .then(() => fleet?.close()) // the fleet listener and poll end with the SDK
        .then(() => sdk.shutdown())
        .catch((err: unknown) => diag.debug('opentelemetry-instrumentation-a2a: SDK shutdown failed', err))
        .then(finish, finish);
    });
    return done;
  };
  /** Sends what is buffered without keeping the process alive (the app is shutting down on its own). */
  const flush = (): void => {
    const cap = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS).unref());
    void Promise.race([Promise.allSettled(flushables.map((f) => Promise.resolve().then(() => f.forceFlush()))), cap]).catch(() => undefined);
  };
  // Normal exit: the event loop is empty (telemetry holds nothing), async work is still
  // allowed here. The app's own `beforeExit` work, if any, keeps the process alive as it would.
  process.once('beforeExit', () => {
    void shutdown();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const onSignal = (): void => {
      // Decided now, while the app's own listeners (process.once ones included) are still
      // registered: ours runs first. The app handles the signal: it decides when to end.
      if (process.listeners(signal).some((l) => l !== onSignal)) {
        flush();
        return;
      }
      // Nobody else handles it: flush, then restore Node's default (death by the signal).
      void shutdown().then(() => {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      });
    };
    process.prependListener(signal, onSignal);
  }
}

function start(): void {
  const g = globalThis as unknown as Record<symbol, boolean | undefined>;
  if (g[STARTED]) return; // loaded twice (--require and --import, or two copies)
  g[STARTED] = true;
  if (isTrue(process.env.OTEL_SDK_DISABLED)) return;
  // Configuration warnings must reach the user even without OTEL_LOG_LEVEL: print them
  // (WARN, or the level asked for) while reading the configuration, then leave the
  // diagnostic logger to NodeSDK, which installs one only when OTEL_LOG_LEVEL is set.
  diag.setLogger(new DiagConsoleLogger(), { logLevel: logLevelFromEnv(), suppressOverrideMessage: true });
  let instrumentation: A2AInstrumentation;
  let readers: IMetricReader[] | undefined;
  let spanProcessors: SpanProcessor[];
  let fleetConfig: FleetEnvConfig = {};
  try {
    instrumentation = new A2AInstrumentation(configFromEnv(process.env)); // validates its options now
    readers = metricReadersFromEnv();
    spanProcessors = spanProcessorsFromEnv();
    try {
      fleetConfig = fleetConfigFromEnv(process.env);
    } catch (err) {
      diag.warn('opentelemetry-instrumentation-a2a: could not read the fleet alert settings', err);
    }
  } finally {
    diag.disable();
  }
  const sdk = new NodeSDK({
    instrumentations: [instrumentation],
    spanProcessors,
    logRecordProcessors: [], // this entry exports traces and metrics only
    ...(readers ? { metricReaders: readers } : {}),
  });
  sdk.start();
  // Fleet-wide eviction: Alertmanager's webhook and/or poll (after start: the instrumentation
  // has installed its fleet listener). Unref'd: they never keep the process alive.
  const fleet = fleetConfig.webhook || fleetConfig.poll ? startFleetReceivers(fleetConfig, lateWarning) : undefined;
  installShutdown(sdk, [...spanProcessors, ...(readers ?? [])], fleet);
}

try {
  start();
} catch (err) {
  diag.error('opentelemetry-instrumentation-a2a: could not start the OpenTelemetry SDK', err);
}
