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
 * for this package's options. OTLP goes out as OTLP/HTTP JSON. Telemetry is flushed on
 * normal exit, SIGTERM and SIGINT without changing the application's exit code or its
 * own signal handling. Nothing here ever throws into the application.
 */
import { diag, DiagConsoleLogger, DiagLogLevel } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ConsoleMetricExporter, PeriodicExportingMetricReader, type IMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { configFromEnv } from './config';
import { A2AInstrumentation } from './instrumentation';

const STARTED = Symbol.for('opentelemetry-instrumentation-a2a.register');
const SHUTDOWN_TIMEOUT_MS = 3000;

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
    name === 'console' ? new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter() }) : new BatchSpanProcessor({ exporter: new OTLPTraceExporter() }),
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
        exporter: name === 'console' ? new ConsoleMetricExporter() : new OTLPMetricExporter({ timeoutMillis: interval.exportTimeoutMillis ?? 10_000 }),
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

function installShutdown(sdk: NodeSDK): void {
  let done: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    if (!done) {
      done = Promise.race([
        sdk.shutdown().catch((err: unknown) => diag.debug('opentelemetry-instrumentation-a2a: SDK shutdown failed', err)),
        new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS).unref()),
      ]);
    }
    return done;
  };
  // Normal exit: the event loop is empty, async work is still allowed here. An exporter
  // retrying a down collector would keep the process alive past the bound: exit then,
  // keeping the application's exit code.
  process.once('beforeExit', () => {
    void shutdown();
    setTimeout(() => process.exit(), SHUTDOWN_TIMEOUT_MS).unref();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const onSignal = (): void => {
      void shutdown().then(() => {
        // Our listener replaced Node's default exit: restore it when nobody else handles the signal.
        if (process.listenerCount(signal) === 1) {
          process.removeListener(signal, onSignal);
          process.kill(process.pid, signal);
        }
      });
    };
    process.on(signal, onSignal);
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
  try {
    instrumentation = new A2AInstrumentation(configFromEnv(process.env)); // validates its options now
    readers = metricReadersFromEnv();
    spanProcessors = spanProcessorsFromEnv();
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
  installShutdown(sdk);
}

try {
  start();
} catch (err) {
  diag.error('opentelemetry-instrumentation-a2a: could not start the OpenTelemetry SDK', err);
}
