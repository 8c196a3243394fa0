/**
 * Telemetry must never keep the process alive: the app's event loop decides when it ends.
 *
 * The exporters hold the loop while they send: their retry back-off timers, the request
 * sockets, the batch processor's and the metric reader's export timeouts are all ref'd, so an
 * app that is done stays alive until the exporter's retries run out (10 s per batch, batches
 * one after another) and `beforeExit` never comes. So:
 *  - the exporters are wrapped (`DetachedExporter`): the batch processor and the metric reader
 *    are answered at once (their ref'd timeouts end at once) and the export goes on in the
 *    `pipeline` async context, MAX_EXPORTS_IN_FLIGHT at a time; forceFlush waits for them;
 *  - while an export is under way, timers created in that context are unref'd for good (an
 *    async_hooks init hook, enabled only then; their `ref()` is made a no-op: OTLP/gRPC's channel
 *    refs its call-ref interval while a call waits for a connection) and so are its sockets: TCP sockets opened in that context
 *    (the `net.client.socket` diagnostics channel: OTLP/HTTP, Zipkin, and the HTTP/2 session of
 *    OTLP/gRPC, whose `ref()` during a call is made a no-op) and the sockets of its HTTP
 *    requests (the http client's channel, also for kept-alive sockets reused), all kept for
 *    `abortExports`;
 *  - a pending TCP connect cannot be unref'd (a firewalled collector): a watchdog, unref'd and
 *    running only while exports are under way, closes the exporter's sockets still connecting
 *    after CONNECT_GRACE_MS once nothing but them (and stdio) is left keeping the process alive
 *    (without the grace shortly after it gave one up: OTLP/gRPC reconnects at once), and it keeps
 *    watching while such a connect is pending after the exports ended (gRPC's own reconnects);
 *    a wrong guess costs one export attempt, which the exporter retries, never the app anything;
 *  - at exit the register holds the flush open by one ref'd timer (its cap), after which it
 *    calls `abortExports`: the exporters' sockets are closed, and any they open later at once.
 */
import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { logger } from '../diag-logger';

/** Exports under way at once, per exporter; as many may wait, beyond a batch is dropped. */
const MAX_EXPORTS_IN_FLIGHT = 4;
const WATCHDOG_INTERVAL_MS = 200;
/**
 * A connect pending this long while nothing else keeps the process alive is given up (the exporter
 * retries it).
 */
const CONNECT_GRACE_MS = 1000;
/**
 * For this long after the watchdog gave up a connect, the next ones are given up without the
 * grace (OTLP/gRPC's channel reconnects at once: the collector was found unreachable already).
 */
const GAVE_UP_RECENTLY_MS = 5000;
let lastGaveUp = -Infinity;

const pipeline = new AsyncLocalStorage<true>();
/** The exporters' sockets, with when they were first seen. */
const exportSockets = new Map<Socket, number>();
const REQUEST_CHANNEL = 'http.client.request.start';
const SOCKET_CHANNEL = 'net.client.socket';
let exportsInFlight = 0;
let aborting = false;
let watchdog: NodeJS.Timeout | undefined;

const unrefPipelineTimers = createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (type !== 'Timeout' || pipeline.getStore() !== true) return;
    try {
      const timer = resource as { unref?: () => unknown; ref?: () => unknown };
      if (typeof timer.unref !== 'function') return;
      timer.unref();
      // Ours for good, like the sockets: a later `ref()` does nothing. gRPC's channel creates
      // its "call ref" interval and refs it at once while a call waits for a connection: with a
      // collector that accepts TCP and never answers, that interval alone held the process.
      timer.ref = () => timer;
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

function onSocketCreated(message: unknown): void {
  if (pipeline.getStore() !== true) return;
  const socket = (message as { socket?: Socket } | null)?.socket;
  if (socket && typeof socket.unref === 'function') releaseSocket(socket);
}

/**
 * Ours for good: unref'd, and its `ref()` (an HTTP/2 session's, an agent's on reuse) does nothing.
 */
function releaseSocket(socket: Socket): void {
  try {
    socket.unref();
    // `net.connect` (OTLP/gRPC) tells the channel before the socket has its handle: unref'd now,
    // a socket waits for its 'connect' to unref the handle, which a hung connect (a blackholed
    // collector) keeps ref'd and listed. Once the connect is under way, unref the handle itself.
    if (!(socket as Socket & { _handle?: unknown })._handle)
      process.nextTick(() => {
        try {
          socket.unref();
        } catch {
          // gone already
        }
      });
    if (aborting) {
      // Connecting a destroyed socket revives it (ref'd): destroy it once the connect is under
      // way, and keep it unref'd.
      socket.ref = () => socket;
      process.nextTick(() => socket.destroy());
      return;
    }
    if (exportSockets.has(socket)) return; // a kept-alive socket, reused
    socket.ref = () => socket;
    exportSockets.set(socket, Date.now());
    socket.once('close', () => exportSockets.delete(socket));
  } catch (err) {
    logger.debug('could not release an export socket', err);
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

/**
 * Destroys an export socket in the `pipeline` context, so what the exporter does on its close
 * (OTLP/gRPC reconnects at once) is ours too: its new socket is released like the first.
 */
function destroyInPipeline(socket: Socket): void {
  pipeline.run(true, () => socket.destroy());
}

function checkConnects(): void {
  try {
    const now = Date.now();
    const since = now - (now - lastGaveUp < GAVE_UP_RECENTLY_MS ? 0 : CONNECT_GRACE_MS);
    const stuck = [...exportSockets]
      .filter(([s, seen]) => s.connecting && seen <= since)
      .map(([s]) => s);
    if (stuck.length > 0 && onlyConnectsLeft()) {
      lastGaveUp = now;
      for (const s of stuck) destroyInPipeline(s);
    }
  } catch (err) {
    logger.debug('export watchdog failed', err);
  }
}

/** Whether the hooks, the channels and the watchdog are on. */
let watching = false;

function exportStarted(): void {
  exportsInFlight++;
  if (watching) return;
  watching = true;
  unrefPipelineTimers.enable();
  diagnosticsChannel.subscribe(REQUEST_CHANNEL, onRequestStart);
  diagnosticsChannel.subscribe(SOCKET_CHANNEL, onSocketCreated);
  watchdog = setInterval(() => {
    checkConnects();
    stopWatchingWhenIdle();
  }, WATCHDOG_INTERVAL_MS);
  watchdog.unref();
}

function exportEnded(): void {
  exportsInFlight--;
  stopWatchingWhenIdle();
}

/**
 * Watching ends when no export is under way and none of the exporters' sockets is connecting:
 * OTLP/gRPC's channel reconnects on its own after a call failed fast (a connect the watchdog
 * gave up), and that connect must still be watched.
 */
function stopWatchingWhenIdle(): void {
  if (!watching || exportsInFlight > 0) return;
  for (const s of exportSockets.keys()) if (s.connecting) return;
  watching = false;
  unrefPipelineTimers.disable();
  diagnosticsChannel.unsubscribe(REQUEST_CHANNEL, onRequestStart);
  diagnosticsChannel.unsubscribe(SOCKET_CHANNEL, onSocketCreated);
  clearInterval(watchdog);
  watchdog = undefined;
}

/** After the flush: the exporters' sockets are closed and so will be any they open later. */
export function abortExports(): void {
  aborting = true;
  for (const s of exportSockets.keys()) destroyInPipeline(s);
}

export interface Exporter<T> {
  export(items: T, resultCallback: (result: ExportResult) => void): void;
  forceFlush?(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Answers the batch processor / metric reader at once and exports in the `pipeline` context,
 * MAX_EXPORTS_IN_FLIGHT at a time and as many waiting; beyond, a batch is dropped (as the batch
 * processor drops spans beyond its queue). A failed export is logged at debug level; the first
 * one the endpoint REFUSED (HTTP 4xx: a wrong path, a receiver that is switched off, such as
 * Prometheus 3 started without --web.enable-otlp-receiver) is also handed to `onRefused`, once:
 * retrying never heals it, and without a diag logger (the default) nobody would hear of it.
 */
export class DetachedExporter<T> implements Exporter<T> {
  private readonly unfinished = new Set<Promise<void>>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private refusalReported = false;

  constructor(
    protected readonly inner: Exporter<T>,
    private readonly onRefused?: (status: number, error: Error) => void,
  ) {}

  private failed(error: Error | undefined): void {
    logger.debug('export failed', error);
    const status = (error as { code?: unknown } | undefined)?.code;
    // 408 and 429 are the endpoint being busy, not refusing: retried, not reported.
    const refused =
      typeof status === 'number' &&
      status >= 400 &&
      status <= 499 &&
      status !== 408 &&
      status !== 429;
    if (this.refusalReported || !refused) return;
    this.refusalReported = true;
    try {
      this.onRefused?.(status, error!);
    } catch {
      // never into the pipeline
    }
  }

  export(items: T, resultCallback: (result: ExportResult) => void): void {
    if (this.unfinished.size >= 2 * MAX_EXPORTS_IN_FLIGHT) {
      const error = new Error(
        `${this.unfinished.size} exports under way or waiting; batch dropped`,
      );
      resultCallback({ code: ExportResultCode.FAILED, error });
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
      if (result.code !== ExportResultCode.SUCCESS) this.failed(result.error);
      this.waiting.shift()?.();
    };
    const run = (): void => {
      this.running++;
      try {
        pipeline.run(true, () => this.inner.export(items, finish));
      } catch (err) {
        finish({
          code: ExportResultCode.FAILED,
          error: err instanceof Error ? err : new Error(String(err)),
        });
      }
    };
    if (this.running < MAX_EXPORTS_IN_FLIGHT) run();
    else this.waiting.push(run);
    resultCallback({ code: ExportResultCode.SUCCESS });
  }

  /**
   * Waits for the exports under way and waiting (each bounded by the exporter's timeout; the
   * register bounds the wait).
   */
  async forceFlush(): Promise<void> {
    while (this.unfinished.size > 0) await Promise.all([...this.unfinished]);
    await pipeline.run(true, () => this.inner.forceFlush?.());
  }

  async shutdown(): Promise<void> {
    await this.forceFlush().catch(() => undefined);
    await pipeline.run(true, () => this.inner.shutdown());
  }
}

export class DetachedMetricExporter
  extends DetachedExporter<ResourceMetrics>
  implements PushMetricExporter
{
  selectAggregationTemporality?: PushMetricExporter['selectAggregationTemporality'];
  selectAggregation?: PushMetricExporter['selectAggregation'];

  constructor(inner: PushMetricExporter, onRefused?: (status: number, error: Error) => void) {
    super(inner, onRefused);
    // The reader reads the exporter's temporality and aggregation preferences
    // (OTEL_EXPORTER_OTLP_METRICS_*).
    if (inner.selectAggregationTemporality) {
      this.selectAggregationTemporality = inner.selectAggregationTemporality.bind(inner);
    }
    if (inner.selectAggregation) this.selectAggregation = inner.selectAggregation.bind(inner);
  }
}

/** The batch span processor's settings read from the environment (exporters-from-env.ts). */
export interface BatchOptions {
  scheduledDelayMillis?: number;
  exportTimeoutMillis?: number;
  maxQueueSize?: number;
  maxExportBatchSize?: number;
}

/** A batch span processor whose forceFlush also waits for the exports under way. */
export class DetachedBatchSpanProcessor extends BatchSpanProcessor {
  constructor(
    private readonly detached: DetachedExporter<ReadableSpan[]>,
    options: BatchOptions = {},
  ) {
    super({ ...options, exporter: detached as SpanExporter });
  }

  override async forceFlush(): Promise<void> {
    await super.forceFlush();
    await this.detached.forceFlush();
  }
}
