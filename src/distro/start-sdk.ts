/**
 * What the `--require` / `--import` entry (src/register.ts) runs when loaded:
 *
 *   node --require opentelemetry-instrumentation-a2a/register app.js
 *   node --import  opentelemetry-instrumentation-a2a/register app.mjs
 *
 * Starts the OpenTelemetry Node SDK with A2AInstrumentation, configured the way
 * OpenTelemetry users expect: OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_(TRACES_|METRICS_)ENDPOINT,
 * OTEL_TRACES_EXPORTER (otlp | zipkin | console | none), OTEL_METRICS_EXPORTER (otlp |
 * prometheus | console | none), OTEL_EXPORTER_OTLP_(TRACES_|METRICS_)PROTOCOL (http/protobuf,
 * the default, | http/json | grpc), OTEL_SDK_DISABLED, OTEL_LOG_LEVEL, and
 * OTEL_INSTRUMENTATION_A2A_* for this package's options; OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT
 * (_HOST, _TOKEN) and OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL (_POLL_MS) receive fleet alerts
 * (fleet/receivers.ts).
 *
 * One SDK per process: nothing starts in a worker thread (a loader's hooks thread included),
 * and when another SDK has already registered a global TracerProvider (e.g.
 * `--require @opentelemetry/auto-instrumentations-node/register` first), the instrumentation
 * joins it: its spans go to that SDK; its drift counter to that SDK's MeterProvider, or, when
 * there is none, to a MeterProvider of its own with the metric readers of OTEL_METRICS_EXPORTER.
 *
 * Telemetry is flushed on normal exit, SIGTERM and SIGINT without changing the application's
 * exit code, its output or its own signal handling, and never keeps the process alive beyond
 * that flush (3 s at most), whatever state the collector is in (distro/detached-export.ts).
 * Nothing here ever throws into the application.
 */
import { isMainThread } from 'node:worker_threads';
import { parseAllPending } from '../core/body-reader';
import { abortBackgroundRequests } from '../hooks/background-get';
import {
  diag,
  DiagConsoleLogger,
  DiagLogLevel,
  metrics,
  ProxyTracerProvider,
  trace,
  type MeterProvider as ApiMeterProvider,
  type TracerProvider,
} from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { defaultResource, detectResources, envDetector } from '@opentelemetry/resources';
import { MeterProvider, type IMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { configFromEnv } from '../config';
import { logger } from '../diag-logger';
import { PACKAGE_NAME } from '../version';
import { A2AInstrumentation } from '../instrumentation';
import { abortExports } from './detached-export';
import { metricReadersFromEnv, spanProcessorsFromEnv, type FromEnv } from './exporters-from-env';
import {
  fleetConfigFromEnv,
  startFleetReceivers,
  watchForHolderElsewhere,
  type FleetEnvConfig,
  type FleetReceivers,
} from '../fleet/receivers';

const STARTED = Symbol.for('opentelemetry-instrumentation-a2a.register');
/**
 * Where @opentelemetry/api 1.x keeps its globals (the diag logger under `diag` once one is set).
 */
const API_GLOBALS = Symbol.for('opentelemetry.js.api.1');
/** The most the register adds to a process's life: the flush at exit or on a signal. */
const SHUTDOWN_TIMEOUT_MS = 3000;

function logLevelFromEnv(): DiagLogLevel {
  const raw = (process.env.OTEL_LOG_LEVEL ?? '').trim().toUpperCase();
  const level = (DiagLogLevel as unknown as Record<string, DiagLogLevel | undefined>)[raw];
  return typeof level === 'number' ? level : DiagLogLevel.WARN;
}

function isTrue(v: string | undefined): boolean {
  return (v ?? '').trim().toLowerCase() === 'true';
}

/** Whether a diag logger is installed (by another SDK, or NodeSDK with OTEL_LOG_LEVEL). */
function diagLoggerInstalled(): boolean {
  const globals = (globalThis as unknown as Record<symbol, { diag?: unknown } | undefined>)[
    API_GLOBALS
  ];
  return globals?.diag !== undefined;
}

/**
 * Runs `fn` with a console diag logger at OTEL_LOG_LEVEL (WARN by default) unless one is
 * installed already: configuration warnings must reach the user even without OTEL_LOG_LEVEL.
 * Ours is removed afterwards (NodeSDK installs one itself only when OTEL_LOG_LEVEL is set).
 */
function withDiag<T>(fn: () => T): T {
  if (diagLoggerInstalled()) return fn();
  diag.setLogger(new DiagConsoleLogger(), {
    logLevel: logLevelFromEnv(),
    suppressOverrideMessage: true,
  });
  try {
    return fn();
  } finally {
    diag.disable();
  }
}

/** What was decided, at debug level, whether or not a logger is installed. */
function sayDecision(message: string): void {
  try {
    if (diagLoggerInstalled()) logger.debug(message);
    else if (logLevelFromEnv() >= DiagLogLevel.DEBUG) withDiag(() => logger.debug(message));
  } catch {
    // never into the app
  }
}

/**
 * A warning printed whatever diag logger is installed (or none: NodeSDK installs one only
 * with OTEL_LOG_LEVEL), unless OTEL_LOG_LEVEL asks for less than warnings: for what goes
 * wrong after start-up that the user must hear about (a fleet webhook port already taken).
 */
function lateWarning(message: string): void {
  try {
    if (logLevelFromEnv() >= DiagLogLevel.WARN) new DiagConsoleLogger().warn(PACKAGE_NAME, message); // as the component logger prints
  } catch {
    // never into the app
  }
}

const isNoop = (provider: unknown, noopName: string): boolean =>
  provider === undefined ||
  (provider as { constructor?: { name?: string } }).constructor?.name === noopName;

/** The global TracerProvider another SDK registered, if any. */
function registeredTracerProvider(): TracerProvider | undefined {
  const global = trace.getTracerProvider();
  const delegate =
    global instanceof ProxyTracerProvider || 'getDelegate' in global
      ? (global as ProxyTracerProvider).getDelegate()
      : global;
  // The api's own no-op (our copy's singleton, or by name for another copy of the api).
  if (
    delegate === new ProxyTracerProvider().getDelegate() ||
    isNoop(delegate, 'NoopTracerProvider')
  )
    return undefined;
  return global;
}

/** The global MeterProvider another SDK registered, if any. */
function registeredMeterProvider(): ApiMeterProvider | undefined {
  const global = metrics.getMeterProvider();
  return isNoop(global, 'NoopMeterProvider') ? undefined : global;
}

interface Flushable {
  forceFlush(): Promise<void>;
}

function installShutdown(
  shutdownTelemetry: () => Promise<void>,
  flushables: Flushable[],
  fleet?: FleetReceivers,
): void {
  let done: Promise<void> | undefined;
  /** Shuts telemetry down, holding the process SHUTDOWN_TIMEOUT_MS at most. */
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
        .then(() => parseAllPending()) // responses judged after the app had them: their spans end first
        .then(() => abortBackgroundRequests()) // the package's own card requests end with it
        .then(() => fleet?.close()) // the fleet listener and poll end with the SDK
        .then(() => shutdownTelemetry())
        .catch((err: unknown) => logger.debug('SDK shutdown failed', err))
        .then(finish, finish);
    });
    return done;
  };
  /**
   * Sends what is buffered without keeping the process alive (the app is shutting down on its own).
   */
  const flush = (): void => {
    parseAllPending();
    const cap = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS).unref());
    const all = Promise.allSettled(
      flushables.map((f) => Promise.resolve().then(() => f.forceFlush())),
    );
    void Promise.race([all, cap]).catch(() => undefined);
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

interface Setup {
  instrumentation: A2AInstrumentation;
  fleetConfig: FleetEnvConfig;
  spanProcessors?: FromEnv<SpanProcessor>;
  readers?: FromEnv<IMetricReader>;
}

/** Reads the configuration (warnings printed now); exporters only for what this entry will run. */
function readSetup(ownTraces: boolean, ownMetrics: boolean): Setup {
  return withDiag(() => {
    const instrumentation = new A2AInstrumentation(configFromEnv(process.env)); // validates its options now
    let fleetConfig: FleetEnvConfig = {};
    try {
      fleetConfig = fleetConfigFromEnv(process.env);
    } catch (err) {
      logger.warn('could not read the fleet alert settings', err);
    }
    return {
      instrumentation,
      fleetConfig,
      ...(ownMetrics ? { readers: metricReadersFromEnv(lateWarning) } : {}),
      ...(ownTraces ? { spanProcessors: spanProcessorsFromEnv(lateWarning) } : {}),
    };
  });
}

/**
 * Fleet-wide eviction: Alertmanager's webhook and/or poll, once the instrumentation is enabled,
 * and in a `node:cluster` application the primary's and workers' handshake (even without a
 * receiver configured: a handler mounted in the workers relays through the primary). Unref'd.
 */
function startFleet(config: FleetEnvConfig): FleetReceivers | undefined {
  return startFleetReceivers(config, lateWarning);
}

/** No SDK yet: start NodeSDK with the instrumentation and the exporters of the environment. */
function startSdk(): void {
  const { instrumentation, fleetConfig, spanProcessors, readers } = readSetup(true, true);
  const processors = spanProcessors?.items ?? [];
  const metricReaders = readers?.items ?? [];
  const sdk = new NodeSDK({
    instrumentations: [instrumentation],
    spanProcessors: processors,
    logRecordProcessors: [], // this entry exports traces and metrics only
    metricReaders,
  });
  sdk.start();
  const fleet = startFleet(fleetConfig);
  installShutdown(() => sdk.shutdown(), [...processors, ...metricReaders], fleet);
  sayDecision(
    `started the OpenTelemetry SDK: traces → ${spanProcessors?.described.join(', ') || 'none'}; ` +
      `metrics → ${readers?.described.join(', ') || 'none'}`,
  );
}

/** Another SDK registered the global providers: enable the instrumentation against them. */
function joinSdk(): void {
  const hasMeterProvider = registeredMeterProvider() !== undefined;
  const { instrumentation, fleetConfig, readers } = readSetup(false, !hasMeterProvider);
  registerInstrumentations({ instrumentations: [instrumentation] }); // the global providers
  let meterProvider: MeterProvider | undefined;
  if (!hasMeterProvider && readers && readers.items.length > 0) {
    // The drift counter still goes out: a MeterProvider of our own (not registered globally).
    const resource = defaultResource().merge(detectResources({ detectors: [envDetector] }));
    meterProvider = new MeterProvider({ resource, readers: readers.items });
    instrumentation.setMeterProvider(meterProvider);
  }
  const fleet = startFleet(fleetConfig);
  const own = meterProvider;
  installShutdown(async () => own?.shutdown(), own ? [own] : [], fleet);
  const metricsTo = hasMeterProvider
    ? 'the drift counter to its MeterProvider'
    : `the drift counter to a MeterProvider of ours (metrics → ${readers?.described.join(', ') || 'none'})`;
  sayDecision(
    `joined the OpenTelemetry SDK already registered: spans to its TracerProvider, ${metricsTo}`,
  );
}

function start(): void {
  const g = globalThis as unknown as Record<symbol, boolean | undefined>;
  if (g[STARTED]) return; // loaded twice (--require and --import, or two copies)
  g[STARTED] = true;
  if (isTrue(process.env.OTEL_SDK_DISABLED)) return;
  if (!isMainThread) {
    // A worker, or a loader's hooks thread (`--import tsx` with a --require'd register on Node 20).
    sayDecision('not started in a worker thread: the main thread has the SDK');
    // The main thread's fleet webhook yields its port to a server this thread starts on it.
    watchForHolderElsewhere(fleetConfigFromEnv(process.env).webhook);
    return;
  }
  if (registeredTracerProvider()) joinSdk();
  else startSdk();
}

try {
  start();
} catch (err) {
  withDiag(() => logger.error('could not start the OpenTelemetry SDK', err));
}
